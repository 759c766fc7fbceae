"""``python -m bot.bench.web_door``: what the web server's door costs the bot under attack, in
one JSON line.

The real bot (SQLite in a temporary folder, the fake Telegram, the table app on a free port
of localhost) is attacked by a client in a process of its own, so that the memory measured
(``psutil``'s resident set size of the bot's process) is the bot's alone:

* ``stalled_uploads`` — for each of ``--uploads`` (60 and 500 by default): that many
  connections each announce a 1 MiB ``POST /api/tables/1/moves`` with no launch data, send
  as much of the body as the socket takes, and stall. ``rss_mb_before``,
  ``rss_mb_stalled`` (all of them sent) and ``rss_mb_after`` (all closed), and how many
  were ``refused`` at the headers (answered 413, the connection closed);
* ``silent`` — ``--silent`` connections that send nothing: how many the bot held at once
  (``held``; past its cap a new one is closed at once: ``turned_away``), the memory with
  them, and how long until the last was cut (``cut_within_s``);
* each figure the median of ``--runs`` runs, with the bot's CPU time
  (``time.process_time``) and the wall time of the whole attack beside it.

``--telegram``: instead, the Telegram calls that signed users can make the bot send through
the table app (``telegram_calls``). The bot runs as in service (its rate limiter on, the
app's share in it), with ``--groups`` groups each playing a match; for each of
``--attackers`` (1 and 100 by default), that many signed users — each has started the bot,
none is in those groups — attack every route of the app at once for ``--seconds`` (60): "Play
with a friend" for each game in turn, a practice match started (then stopped with /cancel in
the chat, so the next may start) and its moves, each group's table, replay and launch link
(the membership look-ups), tournaments that are not there, their tables, the home and a
lesson. The attack is cut at its end; then the calls it left queued in the limiter are let
out. The figure is the most calls the fake Telegram received in any 60 s (counted every half
second), and all of them by method, beside the attempts and their answers; the run whose
minute is the median of ``--runs`` is shown. Through the attack the groups go on playing: a
move every ``--group-every`` seconds (3), each group in turn, and ``group_move_s`` says how
long each waited for its first call to its group (the median and the slowest). The
attackers are in the bot's own process: the CPU time is theirs and the bot's together.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import itertools
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil

from bot.bench.table_app import TOKEN, TableBench, client_or_bench
from bot.table.host import get_host
from bot.telegram_api.callbacks import Callback, Kind
from bot.testing.driver import FakeUser
from bot.testing.fake_server import free_port
from bot.web import server
from bot.web.auth import signed_init_data
from bot.web.practice import FRIEND_GAMES
from games import get_engine

MIB = 2**20


def rss_mb() -> float:
    return psutil.Process().memory_info().rss / MIB


# -- the client, in a process of its own --------------------------------------------------
async def stall_upload(host: str, port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(
        f"POST /api/tables/1/moves HTTP/1.1\r\nHost: {host}\r\nContent-Length: {MIB}\r\n"
        "Content-Type: application/json\r\n\r\n".encode()
    )
    writer.write(b"[" * MIB)  # the body, as far as the socket takes it
    return reader, writer


async def refused(reader: asyncio.StreamReader) -> bool:
    """Whether the bot refused the upload: answered 413, or closed the connection (with the
    unread body in its socket, the kernel may reset it before the answer is read)."""
    try:
        line = await asyncio.wait_for(reader.readline(), 10)
    except TimeoutError:
        return False
    except ConnectionError:
        return True
    return b" 413 " in line or not line


async def client(plan: dict) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    host, port = plan["host"], plan["port"]
    for count in plan["uploads"]:
        for _ in range(plan["runs"]):
            print("UPLOADS", flush=True)
            sys.stdin.readline()
            connections = await asyncio.gather(*(stall_upload(host, port) for _ in range(count)))
            refused_now = sum(await asyncio.gather(*(refused(r) for r, _ in connections)))
            print(json.dumps({"refused": refused_now}), flush=True)
            sys.stdin.readline()  # the bot's memory is read: close them
            for _, writer in connections:
                writer.close()
            print("CLOSED", flush=True)
            sys.stdin.readline()
    for _ in range(plan["runs"]):
        print("SILENT", flush=True)
        sys.stdin.readline()
        silent = []
        for _ in range(plan["silent"]):
            try:
                silent.append(await asyncio.open_connection(host, port))
            except OSError:
                break
        print(json.dumps({"opened": len(silent)}), flush=True)
        sys.stdin.readline()
        for _, writer in silent:
            writer.close()


# -- the bot ----------------------------------------------------------------------------------
async def until_no_connections(web: server.BoundedHTTPServer, limit: float) -> float:
    started = time.monotonic()
    while web.open_connections and time.monotonic() - started < limit:
        await asyncio.sleep(0.05)
    return time.monotonic() - started


async def run(args: argparse.Namespace) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        bench = TableBench.of(Path(folder), port)
        await bench.start()
        await bench.open_match("azul")
        web = bench.app.bot_data["web"].server
        plan = {
            "host": "127.0.0.1", "port": port, "uploads": args.uploads, "silent": args.silent,
            "runs": args.runs,
        }  # fmt: skip
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.bench.web_door", "--client", json.dumps(plan),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )  # fmt: skip

        async def expect(word: str) -> str:
            line = (await child.stdout.readline()).decode().strip()
            assert line.startswith(word) or word == "", (word, line)
            return line

        def go_on() -> None:
            child.stdin.write(b"\n")

        uploads = []
        for count in args.uploads:
            runs = []
            for _ in range(args.runs):
                await expect("UPLOADS")
                gc.collect()
                before, cpu, wall = rss_mb(), time.process_time(), time.perf_counter()
                go_on()
                turned_down = json.loads(await expect("{"))["refused"]
                await asyncio.sleep(0.5)  # whatever the bot would buffer, it has by now
                stalled = rss_mb()
                go_on()
                await expect("CLOSED")
                await until_no_connections(web, 30)
                gc.collect()
                runs.append(
                    {
                        "rss_mb_before": before,
                        "rss_mb_stalled": stalled,
                        "rss_mb_after": rss_mb(),
                        "refused": turned_down,
                        "cpu_s": time.process_time() - cpu,
                        "wall_s": time.perf_counter() - wall,
                    }
                )
                go_on()
            uploads.append({"uploads": count, **medians(runs)})
        silent_runs = []
        for _ in range(args.runs):
            await expect("SILENT")
            before, cpu, wall = rss_mb(), time.process_time(), time.perf_counter()
            turned_away = web.turned_away
            go_on()
            opened = json.loads(await expect("{"))["opened"]
            await asyncio.sleep(0.5)
            held, with_them = web.open_connections, rss_mb()
            cut_within = await until_no_connections(web, 4 * server.HEADERS_SECONDS)
            silent_runs.append(
                {
                    "opened": opened,
                    "held": held,
                    "turned_away": web.turned_away - turned_away,
                    "rss_mb_before": before,
                    "rss_mb_with_them": with_them,
                    "cut_within_s": cut_within + 0.5,
                    "cpu_s": time.process_time() - cpu,
                    "wall_s": time.perf_counter() - wall,
                }
            )
            go_on()
        await child.wait()
        await bench.stop()
    return {
        "stalled_uploads": uploads,
        "silent": {"connections": args.silent, **medians(silent_runs)},
        "max_connections": web.max_connections,
        "headers_seconds": server.HEADERS_SECONDS,
        "body_seconds": server.BODY_SECONDS,
        "runs": args.runs,
    }


# -- the Telegram calls signed users can cause -------------------------------------------
ATTACKER_IDS = 7 * 10**9  # the attackers' user ids from here on
PRACTICE_MOVES = 10  # moves an attacker plays in each practice match before /cancel


class ServiceBench(TableBench):
    """The bench's bot with its rate limiter on, as in service (the app's share in it)."""

    rate_limited = True


class Attacker:
    """One signed user attacking every route of the app in turn, as fast as answers come."""

    def __init__(self, bench: ServiceBench, number: int, matches: list[int]) -> None:
        self.bench, self.matches = bench, matches
        self.user = FakeUser(ATTACKER_IDS + number, f"A{number}")
        self.games = itertools.cycle(FRIEND_GAMES)
        self.probe = itertools.count(10**9 + number * 10**6)  # tournaments that are not there
        self.answers: collections.Counter[str] = collections.Counter()

    def headers(self) -> dict[str, str]:
        user = self.user.as_dict()
        return {"Authorization": "tma " + signed_init_data(TOKEN, user, int(time.time()))}

    async def ask(self, http: httpx.AsyncClient, method: str, path: str, body=None):
        answer = await http.request(method, path, json=body, headers=self.headers())
        self.answers[f"{answer.status_code} {answer.json().get('error', '')}".strip()] += 1
        return answer

    async def attack(self, http: httpx.AsyncClient, until: float) -> None:
        while time.monotonic() < until:
            await self.ask(http, "POST", "/api/friend", {"game": next(self.games)})
            started = await self.ask(
                http, "POST", "/api/practice", {"game": "azul", "level": "easy"}
            )
            if started.status_code == 200:
                await self.play(http, started.json()["match"])
            for match in self.matches:
                await self.ask(http, "GET", f"/api/tables/{match}")
                await self.ask(http, "GET", f"/api/replays/{match}")
            await self.ask(http, "GET", f"/api/tournaments/{next(self.probe)}")
            await self.ask(http, "GET", "/api/tables")
            await self.ask(http, "GET", "/api/launch")
            await self.ask(http, "GET", "/api/lessons")
            await self.ask(http, "POST", "/api/lessons/azul")

    async def play(self, http: httpx.AsyncClient, match: int) -> None:
        """Moves of the practice match from the app, as fast as answers come (each move
        redraws its board in the private chat), then /cancel in the chat (and its
        confirmation), so that the next start may make a new one."""
        for _ in range(PRACTICE_MOVES):
            table = (await self.ask(http, "GET", f"/api/tables/{match}")).json()
            if not table.get("legal"):
                break
            body = {"action": table["legal"][0], "token": table["token"]}
            await self.ask(http, "POST", f"/api/tables/{match}/moves", body)
        driver = self.bench.driver
        await self.bench.feed(driver.message_update(self.user, self.user.id, "/cancel"))
        host = get_host(self.bench.app)
        stop = await host.storage.load(match)
        if stop is not None and stop.status == "playing":
            confirm = Callback(Kind.ABORT, match).encode()
            await self.bench.feed(driver.press_update(self.user, self.user.id, 1, confirm))


async def group_moves(bench: ServiceBench, matches: list[int], until: float, every: float):
    """A move in a group every ``every`` seconds until ``until``, each group in turn; for each,
    how long after the press its group heard its first call (its board, or the move's
    news)."""
    storage = get_host(bench.app).storage
    delays: list[float | None] = []  # None: never heard
    for match_id in itertools.cycle(matches):
        if time.monotonic() >= until:
            return delays
        match = await storage.load(match_id)
        if match is not None and match.status == "playing":
            users = {seat.seat: FakeUser(seat.user_id, seat.name) for seat in match.seats}
            seat = sorted(get_engine(match.game).to_act(match.state))[0]
            pressed = time.monotonic()
            await bench.press_move(match, users, seat)
            heard = await first_call_to(bench, match.chat_id, pressed)
            delays.append(None if heard is None else heard - pressed)
        await asyncio.sleep(every)
    return delays


async def first_call_to(
    bench: ServiceBench, chat_id: int, since: float, limit: float = 90.0
) -> float | None:
    """When ``chat_id`` first heard a call after ``since`` (``time.monotonic``); None if
    not within ``limit`` seconds."""
    while time.monotonic() - since < limit:
        heard = bench.api.last_group_call(chat_id)
        if heard is not None and heard >= since:
            return heard
        await asyncio.sleep(0.02)
    return None


async def quiet(bench: ServiceBench, settle: float = 2.0, limit: float = 120.0) -> None:
    """Until the fake Telegram has heard nothing for ``settle`` seconds (the groups' boards
    drawn, paced by the limiter), at most ``limit``."""
    began = time.monotonic()
    last = sum(bench.api.call_counts.values())
    calm_since = time.monotonic()
    while time.monotonic() - began < limit:
        await asyncio.sleep(0.25)
        now = sum(bench.api.call_counts.values())
        if now != last:
            last, calm_since = now, time.monotonic()
        elif time.monotonic() - calm_since >= settle:
            return


async def telegram_attack(args: argparse.Namespace, attackers: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        bench = ServiceBench.of(Path(folder), port)
        await bench.start()
        matches = [await bench.open_match("azul") for _ in range(args.groups)]
        host = get_host(bench.app)
        crowd = [Attacker(bench, n, matches) for n in range(attackers)]
        for attacker in crowd:  # each has started the bot; none is in the groups
            bench.api.started.add(attacker.user.id)
            await bench.feed(bench.driver.message_update(attacker.user, attacker.user.id, "/start"))
            for match in matches:
                group = (await host.storage.load(match)).chat_id
                bench.api.outsiders[group].add(attacker.user.id)
        await quiet(bench)
        bench.api.reset_counts()
        cpu, wall = time.process_time(), time.perf_counter()
        until = time.monotonic() + args.seconds
        limits = httpx.Limits(max_connections=attackers + 10)
        totals: list[tuple[float, int]] = []  # (when, calls so far), every half second

        async def count() -> None:
            while True:
                totals.append((time.monotonic(), sum(bench.api.call_counts.values())))
                await asyncio.sleep(0.5)

        counting = asyncio.create_task(count())
        async with httpx.AsyncClient(base_url=bench.url, timeout=60, limits=limits) as http:
            attacks = [asyncio.create_task(a.attack(http, until)) for a in crowd]
            playing = asyncio.create_task(group_moves(bench, matches, until, args.group_every))
            await asyncio.wait(attacks, timeout=args.seconds)
            delays = await playing
            for attack in attacks:  # the attack ends at its minute, whatever is in flight
                attack.cancel()
            await asyncio.gather(*attacks, return_exceptions=True)
        attack_wall = time.perf_counter() - wall
        await quiet(bench)  # the calls the attack left queued in the limiter, sent
        counting.cancel()
        calls = dict(bench.api.call_counts)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        await bench.stop()
    totals.append((time.monotonic(), sum(calls.values())))
    peak = most_in_a_minute(totals)
    heard = [delay for delay in delays if delay is not None]
    answers: collections.Counter[str] = collections.Counter()
    for attacker in crowd:
        answers.update(attacker.answers)
    total = sum(calls.values())
    return {
        "telegram_calls": total,  # in the attack, and the calls it left queued after it
        "most_in_a_minute": peak,
        "by_method": dict(sorted(calls.items(), key=lambda item: -item[1])),
        "group_moves": len(delays),
        "group_moves_unheard": delays.count(None),
        "group_move_s": {
            "median": round(statistics.median(heard), 3) if heard else None,
            "slowest": round(max(heard), 3) if heard else None,
        },
        "requests": sum(answers.values()),
        "answers": dict(answers.most_common()),
        "attack_s": round(attack_wall, 2),
        "cpu_s": round(cpu, 2),
        "wall_s": round(wall, 2),
    }


def most_in_a_minute(totals: list[tuple[float, int]]) -> int:
    """The most calls within any 60 s of a count taken now and then ((when, calls so far))."""
    return max(
        max(calls for then, calls in totals if then <= when + 60) - before
        for when, before in totals
    )


async def telegram_figures(args: argparse.Namespace) -> dict:
    figures = []
    for attackers in args.attackers:
        runs = [await telegram_attack(args, attackers) for _ in range(args.runs)]
        middle = sorted(runs, key=lambda run: run["most_in_a_minute"])[len(runs) // 2]
        figures.append(
            {
                "attackers": attackers,
                "runs_most_in_a_minute": [run["most_in_a_minute"] for run in runs],
                **middle,
                "cpu_s": round(statistics.median(run["cpu_s"] for run in runs), 2),
                "wall_s": round(statistics.median(run["wall_s"] for run in runs), 2),
            }
        )
    return {
        "telegram_calls": figures,
        "seconds": args.seconds,
        "groups": args.groups,
        "runs": args.runs,
        "load_average": os.getloadavg(),
    }


def medians(runs: list[dict]) -> dict:
    return {key: round(statistics.median(run[key] for run in runs), 2) for key in runs[0]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench.web_door", description=__doc__)
    parser.add_argument(
        "--uploads", type=int, nargs="+", default=[60, 500], help="stalled 1 MiB uploads"
    )
    parser.add_argument("--silent", type=int, default=2000, help="connections that send nothing")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--telegram", action="store_true", help="the Telegram calls signed users can cause"
    )
    parser.add_argument("--attackers", type=int, nargs="+", default=[1, 100])
    parser.add_argument("--seconds", type=float, default=60.0, help="each attack's length")
    parser.add_argument("--groups", type=int, default=10, help="groups playing a match")
    parser.add_argument(
        "--group-every", type=float, default=3.0, help="seconds between the groups' moves"
    )
    parser.add_argument("--client", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.telegram:
        print(json.dumps(asyncio.run(telegram_figures(args))))
        return
    client_or_bench(args, client, run)


if __name__ == "__main__":
    main()
