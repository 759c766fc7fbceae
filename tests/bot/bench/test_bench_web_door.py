"""`python -m bot.bench.web_door --telegram` on a short attack: its figure comes out, and
one signed user attacking every route costs no more prepared invitations and membership
look-ups than their budgets hold (the rate limiter on, as in service)."""

from __future__ import annotations

import argparse

from bot.bench.web_door import most_in_a_minute, telegram_attack
from bot.web.limits import BUDGETS


def test_the_most_in_a_minute_of_a_count_taken_now_and_then():
    totals = [(0.0, 0), (30.0, 10), (59.0, 40), (61.0, 41), (100.0, 45), (130.0, 46)]
    assert most_in_a_minute(totals) == 40  # 0 → 40 within 60 s; later minutes fewer


async def test_one_attacker_through_every_route_stays_within_the_budgets():
    args = argparse.Namespace(seconds=3.0, groups=2, group_every=1.0)
    figure = await telegram_attack(args, attackers=1)
    calls = figure["by_method"]
    assert figure["requests"] > 20 and figure["most_in_a_minute"] == figure["telegram_calls"]
    assert calls.get("savePreparedInlineMessage", 0) <= BUDGETS["invitation"].burst + 1
    assert 1 <= calls.get("getChatMember", 0) <= BUDGETS["look_up"].burst + 1
    assert {"200", "404 no_table", "429 too_fast"} <= set(figure["answers"])
    # the groups played on through it, and each move was heard in its group
    assert figure["group_moves"] >= 1 and figure["group_moves_unheard"] == 0
