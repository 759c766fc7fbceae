"""/top in seasons: this season's ladder by default, all time on a button; a season's podium
told once in its group."""

from __future__ import annotations

import time

from bot.storage.seasons import previous_season, season_start
from bot.table.host import get_host
from tests.bot.conftest import ALICE, GROUP
from tests.bot.storage.test_records import play_match
from tests.bot.storage.test_seasons import at


def last_text(driver, chat):
    return driver.api.last(chat).text


async def test_top_shows_this_season_and_all_time_on_a_button(driver, monkeypatch):
    storage = get_host(driver.app).storage
    now = time.time()
    last_season = season_start(previous_season(storage.season_now(now), 3)).timestamp() + 3600
    at(monkeypatch, last_season)
    await play_match(storage, players=3, seed=1, chat=GROUP, users=[ALICE.id, 11, 12])
    at(monkeypatch, now)
    await driver.send(ALICE, GROUP, "/top")
    text = last_text(driver, GROUP)
    assert text.startswith("🏆 5211 — top players of this group")
    assert "No rated game this season yet." in text and "📅 This season:" in text
    await driver.press_label(ALICE, GROUP, "All time")
    text = last_text(driver, GROUP)
    assert "🏛 All time" in text and text.count(" — ") >= 4  # three players and the title
    await driver.press_label(ALICE, GROUP, "This season")
    assert "No rated game this season yet." in last_text(driver, GROUP)
    await play_match(storage, players=3, seed=2, chat=GROUP, users=[ALICE.id, 11, 12])
    await driver.send(ALICE, GROUP, "/top")
    text = last_text(driver, GROUP)
    assert "(1 game)" in text and "(2 games)" not in text  # this season: one game each
    # the season before is told once: its podium
    seasons = get_host(driver.app).seasons
    assert await seasons.tell_ended() == [GROUP]
    assert await seasons.tell_ended() == []
    podium = [m.text for m in driver.api.visible(GROUP) if "is over!" in m.text]
    assert len(podium) == 1 and "🥇" in podium[0] and "5211" in podium[0]
