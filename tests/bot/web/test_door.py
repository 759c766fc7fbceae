"""The web door under attack, against the real server over real sockets: a body over its
route's limit is refused at the headers; slow and silent connections are cut, live streams
are not; malformed paths, bodies and launch data get a 4xx in one short line, logged once as
a warning with no traceback, paced, and never reported to Sentry; every answer carries the
security headers; a member who leaves the group loses the table they watch at once."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import replace
from urllib.parse import urlencode, urlsplit

import httpx
import psutil
import pytest

from bot.presentation.i18n import translator
from bot.testing.fake_server import free_port
from bot.web import door, server
from bot.web.auth import signature
from bot.web.limits import BUDGETS
from tests.bot import play5211
from tests.bot.conftest import ALICE, BOB, CAROL, GROUP
from tests.bot.helpers import current_match
from tests.bot.operations.test_error_reports import reports  # noqa: F401 (a fixture)
from tests.bot.process import BotProcess
from tests.bot.web.conftest import TOKEN, header, running_table_bot

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])

HEADERS = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy")


async def connect(url: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    address = urlsplit(url)
    return await asyncio.open_connection(address.hostname, address.port)


async def read_until_closed(reader: asyncio.StreamReader, within: float) -> tuple[bytes, bool]:
    """What the server sends, and whether it closed the connection within ``within`` s."""
    data = b""
    deadline = time.monotonic() + within
    try:
        while chunk := await asyncio.wait_for(reader.read(65536), deadline - time.monotonic()):
            data += chunk
    except TimeoutError:
        return data, False
    except ConnectionError:  # reset by the server: closed too
        pass
    return data, True


async def exchange(url: str, request: bytes, within: float = 5.0) -> tuple[bytes, bool]:
    reader, writer = await connect(url)
    writer.write(request)
    await writer.drain()
    try:
        return await read_until_closed(reader, within)
    finally:
        writer.close()


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


@pytest.fixture
def quick_door(monkeypatch) -> None:
    """Headers and bodies must arrive within a second (10 and 15 s in service)."""
    monkeypatch.setattr(server, "HEADERS_SECONDS", 1.0)
    monkeypatch.setattr(server, "BODY_SECONDS", 1.0)


@pytest.fixture
def refusal_log(monkeypatch) -> door.RefusalLog:
    fresh = door.RefusalLog()
    monkeypatch.setattr(door, "REFUSALS", fresh)
    return fresh


@pytest.fixture
def sign_ins_log(monkeypatch) -> door.OverBudgetLog:
    from bot.web import api

    fresh = door.OverBudgetLog()
    monkeypatch.setattr(api, "SIGN_INS_LOG", fresh)
    return fresh


async def running_5211(bot):
    await play5211.start_game(bot.driver, GROUP, ALICE, [ALICE, BOB])
    await bot.driver.settle()
    return await current_match(bot.driver)


# -- a body over its limit ---------------------------------------------------------------
async def test_a_body_over_the_limit_is_refused_at_the_headers_before_it_is_sent(database):
    async with running_table_bot(database) as bot:
        for path, auth in [
            ("/api/tables/1/moves", header(ALICE)["Authorization"]),  # signed: 2 KB
            ("/api/tables/1/moves", ""),  # no launch data at all
            ("/app/", ""),  # a page takes no body
            ("/healthz", ""),
            ("/api/tables", ""),
        ]:
            # the headers announce a MiB, and not a byte of it is sent: the answer comes
            # all the same, and the server closes the connection
            request = (
                f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n"
                f"Authorization: {auth}\r\n\r\n"
            )
            answer, closed = await exchange(bot.url, request.encode(), within=5)
            assert status_of(answer) == 413, (path, answer[:200])
            assert closed, path
            body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
            assert body["error"] == "too_large", body
            # the API's refusals reach the page: in words; the page and /healthz are no API
            assert bool(body["message"]) == path.startswith("/api/"), body


async def test_a_chunked_body_is_cut_at_the_limit(database):
    async with running_table_bot(database) as bot:
        chunk = b"x" * 1000
        request = (
            b"POST /api/tables/1/moves HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
            + f"Authorization: {header(ALICE)['Authorization']}\r\n\r\n".encode()
            + b"".join(b"3e8\r\n" + chunk + b"\r\n" for _ in range(50))
            + b"0\r\n\r\n"
        )
        answer, closed = await exchange(bot.url, request, within=5)
        assert closed and status_of(answer) == 400  # the connection's own refusal
        async with bot.client() as client:  # and the bot serves on
            assert (await client.get("/livez")).status_code == 200


async def test_content_length_with_transfer_encoding_is_a_400_and_the_connection_closed(database):
    """RFC 9112 §6.3: a body framed two ways is the seed of request smuggling behind a
    proxy. Refused 400 before any route (signed or not, any path), the connection closed, so
    the bytes after the headers are never read as another request."""
    async with running_table_bot(database) as bot:
        smuggled = b"GET /api/tables HTTP/1.1\r\nHost: x\r\n\r\n"
        for path, auth in [
            ("/api/tables/1/moves", header(ALICE)["Authorization"]),
            ("/api/tables", ""),
            ("/healthz", ""),
            ("/123456", ""),  # the webhook's route
            ("/nothing/here", ""),
        ]:
            request = (
                (
                    f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n"
                    f"Transfer-Encoding: chunked\r\nAuthorization: {auth}\r\n\r\n"
                ).encode()
                + b"0\r\n\r\n"
                + smuggled
            )
            answer, closed = await exchange(bot.url, request, within=5)
            assert status_of(answer) == 400, (path, answer[:200])
            assert closed, path
            head, body = answer.split(b"\r\n\r\n", 1)
            assert json.loads(body) == {"error": "bad_framing", "message": ""}
            assert all(name.encode() in head for name in HEADERS)
            assert answer.count(b"HTTP/1.1 ") == 1  # the smuggled request was never answered
        async with bot.client() as client:
            assert (await client.get("/livez")).status_code == 200


# -- slow and silent connections ---------------------------------------------------------
async def test_silent_and_slow_connections_are_cut_and_live_streams_are_not(database, quick_door):
    async with running_table_bot(database) as bot:
        match = await running_5211(bot)
        silent = await connect(bot.url)
        slow = await connect(bot.url)
        slow[1].write(b"GET /healthz HTTP/1.1\r\n")
        body_first = await connect(bot.url)  # headers at once, then the body never comes
        body_first[1].write(
            f"POST /api/tables/{match.id}/moves HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n"
            f"Authorization: {header(ALICE)['Authorization']}\r\n\r\n{{".encode()
        )
        async with (
            bot.client() as client,
            client.stream("GET", f"/api/tables/{match.id}/live", headers=header(ALICE)) as live,
        ):
            assert live.status_code == 200
            started = time.monotonic()
            for _ in range(10):  # a header line every 0.3 s: still not a whole request
                await asyncio.sleep(0.3)
                if not slow[0].at_eof():
                    slow[1].write(b"X-Slow: yes\r\n")
            for reader, _ in (silent, slow, body_first):
                _, closed = await read_until_closed(reader, within=3.0)
                assert closed
            assert time.monotonic() - started < 6
            # the live stream, open all this while, still hears the next move
            lines = live.aiter_lines()
            assert await anext(lines) == f'data: {{"version": {match.version}}}'
            await play5211.choose(bot.driver, BOB)  # Bob's choice (his chat: no table open)
            event = await asyncio.wait_for(anext(lines), 5)
            while not event.startswith("data:"):
                event = await asyncio.wait_for(anext(lines), 5)
            assert json.loads(event[5:])["version"] > match.version
        for _, writer in (silent, slow, body_first):
            writer.close()


# -- malformed input: 4xx in one line -------------------------------------------------------
MALFORMED_PATHS = [
    "/app/static/%00x",
    "/app/static/app.js%00",
    "/app/static/..%2f..%2fetc%2fpasswd",
    "/app/static/%ff%fe",
    "/app/static/",
    "/api/tables/%00",
    "/api/tables/abc",
    "/api/tables/1/%00",
    "/api/replays/1/%00",
    "/%00",
    "/nothing/here",
]


async def test_malformed_paths_are_answered_4xx_and_logged_once_without_a_traceback(
    database,
    caplog,
    refusal_log,
    reports,  # noqa: F811
):
    caplog.set_level(logging.INFO)
    async with running_table_bot(database) as bot, bot.client() as client:
        for path in MALFORMED_PATHS:
            answer = await client.get(path, headers=header(ALICE))
            assert 400 <= answer.status_code < 500, (path, answer.status_code)
            assert answer.json()["error"], path
            assert all(name in answer.headers for name in HEADERS), path
    refusals = [r for r in caplog.records if r.name == "bot.web.refused"]
    assert len(refusals) == len(MALFORMED_PATHS)
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in refusals)
    assert all("\n" not in r.getMessage() for r in refusals)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert reports.events() == []  # nothing for Sentry


async def test_a_body_nested_a_thousand_deep_is_a_bad_move(database):
    async with running_table_bot(database) as bot, bot.client() as client:
        match = await running_5211(bot)
        nested = b"[" * 1000 + b"]" * 1000
        for body in (
            b'{"action": ' + nested + b', "token": 1}',
            nested,
            b'{"action": [1], "token": ' + b'{"a":' * 300 + b"1" + b"}" * 300 + b"}",
        ):
            assert len(body) < 2048
            for match_id in (match.id, 999_999):  # a match that exists, and one that does not
                answer = await client.post(
                    f"/api/tables/{match_id}/moves", content=body, headers=header(ALICE)
                )
                assert answer.status_code == 400, answer.text
                assert answer.json()["error"] == "bad_move"


@pytest.mark.parametrize(
    "user",
    [
        '{"id":Infinity,"first_name":"A"}',
        '{"id":NaN,"first_name":"A"}',
        '{"id":18446744073709551616,"first_name":"A"}',  # 2^64
        '{"id":9223372036854775808,"first_name":"A"}',  # 2^63
        '{"id":101.7,"first_name":"A"}',
        '{"id":"101","first_name":"A"}',
        '{"id":-5,"first_name":"A"}',
        '{"id":101,"first_name":"A","language_code":["en"]}',
        '{"id":101,"first_name":["A"]}',
        '{"id":101,"first_name":"A","username":{"a":1}}',
        '{"id":' + "[" * 650 + "]" * 650 + "}",
        "[]",
        "null",
    ],
)
async def test_odd_signed_launch_data_is_refused_401(database, user):
    """Only the bot token can sign these, and still they are refused, never a 500."""
    fields = {"auth_date": str(int(time.time())), "user": user}
    raw = urlencode({**fields, "hash": signature(fields, TOKEN)})
    async with running_table_bot(database) as bot, bot.client() as client:
        answer = await client.get("/api/tables", headers={"Authorization": f"tma {raw}"})
    assert answer.status_code == 401, answer.text
    assert answer.json()["error"] == "signed_out"


async def test_a_real_fault_of_the_bot_is_still_a_500_and_reported(
    database,
    monkeypatch,
    reports,  # noqa: F811
):
    from bot.web import tables

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in drawing the table")

    async with running_table_bot(database) as bot, bot.client() as client:
        match = await running_5211(bot)
        monkeypatch.setattr(tables, "table", broken)
        answer = await client.get(f"/api/tables/{match.id}", headers=header(ALICE))
    assert answer.status_code == 500  # said in the asker's words, never a bare key
    assert answer.json() == {"error": "server", "message": translator("en")("app.error.server")}
    assert all(name in answer.headers for name in HEADERS)
    assert [e["exception"]["values"][-1]["type"] for e in reports.events()] == ["RuntimeError"]


# -- failed sign-ins: only the failing requests are slowed, never a valid user ----------
FORGED = {"Authorization": "tma auth_date=1&user=%7B%22language_code%22%3A%22ru%22%7D&hash=00"}
FAILING = BUDGETS["failed_sign_in"]


def over_budget_lines(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if "failed past its budget" in r.getMessage()]


@pytest.fixture
def a_still_minute(monkeypatch) -> None:
    """The failed sign-ins' budget does not refill while the test runs (30 a minute is one
    every 2 s: a slow machine would see one more)."""
    monkeypatch.setitem(BUDGETS, "failed_sign_in", replace(FAILING, per_minute=1e-6))


@pytest.mark.usefixtures("a_still_minute")
async def test_thirty_forged_sign_ins_then_a_valid_user_from_that_address_is_served(
    database, caplog, refusal_log, sign_ins_log
):
    """The issue's first test: one phone behind a carrier's NAT sends bad launch data, and
    the next person behind the same address signs in as always."""
    caplog.set_level(logging.INFO)
    async with running_table_bot(database) as bot, bot.client() as client:
        forged = [await client.get("/api/tables", headers=FORGED) for _ in range(30)]
        valid = await client.get("/api/tables", headers=header(ALICE))
        forged_after = await client.get("/api/tables", headers=FORGED)
        valid_again = await client.get("/api/tables", headers=header(BOB))
    codes = [answer.status_code for answer in forged]
    assert codes[: FAILING.burst] == [401] * FAILING.burst
    assert codes[FAILING.burst :] == [429] * (30 - FAILING.burst)  # the failing ones slowed
    assert valid.status_code == 200 and valid_again.status_code == 200
    assert forged_after.status_code == 429
    refused = forged[-1]
    # in the language the refused data names (it is not trusted for anything else)
    assert refused.json() == {
        "error": "sign_ins_failing",
        "message": translator("ru")("app.sign_ins_failing"),
    }
    assert int(refused.headers["Retry-After"]) == BUDGETS["failed_sign_in"].retry_after
    # logged: each 401 as a refusal (paced), the address over its budget once a minute
    assert len(over_budget_lines(caplog)) == 1
    assert "127.0.0.1" in over_budget_lines(caplog)[0].getMessage()
    refusals = [r for r in caplog.records if r.name == "bot.web.refused"]
    assert len(refusals) == door.REFUSALS_LOGGED_PER_MINUTE + 1  # 20 refusals, 1 budget line
    assert refusal_log.left_out == FAILING.burst - door.REFUSALS_LOGGED_PER_MINUTE


# -- TRUST_PROXY: whether X-Forwarded-For names the client ------------------------------
async def forged_from_many_addresses(bot) -> list[int]:
    """Bad launch data from one socket, each request claiming another address."""
    async with bot.client() as client:
        return [
            (
                await client.get(
                    "/api/tables", headers={**FORGED, "X-Forwarded-For": f"203.0.113.{n}"}
                )
            ).status_code
            for n in range(FAILING.burst + 10)
        ]


@pytest.mark.usefixtures("a_still_minute")
async def test_without_trust_proxy_a_spoofed_forwarded_for_changes_nothing(
    database, caplog, sign_ins_log
):
    """TRUST_PROXY=false (the default, a port open to anyone): the address is the
    connection's, so a made-up header neither escapes the budget nor blames anyone else."""
    caplog.set_level(logging.INFO)
    async with running_table_bot(database) as bot:
        codes = await forged_from_many_addresses(bot)
    assert codes.count(429) == 10  # one budget: the real address's
    assert "from 127.0.0.1" in over_budget_lines(caplog)[0].getMessage()
    assert not any("203.0.113." in r.getMessage() for r in caplog.records)


