"""The page as a player meets it, in a real headless Chromium: in their language, in
Telegram's theme, with Telegram's own buttons and haptics where its script is there, from
the menu button's list of tables, and one move when the same decision comes from the chat
and the page at once."""

from __future__ import annotations

import asyncio
import json
from urllib.parse import quote

import pytest

from bot.presentation.ui.base import COLOUR_GLYPHS
from bot.table.host import get_host
from bot.telegram_api.callbacks import Callback, Kind
from games import get_engine
from games.core import encode_action
from tests.bot import play_azul, play_summer_pavilion
from tests.bot.conftest import ALICE, BOB, GIULIA, IVAN, OKSANA
from tests.bot.helpers import current_match, prompt
from tests.bot.web.conftest import launch_data, open_page
from tests.bot.web.taps import tap, wait_for_version

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])


async def test_the_page_speaks_the_players_language(table_bot, chromium):
    match = await play_azul.start_match(table_bot.driver, IVAN, [IVAN, GIULIA], lang="ru")
    await table_bot.driver.settle()
    pages = {}
    for user in (IVAN, GIULIA):
        pages[user] = await open_page(chromium, table_bot.page_url(user, match.id))
        await wait_for_version(pages[user], match.version)
    russian = await pages[IVAN].inner_text("main")
    italian = await pages[GIULIA].inner_text("main")
    assert "Раунд 1" in russian and "Пол" in russian  # the game's heading, the page's words
    assert "Round 1" in italian and "Pavimento" in italian
    acting = IVAN if match.state["turn"] == 0 else GIULIA
    mine = await pages[acting].inner_text("main")
    assert ("Твой ход" if acting is IVAN else "Tocca a te") in mine


async def test_ukrainian_too_and_every_tile_carries_its_symbol_at_400_px(table_bot, chromium):
    match = await play_summer_pavilion.start_match(
        table_bot.driver, OKSANA, [OKSANA, ALICE], lang="uk"
    )
    await table_bot.driver.settle()
    page = await open_page(chromium, table_bot.page_url(OKSANA, match.id), width=400)
    await wait_for_version(page, match.version)
    text = await page.inner_text("main")
    assert "Раунд 1" in text and "Запас" in text and "У руці" in text
    # nothing wider than a phone: no sideways scrolling
    assert await page.evaluate("() => document.documentElement.scrollWidth") <= 400
    # each tile shows its colour's symbol, as the pictures draw it
    for tile in await page.locator(".tile").all():
        colour = await tile.get_attribute("data-colour")
        name = ("purple", "green", "orange", "yellow", "blue", "red")[int(colour)]
        assert (await tile.inner_text()) == COLOUR_GLYPHS[name]


async def test_the_page_takes_telegrams_theme(table_bot, chromium):
    match = await play_azul.start_match(table_bot.driver, ALICE, [ALICE, BOB])
    await table_bot.driver.settle()
    theme = {"bg_color": "#101820", "text_color": "#fafafa", "button_color": "#ff8800"}
    url = f"{table_bot.page_url(ALICE, match.id)}&tgWebAppThemeParams={quote(json.dumps(theme))}"
    page = await open_page(chromium, url)
    await wait_for_version(page, match.version)
    colours = await page.evaluate(
        "() => [getComputedStyle(document.body).backgroundColor,"
        " getComputedStyle(document.body).color]"
    )
    assert colours == ["rgb(16, 24, 32)", "rgb(250, 250, 250)"]


TELEGRAM_STUB = """
window.calls = [];
const noted = (name) => (...args) => { window.calls.push([name, ...args]); };
window.Telegram = { WebApp: {
  initData: %s, themeParams: {}, ready: noted("ready"), expand: noted("expand"),
  onEvent: noted("onEvent"),
  MainButton: { setText: noted("main.text"), onClick: noted("main.onClick"),
                offClick: noted("main.offClick"), show: noted("main.show"),
                hide: noted("main.hide") },
  BackButton: { onClick: noted("back.onClick"), offClick: noted("back.offClick"),
                show: noted("back.show"), hide: noted("back.hide") },
  HapticFeedback: { selectionChanged: noted("haptic.selection"),
                    impactOccurred: noted("haptic.impact"),
                    notificationOccurred: noted("haptic.notification") },
} };
"""


async def calls(page) -> list[list]:
    return await page.evaluate(
        "() => window.calls.map(c => c.map(a => typeof a === 'function' ? 'fn' : a))"
    )


