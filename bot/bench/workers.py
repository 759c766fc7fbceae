"""``python -m bot.bench.workers``: several workers on one PostgreSQL (issue 57), measured
in one run on this machine — updates a second and table-app moves a second with 1, 2 and 3
workers (as ratios to one), and a press's latency, p50 and p99.

Each worker is a real ``python -m bot`` (``SEVERAL_WORKERS=true``, webhook mode, the table
app on) on a PostgreSQL started for the run, calling a fake Telegram served by this process.
Players of ``--matches`` 5211 matches press their moves as fast as the bot answers, each
match one press at a time, the presses spread over the workers' webhooks in turn as a
router would; the app's players then move through the table app's HTTP API the same way.
A press's latency runs from its POST to the webhook until its answer reaches Telegram; an
app move's until its answer. The workers' CPU is read from ``/proc``. Rate limiting is off:
what is measured is the workers, not Telegram's budget."""

from __future__ import annotations

import argparse
import asyncio
import itertools
import logging
import os
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import httpx

from bot.bench import database_for
from bot.settings import Settings
from bot.storage import Match
from bot.storage.postgres import PostgresStorage
from bot.storage.shared import TABLES_CHANNEL
from bot.telegram_api.callbacks import Callback
from bot.testing.driver import Driver, FakeUser
from bot.testing.fake_server import FakeTelegramServer, free_port
from bot.testing.fake_telegram import FakeTelegram
from bot.web.auth import signed_init_data
from games import get_engine
from games.core import encode_action

TOKEN = "123456:WORKERS-BENCH"
HOOK = "https://bots.example.com"
ENGINE = get_engine("5211")
ROOT = Path(__file__).resolve().parents[2]
TICKS = os.sysconf("SC_CLK_TCK")
MOVE_WAITS = 10.0  # a move answered and not made by then was refused: it is made again


