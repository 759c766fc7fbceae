"""How many tables a round has, and of what sizes: a seat for everyone where the game allows.

At 3–5-player tables a round's field is split into tables of the chosen size and the sizes next
to it (one fewer, one more) within the game's own limits: 7 at tables of 4 → 4 + 3, 9 at 5 →
5 + 4, 11 at 4 → 4 + 4 + 3. Of the splits that seat everyone, the one with the fewest tables
off the chosen size wins (then the one with more, smaller tables). Only when no split seats
everyone does anyone sit out, and then as few as possible. 2-player tables are never split.

With bots on, every table is of the chosen size and AI seats fill what the humans leave.
"""

from __future__ import annotations

from functools import cache

from bot.tournaments.model import Rules


def allowed_sizes(rules: Rules) -> tuple[int, ...]:
    """The table sizes a round may use, the chosen one first."""
    size = rules.table_size
    if size == 2 or rules.bots:
        return (size,)
    near = (size, size - 1, size + 1)
    return tuple(s for s in near if max(2, rules.smallest) <= s <= rules.largest)


def split(field: int, rules: Rules) -> tuple[tuple[int, ...], int]:
    """The round's table sizes (the chosen size first, then the smaller, then the larger) and
    how many of the field sit out."""
    if rules.bots:
        tables = -(-field // rules.table_size) if field >= 2 else 0
        return (rules.table_size,) * tables, 0
    sizes = allowed_sizes(rules)
    for out in range(field + 1):
        found = _exact(field - out, sizes)
        if found is not None:
            return found, out
    return (), field


@cache
def _exact(seated: int, sizes: tuple[int, ...]) -> tuple[int, ...] | None:
    """The best split of exactly `seated` players into the sizes (the first is the chosen one),
    or None."""
    if seated == 0:
        return ()
    chosen, others = sizes[0], sizes[1:]
    best: tuple[tuple[int, int], tuple[int, ...]] | None = None
    for counts in _counts(seated, others):
        rest = seated - sum(size * count for size, count in zip(others, counts, strict=True))
        if rest < 0 or rest % chosen:
            continue
        off = sum(counts)
        tables = rest // chosen + off
        key = (off, -tables)
        if best is None or key < best[0]:
            split_ = (chosen,) * (rest // chosen)
            for size, count in sorted(zip(others, counts, strict=True)):
                split_ += (size,) * count
            best = (key, split_)
    return best[1] if best else None


def _counts(seated: int, others: tuple[int, ...]):
    """Every count of tables of the other sizes that fits in `seated` seats."""
    if not others:
        yield ()
        return
    first, rest = others[0], others[1:]
    for count in range(seated // first + 1):
        for tail in _counts(seated - first * count, rest):
            yield (count, *tail)


def humans_per_table(field: int, rules: Rules) -> tuple[int, ...]:
    """With bots: how many of the humans sit at each table (spread evenly, the top tables
    fullest); the rest of each table's seats are AI seats."""
    tables = len(split(field, rules)[0])
    if not tables:
        return ()
    each, extra = divmod(field, tables)
    return tuple(each + (index < extra) for index in range(tables))
