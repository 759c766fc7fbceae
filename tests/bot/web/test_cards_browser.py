"""The card games in the table app, in a real headless Chromium: three players play a whole
match of 5211, Sultan and Who's the Donkey? by tapping their fans of cards, each seeing the
others' moves live; a member of the group watches without a hand, and their taps change
nothing; a finished match replays step by step."""

from __future__ import annotations

import pytest

from bot.presentation.i18n import translator
from bot.web import cards
from games import get_engine
from games.ai import choose
from tests.bot.conftest import CAROL
from tests.bot.helpers import current_match
from tests.bot.web.conftest import open_page
from tests.bot.web.taps import tap_cards, wait_for_version
from tests.bot.web.test_secrets import PLAYERS, start

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])


@pytest.mark.parametrize("game", ["5211", "sultan", "donkey"])
async def test_three_players_play_a_whole_match_by_tapping_their_cards(table_bot, chromium, game):
    match = await start(table_bot, game)
    engine = get_engine(game)
    pages = [await open_page(chromium, table_bot.page_url(user, match.id)) for user in PLAYERS]
    watcher = await open_page(chromium, table_bot.page_url(CAROL, match.id))
    for page in [*pages, watcher]:
        await wait_for_version(page, match.version)
    assert await watcher.locator(".hand-fan").count() == 0  # watching: no hand
    for page in [*pages, watcher]:  # a phone's width: no sideways scrolling
        assert await page.evaluate("() => document.documentElement.scrollWidth") <= 400
    assert "Watching" in await watcher.inner_text("main")
    t = translator("en")
    moves = 0
    while (match := await current_match(table_bot.driver)).status == "playing":
        seat = min(engine.to_act(match.state))
        view, legal = engine.view(match.state, seat), engine.legal_actions(match.state, seat)
        action = choose(game, "normal", view, seat, legal, moves)
        (choice,) = cards.choices(game, t, view, seat, [action])
        await tap_cards(pages[seat], choice["cards"], action)
        for page in [*pages, watcher]:  # the mover's page and, told live, everyone's
            await wait_for_version(page, match.version + 1)
        moves += 1
        assert moves < 400
    for page in [*pages, watcher]:
        assert "Game over" in await page.inner_text(".result")  # the final result, for all
        assert page.errors == []


async def test_a_watchers_taps_change_nothing(table_bot, chromium):
    match = await start(table_bot, "sultan")
    watcher = await open_page(chromium, table_bot.page_url(CAROL, match.id))
    await wait_for_version(watcher, match.version)
    assert await watcher.locator("button.card, [data-move]").count() == 0
    for element in await watcher.locator(".seat, .felt, .cushion, .bid").all():
        await element.click()
    after = await current_match(table_bot.driver)
    assert after.version == match.version


async def test_a_finished_match_replays_forward_and_back(table_bot, chromium):
    from tests.bot import play5211
    from tests.bot.conftest import ALICE, BOB, GROUP

    await play5211.start_game(table_bot.driver, GROUP, ALICE, [ALICE, BOB])
    await play5211.play_to_the_end(table_bot.driver, [ALICE, BOB])
    await table_bot.driver.settle()
    match = await current_match(table_bot.driver)
    url = table_bot.page_url(CAROL).replace("/app/#", f"/app/?r={match.id}#")
    page = await open_page(chromium, url)
    await page.locator("[data-step='forward']").wait_for()
    assert await page.locator("#table").get_attribute("data-step") == "0"
    await page.click("[data-step='forward']")
    await page.wait_for_function("() => document.querySelector('#table').dataset.step === '1'")
    assert "1. " in await page.inner_text("main")
    await page.click("[data-step='end']")
    await page.wait_for_function("() => document.querySelector('#table').dataset.step !== '1'")
    assert "Game over" in await page.inner_text(".result")  # the last step: the result
    await page.click("[data-step='back']")
    last = int(await page.locator("#table").get_attribute("data-step"))
    await page.click("[data-step='start']")
    await page.wait_for_function("() => document.querySelector('#table').dataset.step === '0'")
    assert last > 1 and await page.locator(".hand-fan").count() == 0  # nothing hidden
    assert page.errors == []
