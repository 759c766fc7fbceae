"""The table app's movement and Telegram's Mini App conventions, in a real Chromium: a bid
or card that arrives travels from its seat by a transform, none under prefers-reduced-motion,
a short fade in Telegram's low performance class (an Android user agent ending in "LOW");
the page calls ready() once the first table is drawn, asks for fullscreen on a phone, sets
the header colour, and keeps clear of Telegram's safe area and content safe area."""

from __future__ import annotations

import pytest

from games import get_engine
from games.ai import choose
from tests.bot.conftest import ALICE, CAROL
from tests.bot.helpers import current_match, play_by_data
from tests.bot.web.conftest import open_page
from tests.bot.web.taps import wait_for_version
from tests.bot.web.test_cards_browser import slow_motion
from tests.bot.web.test_secrets import PLAYERS, start

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])

LOW_ANDROID = (
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/120.0.0.0 Mobile Safari/537.36 Telegram-Android/11.2.3 (Xiaomi Redmi 9; "
    "Android 10; SDK 29; LOW)"
)
# every running animation: what it moves (its keyframes' properties) and its element's key
ANIMATIONS = """() => {
  const timing = ["offset", "easing", "composite", "computedOffset"];
  return document.getAnimations()
    .filter((a) => a.playState === "running")
    .map((a) => ({
      key: a.effect.target.dataset.key || null,
      moves: Object.keys(a.effect.getKeyframes()[0]).filter((k) => !timing.includes(k)),
    }));
}"""


async def make_a_move(bot, engine, match):
    seat = min(engine.to_act(match.state))
    view, legal = engine.view(match.state, seat), engine.legal_actions(match.state, seat)
    action = choose(match.game, "normal", view, seat, legal, 0)
    await play_by_data(bot.driver, match, PLAYERS[seat], action)
    return await current_match(bot.driver)


async def test_a_bid_travels_from_its_seat_unless_motion_is_reduced_or_the_phone_is_slow(
    table_bot, chromium
):
    match = await start(table_bot, "sultan")
    engine = get_engine("sultan")
    match = await make_a_move(table_bot, engine, match)  # the gem back: the bidding begins
    url = table_bot.page_url(CAROL, match.id)
    full = await open_page(chromium, url)
    still = await open_page(chromium, url, reduced_motion="reduce")
    low = await open_page(chromium, url, user_agent=LOW_ANDROID)
    pages = (full, still, low)
    for page in pages:
        await slow_motion(page)
        await wait_for_version(page, match.version)
    after = await make_a_move(table_bot, engine, match)  # a bid, face down on a cushion
    for page in pages:
        await wait_for_version(page, after.version)
    motions = [
        await page.evaluate("() => document.documentElement.dataset.motion") for page in pages
    ]
    assert motions == ["full", "none", "low"]
    travelling = await full.evaluate(ANIMATIONS)
    assert travelling and all("transform" in a["moves"] for a in travelling)
    assert await still.evaluate(ANIMATIONS) == []
    fading = await low.evaluate(ANIMATIONS)
    assert fading and all(a["moves"] == ["opacity"] for a in fading)
    assert {a["key"] for a in travelling} == {a["key"] for a in fading}  # the same arrivals
    bid = after.state["bid_cushions"][-1]
    assert [a["key"] for a in travelling] == ["1.1.bid0"]  # the bid, and only it, travels
    assert await full.locator(f"[data-cushion='{bid}'] [data-key='1.1.bid0']").count() == 1
    last = await full.locator(".last").count()
    assert last >= 1 and await still.locator(".last").count() == last  # highlighted all the same
    for page in pages:
        assert page.errors == []


# Telegram's WebApp object as its script makes it, on an Android phone: every call recorded
FAKE_TELEGRAM = """(data) => {
  const calls = [];
  const drawn = () => document.querySelector("#table")?.children.length ?? 0;
  const record = (name) => (...args) => { calls.push({ name, args, drawn: drawn() }); };
  const none = () => {};
  const button = {
    setText: record("MainButton.setText"), onClick: record("MainButton.onClick"),
    offClick: none, show: none, hide: none,
  };
  window.telegramCalls = calls;
  window.Telegram = { WebApp: {
    initData: data, platform: "android", version: "8.0", themeParams: {},
    isVersionAtLeast: (v) => Number(v) <= 8, ready: record("ready"), expand: record("expand"),
    requestFullscreen: record("requestFullscreen"), setHeaderColor: record("setHeaderColor"),
    onEvent: () => {}, MainButton: button, BackButton: { ...button },
    HapticFeedback: { selectionChanged: none, impactOccurred: none, notificationOccurred: none },
  } };
}"""


async def test_the_page_follows_telegrams_mini_app_conventions(table_bot, chromium):
    from urllib.parse import unquote

    match = await start(table_bot, "5211")
    url = table_bot.page_url(ALICE, match.id)
    page = await chromium.new_page(viewport={"width": 400, "height": 900})
    await page.route("https://telegram.org/**", lambda route: route.abort())
    await page.add_init_script(
        script=f"({FAKE_TELEGRAM})({unquote(url.split('tgWebAppData=')[1])!r})"
    )
    await page.add_init_script(
        script="document.addEventListener('DOMContentLoaded', () => {"
        "const s = document.documentElement.style;"
        "s.setProperty('--tg-safe-area-inset-top', '24px');"
        "s.setProperty('--tg-content-safe-area-inset-top', '56px');"
        "s.setProperty('--tg-safe-area-inset-bottom', '30px'); })"
    )
    await page.goto(url)
    await wait_for_version(page, match.version)
    calls = await page.evaluate("() => window.telegramCalls")
    names = [call["name"] for call in calls]
    assert "requestFullscreen" in names and "setHeaderColor" in names and "expand" in names
    readies = [call for call in calls if call["name"] == "ready"]
    assert readies and all(call["drawn"] > 0 for call in readies)  # only once a table is drawn
    top = await page.evaluate("() => document.querySelector('main').getBoundingClientRect().top")
    assert top >= 24 + 56  # below Telegram's own controls
    bottom = await page.evaluate("() => getComputedStyle(document.body).paddingBottom")
    assert float(bottom.removesuffix("px")) >= 30


async def test_the_tile_games_share_the_seat_header_and_a_laid_tile_settles_in(table_bot, chromium):
    """Azul, as the card games: every seat in the header with its score and the clock of the
    player to act; the tiles a move lays on a board settle into place and stay highlighted."""
    from tests.bot.web.taps import tap_azul
    from tests.bot.web.test_browser import PLAYERS as PAIR
    from tests.bot.web.test_browser import azul_for_the_player_to_act

    match, seat, page = await azul_for_the_player_to_act(table_bot, chromium)
    await slow_motion(page)
    seats = page.locator(".seats .seat")
    assert await seats.count() == 2
    # the reader's own seat, whose turn it is: said, not only drawn
    label = f"{PAIR[seat].first_name}: 0 points, Your turn, you"
    assert await seats.nth(seat).get_attribute("aria-label") == label
    other = f"{PAIR[1 - seat].first_name}: 0 points"
    assert await seats.nth(1 - seat).get_attribute("aria-label") == other
    assert await page.locator(f".seats .seat.acting[data-seat='{seat}'] .clock").count() == 1
    engine = get_engine("azul")
    action = next(a for a in engine.legal_actions(match.state, seat) if a[2] != 5)  # a line
    await tap_azul(page, seat, action)
    await wait_for_version(page, match.version + 1)
    laid = page.locator(f".board[data-seat='{seat}'] [data-line='{action[2]}'] .tile.arrived")
    assert await laid.count() >= 1  # the new tiles on the pattern line, highlighted
    moving = await page.evaluate(ANIMATIONS)
    assert any(a["key"] and a["key"].startswith(f"line.{seat}.{action[2]}.") for a in moving)
    assert all("transform" in a["moves"] for a in moving)
    assert page.errors == []
