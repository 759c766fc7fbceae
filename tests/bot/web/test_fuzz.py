"""The table app's API fuzzed as a contract: schemathesis drives the running bot from the
OpenAPI document the bot serves, with valid and invalid requests alike, and every check it
has must hold — no answer is a 500, every answer's status, type, headers and body are as
the document says, invalid data is refused and valid data accepted, and nothing needs no
launch data that the document says does. The default run is short; the soak
(``pytest -m soak tests/bot/web/test_fuzz.py``, ``FUZZ_EXAMPLES`` as many as you like) is
long: ``python -m bot.bench.fuzz --examples 1000`` prints the same figures."""

from __future__ import annotations

import os
import random

import pytest

from bot.bench import fuzz

DEFAULT_EXAMPLES = 300  # about 20 s on a quiet machine


def assert_kept(result: dict) -> None:
    assert result["exit"] == 0 and result["failures"] == [], result["output"][-4000:]
    assert "500" not in result["statuses"]
    assert "no answer" not in result["statuses"]  # nothing hung or dropped the connection
    # the valid requests reached real tables, moves and replays; the invalid were refused
    assert {"200", "400", "401", "403", "404", "409"} <= set(result["statuses"])


@pytest.mark.usefixtures("unpaced")
async def test_the_api_keeps_its_contract_under_the_fuzzer():
    result = await fuzz.run(DEFAULT_EXAMPLES, seed=1)
    assert_kept(result)
    assert result["requests"] > 1000


@pytest.mark.soak
@pytest.mark.usefixtures("unpaced")
async def test_the_api_keeps_its_contract_under_a_long_fuzz():
    examples = int(os.environ.get("FUZZ_EXAMPLES", "3000"))
    seed = int(os.environ.get("FUZZ_SEED", random.randrange(10**6)))
    result = await fuzz.run(examples, seed)
    print(f"fuzz: seed {seed}, {result['requests']} requests, {result['statuses']}")
    assert_kept(result)
