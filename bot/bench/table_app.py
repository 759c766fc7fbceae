"""``python -m bot.bench.table_app``: the table app's figures, in one JSON line.

The real bot (SQLite in a temporary folder, the fake Telegram, the table app on a free port
of localhost) opens ``--matches`` matches of ``--game`` (2 players, 3 in Who's the Donkey?;
Azul by default); a client in a process of its own then measures, so that the bot's CPU time
is the bot's alone:

* ``first_load_bytes`` — the page and every file it loads, uncompressed (Telegram's own
  script, from telegram.org, apart: ``telegram_script``), against
  ``first_load_budget_bytes`` (150 KB); ``--first-load`` measures it alone, at once;
* ``read_ms_p50`` / ``read_ms_p99`` and ``move_ms_p50`` / ``move_ms_p99`` — the API's
  answer times for reading a table and for a move, by the client's clock, with
  ``--concurrent`` players at once making ``--rate`` moves a second in all, open loop (each
  reads its table, then moves: ``requests``), and ``cpu_ms_per_request`` — the bot's CPU
  time (``time.process_time``) over those requests, a move's drawing in the chats
  included; each the median of ``--runs`` runs;
* ``rss_mb_idle`` / ``rss_mb_live`` — the bot's process memory before and with
  ``--connections`` live connections open (``live_kb_each``: per connection);
* ``app_calls_per_move`` — Telegram calls (sends, edits, deletes) per move of a whole
  match played from the app with every table open (from chat prompts: ``python -m
  tests.bot.table.publishing.test_message_counts``, docs/messages.md), and ``live_ms_p50`` /
  ``live_ms_p99`` — from a move's request to another table being told.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil

from bot.app import build_application
from bot.bench import Bench
from bot.settings import Settings
from bot.table.host import get_host
from bot.testing.fake_server import free_port
from bot.web.auth import signed_init_data
from games import get_engine
from games.simulate import percentile

TOKEN = "123456:BENCH"
IMPORT = re.compile(r"""(?:href|src)="([^"]+)"|from "\./([^"]+)\"""")


def launch(user_id: int) -> str:
    user = {"id": user_id, "first_name": f"P{user_id}", "language_code": "en"}
    return "tma " + signed_init_data(TOKEN, user, int(time.time()))


# -- the client, in a process of its own --------------------------------------------------
class Players:
    """``concurrent`` players at once, each taking the next match: the player to act reads
    the table, then makes a random legal move of those it was sent."""

    def __init__(
        self, http: httpx.AsyncClient, matches: list[dict], moves: int, rate: float
    ) -> None:
        self.http = http
        self.every = 1 / rate if rate else 0.0  # open loop: a move this often, all together
        self.next_at = time.perf_counter()
        self.queue: asyncio.Queue = asyncio.Queue()
        for match in matches:
            self.queue.put_nowait(match)
        self.left = moves
        self.rng = random.Random(1)
        self.reads: list[float] = []
        self.moves: list[float] = []

    async def play(self) -> None:
        while self.left > 0 and not self.queue.empty():
            match = self.queue.get_nowait()
            self.next_at += self.every
            await asyncio.sleep(max(0.0, self.next_at - time.perf_counter()))
            for user in match["users"]:
                started = time.perf_counter()
                path = f"/api/tables/{match['id']}"
                answer = await self.http.get(path, headers={"Authorization": launch(user)})
                self.reads.append(time.perf_counter() - started)
                table = answer.json()
                if not table.get("legal"):
                    continue
                body = {"action": self.rng.choice(table["legal"]), "token": table["token"]}
                started = time.perf_counter()
                await self.http.post(
                    f"{path}/moves", json=body, headers={"Authorization": launch(user)}
                )
                self.moves.append(time.perf_counter() - started)
                self.left -= 1
                break
            self.queue.put_nowait(match)


async def hold_live(plan: dict) -> list[asyncio.StreamWriter]:
    """``connections`` live connections over plain sockets, each one's first event read."""
    matches = plan["matches"]
    streams = []
    for number in range(plan["connections"]):
        match = matches[number % len(matches)]
        user = match["users"][(number // len(matches)) % len(match["users"])]
        reader, writer = await asyncio.open_connection(plan["host"], plan["port"])
        writer.write(
            f"GET /api/tables/{match['id']}/live HTTP/1.1\r\nHost: {plan['host']}\r\n"
            f"Authorization: {launch(user)}\r\n\r\n".encode()
        )
        await writer.drain()
        while b"data:" not in await reader.readline():
            pass
        streams.append(writer)
    return streams


async def client(plan: dict) -> None:
    limits = httpx.Limits(max_connections=plan["concurrent"] * 2 + 10)
    async with httpx.AsyncClient(base_url=plan["url"], timeout=30, limits=limits) as http:
        for _ in range(plan["runs"]):
            players = Players(http, plan["matches"], plan["moves"], plan["rate"])
            print("RUN", flush=True)
            await asyncio.gather(*(players.play() for _ in range(plan["concurrent"])))
            print(json.dumps({"reads": players.reads, "moves": players.moves}), flush=True)
            sys.stdin.readline()  # the bot has read its CPU time
    streams = await hold_live(plan)
    print(f"OPEN {len(streams)}", flush=True)
    sys.stdin.readline()
    for writer in streams:
        writer.close()


# -- the bot ----------------------------------------------------------------------------------
class TableBench(Bench):
    """The bench's bot, with the table app on ``url`` (a free port of localhost);
    ``rate_limited``: its calls to Telegram paced as in service (the benches of the app's own
    figures count them unpaced)."""

    rate_limited = False

    def __init__(self, args: argparse.Namespace, workdir: Path, port: int) -> None:
        self.port, self.url = port, f"http://127.0.0.1:{port}"
        super().__init__(args, workdir, None)

    @classmethod
    def of(
        cls, workdir: Path, port: int, game: str = "azul", players: int = 2, seed: int = 1
    ) -> TableBench:
        """The bench's bot for matches of ``game`` among ``players`` people, no bots seated
        (the bench's own options, as its command line would give them)."""
        args = argparse.Namespace(
            players=players, ai=0, ai_level="normal", ai_workers=0, seed=seed, rate=0,
            matches=0, text_boards=False, games=game,
        )  # fmt: skip
        return cls(args, workdir, port)

    def build(self, rate_limit: bool):
        settings = Settings(
            telegram_bot_token=TOKEN,
            database_path=self.workdir / "bench.sqlite3",
            rate_limit=self.rate_limited,
            default_turn_seconds=0,
            ai_workers=0,
            web_app_url=self.url,
            health_port=self.port,
            _env_file=None,
        )
        return build_application(settings, request=self.api)


async def first_load(url: str) -> tuple[int, int]:
    """The page's bytes and every file it loads, following its links and imports; and the
    size of Telegram's own script it names (not loaded here: telegram.org is elsewhere)."""
    seen: dict[str, int] = {}
    todo = ["/app/"]
    async with httpx.AsyncClient(base_url=url) as http:
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            body = (await http.get(path)).content
            seen[path] = len(body)
            base = "/app/" if path == "/app/" else path.rsplit("/", 1)[0] + "/"
            for link, module in IMPORT.findall(body.decode()):
                name = link or module
                if not name.startswith("http"):
                    todo.append(base + name if not name.startswith("/") else name)
    return sum(seen.values()), len(seen)


async def next_version(lines) -> int:
    """The version the next event of a live connection tells."""
    async for line in lines:
        if line.startswith("data: "):
            return json.loads(line[6:])["version"]
    raise ConnectionError("the live connection closed")


async def play_from_the_app(bench: TableBench, match_id: int) -> tuple[float, list[float]]:
    """A whole match played from the app, both tables open: Telegram's calls per move, and
    for each move the time from its request to the other table hearing of it."""
    host = get_host(bench.app)
    match = await host.storage.load(match_id)
    users = [seat.user_id for seat in match.seats]
    start = telegram_calls(bench)
    moves, heard = 0, []
    rng = random.Random(3)
    async with httpx.AsyncClient(base_url=bench.url, timeout=30) as http:
        streams = [
            http.stream("GET", f"/api/tables/{match_id}/live", headers={"Authorization": launch(u)})
            for u in users
        ]
        lines = [(await stream.__aenter__()).aiter_lines() for stream in streams]
        for each in lines:
            await next_version(each)
        host.publisher.tables.grace = 3600  # (the chat takes over only after the match)
        while (match := await host.storage.load(match_id)).status == "playing":
            engine = get_engine(match.game)
            seat = min(engine.to_act(match.state))
            action = rng.choice(engine.legal_actions(match.state, seat))
            body = {"action": list(action), "token": match.seats[seat].token}
            headers = {"Authorization": launch(users[seat])}
            asked = time.perf_counter()
            answer = await http.post(f"/api/tables/{match_id}/moves", json=body, headers=headers)
            if answer.status_code == 429:  # faster than the pace a player may ask at
                await asyncio.sleep(0.2)
                continue
            for number, each in enumerate(lines):  # both tables hear of it
                await next_version(each)
                if number != seat:
                    heard.append(time.perf_counter() - asked)
            await host.publisher.idle()
            moves += 1
        for stream in streams:
            await stream.__aexit__(None, None, None)
    return (telegram_calls(bench) - start) / moves, heard


def telegram_calls(bench: TableBench) -> int:
    """The sends, edits and deletes the bot has made: what counts against Telegram's pace."""
    counts = bench.api.call_counts
    return sum(n for method, n in counts.items() if method.startswith(("send", "edit", "delete")))


def rss_mb() -> float:
    return psutil.Process().memory_info().rss / 2**20


FIRST_LOAD_BUDGET = 150 * 1024  # bytes: a phone's first open of the table, Telegram's script apart


async def first_load_only() -> dict:
    """The page's first load alone: the bot started, the page and its files read."""
    with tempfile.TemporaryDirectory() as folder:
        bench = TableBench.of(Path(folder), free_port())
        await bench.start()
        load_bytes, files = await first_load(bench.url)
        await bench.stop()
    return {
        "first_load_bytes": load_bytes,
        "first_load_files": files,
        "first_load_budget_bytes": FIRST_LOAD_BUDGET,
        "within_budget": load_bytes <= FIRST_LOAD_BUDGET,
    }


async def run(args: argparse.Namespace) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        players = 3 if args.game == "donkey" else 2
        bench = TableBench.of(Path(folder), port, args.game, players)
        await bench.start()
        ids = [await bench.open_match(args.game) for _ in range(args.matches + 1)]
        host = get_host(bench.app)
        matches = []
        for match_id in ids[1:]:
            match = await host.storage.load(match_id)
            matches.append({"id": match_id, "users": [seat.user_id for seat in match.seats]})
        load_bytes, files = await first_load(bench.url)
        calls, heard = await play_from_the_app(bench, ids[0])
        plan = {
            "url": bench.url, "host": "127.0.0.1", "port": port, "matches": matches,
            "moves": args.moves, "concurrent": args.concurrent, "runs": args.runs,
            "rate": args.rate,
            "connections": args.connections,
        }  # fmt: skip
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.bench.table_app", "--client", json.dumps(plan),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, limit=2**26,  # every answer time
        )  # fmt: skip
        runs = []
        for _ in range(args.runs):
            assert (await child.stdout.readline()).strip() == b"RUN"
            cpu = time.process_time()
            measured = json.loads(await child.stdout.readline())
            cpu = time.process_time() - cpu
            requests = len(measured["reads"]) + len(measured["moves"])
            runs.append(
                {
                    "read_ms_p50": 1000 * percentile(measured["reads"], 0.5),
                    "read_ms_p99": 1000 * percentile(measured["reads"], 0.99),
                    "move_ms_p50": 1000 * percentile(measured["moves"], 0.5),
                    "move_ms_p99": 1000 * percentile(measured["moves"], 0.99),
                    "cpu_ms_per_request": 1000 * cpu / requests,
                    "requests": requests,
                }
            )
            await host.publisher.idle()
            child.stdin.write(b"\n")
        idle = rss_mb()
        line = (await child.stdout.readline()).decode().split()
        assert line[0] == "OPEN", line
        live = rss_mb()
        open_now = host.publisher.tables.count
        child.stdin.write(b"\n")
        await child.wait()
        await bench.stop()
    figures = {key: round(statistics.median(r[key] for r in runs), 2) for key in runs[0]}
    return {
        "first_load_bytes": load_bytes,
        "first_load_files": files,
        "first_load_budget_bytes": FIRST_LOAD_BUDGET,
        "telegram_script": "https://telegram.org/js/telegram-web-app.js (Telegram's, cached)",
        **figures,
        "game": args.game,
        "concurrent": args.concurrent,
        "rate": args.rate,
        "runs": args.runs,
        "connections": open_now,
        "rss_mb_idle": round(idle, 1),
        "rss_mb_live": round(live, 1),
        "live_kb_each": round(1024 * (live - idle) / max(1, open_now), 1),
        "app_calls_per_move": round(calls, 2),
        "live_ms_p50": round(1000 * percentile(heard, 0.5), 1),
        "live_ms_p99": round(1000 * percentile(heard, 0.99), 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench.table_app", description=__doc__)
    parser.add_argument("--game", default="azul", help="the game of every match")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--concurrent", type=int, default=50, help="players asking at once")
    parser.add_argument("--moves", type=int, default=2000, help="moves per run")
    parser.add_argument(
        "--rate", type=float, default=50, help="moves a second, all players together (0: flat out)"
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--connections", type=int, default=1000, help="live connections")
    parser.add_argument(
        "--first-load", action="store_true", help="measure the page's first load alone"
    )
    parser.add_argument("--client", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.first_load:
        print(json.dumps(asyncio.run(first_load_only())))
        return
    client_or_bench(args, client, run)


def client_or_bench(args: argparse.Namespace, client, run) -> None:
    """A bench whose client is a process of its own (started with ``--client <plan>``): be
    that client, or run the bench and print its figures in one JSON line."""
    if args.client:
        asyncio.run(client(json.loads(args.client)))
    else:
        print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
