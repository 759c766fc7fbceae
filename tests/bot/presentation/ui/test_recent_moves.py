"""The pure pick of the moves since a seat's turn (``bot.presentation.ui.recent``): a seat's
moves in a row are one turn, a game's story breaks close the story, a long story keeps its latest
turns."""

from __future__ import annotations

import pytest

from bot.presentation.i18n import translator
from bot.presentation.ui.base import Names
from bot.presentation.ui.recent import (
    MAX_LINES,
    MAX_TURN_CHARACTERS,
    move_lines,
    moves_since_turn,
    shortened,
    turn_start,
)


def move(seat: int, kind: str = "draft") -> dict:
    return {"type": kind, "seat": seat}


def test_a_seats_moves_in_a_row_are_one_turn_and_a_break_closes_the_story():
    moves = {"draft"}
    log = [move(0), move(1), move(2), move(0), {"type": "noise"}, move(0)]
    # seat 0 is in the middle of its turn (two moves in a row): the story starts after its
    # previous turn, and stays the same until it is done
    assert turn_start(log, 0, moves) == 1
    assert moves_since_turn(log, 0, moves, others_only=True) == [move(1), move(2)]
    assert moves_since_turn(log, 0, moves, others_only=False) == [*log[1:4], move(0)]
    assert turn_start(log, 1, moves) == 2
    assert turn_start(log, 3, moves) == 0  # never moved: everything
    log.append({"type": "deal"})
    assert moves_since_turn(log, 0, moves, others_only=True, breaks={"deal"}) == []


def test_a_long_story_keeps_the_latest_turns_and_counts_the_others():
    t = translator("en")
    names = Names.of(["A", "B", "C", "D", "E", "F"])
    events = [move(seat) for seat in (1, 2, 3, 3, 4, 5)]
    lines = move_lines(t, events, names.names, lambda event: f"m{event['seat']}")
    assert len(lines) == MAX_LINES
    assert lines == ["… 2 earlier moves", "D: m3 · m3", "E: m4", "F: m5"]
    assert move_lines(t, events[:1], names.names, lambda e: None) == []


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "it"])
def test_the_earlier_moves_line_reads_in_every_language(lang):
    t = translator(lang)
    assert "1" in t.plural("recent.earlier", 1) and "5" in t.plural("recent.earlier", 5)


def test_a_long_turn_is_shortened_and_markup_never_cut():
    long = " · ".join(["🌈 Centre star, space 4: 🟧 orange, +1 point"] * 4)
    short = shortened(long)
    assert len(short) <= MAX_TURN_CHARACTERS and short.endswith("…")
    assert long.startswith(short[:-1])
    assert shortened("<b>" + long + "</b>") == "<b>" + long + "</b>"
