"""The bot with its table app switched on, against the fake Telegram: its web server on a
free port of localhost, launch data signed as Telegram signs it, and a real headless
Chromium (Debian's, driven by Playwright) for the page."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from bot.testing.driver import Driver, FakeUser
from bot.testing.fake_server import free_port
from bot.testing.fake_telegram import FakeTelegram
from bot.web import limits
from bot.web.auth import signed_init_data
from tests.bot.conftest import GROUP, MALLORY, running_bot
from tests.bot.databases import Database

TOKEN = "123456:TEST-TOKEN"  # the tests' bot token (tests/bot/conftest.py)
# Debian's chromium (apt-get install chromium; .ci/run installs it when it is missing), or
# the browser CHROMIUM names
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def launch_data(
    user: FakeUser, auth_date: float | None = None, token: str = TOKEN, **extra: str
) -> str:
    """``initData`` for ``user``, as Telegram signs it when it opens the app (``extra``:
    more signed fields, such as a startapp link's ``start_param``)."""
    when = int(time.time() if auth_date is None else auth_date)
    return signed_init_data(token, user.as_dict(), when, **extra)


def header(user: FakeUser, **kwargs) -> dict[str, str]:
    return {"Authorization": f"tma {launch_data(user, **kwargs)}"}


@dataclass
class TableBot:
    """The running bot, its fake Telegram, and its web server's address."""

    driver: Driver
    api: FakeTelegram
    url: str

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.url, timeout=10)

    def page_url(self, user: FakeUser, match_id: int | None = None, **kwargs) -> str:
        """The address Telegram opens: the table's, with the launch data after #."""
        query = f"?m={match_id}" if match_id is not None else ""
        return f"{self.url}/app/{query}#tgWebAppData={quote(launch_data(user, **kwargs))}"

    def main_app_url(self, user: FakeUser, parameter: str) -> str:
        """The address Telegram opens for a ``t.me/<bot>?startapp=<parameter>`` link: the
        Main Mini App's own (no match in it), the parameter in the signed launch data."""
        data = quote(launch_data(user, start_param=parameter))
        return f"{self.url}/app/#tgWebAppData={data}&tgWebAppStartParam={parameter}"


@pytest.fixture
async def main_app_bot(database: Database) -> AsyncIterator[TableBot]:
    """The bot whose table app is its Main Mini App (``WEB_APP_MAIN``)."""
    async with running_table_bot(database, web_app_main=True) as bot:
        yield bot


@asynccontextmanager
async def running_table_bot(database: Database, **settings) -> AsyncIterator[TableBot]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    api = FakeTelegram()
    api.outsiders[GROUP].add(MALLORY.id)  # not in the group: a stranger to its tables
    async with running_bot(api, database, web_app_url=url, health_port=port, **settings) as d:
        d.group(GROUP, "Game Night")
        yield TableBot(d, api, url)


@pytest.fixture
async def table_bot(database: Database) -> AsyncIterator[TableBot]:
    async with running_table_bot(database) as bot:
        yield bot


@pytest.fixture
def unpaced(monkeypatch) -> None:
    """No budget spent: for tests that ask faster than any finger, where the budgets are not
    what they measure."""

    async def spend(self, action, key=None) -> None:
        return None

    monkeypatch.setattr(limits.Budgets, "spend", spend)
    monkeypatch.setattr(limits.Budgets, "has", lambda self, action, key=None: True)


@pytest.fixture
async def chromium() -> AsyncIterator:
    """A headless Chromium; telegram.org's script cannot be reached, as offline."""
    from playwright.async_api import async_playwright

    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"no Chromium at {CHROMIUM}: apt-get install chromium (or set CHROMIUM)")
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        await browser.close()


async def open_page(browser, url: str, width: int = 400, **options):
    """A phone-wide page at ``url`` (telegram.org refused: the page works without it);
    ``options``: Playwright's page options (reduced_motion, user_agent, color_scheme)."""
    page = await browser.new_page(viewport={"width": width, "height": 900}, **options)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    await page.route("https://telegram.org/**", lambda route: route.abort())
    await page.goto(url)
    return page
