"""A match as the rows a backend stores, and back: the state row (its public log kept in the
``events`` table, the row holding only the log's length), the seats' play fields, one save
ready to commit (:class:`MatchWrite`), and what it costs in bytes. Shared by both backends;
no SQL is run here."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.storage.model import (
    BOOLEAN_SEAT_FIELDS,
    DISPLAY_SEAT_FIELDS,
    PLAY_SEAT_FIELDS,
    Match,
    Seat,
)
from bot.storage.records import MatchRecord

LOG = "log"  # the state's append-only list of public events

SEAT_UPSERT = (
    f"INSERT INTO seats (match_id, seat, {', '.join(PLAY_SEAT_FIELDS)}) "
    f"VALUES (?, ?, {', '.join('?' * len(PLAY_SEAT_FIELDS))}) "
    f"ON CONFLICT (match_id, seat) DO UPDATE SET "
    + ", ".join(f"{name} = excluded.{name}" for name in PLAY_SEAT_FIELDS)
)


class Row(Protocol):
    """A result row: ``sqlite3.Row`` and ``asyncpg.Record`` both read columns by name."""

    def __getitem__(self, key: str | int) -> Any: ...

    def keys(self) -> Any: ...


def payload(values: Iterable) -> int:
    total = 0
    for value in values:
        if type(value) is str:
            total += len(value) if value.isascii() else len(value.encode())
        elif value is not None:
            total += 8
    return total


@dataclass
class MatchWrite:
    """One save of a match, ready for a backend to commit atomically: the row (guarded by
    ``expected``), the seats that changed, the new log entries, the move and notices."""

    match_id: int
    expected: int  # the version the row must still have
    version: int  # the version it gets
    status: str
    options: str
    turn_seconds: int
    ends_at: float | None
    last_mover: int | None
    updated_at: float
    state_changed: bool
    state: str | None  # written only when ``state_changed``
    seats: list[tuple]  # (seat, *PLAY_SEAT_FIELDS values) of the seats that changed
    seat_count: int | None  # a lobby: seats numbered from here on are gone
    first_event: int  # sequence number of the first new log entry
    events: list[str]
    move: tuple[int, str, bool] | None  # (seat, encoded action, automatic)
    notices: list[tuple[str, str]] = field(default_factory=list)  # (key, JSON params)
    record: MatchRecord | None = None  # the match ended: record (and rate) it with this save
    revision: int | None = None  # the match's revision once saved, where the backend keeps one

    def size(self) -> int:
        row = payload((self.status, self.options, self.state, self.match_id, self.expected))
        row += 8 * 5  # version, turn_seconds, ends_at, last_mover, updated_at
        seats = sum(payload(seat) + 8 for seat in self.seats)
        events = sum(len(event) + 16 for event in self.events)
        move = payload(self.move) + 24 if self.move else 0
        notices = sum(payload(notice) + 8 for notice in self.notices)
        return row + seats + events + move + notices


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def encode_state(state: dict[str, Any] | None) -> str | None:
    """The state row: the state with its log replaced by the log's length (the entries are
    in ``events``)."""
    if state is None:
        return None
    entries = state.get(LOG)
    if type(entries) is list:
        state = {**state, LOG: len(entries)}
    return dumps(state)


def decode_state(text: str | None, events: Sequence[str]) -> tuple[dict[str, Any] | None, int]:
    """The state and how many log entries it has (the first of ``events``)."""
    if not text:
        return None, 0
    state = json.loads(text)
    length = state.get(LOG)
    if type(length) is not int:
        return state, 0
    if len(events) < length:
        raise ValueError(f"the state's log has {length} entries, the database {len(events)}")
    state[LOG] = [json.loads(event) for event in events[:length]]
    return state, length


def play_values(seat: Seat) -> tuple:
    """A seat's play fields as stored, in the order of ``PLAY_SEAT_FIELDS``."""
    values = [getattr(seat, name) for name in PLAY_SEAT_FIELDS]
    draft = PLAY_SEAT_FIELDS.index("draft")
    values[draft] = dumps(values[draft]) if values[draft] is not None else None
    return tuple(values)


def seat_changed(seat: Seat, before: Seat | None) -> bool:
    return before is None or any(
        getattr(seat, name) != getattr(before, name) for name in PLAY_SEAT_FIELDS
    )


def match_from_rows(row: Row, seat_rows: Iterable[Row], events: Sequence[str]) -> Match:
    state, logged = decode_state(row["state"], events)
    match = Match(
        id=row["id"],
        chat_id=row["chat_id"],
        thread_id=row["thread_id"],
        game=row["game"],
        options=json.loads(row["options"]),
        status=row["status"],
        creator_id=row["creator_id"],
        version=row["version"],
        state=state,
        turn_seconds=row["turn_seconds"],
        ends_at=row["ends_at"],
        last_mover=row["last_mover"],
        title=row["title"],
        rematch_of=row["rematch_of"],
        inline_message_id=row["inline_message_id"],
        tournament_id=row["tournament_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        lobby_message_id=row["lobby_message_id"],
        board_message_id=row["board_message_id"],
        board_print=row["board_print"],
        board_below=row["board_below"],
        announced=row["announced"],
        published=row["published"],
        logged=logged,
        # (a row's ``in`` looks at its values, not its names; SQLite keeps no revision)
        revision=row["revision"] if "revision" in row.keys() else None,  # noqa: SIM118
    )
    for r in seat_rows:
        seat = Seat(seat=r["seat"], user_id=r["user_id"], name=r["name"])
        for name in PLAY_SEAT_FIELDS[2:] + DISPLAY_SEAT_FIELDS:
            setattr(seat, name, r[name])
        seat.draft = json.loads(r["draft"]) if r["draft"] else None
        for name in BOOLEAN_SEAT_FIELDS:
            setattr(seat, name, bool(r[name]))
        match.seats.append(seat)
    return match


MATCH_DISPLAY = (
    "UPDATE matches SET lobby_message_id = ?, board_message_id = ?, board_print = ?, "
    "board_below = ?, announced = ?, published = ? WHERE id = ? AND chat_id = ?"
)
SEAT_DISPLAY = (
    "UPDATE seats SET prompt_message_id = ?, prompt_text = ?, prompt_token = ? "
    "WHERE match_id = ? AND seat = ?"
)


def revised(cached: Match, revision: int | None) -> int | None:
    """The cached copy's revision once a write of ours took the match to ``revision``: known
    only if that write was the only one since the copy's (else another worker's came
    between, and the copy is read again)."""
    if revision is None or cached.revision is None or revision != cached.revision + 1:
        return None
    return revision
