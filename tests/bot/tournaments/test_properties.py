"""Properties of the pairing over many random fields: no avoidable bye, no avoidable repeat
tablemate (checked by brute force on small fields), leaders together, a place worth the same
at every table size; and an elimination's passes only where the field cannot be split."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.entries import add_round, finish_table
from bot.tournaments.grouping import group_tables, meetings
from bot.tournaments.model import ByeKind, Rules
from bot.tournaments.pairing import is_over, next_round
from bot.tournaments.scoring import place_points, table_points
from bot.tournaments.seating import allowed_sizes, split
from bot.tournaments.standings import points_by_player
from tests.bot.tournaments.helpers import new

rules_of = st.builds(
    lambda size, smallest, largest: Rules(
        "swiss", size, rounds=3, smallest=min(smallest, size), largest=max(largest, size)
    ),
    st.integers(3, 5),
    st.integers(2, 5),
    st.integers(3, 12),
)


def seats_everyone(field: int, sizes: tuple[int, ...]) -> bool:
    """By brute force: whether some count of tables of these sizes seats exactly `field`."""
    reachable = {0}
    for _ in range(field):
        reachable |= {
            total + size for total in reachable for size in sizes if total + size <= field
        }
    return field in reachable


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 60), rules_of)
def test_nobody_sits_out_while_a_split_seats_everyone(field, rules):
    sizes, out = split(field, rules)
    allowed = allowed_sizes(rules)
    assert sum(sizes) + out == field
    assert all(size in allowed for size in sizes)
    # as few sit out as can: none where a split seats everyone, else the fewest
    fewest = next(n for n in range(field + 1) if seats_everyone(field - n, allowed))
    assert out == fewest
    # the chosen size wherever it seats everyone
    if field % rules.table_size == 0:
        assert set(sizes) <= {rules.table_size}


def all_groupings(players: list[int], sizes: list[int]):
    """Every way to seat the players at tables of these sizes (brute force)."""
    if not players:
        yield []
        return
    top, rest = players[0], players[1:]
    for size in set(sizes):
        later = list(sizes)
        later.remove(size)
        for mates in combinations(rest, size - 1):
            left = [p for p in rest if p not in mates]
            for others in all_groupings(left, later):
                yield [(top, *mates), *others]


def repeats(tables, met) -> int:
    return sum(met[frozenset(pair)] for table in tables for pair in combinations(table, 2))


@settings(max_examples=150, deadline=None)
@given(st.integers(6, 10), st.integers(3, 4), st.integers(1, 3), st.randoms())
def test_no_avoidable_repeat_tablemate_by_brute_force(field, size, history, rng):
    rules = Rules("swiss", size, rounds=3)
    sizes, out = split(field, rules)
    players = list(range(1, field + 1))
    past = []
    for _ in range(history):  # earlier rounds: random tables of the same sizes
        rng.shuffle(players)
        at = 0
        for table_size in sizes:
            past.append(tuple(players[at : at + table_size]))
            at += table_size
    met = meetings(past)
    order = sorted(players)[: field - out]
    tables = group_tables(order, list(sizes), met, {})
    assert sorted(p for t in tables for p in t) == order
    assert sorted(len(t) for t in tables) == sorted(sizes)
    best = min(repeats(g, met) for g in all_groupings(order, list(sizes)))
    if best == 0:
        assert repeats(tables, met) == 0, "a repeat-free grouping exists: it is found"
        assert tables[0][0] == order[0], "the leader sits at the first table"


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 40), st.integers(3, 5))
def test_leaders_sit_together_when_nothing_stands_between_them(field, size):
    rules = Rules("swiss", size, rounds=3)
    if field < min(allowed_sizes(rules)):
        return  # no table at all (the bot does not start such a tournament)
    round_ = next_round(new(rules, field))
    # a first round: the seeds in order, table by table
    seated = [p for table in round_.tables for p in table.players]
    assert seated == sorted(seated)
    assert round_.tables[0].players == tuple(range(1, len(round_.tables[0].players) + 1))


@settings(max_examples=100, deadline=None)
@given(st.integers(3, 25), st.integers(3, 5), st.integers(0, 10**6))
def test_a_place_is_worth_the_same_at_every_table_size(field, size, seed):
    rng = random.Random(seed)
    tournament = new(Rules("swiss", size, rounds=3), field)
    while not is_over(tournament):
        round_ = next_round(tournament)
        tournament = add_round(tournament, round_)
        for index, table in enumerate(round_.tables):
            places = list(range(1, len(table.players) + 1))
            rng.shuffle(places)
            tournament = finish_table(tournament, round_.number, index, tuple(places))
            got = table_points(tournament.rounds[-1].tables[index], size)
            winner = table.players[places.index(1)]
            last = table.players[places.index(len(places))]
            assert got[winner] == 12 and got[last] == 0
            assert sum(got.values()) == 6 * len(table.players)  # 6 a seat at any size
    seated_rounds = sum(len(t.players) for r in tournament.rounds for t in r.tables)
    byes = sum(len(r.byes) for r in tournament.rounds)
    assert sum(points_by_player(tournament).values()) == 6 * (seated_rounds + byes)
    for seats in (2, 3, 4, 5):
        ladder = place_points(seats, size)
        assert ladder[0] == 12 and ladder[-1] == 0 and sum(ladder) == Fraction(6 * seats)


@settings(max_examples=150, deadline=None)
@given(st.integers(3, 40), st.integers(3, 5), st.integers(1, 4), st.integers(0, 10**6))
def test_an_elimination_passes_only_the_unsplittable_to_top_seeds_never_twice(
    field, size, advance, seed
):
    advance = min(advance, size - 1)
    rng = random.Random(seed)
    rules = Rules("elimination", size, advance=advance, smallest=3, largest=size)
    tournament = new(rules, field)
    passes: Counter[int] = Counter()
    while not is_over(tournament):
        round_ = next_round(tournament)
        entering = [p for t in round_.tables for p in t.players] + [b.player for b in round_.byes]
        sizes = allowed_sizes(rules)
        if round_.byes:
            assert not seats_everyone(len(entering), sizes), "a pass only if no split exists"
        if round_.number == 1:  # the passes go to the top seeds
            assert [b.player for b in round_.byes] == list(range(1, len(round_.byes) + 1))
        seated = {p for t in round_.tables for p in t.players}
        for bye in round_.byes:
            assert bye.kind is ByeKind.ADVANCE
            if passes[bye.player]:  # a second pass: only if everyone playing had one
                assert all(passes[p] for p in seated), "a pass twice while others had none"
        for bye in round_.byes:
            passes[bye.player] += 1
        tournament = add_round(tournament, round_)
        for index, table in enumerate(round_.tables):
            places = list(range(1, len(table.players) + 1))
            rng.shuffle(places)
            tournament = finish_table(tournament, round_.number, index, tuple(places))
