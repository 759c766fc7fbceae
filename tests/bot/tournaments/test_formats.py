"""Whole tournaments of each format played out, round by round, as the pairing decides."""

from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

from bot.tournaments import formats
from bot.tournaments.entries import EntryClosed, add_round, enter, finish_table, withdraw
from bot.tournaments.formats import standings
from bot.tournaments.model import ByeKind, Rules, RulesError
from bot.tournaments.pairing import (
    DUTCH_MAX_FIELD,
    NoNextRound,
    is_over,
    next_round,
    planned_rounds,
)
from bot.tournaments.scoring import table_points
from bot.tournaments.standings import points_by_player
from tests.bot.tournaments.helpers import by_lowest_id, new, pairs_met, play_round


def full_byes(tournament):
    return Counter(
        bye.player for r in tournament.rounds for bye in r.byes if bye.kind is ByeKind.FULL
    )


def test_a_swiss_of_seven_over_three_rounds_with_byes():
    tournament = new(Rules("swiss", 2, rounds=3), 7)
    for number in (1, 2, 3):
        before = points_by_player(tournament)
        round_ = next_round(tournament)
        assert len(round_.tables) == 3 and len(round_.byes) == 1
        seated = [p for table in round_.tables for p in table.players]
        assert sorted([*seated, round_.byes[0].player]) == list(range(1, 8))
        if number == 2:
            # players meet others on their own score wherever the field allows
            same_score = sum(before[a] == before[b] for a, b in (t.players for t in round_.tables))
            assert same_score >= 2
        tournament = play_round(tournament)
    assert is_over(tournament)
    with pytest.raises(NoNextRound):
        next_round(tournament)
    assert len(set(pairs_met(tournament))) == len(pairs_met(tournament)), "no rematch"
    assert max(full_byes(tournament).values()) == 1, "nobody gets a second bye"
    assert sum(full_byes(tournament).values()) == 3
    rows = standings(tournament)
    assert rows[0].player == 1 and rows[0].points == 3  # the strongest won every game
    # every game gives out one point, every bye one: 3 rounds x (3 games + 1 bye)
    assert sum(row.points for row in rows) == 12


def test_the_dutch_system_gives_way_when_rematches_cannot_be_avoided():
    """Four players, four rounds: only three rounds without a rematch exist."""
    tournament = new(Rules("swiss", 2, rounds=4), 4)
    for _ in range(3):
        tournament = play_round(tournament)
    assert len(set(pairs_met(tournament))) == 6  # everyone has met everyone
    fourth = next_round(tournament)
    assert sorted(p for t in fourth.tables for p in t.players) == [1, 2, 3, 4]
    # the leaders play each other again rather than anyone sitting out
    assert (1, 2) in [tuple(sorted(t.players)) for t in fourth.tables]


def test_a_swiss_of_three_to_five_player_tables():
    tournament = new(Rules("swiss", 4, rounds=3), 10)
    first = next_round(tournament)
    # 10 at tables of 4: a seat for everyone at 4 + 3 + 3, the leaders (by seed) together
    assert [t.players for t in first.tables] == [(1, 2, 3, 4), (5, 6, 7), (8, 9, 10)]
    assert not first.byes
    tournament = play_round(tournament)
    second = next_round(tournament)
    winners = {t.players[t.places.index(1)] for t in tournament.rounds[0].tables}
    points = points_by_player(tournament)
    # the three winners (12 each, whatever their table's size) lead and sit together
    assert winners == {1, 5, 8} and {1, 5, 8} <= set(second.tables[0].players)
    assert all(points[p] == 12 for p in winners)
    round_one = {
        frozenset(p) for t in tournament.rounds[0].tables for p in combinations(t.players, 2)
    }
    round_two = {frozenset(p) for t in second.tables for p in combinations(t.players, 2)}
    # a table of 4 from three tables of round 1 repeats one pair at least; the rest need none
    assert len(round_one & round_two) == 1
    tournament = play_round(tournament)
    tournament = play_round(tournament)
    assert is_over(tournament)
    assert not full_byes(tournament), "nobody sits out"
    # every table gives out 6 a player on average, whatever its size
    assert sum(points_by_player(tournament).values()) == 3 * 10 * 6


def test_multiplayer_swiss_avoids_repeat_tablemates():
    tournament = new(Rules("swiss", 4, rounds=2), 16)
    tournament = play_round(tournament)
    tournament = play_round(tournament)
    assert len(set(pairs_met(tournament))) == len(pairs_met(tournament))


