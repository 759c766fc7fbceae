"""PostgreSQL's group commit of saves: many matches' saves in one statement.

Each save is guarded as it would be alone — by its row's version and by a deadline on the
server's clock — so a save whose guard fails writes nothing while the others in the statement
are written; every other part of a save (seats, log entries, move, notices) is written only
with its row. The statement is one transaction: a batch is committed whole or not at all.

The saves of one batch are of different matches (two saves of one match in one statement
would race on its row: the second waits for the next batch and finds the version moved on).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.model import PLAY_SEAT_FIELDS
from bot.storage.rows import MatchWrite

MATCH_COLUMNS = (
    ("id", "bigint"),
    ("expected", "int"),
    ("status", "text"),
    ("options", "text"),
    ("turn_seconds", "int"),
    ("ends_at", "float8"),
    ("last_mover", "int"),
    ("version", "int"),
    ("updated_at", "float8"),
    ("seat_count", "int"),  # a lobby: seats numbered from here on are gone
    ("with_state", "bool"),
    ("state", "text"),
    ("deadline", "float8"),  # seconds since the epoch, on the server's clock
)
SEAT_TYPES = ("int", "bigint", "text", "int", "text", "text", "float8", "bool", "int", "bool",
              "int", "float8", "bool", "text")  # fmt: skip  # seat, then PLAY_SEAT_FIELDS
SEAT_COLUMNS = (("match_id", "bigint"), *zip(("seat", *PLAY_SEAT_FIELDS), SEAT_TYPES, strict=True))
EVENT_COLUMNS = (("match_id", "bigint"), ("seq", "int"), ("event", "text"))
MOVE_COLUMNS = (("match_id", "bigint"), ("version", "int"), ("seat", "int"), ("action", "text"),
                ("automatic", "bool"), ("at", "float8"))  # fmt: skip
NOTICE_COLUMNS = (("match_id", "bigint"), ("key", "text"), ("params", "text"))
GROUPS = (MATCH_COLUMNS, SEAT_COLUMNS, EVENT_COLUMNS, MOVE_COLUMNS, NOTICE_COLUMNS)


def _unnest(columns: Sequence[tuple[str, str]], first: int, alias: str) -> str:
    """``unnest($first::type[], ...) WITH ORDINALITY AS alias (names..., n)``."""
    arrays = ", ".join(f"${first + n}::{kind}[]" for n, (_, kind) in enumerate(columns))
    names = ", ".join(name for name, _ in columns)
    return f"unnest({arrays}) WITH ORDINALITY AS {alias} ({names}, n)"


def _save_many_sql() -> str:
    firsts, first = [], 1
    for group in GROUPS:
        firsts.append(first)
        first += len(group)
    matches, seats, events, moves, notices = (
        _unnest(group, start, alias)
        for group, start, alias in zip(GROUPS, firsts, ("b", "s", "e", "v", "o"), strict=True)
    )
    play = ", ".join(PLAY_SEAT_FIELDS)
    updates = ", ".join(f"{name} = excluded.{name}" for name in PLAY_SEAT_FIELDS)
    # the new rows are inserted in their order in the batch: notices keep their order by id
    return f"""
    WITH saved AS (
        UPDATE matches m SET status = b.status, options = b.options,
            turn_seconds = b.turn_seconds, ends_at = b.ends_at, last_mover = b.last_mover,
            version = b.version, updated_at = b.updated_at,
            state = CASE WHEN b.with_state THEN b.state ELSE m.state END
        FROM {matches}
        WHERE m.id = b.id AND m.version = b.expected
            AND clock_timestamp() < to_timestamp(b.deadline)
        RETURNING m.id, b.seat_count, m.revision
    ), dropped AS (
        DELETE FROM seats USING saved
        WHERE seats.match_id = saved.id AND seats.seat >= saved.seat_count
    ), seated AS (
        INSERT INTO seats (match_id, seat, {play})
        SELECT s.match_id, s.seat, {", ".join(f"s.{name}" for name in PLAY_SEAT_FIELDS)}
        FROM {seats} WHERE s.match_id IN (SELECT id FROM saved) ORDER BY s.n
        ON CONFLICT (match_id, seat) DO UPDATE SET {updates}
    ), logged AS (
        INSERT INTO events (match_id, seq, event)
        SELECT e.match_id, e.seq, e.event
        FROM {events} WHERE e.match_id IN (SELECT id FROM saved) ORDER BY e.n
    ), moved AS (
        INSERT INTO moves (match_id, version, seat, action, automatic, at)
        SELECT v.match_id, v.version, v.seat, v.action, v.automatic, v.at
        FROM {moves} WHERE v.match_id IN (SELECT id FROM saved) ORDER BY v.n
    ), noticed AS (
        INSERT INTO notices (match_id, key, params)
        SELECT o.match_id, o.key, o.params
        FROM {notices} WHERE o.match_id IN (SELECT id FROM saved) ORDER BY o.n
    )
    SELECT id, revision FROM saved
    """


SAVE_MANY = _save_many_sql()


def save_many_arguments(writes: Sequence[MatchWrite], deadline: float) -> list[list]:
    """The arguments of :data:`SAVE_MANY` for ``writes`` (of different matches), each to be
    written only before ``deadline`` (on the server's clock): one array per column."""
    matches, seats, events, moves, notices = [], [], [], [], []
    for w in writes:
        match_id = w.match_id
        matches.append((match_id, w.expected, w.status, w.options, w.turn_seconds, w.ends_at,
                        w.last_mover, w.version, w.updated_at, w.seat_count, w.state_changed,
                        w.state, deadline))  # fmt: skip
        seats.extend((match_id, *seat) for seat in w.seats)
        events.extend((match_id, w.first_event + n, event) for n, event in enumerate(w.events))
        if w.move is not None:
            moves.append((match_id, w.version, *w.move, w.updated_at))
        notices.extend((match_id, key, params) for key, params in w.notices)
    arguments: list[list] = []
    for rows, columns in zip((matches, seats, events, moves, notices), GROUPS, strict=True):
        if rows:
            arguments.extend(list(column) for column in zip(*rows, strict=True))
        else:
            arguments.extend([] for _ in columns)
    return arguments
