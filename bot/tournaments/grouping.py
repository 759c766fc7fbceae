"""Swiss tables of 3–5 players (and 2-player rounds the Dutch system cannot pair).

Players come in standings order, leaders first, and the round's table sizes in order (from
:mod:`.seating`). A search seats the tables from the top: each table takes the highest player
not yet seated, then the next players in the order who have not sat with any of its members
— backtracking when a later table could not be filled without a repeat — so the first
grouping found is the repeat-free one nearest the standings: leaders together. Only when no
repeat-free grouping exists (or the search's budget runs out on a big field) does a greedy
filling decide, with a pass of swaps between tables that removes repeats at the bottom.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import combinations

REPEAT_COST = 1000  # a rematch weighs more than any spread of scores within a table
SEARCH_STEPS = 50_000  # the search's budget (every small field is searched to its end)
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
    sizes: Sequence[int] | int,
    met: Counter[frozenset[int]],
    points: Mapping[int, Fraction],
) -> list[tuple[int, ...]]:
    """Tables of the given sizes (in order; or all of one size) from `order`."""
    if isinstance(sizes, int):
        if len(order) % sizes:
            raise ValueError(f"{len(order)} players at tables of {sizes}")
        sizes = [sizes] * (len(order) // sizes)
    if sum(sizes) != len(order):
        raise ValueError(f"{len(order)} players at tables of {list(sizes)}")
    found = repeat_free(list(order), list(sizes), met)
    if found is not None:
        return found
    tables = _greedy(list(order), list(sizes), met)
    _swap_repeats(tables, met, points)
    return [tuple(table) for table in tables]


def repeat_free(
    order: list[int], sizes: list[int], met: Counter[frozenset[int]], budget: int = SEARCH_STEPS
) -> list[tuple[int, ...]] | None:
    """The repeat-free grouping nearest the order (depth first, each table's members taken
    as high in the order as they can be); None if there is none, or the budget ran out."""
    steps = 0

    def fresh(candidate: int, table: list[int]) -> bool:
        return all(not met[frozenset((candidate, member))] for member in table)

    def tables_from(rest: list[int], left: list[int]) -> list[tuple[int, ...]] | None:
        if not left:
            return []
        top, others = rest[0], rest[1:]
        for size in dict.fromkeys(left):  # the top player's table: each size left, in order
            later = list(left)
            later.remove(size)
            for chosen in members([top], others, 0, size - 1):
                if chosen is None:
                    return None
                taken = set(chosen)
                found = tables_from([p for p in others if p not in taken], later)
                if found is None and steps > budget:
                    return None
                if found is not None:
                    return [(top, *chosen), *found]
        return None

    def members(table: list[int], others: list[int], start: int, wanted: int):
        """Each set of `wanted` fresh tablemates from others[start:], nearest first (None once
        the budget is spent)."""
        nonlocal steps
        if wanted == 0:
            yield []
            return
        for index in range(start, len(others) - wanted + 1):
            steps += 1
            if steps > budget:
                yield None
                return
            candidate = others[index]
            if not fresh(candidate, table):
                continue
            for tail in members([*table, candidate], others, index + 1, wanted - 1):
                if tail is None:
                    yield None
                    return
                yield [candidate, *tail]

    return tables_from(order, sizes)


def _repeats(table: Sequence[int], met: Counter[frozenset[int]]) -> int:
    return sum(met[frozenset(pair)] for pair in combinations(table, 2))


def _cost(table: Sequence[int], met: Counter[frozenset[int]], points: Mapping[int, Fraction]):
    scores = [points.get(player, Fraction(0)) for player in table]
    return REPEAT_COST * _repeats(table, met) + (max(scores) - min(scores))


def _greedy(order: list[int], sizes: list[int], met: Counter[frozenset[int]]) -> list[list[int]]:
    unseated = list(order)
    tables: list[list[int]] = []
    for size in sizes:
        table = [unseated.pop(0)]
        while len(table) < size:
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
