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
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from bot.bench.table_app import TableBench, client_or_bench
from bot.testing.fake_server import free_port
from bot.web import server

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


def medians(runs: list[dict]) -> dict:
    return {key: round(statistics.median(run[key] for run in runs), 2) for key in runs[0]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench.web_door", description=__doc__)
    parser.add_argument(
        "--uploads", type=int, nargs="+", default=[60, 500], help="stalled 1 MiB uploads"
    )
    parser.add_argument("--silent", type=int, default=2000, help="connections that send nothing")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--client", help=argparse.SUPPRESS)
    client_or_bench(parser.parse_args(argv), client, run)


if __name__ == "__main__":
    main()
