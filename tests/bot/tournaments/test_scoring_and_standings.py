"""What a table is worth and who leads, checked by hand on small cases."""

from fractions import Fraction

from bot.tournaments.entries import add_round, finish_table
from bot.tournaments.formats import format_of, standings
from bot.tournaments.model import (
    TIE_BREAK_ORDERS,
    Bye,
    ByeKind,
    Entrant,
    Round,
    Rules,
    Table,
    TieBreak,
    Tournament,
)
from bot.tournaments.scoring import bye_points, format_points, place_points, table_points


def test_a_place_is_worth_the_same_at_every_table_size():
    assert place_points(2) == (1, 0)
    assert place_points(3) == (12, 6, 0)
    assert place_points(4) == (12, 8, 4, 0)
    assert place_points(5) == (12, 9, 6, 3, 0)
    assert place_points(2, table_size=3) == (12, 0)  # a 2-seat table in a 3-player Swiss
    for seats in (2, 3, 4, 5):
        ladder = place_points(seats, table_size=4)
        # the winner 12 and the last 0 at every size; every table worth 6 a player on average
        assert ladder[0] == 12 and ladder[-1] == 0 and sum(ladder) / seats == 6


def test_shared_places_split_the_points_they_cover():
    shared_second = Table((1, 2, 3, 4), places=(1, 2, 2, 4))
    assert table_points(shared_second) == {1: 12, 2: 6, 3: 6, 4: 0}
    all_tied = Table((1, 2, 3), places=(1, 1, 1))
    assert table_points(all_tied) == {1: 6, 2: 6, 3: 6}
    draw = Table((1, 2), places=(1, 1))
    assert table_points(draw) == {1: Fraction(1, 2), 2: Fraction(1, 2)}


def test_a_bot_takes_its_place_and_scores_for_nobody():
    table = Table((1, -1, 2), places=(2, 1, 3))
    assert table_points(table) == {1: 6, 2: 0}


def test_a_bye_is_a_win_or_an_average_table_and_a_late_bye_half_of_it():
    assert bye_points(Bye(1, ByeKind.FULL), 2) == 1
    assert bye_points(Bye(1, ByeKind.HALF), 2) == Fraction(1, 2)
    for size in (3, 4, 5):
        assert bye_points(Bye(1, ByeKind.FULL), size) == 6  # a table's average, any size
        assert bye_points(Bye(1, ByeKind.HALF), size) == 3
    assert bye_points(Bye(1, ByeKind.ADVANCE), 4) == 0


def test_points_written_as_players_write_them():
    assert format_points(Fraction(5, 2)) == "2½"
    assert format_points(Fraction(1, 2)) == "½"
    assert format_points(Fraction(3)) == "3"
    assert format_points(Fraction(10, 3)) == "3.3"


def five_players_with_byes(tie_breaks=()) -> Tournament:
    """Round 1: A beats B, C draws D, E has the bye. Round 2: A draws C, E beats B, D has
    the bye."""
    a, b, c, d, e = 1, 2, 3, 4, 5
    rules = Rules("swiss", 2, rounds=2, tie_breaks=tie_breaks)
    tournament = Tournament(rules, tuple(Entrant(p, p) for p in (a, b, c, d, e)))
    tournament = add_round(
        tournament, Round(1, (Table((a, b)), Table((c, d))), (Bye(e, ByeKind.FULL),))
    )
    tournament = finish_table(tournament, 1, 0, (1, 2), (10, 4))
    tournament = finish_table(tournament, 1, 1, (1, 1), (5, 5))
    tournament = add_round(
        tournament, Round(2, (Table((a, c)), Table((e, b))), (Bye(d, ByeKind.FULL),))
    )
    tournament = finish_table(tournament, 2, 0, (1, 1), (7, 7))
    return finish_table(tournament, 2, 1, (1, 2), (9, 1))


