"""`python -m bot.bench.tournaments` on a small field: its figures come out, and a Swiss
through the whole bot posts only its pairings and its message's edits in the group."""

from __future__ import annotations

import argparse

from bot.bench.tournaments import group_calls, memory_kb, pairing_figures


def test_the_pairing_and_memory_figures_of_a_small_field():
    args = argparse.Namespace(players=21, rounds=3, runs=1, tournaments=2, field=8)
    for size in (2, 4):
        figures = pairing_figures(args, size)
        assert figures["slowest_round_ms"] >= figures["first_round_ms"] > 0
        assert figures["slowest_round_cpu_ms"] > 0
    assert memory_kb(args) > 0


async def test_a_rounds_calls_to_the_group_are_its_pairings_and_its_messages_edits():
    figures = await group_calls(field=6, rounds=2)
    assert figures["status"] == "finished" and figures["rounds_played"] == 2
    first, second = figures["group_calls_per_round"]
    # round 2: one pairings message, one edit a table's end and the round's own (≤ 3 + 2)
    assert 1 + figures["tables_a_round"] <= second <= 2 + 2 * figures["tables_a_round"]
    assert first >= second  # round 1 also starts the tournament
