"""Swiss tables of 3–5 players (and 2-player rounds the Dutch system cannot pair).

Players come in standings order, leaders first. Tables are filled from the top: a table takes
the highest player not yet seated, then whoever comes next in the order and has sat with its
members least often, so leaders play leaders and repeats are avoided where the field allows.
A pass of swaps between tables then removes repeats the greedy filling left at the bottom,
as long as a swap does not spread a table's scores more than it saves. At 2 players a small
field is first searched exhaustively for a round without a rematch.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import combinations

REPEAT_COST = 1000  # a rematch weighs more than any spread of scores within a table
EXACT_SEARCH_STEPS = 20_000  # the 2-player search's budget before the greedy pairing decides
SWAP_DISTANCE = 6  # tables compared when removing repeats: neighbours in the order


def meetings(tables: Sequence[Sequence[int]]) -> Counter[frozenset[int]]:
    """How often each pair of players has sat at a table together."""
    met: Counter[frozenset[int]] = Counter()
    for table in tables:
        for pair in combinations(table, 2):
            met[frozenset(pair)] += 1
    return met


def choose_byes(order: Sequence[int], count: int, full_byes: Mapping[int, int]) -> list[int]:
    """The `count` players who sit out: those with the fewest byes so far, lowest ranked first.

    So nobody gets a second bye while someone without one can take it."""
    ranked = sorted(range(len(order)), key=lambda index: (full_byes.get(order[index], 0), -index))
    return [order[index] for index in ranked[:count]]


def group_tables(
    order: Sequence[int],
    table_size: int,
    met: Counter[frozenset[int]],
    points: Mapping[int, Fraction],
) -> list[tuple[int, ...]]:
    """Tables of `table_size` from `order` (its length a multiple of the size)."""
    if len(order) % table_size:
        raise ValueError(f"{len(order)} players at tables of {table_size}")
    if table_size == 2:
        exact = _rematch_free_pairs(list(order), met)
        if exact is not None:
            return exact
    tables = _greedy(list(order), table_size, met)
    _swap_repeats(tables, met, points)
    return [tuple(table) for table in tables]


def _repeats(table: Sequence[int], met: Counter[frozenset[int]]) -> int:
    return sum(met[frozenset(pair)] for pair in combinations(table, 2))


def _cost(table: Sequence[int], met: Counter[frozenset[int]], points: Mapping[int, Fraction]):
    scores = [points.get(player, Fraction(0)) for player in table]
    return REPEAT_COST * _repeats(table, met) + (max(scores) - min(scores))


def _greedy(order: list[int], table_size: int, met: Counter[frozenset[int]]) -> list[list[int]]:
    unseated = list(order)
    tables: list[list[int]] = []
    while unseated:
        table = [unseated.pop(0)]
        while len(table) < table_size:
            best = 0
            best_repeats = None
            for index, candidate in enumerate(unseated):
                repeats = sum(met[frozenset((candidate, member))] for member in table)
                if best_repeats is None or repeats < best_repeats:
                    best, best_repeats = index, repeats
                if repeats == 0:
                    break  # the first newcomer in the order is the one nearest in score
            table.append(unseated.pop(best))
        tables.append(table)
    return tables


def _swap_repeats(
    tables: list[list[int]], met: Counter[frozenset[int]], points: Mapping[int, Fraction]
) -> None:
    improved = True
    while improved:
        improved = False
        for here, table in enumerate(tables):
            if _repeats(table, met) == 0:
                continue
            nearest = range(max(0, here - SWAP_DISTANCE), min(len(tables), here + SWAP_DISTANCE))
            for there in nearest:
                if there == here:
                    continue
                if _try_swap(tables, here, there, met, points):
                    improved = True
                    break


def _try_swap(tables, here: int, there: int, met, points) -> bool:
    """Swap the one pair of players between two tables that lowers their cost most."""
    first, second = tables[here], tables[there]
    before = _cost(first, met, points) + _cost(second, met, points)
    best = None
    for i, j in ((i, j) for i in range(len(first)) for j in range(len(second))):
        new_first = [*first[:i], second[j], *first[i + 1 :]]
        new_second = [*second[:j], first[i], *second[j + 1 :]]
        after = _cost(new_first, met, points) + _cost(new_second, met, points)
        if after < before and (best is None or after < best[0]):
            best = (after, new_first, new_second)
    if best is None:
        return False
    tables[here], tables[there] = best[1], best[2]
    return True


def _rematch_free_pairs(order: list[int], met: Counter[frozenset[int]]):
    """Pairs in which nobody meets an old opponent: each top player takes the first fresh one
    below (backtracking), within a budget of steps; None if none was found."""
    steps = 0

    def search(rest: list[int]) -> list[tuple[int, int]] | None:
        nonlocal steps
        if not rest:
            return []
        top, others = rest[0], rest[1:]
        for index, partner in enumerate(others):
            steps += 1
            if steps > EXACT_SEARCH_STEPS:
                return None
            if met[frozenset((top, partner))]:
                continue
            found = search(others[:index] + others[index + 1 :])
            if found is not None:
                return [(top, partner), *found]
        return None

    return search(order)
