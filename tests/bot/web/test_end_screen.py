"""A finished match in the table app, in a real headless Chromium: the final scores as a
table, best first, and somewhere to go — 🔁 Play again opens the chat's rematch (its lobby
in the group, the same players seated), ▶️ Replay steps through the match, ⬅️ My tables
goes home — all without a page load, and no link or address of the app's pages carries the
signed launch data."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from urllib.parse import quote

import pytest

from bot.web import limits
from games import get_engine
from tests.bot import play5211
from tests.bot.conftest import ALICE, BOB, GROUP
from tests.bot.helpers import current_match
from tests.bot.web.conftest import open_page
from tests.bot.web.table_checks import low_contrast, signed_links, targets, too_small
from tests.bot.web.taps import wait_for_version

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])


async def finished(bot):
    await play5211.start_game(bot.driver, GROUP, ALICE, [ALICE, BOB])
    await play5211.play_to_the_end(bot.driver, [ALICE, BOB])
    await bot.driver.settle()
    return await current_match(bot.driver)


async def test_the_end_screen_ranks_the_scores_and_its_three_ways_on_work(table_bot, chromium):
    match = await finished(table_bot)
    result = get_engine("5211").result(match.state)
    page = await open_page(chromium, table_bot.page_url(ALICE, match.id), width=360)
    await wait_for_version(page, match.version)
    loads = []
    page.on("load", lambda _: loads.append(page.url))
    # the scores, best first; the player's own row marked
    rows = await page.locator(".final-scores tbody tr").all()
    best_first = sorted(range(2), key=lambda seat: (result.ranks[seat], seat))
    for row, seat in zip(rows, best_first, strict=True):
        name = await row.locator("th").inner_text()
        assert name.startswith(["Alice", "Bob"][seat])
        assert await row.locator("td").last.inner_text() == str(result.scores[seat])
    assert "(you)" in await page.locator(".final-scores tr.me").inner_text()
    assert await page.locator(".status-bar").count() == 0  # nothing left to play
    assert "Tap to go on" not in await page.inner_text("main")
    assert too_small(await targets(page)) == []
    await page.wait_for_function("() => !location.hash")  # the signature out of the address
    assert await signed_links(page) == []

    # 🔁 Play again: the chat's rematch, its lobby in the group with the same players
    sent = len(table_bot.api.visible(GROUP))
    await page.click("[data-end='again']")
    await page.locator("#status", has_text="Rematch open: the same players are seated.").wait_for()
    await table_bot.driver.settle()
    lobby = table_bot.api.last(GROUP)
    assert len(table_bot.api.visible(GROUP)) > sent
    assert lobby.text.startswith("🔁 5211 — rematch")
    assert "1. Alice\n2. Bob" in lobby.text
    # again: the group has its lobby already, said in the chat's words
    await page.click("[data-end='again']")
    await page.locator("#status", has_text="A game is already open here").wait_for()

    # ▶️ Replay: the match from its set-up, in the same page
    await page.click("[data-end='replay']")
    await page.wait_for_function("() => document.querySelector('#table').dataset.step === '0'")
    assert "?r=" in page.url
    assert too_small(await targets(page)) == []  # the replay's controls too
    await page.click("[data-step='end']")
    await page.locator(".final-scores").wait_for()
    assert await page.locator("[data-end='again']").count() == 0  # a replay plays nothing
    await page.click("[data-end='replay']")  # from the start again
    await page.wait_for_function("() => document.querySelector('#table').dataset.step === '0'")
    # the browser's Back: the table again
    await page.go_back()
    await page.locator(".final-scores").wait_for()
    assert f"?m={match.id}" in page.url
    # ⬅️ My tables: the home, its finished match listed and opened from there
    await page.click("[data-end='home']")
    await page.locator("h1", has_text="Your tables").wait_for()
    await page.locator("[data-lesson-game]").first.wait_for()
    assert await signed_links(page) == []
    assert too_small(await targets(page)) == []  # lessons' chips, selects, buttons, links
    home = await page.inner_text("main")
    assert "Who's the Donkey? needs at least 3 players" in home  # why it is not offered
    finished_line = await page.locator(".tables.finished li").first.inner_text()
    assert re.search(r"· [A-Z][a-z]{2} \d{1,2}, \d{4}", finished_line)  # the date, in English
    await page.click(f".tables.finished a[href='?r={match.id}']")
    await page.wait_for_function("() => document.querySelector('#table').dataset.step === '0'")
    assert loads == [] and page.errors == []  # all of it without a page load
    # a reload of an address the page moved to: the launch data kept for the session
    await page.reload()
    await page.wait_for_function("() => document.querySelector('#table').dataset.step === '0'")
    assert page.errors == []


async def test_a_tile_games_replay_says_no_watching_and_ends_on_the_scores(table_bot, chromium):
    """A finished Azul match replayed: no "Watching: only the players move" (nobody moves
    in a replay), the last step the end screen, its last round's scoring above nothing to
    go on to."""
    from tests.bot import play_azul

    driver = table_bot.driver
    await play_azul.start_match(driver, ALICE, [ALICE, BOB])
    await play_azul.play_until(driver, [ALICE, BOB], lambda state: False, seed=2)
    await driver.settle()
    match = await current_match(driver)
    assert match.status == "finished"
    url = table_bot.page_url(ALICE).replace("/app/#", f"/app/?r={match.id}#")
    page = await open_page(chromium, url, width=360)
    await page.locator("[data-step='end']").wait_for()
    assert "Watching" not in await page.inner_text("main")
    await page.click("[data-step='end']")
    await page.locator(".final-scores").wait_for()
    assert "Watching" not in await page.inner_text("main")
    assert "Tap to go on" not in await page.inner_text("main")
    assert await page.locator(".status-bar").count() == 0
    assert page.errors == []


async def test_telegrams_theme_reaches_every_control(table_bot, chromium):
    """Telegram's theme colours, from its launch parameters: the home's selects, its
    buttons and links, and the end screen's ways on wear them, not the browser's own."""
    match = await finished(table_bot)
    theme = {
        "bg_color": "#101010", "secondary_bg_color": "#202a30", "text_color": "#f0e0d0",
        "hint_color": "#a0a8b0", "link_color": "#80c0ff", "button_color": "#c03060",
        "button_text_color": "#ffffff",
    }  # fmt: skip
    url = table_bot.page_url(ALICE, match.id) + "&tgWebAppThemeParams=" + quote(json.dumps(theme))
    page = await open_page(chromium, url, width=360)
    await page.locator("[data-end='home']").wait_for()
    colours = """(selector) => Array.from(document.querySelectorAll(selector), (e) => {
      const s = getComputedStyle(e); return [s.backgroundColor, s.color]; })"""
    again = await page.evaluate(colours, "[data-end='again']")
    assert again == [["rgb(192, 48, 96)", "rgb(255, 255, 255)"]]  # the theme's button
    quiet = await page.evaluate(colours, "[data-end='home'], [data-end='replay']")
    assert quiet == [["rgb(32, 42, 48)", "rgb(240, 224, 208)"]] * 2
    await page.click("[data-end='home']")
    await page.locator("select").first.wait_for()
    for select in await page.evaluate(colours, "select"):
        assert select == ["rgb(32, 42, 48)", "rgb(240, 224, 208)"]
    assert await low_contrast(page) == []
    assert page.errors == []


async def test_the_home_writes_dates_in_the_readers_language(table_bot, chromium):
    match = await finished(table_bot)
    russian = replace(ALICE, language_code="ru")
    page = await open_page(chromium, table_bot.page_url(russian), width=360)
    await page.locator(".tables.finished li").first.wait_for()
    line = await page.locator(".tables.finished li").first.inner_text()
    assert re.search(r"· \d{1,2} [а-я]{3,4}\.? \d{4}", line), line  # «2 дек. 2026 г.»
    assert await page.evaluate("() => document.documentElement.lang") == "ru"
    assert match.status == "finished" and page.errors == []


async def test_play_again_spends_the_askers_rematches(table_bot):
    """The route asks Telegram for the lobby's message: it spends the asker's budget of
    rematches, as the other routes that make Telegram calls spend theirs."""
    from tests.bot.web.conftest import header

    match = await finished(table_bot)
    budget = limits.BUDGETS["rematch"]
    async with table_bot.client() as client:
        answers = [
            await client.post(f"/api/tables/{match.id}/rematch", headers=header(ALICE))
            for _ in range(budget.burst + 1)
        ]
        bob = await client.post(f"/api/tables/{match.id}/rematch", headers=header(BOB))
    assert answers[0].status_code == 200
    assert answers[0].json() == {"message": "Rematch open: the same players are seated."}
    assert [a.status_code for a in answers[1:-1]] == [409] * (budget.burst - 1)
    assert answers[-1].status_code == 429
    assert answers[-1].json()["error"] == "rematches_spent"
    assert bob.status_code == 409  # Bob's own budget: the lobby is already open
