"""The real bot as a separate process (``python -m bot``) against the fake Bot API on
localhost: for crash and shutdown tests."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bot.testing.driver import Driver
from bot.testing.fake_server import FakeTelegramServer
from bot.testing.fake_telegram import FakeTelegram
from tests.bot.databases import Database

ROOT = Path(__file__).resolve().parents[2]


async def until(condition: Callable[[], bool], timeout: float = 20.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
        await asyncio.sleep(0.02)


def last_calls(api: FakeTelegram, count: int = 15) -> str:
    """The latest Bot API calls, for a failure message."""
    return "\n".join(f"{method} {str(params)[:160]}" for method, params in api.calls[-count:])


RUNNING: set[asyncio.subprocess.Process] = set()  # bot processes a test has not stopped yet


async def stop_leftovers() -> None:
    """Kill whatever bot process a failed test left running (a test's teardown)."""
    for process in list(RUNNING):
        if process.returncode is None:
            process.kill()
            await process.wait()
        RUNNING.discard(process)


class BotProcess:
    def __init__(
        self,
        server: FakeTelegramServer,
        database: Database | Path,
        log: str = "bot.log",
        **env: str,
    ) -> None:
        if isinstance(database, Path):
            database = Database("sqlite", database)
        self.server = server
        self.database = database
        self.env = env
        self.process: asyncio.subprocess.Process | None = None
        self.log = database.path.parent / log

    async def start(self, ready: str | None = "getUpdates") -> None:
        """Start ``python -m bot``; ready once it makes the ``ready`` call (polling by
        default; ``setWebhook`` for a webhook; ``None``: at once)."""
        env = {
            **os.environ,
            "TELEGRAM_BOT_TOKEN": "123456:PROCESS-TEST",
            "TELEGRAM_API_URL": self.server.url,
            **self.database.env(),
            "RATE_LIMIT": "false",
            "DEFAULT_TURN_SECONDS": "0",
            "WEBHOOK_URL": "",
            "LOG_LEVEL": "WARNING",
            **self.env,
        }
        calls = len(self.server.api.calls)
        with self.log.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=ROOT, env=env, stdout=log, stderr=log
            )
        RUNNING.add(self.process)
        if ready is None:
            return
        await until(
            lambda: any(m == ready for m, _ in self.server.api.calls[calls:]),
            what=f"the bot to call {ready}",
        )

    async def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        RUNNING.discard(self.process)

    async def terminate(self) -> float:
        """SIGTERM, as a PaaS restart sends; returns how long the bot took to exit."""
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(self.process.wait(), 30)
        RUNNING.discard(self.process)
        return time.monotonic() - started


class ProcessDriver(Driver):
    """Plays users against a bot process: updates go to getUpdates, then we wait for the
    bot to answer."""

    def __init__(self, api: FakeTelegram) -> None:
        super().__init__(application=None, api=api)  # type: ignore[arg-type]

    async def feed(self, update: dict) -> None:
        calls = len(self.api.calls)
        answers = len(self.api.answers)
        self.api.queue_update(update)
        if "callback_query" in update:
            await until(lambda: len(self.api.answers) > answers, what="the press to be answered")
        else:
            await until(
                lambda: any(m != "getUpdates" for m, _ in self.api.calls[calls:]),
                what="the bot to react",
            )
        await self.settle()

    async def settle(self) -> None:
        """Wait until the bot has been quiet (no call but polling) for a moment."""
        quiet_since = time.monotonic()
        seen = len(self.api.calls)
        while time.monotonic() - quiet_since < 0.25:
            await asyncio.sleep(0.02)
            busy = any(m != "getUpdates" for m, _ in self.api.calls[seen:])
            seen = len(self.api.calls)
            if busy:
                quiet_since = time.monotonic()


def without_write_override() -> list[str]:
    """A command prefix that makes file permissions bind the bot process: root normally
    writes to read-only files; without CAP_DAC_OVERRIDE it cannot."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    assert setpriv, "running as root: util-linux's setpriv is needed to drop CAP_DAC_OVERRIDE"
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search", "--"]


async def run_to_exit(
    env: dict[str, str], cwd: Path = ROOT, prefix: list[str] = (), timeout: float = 60
) -> tuple[int, str]:
    """Run ``python -m bot`` until it exits by itself; returns (exit status, stderr). The
    environment is the caller's alone (nothing of the bot's is inherited)."""
    inherited = {key: value for key, value in os.environ.items() if key in ("PATH", "HOME")}
    process = await asyncio.create_subprocess_exec(
        *prefix,
        sys.executable,
        "-m",
        "bot",
        cwd=cwd,
        env={**inherited, "PYTHONPATH": str(ROOT), **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        _, stderr = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise AssertionError(f"python -m bot did not exit within {timeout} s") from None
    return process.returncode, stderr.decode()
