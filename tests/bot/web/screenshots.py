"""``python -m tests.bot.web.screenshots``: the table app at 400 px, for the docs
(docs/table_azul.png, docs/table_summer_pavilion.png): a seeded match a few rounds in, seen
by the player to act, tiles picked and their choices lit. Needs Debian's chromium (and, for
the emoji of the headings, fonts-noto-color-emoji)."""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

from playwright.async_api import async_playwright

import bot.table.flow
from bot.testing.fake_telegram import FakeTelegram
from games import get_engine
from tests.bot import play_azul, play_summer_pavilion
from tests.bot.conftest import ALICE, BOB, GROUP, running_bot
from tests.bot.helpers import current_match
from tests.bot.web.conftest import CHROMIUM, CHROMIUM_ARGS, TableBot, free_port
from tests.bot.web.taps import tap, wait_for_version

DOCS = Path(__file__).resolve().parents[3] / "docs"
MOVES = {"azul": 14, "summer_pavilion": 24}


async def shoot(game: str, browser) -> Path:
    module = play_azul if game == "azul" else play_summer_pavilion
    engine = get_engine(game)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        api = FakeTelegram()
        async with running_bot(
            api, Path(folder) / "bot.sqlite3", web_app_url=url, health_port=port
        ) as driver:
            driver.group(GROUP, "Game Night")
            await module.start_match(driver, ALICE, [ALICE, BOB])
            rng = random.Random(5)
            for _ in range(MOVES[game]):
                await module.play_move(driver, [ALICE, BOB], rng)
            match = await current_match(driver)
            seat = min(engine.to_act(match.state))
            page = await browser.new_page(viewport={"width": 400, "height": 800})
            await page.route("https://telegram.org/**", lambda route: route.abort())
            await page.goto(TableBot(driver, api, url).page_url([ALICE, BOB][seat], match.id))
            await wait_for_version(page, match.version)
            legal = engine.legal_actions(match.state, seat)
            if game == "azul":
                source, colour = legal[0][0], legal[0][1]
                await tap(page, f".sources [data-source='{source}'][data-colour='{colour}']")
            else:
                places = [action for action in legal if action[0] == 1]  # a colour to place
                if places:
                    await tap(page, f"[data-seat='{seat}'] [data-hand='{places[0][3]}']")
            target = DOCS / f"table_{game}.png"
            await page.screenshot(path=str(target), full_page=True)
            return target


async def main() -> None:
    bot.table.flow.secrets.randbits = lambda bits: 20240611
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for game in ("azul", "summer_pavilion"):
            print(await shoot(game, browser))
        await browser.close()


if __name__ == "__main__":
    asyncio.run(main())
