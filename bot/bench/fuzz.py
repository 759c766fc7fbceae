"""``python -m bot.bench.fuzz``: the table app's API fuzzed against its own OpenAPI document
by schemathesis (a maintained fuzzer, run as its command ``st``), in one JSON line: how many
requests it tried, the answers' status codes, and what broke the contract (nothing may
answer 500, or answer other than the document says).

The real bot (SQLite in a temporary folder, the fake Telegram, the table app on a free port
of localhost) holds a running Azul match, a running 5211 match and a finished Azul match,
so that the fuzzer's valid requests reach real tables, moves and replays: the document it
is given names those matches as the valid values of ``{match}`` (any other is tried as an
invalid one), and every request is signed as a player of the running Azul match (a member
of every group, as the fake Telegram answers: the other two are watched). The live stream, which
stays open by design, is left out (its refusals are tested in ``tests/bot/web``). The
budgets (``bot.web.limits``) are open: the fuzzer asks faster than any person, and its
requests must reach the handlers (the budgets are tested on their own).

``--examples`` is schemathesis's ``--max-examples`` (per operation and phase); the default
run of the test suite uses a small number, ``--examples 1000`` is the soak."""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from bot.bench.table_app import TableBench, launch
from bot.table.host import get_host
from bot.testing.fake_server import free_port
from bot.web import limits

ST = Path(sys.executable).with_name("st")
LEFT_OUT = "/api/tables/{match}/live"
# schemathesis's own statuses for refusing invalid data, and 413: a body over its limit is
# refused at the headers (the document cannot say a body's size in bytes)
CONFIG = """
[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422",
                     "428", "429"]
"""


def open_paces() -> None:
    """No pace: every request the fuzzer makes reaches its handler (for this process: the
    tests undo it with their own fixture)."""

    async def spend(self, action, key=None) -> None:
        return None

    limits.Budgets.spend = spend  # type: ignore[method-assign]
    limits.Budgets.has = lambda self, action, key=None: True  # type: ignore[method-assign]


def with_known_matches(document: dict, ids: list[int]) -> dict:
    """The document, with the matches that exist as the valid values of ``{match}``."""
    for operations in document["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["name"] == "match":
                    parameter["schema"] = {"type": "string", "enum": [str(i) for i in ids]}
    return document


async def fuzz(url: str, document: dict, authorization: str, examples: int, seed: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        schema = Path(folder) / "openapi.json"
        schema.write_text(json.dumps(document))
        report = Path(folder) / "events.ndjson"
        config = Path(folder) / "schemathesis.toml"
        config.write_text(CONFIG)
        command = [
            str(ST), "--config-file", str(config), "run", str(schema), "--url", url,
            "--header", f"Authorization: {authorization}",
            "--checks", "all",
            "--phases", "examples,coverage,fuzzing",
            "--exclude-path", LEFT_OUT,
            "--max-examples", str(examples), "--seed", str(seed),
            "--workers", "1", "--request-timeout", "10", "--no-color",
            "--suppress-health-check", "all",
            "--report", "ndjson", "--report-ndjson-path", str(report),
        ]  # fmt: skip
        process = await asyncio.create_subprocess_exec(
            *command,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            env={"SCHEMATHESIS_TELEMETRY": "false", "PATH": str(ST.parent)},
            cwd=folder,  # its example database and reports stay in the temporary folder
        )
        output, _ = await process.communicate()
        return {"exit": process.returncode, "output": output.decode(), **read_events(report)}


def read_events(report: Path) -> dict[str, Any]:
    """The status of every answer, and every failed check, from schemathesis's events."""
    statuses: collections.Counter[int] = collections.Counter()
    failures: set[str] = set()
    if not report.exists():
        return {"requests": 0, "statuses": {}, "failures": ["no report"]}
    for line in report.read_text().splitlines():
        scenario = json.loads(line).get("ScenarioFinished")
        if scenario is None:
            continue
        recorder = scenario["recorder"]
        for interaction in recorder.get("interactions", {}).values():
            response = interaction.get("response")
            statuses["no answer" if response is None else response["status_code"]] += 1
        for checks in recorder.get("checks", {}).values():
            for check in checks:
                if check["status"] == "failure":
                    failure = check.get("failure_info", {}).get("failure", {})
                    failures.add(
                        f"{check['name']}: {failure.get('operation', '')}: "
                        f"{failure.get('title', '')}: {failure.get('message', '')}"
                    )
    return {
        "requests": sum(statuses.values()),
        "statuses": {str(status): n for status, n in sorted(statuses.items(), key=str)},
        "failures": sorted(failures),
    }


async def run(examples: int, seed: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        bench = TableBench.of(Path(folder), port, seed=seed)
        await bench.start()
        try:
            finished = await bench.open_match("azul")
            await bench.play(finished)
            ids = [finished, await bench.open_match("azul"), await bench.open_match("5211")]
            host = get_host(bench.app)
            seat = (await host.storage.load(ids[1])).seats[0]
            async with httpx.AsyncClient(base_url=bench.url) as client:
                document = (await client.get("/api/openapi.json")).json()
            started, cpu = time.perf_counter(), time.process_time()
            result = await fuzz(
                bench.url, with_known_matches(document, ids), launch(seat.user_id), examples, seed
            )
            result["wall_s"] = round(time.perf_counter() - started, 1)
            result["bot_cpu_s"] = round(time.process_time() - cpu, 1)
        finally:
            await bench.stop()
    result["examples"] = examples
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench.fuzz", description=__doc__)
    parser.add_argument("--examples", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--output", action="store_true", help="schemathesis's own output too")
    args = parser.parse_args(argv)
    open_paces()
    result = asyncio.run(run(args.examples, args.seed))
    if not args.output:
        result.pop("output")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
