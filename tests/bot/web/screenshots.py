"""``python -m tests.bot.web.screenshots``: the table app at 400 px, for the docs
(docs/table_<game>.png, and docs/table_<game>_dark.png in the dark theme): a seeded match a
few moves in, seen by the player to act, tiles or cards picked, their choices lit and the
move's buttons in the status bar. Needs
Debian's chromium (and, for the emoji, fonts-noto-color-emoji). Names of games as arguments:
those alone."""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from playwright.async_api import async_playwright

import bot.table.flow
from bot.presentation.i18n import translator
from bot.testing.fake_telegram import FakeTelegram
from bot.web import cards
from games import get_engine
from games.ai import choose
from tests.bot import play5211, play_azul, play_donkey, play_sultan, play_summer_pavilion
from tests.bot.conftest import ALICE, BOB, CAROL, GROUP, running_bot
from tests.bot.helpers import current_match, play_by_data
from tests.bot.web.conftest import CHROMIUM, CHROMIUM_ARGS, TableBot, free_port
from tests.bot.web.taps import tap, wait_for_version

DOCS = Path(__file__).resolve().parents[3] / "docs"
MOVES = {"azul": 14, "summer_pavilion": 24, "5211": 4, "sultan": 9, "donkey": 6}
CARD_START = {
    "5211": lambda driver, players: play5211.start_game(driver, GROUP, ALICE, players),
    "sultan": lambda driver, players: play_sultan.start_game(driver, GROUP, ALICE, players),
    "donkey": lambda driver, players: play_donkey.start_match(driver, ALICE, players),
}


@asynccontextmanager
async def bot_with_the_app() -> AsyncIterator[TableBot]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        api = FakeTelegram()
        database = Path(folder) / "bot.sqlite3"
        async with running_bot(api, database, web_app_url=url, health_port=port) as driver:
            driver.group(GROUP, "Game Night")
            yield TableBot(driver, api, url)


WIDTH = 400


async def table_page(browser, bot: TableBot, user, match, scheme: str = "light"):
    """The table of ``match`` as ``user`` opens it, ``WIDTH`` px wide."""
    page = await browser.new_page(viewport={"width": WIDTH, "height": 800}, color_scheme=scheme)
    await page.route("https://telegram.org/**", lambda route: route.abort())
    await page.goto(bot.page_url(user, match.id))
    await wait_for_version(page, match.version)
    return page


async def whole_page(page, target: Path) -> None:
    """The whole table in one picture, the status bar at its foot as on a phone: the
    window made as tall as the page (a full-page capture would leave the fixed bar where
    the first screen ends)."""
    await page.evaluate("() => window.scrollTo(0, 0)")
    height = await page.evaluate("() => document.documentElement.scrollHeight")
    await page.set_viewport_size({"width": WIDTH, "height": height})
    await page.screenshot(path=str(target))


async def shoot_cards(game: str, browser) -> list[Path]:
    """A card game a few moves in, seen by the player to act with cards of a move picked."""
    engine = get_engine(game)
    players = [ALICE, BOB, CAROL]
    async with bot_with_the_app() as bot:
        await CARD_START[game](bot.driver, players)
        for number in [*range(MOVES[game]), None]:
            match = await current_match(bot.driver)
            seat = min(engine.to_act(match.state))
            view, legal = engine.view(match.state, seat), engine.legal_actions(match.state, seat)
            action = choose(game, "normal", view, seat, legal, number or 99)
            if number is not None:
                await play_by_data(bot.driver, match, players[seat], action)
        await bot.driver.settle()
        shots = []
        for scheme, suffix in (("light", ""), ("dark", "_dark")):
            page = await table_page(browser, bot, players[seat], match, scheme)
            (choice,) = cards.choices(game, translator("en"), view, seat, [action])
            for card in choice["cards"]:
                await tap(page, f".hand-fan .card.playable[data-card='{card}']:not(.chosen)")
            await page.evaluate("() => document.querySelector('.summary')?.click()")
            target = DOCS / f"table_{game}{suffix}.png"
            await whole_page(page, target)
            shots.append(target)
            await page.close()
        return shots


async def shoot(game: str, browser) -> list[Path]:
    """A tile game a few rounds in, seen by the player to act with tiles picked."""
    module = play_azul if game == "azul" else play_summer_pavilion
    engine = get_engine(game)
    async with bot_with_the_app() as bot:
        await module.start_match(bot.driver, ALICE, [ALICE, BOB])
        rng = random.Random(5)
        for _ in range(MOVES[game]):
            await module.play_move(bot.driver, [ALICE, BOB], rng)
        match = await current_match(bot.driver)
        seat = min(engine.to_act(match.state))
        shots = []
        for scheme, suffix in (("light", ""), ("dark", "_dark")):
            page = await table_page(browser, bot, [ALICE, BOB][seat], match, scheme)
            legal = engine.legal_actions(match.state, seat)
            if game == "azul":
                source, colour = legal[0][0], legal[0][1]
                await tap(page, f".sources [data-source='{source}'][data-colour='{colour}']")
            else:
                places = [action for action in legal if action[0] == 1]  # a colour to place
                if places:
                    await tap(page, f"[data-seat='{seat}'] [data-hand='{places[0][3]}']")
            target = DOCS / f"table_{game}{suffix}.png"
            await whole_page(page, target)
            shots.append(target)
            await page.close()
        return shots


async def main(games: list[str]) -> None:
    bot.table.flow.secrets.randbits = lambda bits: 20240611
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for game in games:
            if game in CARD_START:
                print(*await shoot_cards(game, browser))
            else:
                print(*await shoot(game, browser))
        await browser.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:] or ["azul", "summer_pavilion", "5211", "sultan", "donkey"]))
