"""The card games in the table app, in a real headless Chromium: three players play a whole
match of 5211, Sultan and Who's the Donkey? by tapping their fans of cards, each seeing the
others' moves live; a member of the group watches without a hand, and their taps change
nothing; a finished match replays step by step."""

from __future__ import annotations

import pytest

from bot.presentation.i18n import translator
from bot.presentation.ui import get_ui
from bot.presentation.ui.base import Names
from bot.web import cards
from bot.web.tables import plain_lines
from games import get_engine
from games.ai import choose
from tests.bot.conftest import CAROL
from tests.bot.helpers import current_match
from tests.bot.web.conftest import open_page
from tests.bot.web.table_checks import check_table, snapshot
from tests.bot.web.taps import tap_cards, wait_for_version
from tests.bot.web.test_secrets import PLAYERS, start

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])


CHECK_EVERY = 5  # moves between two checks of the pages against the engine's views
SLOW_MOTION = 0.1  # the pages' animations at a tenth of their speed: every tap lands mid-move


async def slow_motion(page) -> None:
    session = await page.context.new_cdp_session(page)
    await session.send("Animation.enable")
    await session.send("Animation.setPlaybackRate", {"playbackRate": SLOW_MOTION})


async def running_animations(page) -> int:
    return await page.evaluate(
        "() => document.getAnimations().filter((a) => a.playState === 'running').length"
    )


def board_lines(game: str, public: dict, names: list[str]) -> list[str]:
    """The group board's lines about the players: the text the page no longer carries."""
    text = get_ui(game).board(translator("en"), public, Names.of(names)).text
    return [line for line in plain_lines(text) if any(name in line for name in names)]


@pytest.mark.parametrize("game", ["5211", "sultan", "donkey"])
async def test_three_players_play_a_whole_match_by_tapping_their_cards(table_bot, chromium, game):
    """A whole match by taps, every tap made while the table still moves (the animations
    slowed down); every few moves the watcher's and the mover's tables are checked against
    the engine's views: each seat's cards and points, the centre, every card labelled, and
    none of the board's text."""
    match = await start(table_bot, game)
    engine = get_engine(game)
    names = [seat.name for seat in match.seats]
    pages = [await open_page(chromium, table_bot.page_url(user, match.id)) for user in PLAYERS]
    watcher = await open_page(chromium, table_bot.page_url(CAROL, match.id))
    for page in [*pages, watcher]:
        await slow_motion(page)
        await wait_for_version(page, match.version)
    assert await watcher.locator(".hand-fan").count() == 0  # watching: no hand
    for page in [*pages, watcher]:  # a phone's width: no sideways scrolling
        assert await page.evaluate("() => document.documentElement.scrollWidth") <= 400
    assert "Watching" in await watcher.inner_text("main")
    t = translator("en")
    moves = taps_mid_move = 0
    while (match := await current_match(table_bot.driver)).status == "playing":
        seat = min(engine.to_act(match.state))
        view, legal = engine.view(match.state, seat), engine.legal_actions(match.state, seat)
        if moves % CHECK_EVERY == 0:
            public = engine.view(match.state, None)
            for page, seen, number in ((watcher, public, None), (pages[seat], view, seat)):
                shown = await snapshot(page)
                check_table(game, shown, seen, names, number)
                board = [line for line in board_lines(game, public, names) if line in shown["text"]]
                assert board == []
        action = choose(game, "normal", view, seat, legal, moves)
        (choice,) = cards.choices(game, t, view, seat, [action])
        taps_mid_move += await running_animations(pages[seat]) > 0
        await tap_cards(pages[seat], choice["cards"], action)
        for page in [*pages, watcher]:  # the mover's page and, told live, everyone's
            await wait_for_version(page, match.version + 1)
        moves += 1
        assert moves < 400
    assert taps_mid_move > moves // 2  # most taps came while a card or bid still travelled
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


async def test_the_end_of_a_round_shows_who_took_what_until_a_tap(table_bot, chromium):
    """5211's first round scored: the table shows each player's cards of the round, those
    that scored marked, and the points, until a tap; then the next deal."""
    from tests.bot import play5211
    from tests.bot.conftest import ALICE, BOB, GROUP
    from tests.bot.helpers import play_by_data

    driver, engine = table_bot.driver, get_engine("5211")
    await play5211.start_game(driver, GROUP, ALICE, [ALICE, BOB])
    for moves in range(20):
        match = await current_match(driver)
        if any(event["type"] == "round_scored" for event in match.state["log"]):
            break
        seat = min(engine.to_act(match.state))
        view, legal = engine.view(match.state, seat), engine.legal_actions(match.state, seat)
        action = choose("5211", "normal", view, seat, legal, moves)
        await play_by_data(driver, match, [ALICE, BOB][seat], action)
    await driver.settle()
    match = await current_match(driver)
    scored = next(e for e in match.state["log"] if e["type"] == "round_scored")
    page = await open_page(chromium, table_bot.page_url(ALICE, match.id))
    await wait_for_version(page, match.version)
    summary = page.locator(".summary")
    assert await summary.locator("h2").inner_text() == "Round 1: the points"
    rows = await summary.locator(".summary-row").all()
    assert len(rows) == 2
    for seat, row in enumerate(rows):
        assert await row.locator(".who").inner_text() == ["Alice", "Bob"][seat]
        assert await row.locator(".card").count() == 4  # the round's cards: 2 + 1 + 1
        assert await row.locator(".card.taken").count() == len(scored["scored"][seat])
        points = await row.locator(".points").inner_text()
        assert points == f"+{scored['points'][seat]} · total {scored['totals'][seat]}"
    assert await page.locator(".hand-fan .card").count() == 5  # the next deal, in hand
    await summary.click()
    await summary.wait_for(state="detached")  # tapped away: the table
    assert await page.locator(".felt .play-row").count() == 2
    assert page.errors == []