def test_tie_breaks_by_hand_with_a_bye_as_fidEs_virtual_opponent():
    """Points: A 1½, B 0, C 1, D ½ + 1 = 1½, E 1 + 1 = 2.

    A bye's virtual opponent had the player's score before the round, lost to the bye, and
    drew every round after: E's in round 1: 0 + 0 + ½ (round 2) = ½; D's in round 2: ½ + 0.
    Buchholz: A: B 0 + C 1 = 1; B: A 1½ + E 2 = 3½; C: D 1½ + A 1½ = 3;
    D: C 1 + virtual ½ = 1½; E: virtual ½ + B 0 = ½.
    Sonneborn–Berger (beaten opponents' scores, half the drawn ones'): A: B 0 + ½·C 1 = ½;
    B: 0; C: ½·D 1½ + ½·A 1½ = 1½; D: ½·C 1 + the bye's win over its virtual ½ = 1;
    E: virtual ½ + B 0 = ½.
    A and D tie on 1½: D's bye no longer puts D behind — D leads on Buchholz (1½ to 1), and
    would on Sonneborn–Berger too (1 to ½).
    """
    a, b, c, d, e = 1, 2, 3, 4, 5
    rows = standings(five_players_with_byes())
    assert [(row.rank, row.player) for row in rows] == [(1, e), (2, d), (3, a), (4, c), (5, b)]
    by_player = {row.player: row for row in rows}
    expected = {  # points, Buchholz, Sonneborn–Berger
        a: (Fraction(3, 2), 1, Fraction(1, 2)),
        b: (0, Fraction(7, 2), 0),
        c: (1, 3, Fraction(3, 2)),
        d: (Fraction(3, 2), Fraction(3, 2), 1),
        e: (2, Fraction(1, 2), Fraction(1, 2)),
    }
    for player, (points, buchholz, berger) in expected.items():
        row = by_player[player]
        assert (row.points, row.buchholz, row.sonneborn_berger) == (points, buchholz, berger)
    assert by_player[a].game_points == 17 and by_player[d].game_points == 5
    assert by_player[d].byes == 1 and by_player[a].byes == 0


def test_the_creator_picks_the_tie_breaks_order():
    a, d = 1, 4
    # game points first: A (17) before D (5), though D leads on both of the others
    rows = standings(five_players_with_byes(TIE_BREAK_ORDERS[2]))
    assert [row.player for row in rows][1:3] == [a, d]
    rows = standings(five_players_with_byes(TIE_BREAK_ORDERS[1]))
    assert [row.player for row in rows][1:3] == [d, a]


def test_rows_equal_in_everything_share_a_rank():
    rules = Rules("swiss", 2, rounds=1)
    tournament = Tournament(rules, tuple(Entrant(p, p) for p in (1, 2)))
    tournament = add_round(tournament, Round(1, (Table((1, 2)),)))
    tournament = finish_table(tournament, 1, 0, (1, 1), (3, 3))
    assert [(row.rank, row.player) for row in standings(tournament)] == [(1, 1), (1, 2)]


def test_multiplayer_buchholz_and_sonneborn_berger():
    rules = Rules("swiss", 3, rounds=1)
    tournament = Tournament(rules, tuple(Entrant(p, p) for p in (1, 2, 3)))
    tournament = add_round(tournament, Round(1, (Table((1, 2, 3)),)))
    tournament = finish_table(tournament, 1, 0, (1, 2, 3))  # 12, 6, 0
    by_player = {row.player: row for row in standings(tournament)}
    assert by_player[1].buchholz == 3  # the tablemates' mean: (6 + 0) / 2
    assert by_player[3].buchholz == 9  # (12 + 6) / 2
    # the mean over tablemates of their score times the result against them
    assert by_player[1].sonneborn_berger == 3  # (6 + 0) / 2: beat both
    assert by_player[2].sonneborn_berger == 0  # beat 3 (0 points), lost to 1
    assert by_player[3].sonneborn_berger == 0


def test_a_round_robin_breaks_ties_by_sonneborn_berger_first():
    assert (
        format_of(Rules("round_robin", 2)).tie_breaks(Rules("round_robin", 2))[0]
        is TieBreak.SONNEBORN_BERGER
    )
    swiss = Rules("swiss", 2, rounds=3)
    assert format_of(swiss).tie_breaks(swiss)[0] is TieBreak.BUCHHOLZ