async def test_telegrams_main_and_back_buttons_and_haptics_where_its_script_is_there(
    table_bot, chromium
):
    match = await play_summer_pavilion.start_match(table_bot.driver, ALICE, [ALICE, BOB])
    await table_bot.driver.settle()
    seat = match.state["current"]
    user = [ALICE, BOB][seat]
    page = await chromium.new_page(viewport={"width": 400, "height": 900})
    await page.route("https://telegram.org/**", lambda route: route.abort())
    await page.add_init_script(TELEGRAM_STUB % json.dumps(launch_data(user)))
    await page.goto(f"{table_bot.url}/app/?m={match.id}")  # no launch data in the address
    await wait_for_version(page, match.version)
    assert ["ready"] in await calls(page) and ["main.text", "Pass"] not in await calls(page)
    engine = get_engine("summer_pavilion")
    take = engine.legal_actions(match.state, seat)[0]
    await tap(page, f".sources [data-source='{take.source}'][data-colour='{take.colour}']")
    noted = await calls(page)
    assert ["haptic.selection"] in noted and ["back.show"] in noted  # Back lets go of them
    assert ["main.text", "Take"] in noted and ["main.show"] in noted
    # Telegram's Main button makes the move: its handler is the page's Take
    await page.evaluate("() => window.calls.filter(c => c[0] === 'main.onClick').at(-1)[1]()")
    await wait_for_version(page, match.version + 1)
    assert ["haptic.notification", "success"] in await calls(page)
    assert (await current_match(table_bot.driver)).version == match.version + 1


async def test_the_menu_button_opens_the_home_with_the_tables(table_bot, chromium):
    first = await play_azul.start_match(table_bot.driver, ALICE, [ALICE, BOB])
    await table_bot.driver.settle()
    page = await open_page(chromium, table_bot.page_url(BOB))  # no table named: the home
    await page.locator(".tables li").first.wait_for()
    await page.locator(".home-learn").wait_for()  # (learn and practise below the tables)
    await page.locator(".tables a").first.click()
    await page.wait_for_url(f"**/app/?m={first.id}**")
    await wait_for_version(page, first.version)
    # a second table (a practice game in the private chat): the list shows both
    await table_bot.driver.send(BOB, BOB.id, "/new azul")
    await table_bot.driver.press_label(BOB, BOB.id, "Start")
    await table_bot.driver.settle()
    listing = await open_page(chromium, table_bot.page_url(BOB))
    await listing.locator(".tables li").nth(1).wait_for()
    lines = await listing.locator(".tables li").all_inner_texts()
    assert len(lines) == 2 and all(line.startswith("Azul") for line in lines)
    assert any("Game Night" in line for line in lines)
    await listing.locator(".tables a").first.click()
    await listing.locator("[data-seat]").first.wait_for()


async def test_the_same_decision_from_the_chat_and_the_page_at_once_is_applied_once(
    table_bot, chromium
):
    match = await play_azul.start_match(table_bot.driver, ALICE, [ALICE, BOB])
    await table_bot.driver.settle()
    match = await current_match(table_bot.driver)
    engine = get_engine("azul")
    seat = min(engine.to_act(match.state))
    user = [ALICE, BOB][seat]
    page = await open_page(chromium, table_bot.page_url(user, match.id))
    await wait_for_version(page, match.version)
    action = engine.default_action(match.state, seat)
    source, colour, line = action
    await tap(page, f".sources [data-source='{source}'][data-colour='{colour}']")
    data = Callback(Kind.ACTION, match.id, match.seats[seat].token, encode_action(action)).encode()
    chat = prompt(table_bot.driver, user)
    lit = await page.locator(f"[data-seat='{seat}'] [data-line='{line}'].lit").element_handle()
    popup, _ = await asyncio.gather(  # the tap lands whether or not the page moved on
        table_bot.driver.press(user, user.id, chat.message_id, data),
        lit.dispatch_event("click"),
    )
    await wait_for_version(page, match.version + 1)
    await asyncio.sleep(0.3)
    after = await current_match(table_bot.driver)
    assert after.version == match.version + 1
    moves = await get_host(table_bot.driver.app).storage.moves(match.id)
    assert len([m for m in moves if m[1] >= 0]) == 1
    status = await page.locator("#status").inner_text()
    stale_chat = popup is not None and "no longer" in popup.lower()
    stale_page = "no longer" in status.lower()
    assert stale_chat != stale_page, (popup, status)  # exactly one of them was too late
