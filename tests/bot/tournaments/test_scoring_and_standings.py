"""What a table is worth and who leads, checked by hand on small cases."""

from fractions import Fraction

from bot.tournaments.entries import add_round, finish_table
from bot.tournaments.model import Bye, ByeKind, Entrant, Format, Round, Rules, Table, Tournament
from bot.tournaments.scoring import bye_points, format_points, place_points, table_points
from bot.tournaments.standings import standings


def test_place_points_as_on_board_game_arena():
    assert place_points(2) == (1, 0)
    assert place_points(3) == (4, 2, 0)
    assert place_points(4) == (6, 4, 2, 0)
    assert place_points(5) == (8, 6, 4, 2, 0)


def test_shared_places_split_the_points_they_cover():
    shared_second = Table((1, 2, 3, 4), places=(1, 2, 2, 4))
    assert table_points(shared_second) == {1: 6, 2: 3, 3: 3, 4: 0}
    all_tied = Table((1, 2, 3), places=(1, 1, 1))
    assert table_points(all_tied) == {1: 2, 2: 2, 3: 2}
    draw = Table((1, 2), places=(1, 1))
    assert table_points(draw) == {1: Fraction(1, 2), 2: Fraction(1, 2)}


def test_a_bye_is_a_win_or_a_middle_place_and_a_late_bye_half_of_it():
    assert bye_points(Bye(1, ByeKind.FULL), 2) == 1
    assert bye_points(Bye(1, ByeKind.HALF), 2) == Fraction(1, 2)
    assert bye_points(Bye(1, ByeKind.FULL), 3) == 2  # the middle of 4, 2, 0
    assert bye_points(Bye(1, ByeKind.FULL), 5) == 4  # the middle of 8, 6, 4, 2, 0
    assert bye_points(Bye(1, ByeKind.FULL), 4) == 3  # between the middle places 4 and 2
    assert bye_points(Bye(1, ByeKind.ADVANCE), 4) == 0


def test_points_written_as_players_write_them():
    assert format_points(Fraction(5, 2)) == "2½"
    assert format_points(Fraction(1, 2)) == "½"
    assert format_points(Fraction(3)) == "3"
    assert format_points(Fraction(10, 3)) == "3.3"


def test_tie_breaks_by_hand():
    """Five players, two rounds of a 2-player game.

    Round 1: A beats B, C draws D, E has the bye. Round 2: A draws C, E beats B, D has the bye.
    Points: A 1½, B 0, C 1, D ½+1 = 1½, E 1+1 = 2.
    Buchholz (opponents' points): A: B 0 + C 1 = 1; D: C 1 (the bye adds none) = 1;
    E: B 0 = 0; C: D 1½ + A 1½ = 3; B: A 1½ + E 2 = 3½.
    A and D tie on 1½ and on Buchholz 1: game points decide (A scored 10+7, D 6).
    """
    a, b, c, d, e = 1, 2, 3, 4, 5
    rules = Rules(Format.SWISS, 2, rounds=2)
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
    tournament = finish_table(tournament, 2, 1, (1, 2), (9, 1))
    rows = standings(tournament)
    assert [(row.rank, row.player) for row in rows] == [(1, e), (2, a), (3, d), (4, c), (5, b)]
    by_player = {row.player: row for row in rows}
    assert by_player[e].points == 2 and by_player[e].buchholz == 0
    assert by_player[a].points == Fraction(3, 2) and by_player[a].buchholz == 1
    assert by_player[d].points == Fraction(3, 2) and by_player[d].buchholz == 1
    assert by_player[a].game_points == 17 and by_player[d].game_points == 5
    assert by_player[c].points == 1 and by_player[c].buchholz == 3
    assert by_player[b].points == 0 and by_player[b].buchholz == Fraction(7, 2)
    assert by_player[d].byes == 1 and by_player[a].byes == 0


def test_rows_equal_in_everything_share_a_rank():
    rules = Rules(Format.SWISS, 2, rounds=1)
    tournament = Tournament(rules, tuple(Entrant(p, p) for p in (1, 2)))
    tournament = add_round(tournament, Round(1, (Table((1, 2)),)))
    tournament = finish_table(tournament, 1, 0, (1, 1), (3, 3))
    assert [(row.rank, row.player) for row in standings(tournament)] == [(1, 1), (1, 2)]


def test_multiplayer_buchholz_is_the_tablemates_mean():
    rules = Rules(Format.SWISS, 3, rounds=1)
    tournament = Tournament(rules, tuple(Entrant(p, p) for p in (1, 2, 3)))
    tournament = add_round(tournament, Round(1, (Table((1, 2, 3)),)))
    tournament = finish_table(tournament, 1, 0, (1, 2, 3))  # 4, 2, 0
    by_player = {row.player: row for row in standings(tournament)}
    assert by_player[1].buchholz == 1  # (2 + 0) / 2
    assert by_player[3].buchholz == 3  # (4 + 2) / 2
