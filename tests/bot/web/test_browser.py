"""The table app in a real headless Chromium (Debian's, driven by Playwright) against the
bot's real web server and the fake Telegram: two pages play whole matches by tapping, each
seeing the other's moves live; launch data that proves nothing, and strangers, get a clear
line and no table; a database outage is said in one line; the page comes back by itself
after the bot restarts."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace

import pytest

from bot.storage import StorageUnavailable
from bot.table.host import get_host
from bot.testing.fake_telegram import FakeTelegram
from games import get_engine
from tests.bot import play_azul, play_summer_pavilion
from tests.bot.conftest import ALICE, BOB, GROUP, MALLORY, running_bot
from tests.bot.databases import Database
from tests.bot.helpers import current_match
from tests.bot.web.conftest import TableBot, free_port, open_page
from tests.bot.web.taps import shown_version, tap_azul, tap_summer_pavilion, wait_for_version

SQLITE = pytest.mark.parametrize("backend", ["sqlite"])  # the page, not the backends, is tested
PLAYERS = [ALICE, BOB]


async def play_by_taps(bot: TableBot, browser, game: str, seed: int):
    """Both players open the table; whoever is to act taps their move on their page, and
    the other page shows it without a reload. Returns the finished match and the pages."""
    module = play_azul if game == "azul" else play_summer_pavilion
    tap = tap_azul if game == "azul" else tap_summer_pavilion
    engine = get_engine(game)
    match = await module.start_match(bot.driver, ALICE, PLAYERS)
    await bot.driver.settle()
    pages = [await open_page(browser, bot.page_url(user, match.id)) for user in PLAYERS]
    for page in pages:
        await wait_for_version(page, match.version)
    rng = random.Random(seed)
    moves = 0
    while (match := await current_match(bot.driver)).status == "playing":
        seat = min(engine.to_act(match.state))
        action = module.choose(match.state, seat, rng)
        await tap(pages[seat], seat, action)
        for page in pages:  # the mover's page and, told live, the other's
            await wait_for_version(page, match.version + 1)
        moves += 1
        assert moves < 400, "the match did not end"
    for page in pages:
        await wait_for_version(page, match.version)
        assert page.errors == []
    return match, pages


@SQLITE
@pytest.mark.parametrize("game", ["azul", "summer_pavilion"])
async def test_two_players_play_a_whole_match_by_tapping_each_seeing_the_other_live(
    table_bot, chromium, game
):
    match, pages = await play_by_taps(table_bot, chromium, game, seed=3)
    result = get_engine(game).result(match.state)
    for page in pages:
        final = await page.locator(".result").inner_text()
        assert "Game over" in final
        for seat, user in enumerate(PLAYERS):
            assert f"{user.first_name}" in final and str(result.scores[seat]) in final
    # the moves were the players', every one tapped on a page: none made for them
    assert await get_host(table_bot.driver.app).storage.automatic_moves(match.id) == 0
    # and the chat: the group's board followed every move (its last drawing done)
    await table_bot.driver.settle()
    match = await current_match(table_bot.driver)
    assert match.published == match.version


async def azul_for_the_player_to_act(bot: TableBot, browser):
    """An Azul match just dealt, and the table of the player to act open on a page."""
    await play_azul.start_match(bot.driver, ALICE, PLAYERS)
    await bot.driver.settle()
    match = await current_match(bot.driver)
    seat = min(get_engine("azul").to_act(match.state))
    page = await open_page(browser, bot.page_url(PLAYERS[seat], match.id))
    await wait_for_version(page, match.version)
    return match, seat, page


@SQLITE
async def test_only_the_legal_choices_light_up(table_bot, chromium):
    match, seat, page = await azul_for_the_player_to_act(table_bot, chromium)
    engine = get_engine("azul")
    legal = engine.legal_actions(match.state, seat)
    tappable = {
        (int(s), int(c))
        for s, c in [
            (await tile.get_attribute("data-source"), await tile.get_attribute("data-colour"))
            for tile in await page.locator(".sources button.tile").all()
        ]
    }
    assert tappable == {(a.source, a.colour) for a in legal}
    source, colour = sorted(tappable)[0]
    await page.locator(f".sources [data-source='{source}'][data-colour='{colour}']").first.click()
    lit = {
        int(await line.get_attribute("data-line"))
        for line in await page.locator(f"[data-seat='{seat}'] .lit[data-line]").all()
    }
    assert lit == {a.line for a in legal if (a.source, a.colour) == (source, colour)}
    other = page.locator(f"[data-seat='{1 - seat}'] .lit")
    assert await other.count() == 0  # nothing of the other's board is offered
    waiting = await open_page(chromium, table_bot.page_url(PLAYERS[1 - seat], match.id))
    await wait_for_version(waiting, match.version)
    assert await waiting.locator("button.tile, .lit").count() == 0  # not their turn: nothing


@SQLITE
@pytest.mark.parametrize(
    ("how", "says"),
    [
        ("missing", "Open this table from your chat with the bot"),
        ("forged", "Telegram's sign-in could not be checked."),
        ("expired", "This table was opened more than a day ago."),
        # Telegram in Russian: the refusal is Russian, whatever the signature says
        ("expired in Russian", "Этот стол открыт больше суток назад."),
        ("stranger", "There is no such table, or it is not open to you"),
    ],
)
async def test_a_page_that_proves_nothing_shows_no_table(table_bot, chromium, how, says):
    match = await play_azul.start_match(table_bot.driver, ALICE, PLAYERS)
    await table_bot.driver.settle()
    if how == "missing":
        url = f"{table_bot.url}/app/?m={match.id}"
    elif how == "forged":
        url = table_bot.page_url(ALICE, match.id).replace("hash%3D", "hash%3D00")
    elif how == "expired":
        url = table_bot.page_url(ALICE, match.id, auth_date=0)
    elif how == "expired in Russian":
        url = table_bot.page_url(replace(ALICE, language_code="ru"), match.id, auth_date=0)
    else:
        url = table_bot.page_url(MALLORY, match.id)
    page = await open_page(chromium, url)
    await page.locator("#status", has_text=says).wait_for(timeout=5000)
    assert await page.locator("[data-seat]").count() == 0
    assert (await current_match(table_bot.driver)).version == match.version


@SQLITE
async def test_with_the_database_down_a_move_is_refused_in_one_line_and_plays_later(
    table_bot, chromium, monkeypatch
):
    match, seat, page = await azul_for_the_player_to_act(table_bot, chromium)
    engine = get_engine("azul")
    storage = get_host(table_bot.driver.app).storage
    load = storage.load

    async def down(*args, **kwargs):
        raise StorageUnavailable("not answering")

    monkeypatch.setattr(storage, "load", down)
    action = engine.default_action(match.state, seat)
    await tap_azul(page, seat, action)
    await page.locator("#status", has_text="The game storage is not answering").wait_for()
    assert (await load(match.id)).version == match.version
    monkeypatch.setattr(storage, "load", load)
    await tap_azul(page, seat, action)  # the same move, once the database is back
    await wait_for_version(page, match.version + 1)


async def test_the_page_comes_back_by_itself_after_the_bot_restarts(chromium, tmp_path):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    database = Database("sqlite", tmp_path / "bot.sqlite3")
    settings = {"web_app_url": url, "health_port": port}
    api = FakeTelegram()
    async with running_bot(api, database, **settings) as driver:
        driver.group(GROUP, "Game Night")
        match = await play_azul.start_match(driver, ALICE, PLAYERS)
        await driver.settle()
        bot = TableBot(driver, api, url)
        page = await open_page(chromium, bot.page_url(ALICE, match.id))
        await wait_for_version(page, match.version)
    # the bot is down: the page says it lost the connection
    await page.locator("#status", has_text="Connection lost").wait_for(timeout=10_000)
    async with running_bot(api, database, **settings) as driver:
        await play_azul.play_move(driver, PLAYERS, random.Random(2))  # a move from the chat
        after = await current_match(driver)
        await wait_for_version(page, after.version, timeout=15)  # reconnected, read again
        await asyncio.sleep(0)
        assert await shown_version(page) == after.version
        assert await page.locator("#status").inner_text() == ""