def cpu_seconds(pid: int) -> float:
    """A process's CPU so far (user and system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


@dataclass
class Phase:
    done: int = 0
    latencies: list[float] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # moves the bot refused, by its answer
    again: int = 0  # moves answered but not made in MOVE_WAITS: made again
    wall: float = 0.0
    cpu: float = 0.0

    def per_second(self) -> float:
        return self.done / self.wall if self.wall else 0.0

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


class Bench:
    def __init__(self, url: str, workdir: Path, count: int, args: argparse.Namespace) -> None:
        self.url, self.workdir, self.count, self.args = url, workdir, count, args
        self.answered: dict[str, asyncio.Future] = {}
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.api = FakeTelegram(record=False, on_answer=self._answered)
        self.server = FakeTelegramServer(self.api)
        self.driver = Driver(None, self.api)  # type: ignore[arg-type]  (builds updates only)
        # update ids of this run's own: the inbox keeps the ids it has seen for a day
        self.driver._update_ids = itertools.count(time.time_ns() // 1000)
        self.ports = [free_port() for _ in range(count)]
        self.processes: list[asyncio.subprocess.Process] = []
        self.settings = Settings(telegram_bot_token=TOKEN, webhook_url=HOOK, _env_file=None)
        self.storage = PostgresStorage(url)  # reads the matches, as one more client
        self.next_port = itertools.cycle(range(count))
        self.clients: list[httpx.AsyncClient] = []
        self.versions: dict[int, int] = {}  # each match's latest version, as the workers tell
        self.moved: dict[int, asyncio.Future] = {}
        self.listener: asyncpg.Connection | None = None

    def _answered(self, query_id: str) -> None:
        waiting = self.answered.pop(query_id, None)
        if waiting is not None and not waiting.done():
            waiting.set_result(time.perf_counter())

    async def start(self) -> None:
        self.server.start()
        await self.storage.open()
        self.listener = await asyncpg.connect(self.url)
        await self.listener.add_listener(TABLES_CHANNEL, self._heard)
        for port in self.ports:
            env = {
                **os.environ,
                "TELEGRAM_BOT_TOKEN": TOKEN,
                "TELEGRAM_API_URL": self.server.url,
                "DATABASE_URL": self.url,
                "SEVERAL_WORKERS": "true",
                "WEBHOOK_URL": HOOK,
                "PORT": str(port),
                "WEB_APP_URL": f"http://127.0.0.1:{port}",
                "RATE_LIMIT": "false",
                "DEFAULT_TURN_SECONDS": "0",
                "AI_WORKERS": "0",
                "LOG_LEVEL": "WARNING",
            }
            log = (self.workdir / f"worker-{port}.log").open("ab")
            self.processes.append(
                await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bot", cwd=ROOT, env=env, stdout=log, stderr=log
                )
            )
        self.clients = [
            httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30)
            for port in self.ports
        ]
        for client in self.clients:
            for _ in range(600):
                try:
                    if (await client.get("/healthz")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.1)
            else:
                logs = sorted(self.workdir.glob("worker-*.log"))
                tail = logs[-1].read_text()[-2000:] if logs else ""
                raise RuntimeError(f"a worker did not become ready; its log ends:\n{tail}")

    async def stop(self) -> None:
        for process in self.processes:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                await asyncio.wait_for(process.wait(), 30)
            except TimeoutError:
                process.kill()
        for client in self.clients:
            await client.aclose()
        if self.listener is not None:
            await self.listener.close()
        await self.storage.close()
        await self.server.stop()

    async def deliver(self, update: dict) -> None:
        """One update to the next worker's webhook, as Telegram through a router; again
        until it is taken."""
        headers = {"X-Telegram-Bot-Api-Secret-Token": self.settings.webhook_secret_token()}
        path = f"/{self.settings.webhook_path()}"
        for _ in range(100):
            client = self.clients[next(self.next_port)]
            answer = await client.post(path, json=update, headers=headers)
            if answer.status_code == 200:
                return
            await asyncio.sleep(0.05)
        raise RuntimeError("no worker took an update")

    async def load(self, match_id: int) -> Match:
        self.storage.forget_match(match_id)
        match = await self.storage.load(match_id)
        assert match is not None
        return match

    async def open_match(self, number: int) -> tuple[int, list[FakeUser]]:
        """/new 5211 in a group of its own, both players join by the link, the creator
        starts; the match's id and its players."""
        group = -(10**9) - number
        self.driver.group(group, f"Bench {number}")
        players = [FakeUser(10**6 * number + seat, f"P{seat}") for seat in range(2)]
        await self.deliver(self.driver.message_update(players[0], group, "/new 5211"))
        match_id = None
        for _ in range(600):
            match_id = await self.storage.active_match_id(group, 0)
            if match_id is not None:
                break
            await asyncio.sleep(0.02)
        assert match_id is not None, "the lobby did not open"
        for player in players:
            self.api.started.add(player.id)
            await self.deliver(self.driver.message_update(player, player.id, f"/start j{match_id}"))
        for _ in range(600):  # both seated, then started
            if len((await self.load(match_id)).seats) == 2:
                break
            await asyncio.sleep(0.02)
        start = Callback("st", match_id).encode()
        await self.deliver(self.driver.press_update(players[0], group, 1, start))
        for _ in range(600):
            if (await self.load(match_id)).status == "playing":
                return match_id, players
            await asyncio.sleep(0.02)
        raise RuntimeError("the match did not start")

    def _heard(self, connection, pid, channel, payload: str) -> None:
        match_id, _, version = payload.partition(":")
        match, seen = int(match_id), int(version)
        if seen > self.versions.get(match, 0):
            self.versions[match] = seen
            waiting = self.moved.pop(match, None)
            if waiting is not None and not waiting.done():
                waiting.set_result(None)

    async def next_move(self, match_id: int, version: int, phase: Phase) -> Match | None:
        """The match once it is past ``version`` (the last move committed; heard from the
        workers' own LISTEN/NOTIFY, not polled), None if over; after ``MOVE_WAITS`` seconds
        as it is (the move was refused — a database slower than its bound under load
        answers "try again" — and is made again, counted)."""
        give_up = time.perf_counter() + MOVE_WAITS
        while self.versions.get(match_id, 0) <= version:
            moved = self.moved.setdefault(match_id, asyncio.get_running_loop().create_future())
            try:
                await asyncio.wait_for(asyncio.shield(moved), 0.5)
            except TimeoutError:  # (a notice lost: the database says)
                match = await self.load(match_id)
                if match.version > version or match.status != "playing":
                    break
                if time.perf_counter() > give_up:
                    phase.again += 1
                    return match
        match = await self.load(match_id)
        return match if match.status == "playing" else None

    async def press(self, match: Match, players: list[FakeUser], phase: Phase) -> None:
        seat = min(ENGINE.to_act(match.state))
        action = ENGINE.legal_actions(match.state, seat)[0]
        data = Callback("a", match.id, match.seats[seat].token, encode_action(action)).encode()
        update = self.driver.press_update(players[seat], players[seat].id, 1, data)
        answered = asyncio.get_running_loop().create_future()
        self.answered[update["callback_query"]["id"]] = answered
        sent = time.perf_counter()
        await self.deliver(update)
        phase.latencies.append(await asyncio.wait_for(answered, 30) - sent)

    async def app_move(self, match: Match, players: list[FakeUser], phase: Phase) -> None:
        seat = min(ENGINE.to_act(match.state))
        action = ENGINE.legal_actions(match.state, seat)[0]
        user = players[seat]
        launch = signed_init_data(TOKEN, user.as_dict(), int(time.time()))
        client = self.clients[next(self.next_port)]
        sent = time.perf_counter()
        answer = await client.post(
            f"/api/tables/{match.id}/moves",
            json={"action": list(action), "token": match.seats[seat].token},
            headers={"Authorization": f"tma {launch}"},
        )
        if answer.status_code != 200:  # refused (counted): the next read decides
            phase.refused.append(answer.text)
            if len(phase.refused) <= 3:
                print(f"an app move refused: {answer.status_code} {answer.text}", file=sys.stderr)
            return
        phase.latencies.append(time.perf_counter() - sent)

    async def phase(self, tables: list[tuple[int, list[FakeUser]]], through_app: bool) -> Phase:
        """Every match moved as fast as the bot answers, for ``--seconds``."""
        phase = Phase()
        move = self.app_move if through_app else self.press
        until = time.perf_counter() + self.args.seconds

        async def play(match_id: int, players: list[FakeUser]) -> None:
            match = await self.load(match_id)
            while time.perf_counter() < until and match is not None:
                refused = len(phase.refused)
                await move(match, players, phase)
                if len(phase.refused) > refused:
                    match = await self.load(match_id)
                    continue
                phase.done += 1
                match = await self.next_move(match_id, match.version, phase)

        cpu = sum(cpu_seconds(p.pid) for p in self.processes)
        started = time.perf_counter()
        await asyncio.gather(*(play(match_id, players) for match_id, players in tables))
        phase.wall = time.perf_counter() - started
        phase.cpu = sum(cpu_seconds(p.pid) for p in self.processes) - cpu
        return phase