@pytest.mark.usefixtures("a_still_minute")
async def test_with_trust_proxy_the_forwarded_address_is_the_clients(
    database, caplog, sign_ins_log
):
    """TRUST_PROXY=true (behind a PaaS router, which sets X-Forwarded-For): each client the
    proxy names has its own budget."""
    caplog.set_level(logging.INFO)
    async with running_table_bot(database, trust_proxy=True) as bot:
        codes = await forged_from_many_addresses(bot)
        async with bot.client() as client:
            one_address = [
                (
                    await client.get(
                        "/api/tables", headers={**FORGED, "X-Forwarded-For": "198.51.100.7"}
                    )
                ).status_code
                for _ in range(FAILING.burst + 1)
            ]
    assert codes == [401] * len(codes)  # every address within its own budget
    assert one_address[-1] == 429
    assert "from 198.51.100.7" in over_budget_lines(caplog)[0].getMessage()


# -- the same headers on every answer -----------------------------------------------------
async def test_every_answer_carries_the_security_headers(database):
    async with running_table_bot(database) as bot, bot.client() as client:
        match = await running_5211(bot)
        signed = header(ALICE)
        answers = [
            await client.get("/app/"),
            await client.get("/app/static/app.js"),
            await client.get("/api/openapi.json"),
            await client.get("/api/tables", headers=signed),
            await client.get("/api/tables"),  # 401
            await client.get(f"/api/tables/{match.id}", headers=header(CAROL)),  # watching
            await client.get("/api/tables/abc"),  # routed nowhere: 404
            await client.get("/nothing/here"),
            await client.get("/something"),  # the webhook's catch-all (no webhook): 404
            await client.post("/something", content=b"{}"),
            await client.delete("/app/"),  # 405
            await client.post("/healthz"),  # 405
            await client.get("/healthz"),
            await client.get("/livez"),
            await client.post(f"/api/tables/{match.id}/moves", content=b"x" * 5000),  # 413
        ]
        async with client.stream(
            "GET", f"/api/tables/{match.id}/live", headers=signed
        ) as live:  # a live stream
            answers.append(live)
    statuses = [answer.status_code for answer in answers]
    assert {200, 401, 404, 405, 413} <= set(statuses)
    for answer in answers:
        missing = [name for name in HEADERS if name not in answer.headers]
        assert not missing, (answer.request.method, answer.request.url, missing)


