"""A real Application against the in-memory Bot API, with helpers to play through it.

Storage backends: a test that asks for ``database`` (or ``driver``) runs twice, on SQLite and
on PostgreSQL (an embedded server per test process, a fresh database per test).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from telegram.ext import BaseRateLimiter

from bot.app import build_application
from bot.settings import Settings
from bot.table.host import get_host
from bot.table.publishing.board_pictures import BoardPictures
from bot.testing.driver import Driver, FakeUser
from bot.testing.fake_server import FakeTelegramServer
from bot.testing.fake_telegram import FakeTelegram
from tests.bot.databases import BACKENDS, Database, PostgresServer
from tests.bot.process import stop_leftovers

GROUP = -100111
OTHER_GROUP = -100222
ALICE = FakeUser(101, "Alice")
BOB = FakeUser(102, "Bob")
CAROL = FakeUser(103, "Carol", "en-GB")
DAVE = FakeUser(104, "Dave", "de")  # not a supported language: the default (English)
MALLORY = FakeUser(666, "Mallory")
IVAN = FakeUser(201, "Иван", "ru")
OKSANA = FakeUser(202, "Оксана", "uk")
GIULIA = FakeUser(203, "Giulia", "it")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames and "backend" not in own_parameters(metafunc):
        metafunc.parametrize("backend", BACKENDS)


def own_parameters(metafunc: pytest.Metafunc) -> set[str]:
    """The names a test parametrises itself (a test may pick its backends case by case)."""
    names: set[str] = set()
    for marker in metafunc.definition.iter_markers("parametrize"):
        given = marker.args[0]
        names.update(given.replace(" ", "").split(",") if isinstance(given, str) else given)
    return names


def settings_for(database: Database | Path, **overrides) -> Settings:
    if isinstance(database, Path):
        database = Database("sqlite", database)
    return Settings(
        **{
            "telegram_bot_token": "123456:TEST-TOKEN",
            **database.settings(),
            "rate_limit": False,
            "ai_workers": 0,  # AI moves in a thread of the test's process (one test uses the pool)
            "ai_think_seconds": 0.05,  # a hard seat's search, short: tests check play, not strength
            "_env_file": None,
            **overrides,
        }
    )


@asynccontextmanager
async def running_bot(
    api: FakeTelegram,
    database: Database | Path,
    rate_limiter: BaseRateLimiter | None = None,
    one_of_several: bool = False,
    **overrides,
) -> AsyncIterator[Driver]:
    """Build, start and (on exit) stop the bot, as ``python -m bot`` would.
    ``one_of_several``: a worker beside others on the same PostgreSQL (no instance lock)."""
    application = build_application(
        settings_for(database, **overrides), request=api, rate_limiter=rate_limiter
    )
    if one_of_several:
        get_host(application).storage.instance_lock = False
    waits: list[float] = []

    async def no_wait(seconds: float) -> None:
        waits.append(seconds)

    get_host(application).messenger.sleep = no_wait
    application.bot_data["waits"] = waits
    await application.initialize()
    await application.post_init(application)
    driver = Driver(application, api)
    await driver.settle()  # start-up redraws whatever a restart interrupted
    try:
        yield driver
    finally:
        await application.post_stop(application)
        await application.shutdown()
        await application.post_shutdown(application)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    server = PostgresServer()
    yield server
    server.stop()


@pytest.fixture
async def database(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[Database]:
    if backend == "sqlite":
        yield Database("sqlite", tmp_path / "bot.sqlite3")
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    name = await server.create_database()
    yield Database("postgres", tmp_path / "bot.sqlite3", server.url_of(name))
    await server.drop_database(name)


@pytest.fixture
def api() -> FakeTelegram:
    return FakeTelegram()


@pytest.fixture
async def driver(api: FakeTelegram, database: Database) -> AsyncIterator[Driver]:
    async with running_bot(api, database) as running:
        running.group(GROUP, "Game Night")
        running.group(OTHER_GROUP, "Office")
        yield running


@pytest.fixture
def deal(monkeypatch):
    """``deal(seed)``: every match started from now on is dealt from ``seed``."""

    def deal_from(seed: int) -> None:
        monkeypatch.setattr("bot.table.flow.secrets.randbits", lambda bits: seed)

    return deal_from


@pytest.fixture
def ai_fails(monkeypatch):
    """The normal AI raises: timeouts and autopilot fall back to the engine's default move
    (the tests that check each game's default moves through the bot use it)."""

    def broken(*args):
        raise RuntimeError("the AI is out")

    monkeypatch.setattr("bot.table.ai_moves.choose", broken)


# -- the bot as a process (tests/bot/test_process.py, test_startup.py) -----------------------


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegramServer]:
    """The fake Bot API served over HTTP on localhost, for a real ``python -m bot``."""
    running = FakeTelegramServer(FakeTelegram())
    running.start()
    yield running
    await running.stop()


@pytest.fixture
async def no_bot_left_running() -> AsyncIterator[None]:
    """Kill whatever bot process a failed test left running."""
    yield
    await stop_leftovers()


@pytest.fixture
def text_boards(monkeypatch) -> None:
    """Every group shows text boards, as one that chose "Text" with /pictures does: for the
    tests that read the tile games' text boards
    (tests/bot/table/publishing/test_board_pictures.py plays them as pictures, and checks
    that /pictures gives these same text boards)."""

    async def text(self: BoardPictures, match) -> bool:
        return False

    monkeypatch.setattr(BoardPictures, "wanted", text)
