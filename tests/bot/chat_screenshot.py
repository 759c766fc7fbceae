"""``python -m tests.bot.chat_screenshot``: the chat as players see it, for the README
(docs/chat_azul.png): a seeded Azul match a few moves in, played through the fake Telegram;
beside each other, the group (its board, a picture edited at every move, with its caption
and buttons) and the private chat of the player to act (their prompt and its buttons), each
message exactly as the bot sent it, drawn in Telegram's manner. Needs Debian's chromium
(and, for the emoji, fonts-noto-color-emoji)."""

from __future__ import annotations

import asyncio
import base64
import html
import random
import tempfile
from pathlib import Path

from playwright.async_api import async_playwright

import bot.table.flow
from bot.testing.fake_telegram import FakeTelegram, StoredMessage
from games import get_engine
from tests.bot import play_azul
from tests.bot.conftest import ALICE, BOB, GROUP, running_bot
from tests.bot.helpers import current_match
from tests.bot.web.conftest import CHROMIUM, CHROMIUM_ARGS

DOCS = Path(__file__).resolve().parents[2] / "docs"
MOVES = 6

STYLE = """
body { margin: 0; font: 15px/1.35 system-ui, sans-serif; background: #c8d7c0; }
.phones { display: flex; gap: 16px; padding: 16px; align-items: flex-start; }
.chat { width: 380px; background: #b7cfa6; border-radius: 14px; overflow: hidden; }
.top { background: #fff; padding: 10px 14px; font-weight: 600; }
.top small { display: block; font-weight: 400; color: #707579; }
.messages { padding: 10px; display: flex; flex-direction: column; gap: 8px; }
.bubble { background: #fff; border-radius: 12px; max-width: 340px; overflow: hidden;
  box-shadow: 0 1px 1px rgba(0,0,0,.15); }
.bubble.mine { align-self: flex-end; background: #e3fecb; }
.bubble img { display: block; width: 100%; }
.text { padding: 6px 10px 8px; white-space: pre-wrap; }
.name { color: #3a8fd6; font-weight: 600; padding: 6px 10px 0; }
.keys { display: flex; flex-direction: column; gap: 4px; max-width: 340px; }
.row { display: flex; gap: 4px; }
.key { flex: 1; text-align: center; padding: 8px 4px; border-radius: 8px;
  background: rgba(0,0,0,.22); color: #fff; font-weight: 500; font-size: 14px; }
"""


def bubble(message: StoredMessage, bot_name: str) -> str:
    picture = ""
    if message.photo:
        data = base64.b64encode(message.photo).decode()
        picture = f'<img src="data:image/png;base64,{data}" alt="">'
    name = f'<div class="name">{html.escape(bot_name)}</div>' if message.from_bot else ""
    mine = "" if message.from_bot else " mine"
    made = f'<div class="bubble{mine}">{name}{picture}<div class="text">{message.html}</div></div>'
    rows = (message.markup or {}).get("inline_keyboard", [])
    if rows:
        keys = "".join(
            '<div class="row">'
            + "".join(f'<div class="key">{html.escape(b["text"])}</div>' for b in row)
            + "</div>"
            for row in rows
        )
        made += f'<div class="keys">{keys}</div>'
    return made


def chat(title: str, subtitle: str, messages: list[StoredMessage], bot_name: str) -> str:
    shown = "".join(bubble(message, bot_name) for message in messages)
    return (
        f'<div class="chat"><div class="top">{html.escape(title)}'
        f"<small>{html.escape(subtitle)}</small></div>"
        f'<div class="messages">{shown}</div></div>'
    )


async def main() -> None:
    bot.table.flow.secrets.randbits = lambda bits: 20240611
    engine = get_engine("azul")
    with tempfile.TemporaryDirectory() as folder:
        api = FakeTelegram()
        async with running_bot(api, Path(folder) / "bot.sqlite3") as driver:
            driver.group(GROUP, "Game Night")
            await play_azul.start_match(driver, ALICE, [ALICE, BOB])
            rng = random.Random(5)
            for _ in range(MOVES):
                await play_azul.play_move(driver, [ALICE, BOB], rng)
            await driver.settle()
            match = await current_match(driver)
            player = [ALICE, BOB][min(engine.to_act(match.state))]
            name = "Table Bot"
            page_html = (
                f"<html><head><style>{STYLE}</style></head><body><div class='phones'>"
                + chat("Game Night", "group: Alice, Bob, Table Bot", api.visible(GROUP), name)
                + chat(
                    name, f"{player.first_name}'s private chat", api.visible(player.id)[-2:], name
                )
                + "</div></body></html>"
            )
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = await browser.new_page(viewport={"width": 808, "height": 600})
        await page.set_content(page_html)
        target = DOCS / "chat_azul.png"
        await page.screenshot(path=str(target), full_page=True)
        await browser.close()
    print(target)


if __name__ == "__main__":
    asyncio.run(main())