# -- watching ends when membership ends ---------------------------------------------------
def left_update(bot, user) -> dict:
    update = bot.driver.message_update(user, GROUP, "")
    message = update["message"]
    del message["text"]
    message["left_chat_member"] = user.as_dict()
    return update


def removed_update(bot, user) -> dict:
    update = bot.driver.membership_update(user, GROUP, "member", "kicked")
    change = update.pop("my_chat_member")
    change["old_chat_member"]["user"] = change["new_chat_member"]["user"] = user.as_dict()
    return {**update, "chat_member": change}


@pytest.mark.parametrize("how", [left_update, removed_update], ids=["left", "removed"])
async def test_a_member_who_leaves_the_group_loses_the_table_at_once(database, how):
    async with running_table_bot(database) as bot, bot.client() as client:
        match = await running_5211(bot)
        path = f"/api/tables/{match.id}"
        assert (await client.get(path, headers=header(CAROL))).status_code == 200
        async with client.stream("GET", f"{path}/live", headers=header(CAROL)) as live:
            lines = live.aiter_lines()
            assert (await anext(lines)).startswith("data:")
            bot.api.outsiders[GROUP].add(CAROL.id)  # Telegram now says she is not a member
            await bot.driver.feed(how(bot, CAROL))
            rest = [line async for line in lines]  # the stream ends: no waiting for a cache
        assert not any(line.startswith("data:") for line in rest)
        again = await client.get(path, headers=header(CAROL))
        assert again.status_code == 404 and again.json()["error"] == "no_table"
        # a player who leaves keeps their seat's table: the match plays on
        await bot.driver.feed(how(bot, BOB))
        assert (await client.get(path, headers=header(BOB))).status_code == 200