async def one_count(url: str, workdir: Path, count: int, args) -> dict[str, float]:
    bench = Bench(url, workdir, count, args)
    await bench.start()
    try:
        base = 1000 * count + int(time.time()) % 1000 * 10_000
        tables = [await bench.open_match(base + n) for n in range(args.matches)]
        presses = await bench.phase(tables, through_app=False)
        tables = [await bench.open_match(base + args.matches + n) for n in range(args.matches)]
        app = await bench.phase(tables, through_app=True)
    finally:
        await bench.stop()
    return {
        "updates_per_s": presses.per_second(),
        "update_cpu_ms": presses.cpu / max(1, presses.done) * 1000,
        "p50_ms": presses.percentile(0.5),
        "p99_ms": presses.percentile(0.99),
        "app_moves_per_s": app.per_second(),
        "app_cpu_ms": app.cpu / max(1, app.done) * 1000,
        "app_p50_ms": app.percentile(0.5),
        "app_p99_ms": app.percentile(0.99),
        "app_refused": len(app.refused),
        "made_again": presses.again + app.again,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="1,2,3", help="the counts of workers to run")
    parser.add_argument("--matches", type=int, default=12, help="matches played at once")
    parser.add_argument("--seconds", type=float, default=8.0, help="each phase's length")
    parser.add_argument("--runs", type=int, default=3, help="the median of this many")
    parser.add_argument("--quick", action="store_true", help="a smoke run: tiny and once")
    args = parser.parse_args(argv)
    if args.quick:
        args.workers, args.matches, args.seconds, args.runs = "1,2", 2, 1.0, 1
    counts = [int(n) for n in args.workers.split(",")]
    logging.getLogger("tornado.access").setLevel(logging.ERROR)  # the fake Telegram's lines
    with tempfile.TemporaryDirectory() as workdir, database_for("postgres", workdir) as url:
        assert url is not None
        runs = [
            {n: asyncio.run(one_count(url, Path(workdir), n, args)) for n in counts}
            for _ in range(args.runs)
        ]
    figures = {
        n: {key: statistics.median(run[n][key] for run in runs) for key in runs[0][n]}
        for n in counts
    }
    one = figures[counts[0]]
    print(
        f"several workers on one PostgreSQL, {args.matches} matches at once, median of {args.runs}"
    )
    print(
        "| workers | updates/s | × one | CPU ms/update | press p50 ms | p99 ms "
        "| app moves/s | × one | CPU ms/move | app p50 ms | p99 ms |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for n in counts:
        f = figures[n]
        print(
            f"| {n} | {f['updates_per_s']:.1f} | {f['updates_per_s'] / one['updates_per_s']:.2f} "
            f"| {f['update_cpu_ms']:.1f} | {f['p50_ms']:.0f} | {f['p99_ms']:.0f} "
            f"| {f['app_moves_per_s']:.1f} | {f['app_moves_per_s'] / one['app_moves_per_s']:.2f} "
            f"| {f['app_cpu_ms']:.1f} | {f['app_p50_ms']:.0f} | {f['app_p99_ms']:.0f} |"
        )
    refused = {n: figures[n]["app_refused"] for n in counts}
    again = {n: figures[n]["made_again"] for n in counts}
    print(f"app moves the bot refused (median a run): {refused}; moves made again: {again}")


if __name__ == "__main__":
    main()