def test_five_player_tables_and_three_player_tables():
    for size, field, largest, out in (
        (5, 13, 5, 0),  # 5 + 4 + 4
        (5, 11, 5, 1),  # no 4s and 5s make 11 (and 3 is no size next to 5): one sits out
        (3, 9, 5, 0),
        (4, 5, 4, 1),  # a 5-player table is beyond the game: one sits out
    ):
        rules = Rules("swiss", size, rounds=3, largest=largest)
        tournament = new(rules, field)
        for _ in range(3):
            tournament = play_round(tournament)
        assert is_over(tournament)
        for round_ in tournament.rounds:
            seated = sum(len(t.players) for t in round_.tables)
            assert seated + len(round_.byes) == field and len(round_.byes) == out
            assert all(size - 1 <= len(t.players) <= size + 1 for t in round_.tables)
        if out:
            assert max(full_byes(tournament).values()) == 1


def test_a_round_robin_where_everyone_meets_everyone():
    for field in (5, 6):
        tournament = new(Rules("round_robin", 2), field)
        assert planned_rounds(tournament) == 5  # 5 players: a free round each; 6: 5 rounds
        while not is_over(tournament):
            tournament = play_round(tournament)
        met = Counter(pairs_met(tournament))
        assert len(met) == field * (field - 1) // 2 and set(met.values()) == {1}
        if field == 5:
            assert full_byes(tournament) == Counter({p: 1 for p in range(1, 6)})
        rows = standings(tournament)
        assert [row.player for row in rows] == list(range(1, field + 1))
        assert rows[0].points == field - 1 + (1 if field % 2 else 0)


def test_a_withdrawn_player_in_a_round_robin_hands_their_opponents_a_bye():
    tournament = new(Rules("round_robin", 2), 4)
    tournament = play_round(tournament)
    tournament = withdraw(tournament, 4)
    second = next_round(tournament)
    assert all(4 not in t.players for t in second.tables)
    assert len(second.tables) == 1 and len(second.byes) == 1


def test_an_elimination_keeps_the_top_of_each_table_until_one_final():
    tournament = new(Rules("elimination", 4, advance=2), 10)
    assert planned_rounds(tournament) == 3
    first = next_round(tournament)
    # 10 at tables of 4: 4 + 3 + 3, nobody passes; the seeds snake over the tables
    assert not first.byes
    assert [t.players for t in first.tables] == [(1, 6, 7, 10), (2, 5, 8), (3, 4, 9)]
    tournament = play_round(tournament)
    second = next_round(tournament)
    # the top two of each table go on: six, at two tables of 3
    assert [len(t.players) for t in second.tables] == [3, 3] and not second.byes
    tournament = play_round(tournament)
    final = next_round(tournament)
    assert len(final.tables) == 1 and not final.byes and len(final.tables[0].players) == 4
    tournament = play_round(tournament)
    assert is_over(tournament) and planned_rounds(tournament) == 3
    rows = standings(tournament)
    final_players = sorted(final.tables[0].players)
    assert [row.player for row in rows[:4]] == final_players
    assert rows[0].player == 1
    # who fell in round 1 ranks below who fell in round 2
    out_first = {p for t in tournament.rounds[0].tables for p in t.players} - set(
        p for t in tournament.rounds[1].tables for p in t.players
    )
    assert {row.player for row in rows[-len(out_first) :]} == out_first


def test_a_shared_place_at_the_cut_takes_everyone_sharing_it_on():
    tournament = new(Rules("elimination", 3, advance=1), 6)
    round_ = next_round(tournament)
    tournament = add_round(tournament, round_)
    tournament = finish_table(tournament, 1, 0, (1, 1, 3))
    tournament = finish_table(tournament, 1, 1, (1, 2, 3))
    final = next_round(tournament)
    assert len(final.tables) == 1 and len(final.tables[0].players) == 3


def test_a_late_join_gets_a_half_bye_until_half_the_rounds_have_started():
    tournament = new(Rules("swiss", 2, rounds=5), 6)
    tournament = add_round(tournament, next_round(tournament))
    tournament = enter(tournament, 7)  # round 1 is being played
    for index, table in enumerate(tournament.rounds[0].tables):
        tournament = finish_table(tournament, 1, index, by_lowest_id(table.players))
    assert points_by_player(tournament)[7] == Fraction(1, 2)
    second = next_round(tournament)
    assert 7 in {p for t in second.tables for p in t.players} | {b.player for b in second.byes}
    tournament = play_round(tournament)
    tournament = enter(tournament, 8)  # 2 of 5 started: still under half
    tournament = play_round(tournament)
    assert points_by_player(tournament)[8] == 1  # two missed rounds, half a point each
    with pytest.raises(EntryClosed):
        enter(tournament, 9)  # 3 of 5 started
    with pytest.raises(EntryClosed):
        enter(tournament, 8)


