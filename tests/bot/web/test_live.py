"""The open tables, on their own: who is told of a change, how many connections may stay
open, and the chat prompt brought back once a player's last connection to a table closes
(not when it comes back within the grace)."""

from __future__ import annotations

import asyncio

from bot.storage import Match
from bot.web import limits
from bot.web.live import LiveTables


def azul(match_id: int, version: int) -> Match:
    return Match(match_id, -1, 0, "azul", {}, "playing", 1, version=version)


async def test_a_change_is_told_to_the_matchs_streams_only_and_only_when_newer():
    live = LiveTables("https://t.example.com/", lambda *_: None)
    mine, other = live.open(1, 101, 5), live.open(2, 101, 7)
    live.changed(azul(1, 6))
    assert await mine.wait(0.1) and mine.version == 6
    assert not await other.wait(0.05)  # another match: not told
    live.changed(azul(1, 6))  # the same version again: nothing new
    assert not await mine.wait(0.05)
    assert live.link(azul(1, 6)) == "https://t.example.com/app/?m=1"
    assert live.replay_link(azul(1, 6)) == "https://t.example.com/app/?r=1"


async def test_connections_are_limited_per_user_and_in_all(monkeypatch):
    live = LiveTables("https://t.example.com", lambda *_: None)
    streams = [live.open(1, 101, 1) for _ in range(limits.LIVE_PER_USER)]
    assert all(streams) and live.open(1, 101, 1) is None  # one user: at most 4
    assert live.open(1, 102, 1) is not None  # another may still
    monkeypatch.setattr("bot.web.live.LIVE_IN_ALL", live.count)
    assert live.open(1, 103, 1) is None  # everyone together: the cap
    live.close(streams[0])
    assert live.open(1, 103, 1) is not None and live.count == limits.LIVE_PER_USER + 1


async def test_the_chat_prompt_comes_back_after_the_last_connection_closes_not_in_a_blip():
    redrawn: list[tuple[int, int]] = []
    live = LiveTables("https://t.example.com", lambda match, user: redrawn.append((match, user)))
    live.grace = 0.05
    first, second = live.open(1, 101, 1), live.open(1, 101, 1)  # two windows
    live.close(first)
    assert live.is_open(1, 101)
    live.close(second)
    assert not live.is_open(1, 101)
    back = live.open(1, 101, 1)  # a reload within the grace
    await asyncio.sleep(0.1)
    assert redrawn == []
    live.close(back)
    live.close(back)  # closed twice (the handler's end and the connection's): once
    await asyncio.sleep(0.1)
    assert redrawn == [(1, 101)] and live.count == 0