async def test_a_webhook_with_the_wrong_secret_is_refused_before_its_body(database):
    """The webhook's route takes up to a MiB, but only from Telegram: a wrong path or secret
    is answered at the headers."""
    async with running_table_bot(database) as bot:
        request = b"POST /123456:wrong HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n"
        answer, closed = await exchange(bot.url, request, within=5)
    assert status_of(answer) == 404 and closed


# -- memory, in a real bot process ---------------------------------------------------------
@pytest.mark.usefixtures("no_bot_left_running")
async def test_memory_stays_flat_while_60_clients_each_send_a_mib_and_stall(server, database):
    """The issue's attack, measured on a real ``python -m bot``: its resident memory grew by
    about 70 MB when the body was read before the launch data was checked."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    bot = BotProcess(server, database, WEB_APP_URL=url, HEALTH_PORT=str(port))
    await bot.start()
    process = psutil.Process(bot.process.pid)
    before = process.memory_info().rss
    connections = []
    for _ in range(60):
        reader, writer = await connect(url)
        writer.write(
            b"POST /api/tables/1/moves HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n\r\n"
            + b"[" * 2**20  # as much of the body as the socket takes, then nothing more
        )
        connections.append((reader, writer))
    answers = [await read_until_closed(reader, within=10) for reader, _ in connections]
    stalled = process.memory_info().rss
    assert all(closed for _, closed in answers)  # refused (413) and closed, every one
    assert stalled - before < 8 * 2**20, f"{(stalled - before) / 2**20:.1f} MB more"
    for _, writer in connections:
        writer.close()
    async with httpx.AsyncClient() as client:  # and the bot serves on
        assert (await client.get(f"{url}/livez")).status_code == 200


async def test_past_the_cap_a_new_connection_is_closed_at_once(database):
    async with running_table_bot(database) as bot:
        web = bot.driver.app.bot_data["web"].server
        web.max_connections = 3
        held = [await connect(bot.url) for _ in range(3)]
        await asyncio.sleep(0.2)
        assert web.open_connections == 3
        reader, writer = await connect(bot.url)
        _, closed = await read_until_closed(reader, within=2)
        assert closed and web.turned_away == 1
        for _, held_writer in held:
            held_writer.close()
        writer.close()
        await asyncio.sleep(0.2)
        async with bot.client() as client:  # room again: it serves
            assert (await client.get("/livez")).status_code == 200