def test_a_withdrawn_player_is_never_paired_again_but_still_counts_for_buchholz():
    tournament = new(Rules("swiss", 2, rounds=3), 6)
    tournament = play_round(tournament)
    opponent = next(
        a if b == 1 else b
        for a, b in (t.players for t in tournament.rounds[0].tables)
        if 1 in (a, b)
    )
    tournament = withdraw(tournament, 1)
    for _ in range(2):
        round_ = next_round(tournament)
        assert 1 not in {p for t in round_.tables for p in t.players}
        assert 1 not in {b.player for b in round_.byes}
        tournament = play_round(tournament)
    rows = {row.player: row for row in standings(tournament)}
    assert rows[1].withdrawn and rows[1].played == 1
    assert rows[opponent].buchholz >= 1  # player 1's win still lifts whom they beat


def test_rules_that_cannot_make_a_tournament():
    for rules in (
        Rules("swiss", 6, rounds=3),
        Rules("swiss", 2, rounds=0),
        Rules("round_robin", 3),
        Rules("elimination", 2),
        Rules("elimination", 4, advance=4),
        Rules("knockout", 4),  # no such format
    ):
        with pytest.raises(RulesError):
            formats.check(rules)
    formats.check(Rules("swiss", 4, rounds=3))  # and one that can


def test_a_new_format_is_one_new_file(tmp_path, monkeypatch):
    """A format found by its file alone: nothing else names it (its name, its words, its
    pairing are the file's), so the lobby offers it and its rules are checked by it."""
    import importlib
    import sys

    import bot.tournaments.formats as package

    monkeypatch.setattr(package, "__path__", [*package.__path__, str(tmp_path)])
    (tmp_path / "knockout.py").write_text(
        "from bot.tournaments.formats.round_robin import RoundRobin\n"
        "class Knockout(RoundRobin):\n"
        "    format = 'knockout'\n"
        "    order = 9\n"
        "    label = 'tournament.format.knockout'\n"
        "FORMAT = Knockout()\n"
    )
    monkeypatch.setattr(package, "FORMATS", package._found())
    try:
        assert "knockout" in formats.choices(2) and "knockout" not in formats.choices(4)
        formats.check(Rules("knockout", 2))
        with pytest.raises(RulesError):
            formats.check(Rules("knockout", 3))
        assert formats.format_of(Rules("knockout", 2)).label == "tournament.format.knockout"
    finally:
        sys.modules.pop("bot.tournaments.formats.knockout", None)
        importlib.invalidate_caches()


def test_a_round_is_not_paired_while_the_last_is_played():
    tournament = new(Rules("swiss", 2, rounds=3), 4)
    tournament = add_round(tournament, next_round(tournament))
    assert not is_over(tournament)
    with pytest.raises(NoNextRound):
        next_round(tournament)
    table = tournament.rounds[0].tables[0]
    assert sum(table_points(finish_table(tournament, 1, 0, (1, 2)).rounds[0].tables[0]).values())
    assert table.places is None


def test_a_field_too_big_for_the_dutch_library_is_grouped_by_score():
    field = DUTCH_MAX_FIELD + 3  # odd: a bye a round
    tournament = new(Rules("swiss", 2, rounds=3), field)
    for _ in range(3):
        before = points_by_player(tournament)
        round_ = next_round(tournament)
        assert len(round_.byes) == 1 and len(round_.tables) == field // 2
        # most tables are of equal scores: the score groups are paired within themselves
        level = sum(before[a] == before[b] for a, b in (t.players for t in round_.tables))
        assert level >= len(round_.tables) - 3
        tournament = play_round(tournament)
    assert len(set(pairs_met(tournament))) == len(pairs_met(tournament)), "no rematch"
    assert max(full_byes(tournament).values()) == 1


def test_an_elimination_is_seeded_by_rating_with_newcomers_last():
    from bot.tournaments.entries import seeded_by_rating

    tournament = new(Rules("elimination", 3, advance=1), 7)
    # players 2, 5 and 7 are rated (7 best); the others are newcomers, in order of joining
    seeded = seeded_by_rating(tournament, {2: 10.0, 5: 30.0, 7: 50.0})
    order = [e.player for e in sorted(seeded.entrants, key=lambda e: e.seed)]
    assert order == [7, 5, 2, 1, 3, 4, 6]
    first = next_round(seeded)
    # 7 at tables of 3: 4 + 3, no pass; the top seeds head the tables
    assert not first.byes and sorted(len(t.players) for t in first.tables) == [3, 4]
    assert {t.players[0] for t in first.tables} == {7, 5}
