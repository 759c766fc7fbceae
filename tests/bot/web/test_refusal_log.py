"""Refused requests in the log: one warning line each, with no traceback and the path's
control characters escaped, at most so many a minute, and then a count of those left out."""

from __future__ import annotations

import logging

from bot.web import door


def test_the_log_says_how_many_refusals_it_left_out():
    log = door.RefusalLog(per_minute=2)
    now = [0.0]
    log.clock = lambda: now[0]

    class Request:
        method, path, remote_ip = "GET", "/x\x00y", "1.2.3.4"

    lines = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(record.getMessage())
    logging.getLogger("bot.web.refused").addHandler(handler)
    try:
        for _ in range(5):
            log.refused(Request, 404, "Not Found")
        now[0] = 61.0
        log.refused(Request, 404, "Not Found")
    finally:
        logging.getLogger("bot.web.refused").removeHandler(handler)
    assert lines == [
        "refused GET /x\\x00y from 1.2.3.4: 404 Not Found",
        "refused GET /x\\x00y from 1.2.3.4: 404 Not Found",
        "refused GET /x\\x00y from 1.2.3.4: 404 Not Found (3 more refused before, not logged)",
    ]


def test_an_address_over_its_sign_in_budget_is_one_line_a_minute_with_a_count(caplog):
    caplog.set_level(logging.INFO)
    log = door.OverBudgetLog()
    now = [1000.0]
    log.clock = lambda: now[0]
    for _ in range(5):
        log.over("10.0.0.1")
    log.over("10.0.0.2")
    now[0] += 61
    log.over("10.0.0.1")
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.web.refused"]
    assert len(lines) == 3
    assert "10.0.0.1" in lines[0] and "more refused" not in lines[0]
    assert "10.0.0.2" in lines[1]
    assert "10.0.0.1" in lines[2] and "(4 more refused in the minute before)" in lines[2]


def test_many_addresses_over_their_budget_are_still_at_most_twenty_lines_a_minute(caplog):
    caplog.set_level(logging.INFO)
    log = door.OverBudgetLog()
    for n in range(500):  # an attacker's range of addresses
        log.over(f"2001:db8::{n:x}")
    lines = [r for r in caplog.records if r.name == "bot.web.refused"]
    assert len(lines) == door.REFUSALS_LOGGED_PER_MINUTE
    assert log.lines.left_out == 500 - door.REFUSALS_LOGGED_PER_MINUTE
