"""The table app's API against the real bot and the fake Telegram: a seat reads its table as
the engine's view shows it, moves as a chat button does, and is told of every change; launch
data, strangers, stale and repeated moves, limits and an absent database are answered
clearly and change nothing."""

from __future__ import annotations

import asyncio
import json
import random
import time

import httpx
import pytest

from bot.presentation.i18n import translator
from bot.storage import StorageUnavailable
from bot.table.host import get_host
from bot.table.publishing import group_board
from bot.telegram_api.callbacks import Callback, Kind
from bot.web import limits
from games import get_engine
from games.core import encode_action
from tests.bot import play5211, play_azul, play_summer_pavilion
from tests.bot.conftest import ALICE, BOB, CAROL, GROUP, MALLORY
from tests.bot.handlers.test_inline import PAIR, open_table, stand_in, started
from tests.bot.helpers import current_match, prompt
from tests.bot.web.conftest import TableBot, header

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])
ENGINE = get_engine("azul")
PACE = limits.BUDGETS["request"]


async def azul_match(bot: TableBot):
    await play_azul.start_match(bot.driver, ALICE, [ALICE, BOB])
    await bot.driver.settle()
    return await current_match(bot.driver)


def to_act(match):
    seat = min(ENGINE.to_act(match.state))
    return seat, [ALICE, BOB][seat]


async def move(client: httpx.AsyncClient, match_id: int, user, action, token) -> httpx.Response:
    body = {"action": list(action), "token": token}
    return await client.post(f"/api/tables/{match_id}/moves", json=body, headers=header(user))


async def test_a_seat_reads_its_table_as_the_engine_shows_it(table_bot):
    match = await azul_match(table_bot)
    seat, user = to_act(match)
    async with table_bot.client() as client:
        answer = await client.get(f"/api/tables/{match.id}", headers=header(user))
    assert answer.status_code == 200
    table = answer.json()
    view = ENGINE.view(match.state, seat)  # the same view function as the chat's prompt
    assert table["view"] == json.loads(json.dumps({k: v for k, v in view.items() if k != "log"}))
    assert table["legal"] == [list(a) for a in ENGINE.legal_actions(match.state, seat)]
    assert table["seat"] == seat and table["token"] == match.seats[seat].token
    assert [p["name"] for p in table["players"]] == ["Alice", "Bob"]
    assert table["heading"][0].startswith("Round 1")
    assert table["texts"]["floor"] == "Floor" and len(table["looks"]) == 5
    assert "TEST-TOKEN" not in answer.text  # the bot token never leaves the server


async def test_a_move_from_the_app_is_played_and_shown_in_the_chat(table_bot):
    match = await azul_match(table_bot)
    seat, user = to_act(match)
    action = ENGINE.default_action(match.state, seat)
    async with table_bot.client() as client:
        answer = await move(client, match.id, user, action, match.seats[seat].token)
    assert answer.status_code == 200, answer.text
    await table_bot.driver.settle()
    after = await current_match(table_bot.driver)
    assert after.version == match.version + 1
    moves = await get_host(table_bot.driver.app).storage.moves(match.id)
    assert moves[-1][1:] == (seat, encode_action(action))
    board = play_azul.board(table_bot.driver)
    assert after.published == after.version and "Alice" in board.text  # the group saw it


async def test_a_request_sent_again_changes_nothing(table_bot):
    match = await azul_match(table_bot)
    seat, user = to_act(match)
    action = ENGINE.default_action(match.state, seat)
    token = match.seats[seat].token
    async with table_bot.client() as client:
        first = await move(client, match.id, user, action, token)
        again = await move(client, match.id, user, action, token)
    assert first.status_code == 200
    assert again.status_code == 409 and again.json()["error"] == "play.stale"
    assert "no longer" in again.json()["message"] or again.json()["message"]
    assert (await current_match(table_bot.driver)).version == match.version + 1


async def test_the_same_decision_from_the_chat_and_the_app_at_once_is_applied_once(table_bot):
    match = await azul_match(table_bot)
    seat, user = to_act(match)
    action = ENGINE.default_action(match.state, seat)
    token = match.seats[seat].token
    data = Callback(Kind.ACTION, match.id, token, encode_action(action)).encode()
    chat_prompt = prompt(table_bot.driver, user)
    async with table_bot.client() as client:
        popup, answer = await asyncio.gather(
            table_bot.driver.press(user, user.id, chat_prompt.message_id, data),
            move(client, match.id, user, action, token),
        )
    after = await current_match(table_bot.driver)
    assert after.version == match.version + 1  # one move, whichever came first
    moves = [m for m in await get_host(table_bot.driver.app).storage.moves(match.id) if m[1] >= 0]
    assert len(moves) == 1
    app_won = answer.status_code == 200
    chat_stale = popup is not None and "no longer" in popup.lower()
    assert app_won != (answer.status_code == 409)
    assert app_won == chat_stale, (answer.text, popup)


async def test_without_valid_launch_data_nothing_is_read_or_moved(table_bot):
    match = await azul_match(table_bot)
    seat, user = to_act(match)
    action = ENGINE.default_action(match.state, seat)
    token = match.seats[seat].token
    forged = header(user)
    forged["Authorization"] = forged["Authorization"].replace("hash=", "hash=00")
    refused = [
        {},  # missing
        forged,
        header(user, auth_date=time.time() - 25 * 3600),  # expired
        header(user, token="999:ANOTHER-BOT"),  # another bot's
        {"Authorization": f"Bearer {header(user)['Authorization'][4:]}"},  # not tma
    ]
    async with table_bot.client() as client:
        for headers in refused:
            for answer in (
                await client.get(f"/api/tables/{match.id}", headers=headers),
                await client.get("/api/tables", headers=headers),
                await client.post(
                    f"/api/tables/{match.id}/moves",
                    json={"action": list(action), "token": token},
                    headers=headers,
                ),
                await client.get(f"/api/tables/{match.id}/live", headers=headers),
            ):
                assert answer.status_code == 401, (headers, answer.text)
                assert answer.json()["error"] == "signed_out"
    assert (await current_match(table_bot.driver)).version == match.version


async def test_a_stranger_reads_no_table_and_makes_no_move(table_bot):
    """Mallory is not in the group: no table, no move, no live channel."""
    match = await azul_match(table_bot)
    seat, _ = to_act(match)
    action = ENGINE.default_action(match.state, seat)
    async with table_bot.client() as client:
        read = await client.get(f"/api/tables/{match.id}", headers=header(MALLORY))
        moved = await move(client, match.id, MALLORY, action, match.seats[seat].token)
        live = await client.get(f"/api/tables/{match.id}/live", headers=header(MALLORY))
        missing = await client.get("/api/tables/999", headers=header(ALICE))
    # the same answer as for a table that is not there: asking cannot tell them apart
    assert read.status_code == moved.status_code == live.status_code == 404
    assert (
        read.json()
        == moved.json()
        == live.json()
        == missing.json()
        == {
            "error": "no_table",
            "message": "There is no such table, or it is not open to you: only its players and "
            "the members of its group can open it.",
        }
    )
    assert "view" not in read.text
    assert (await current_match(table_bot.driver)).version == match.version


async def test_out_of_turn_illegal_and_malformed_moves_are_refused(table_bot):
    match = await azul_match(table_bot)
    seat, user = to_act(match)
    other = [ALICE, BOB][1 - seat]
    legal = ENGINE.legal_actions(match.state, seat)
    async with table_bot.client() as client:
        out_of_turn = await move(client, match.id, other, legal[0], match.seats[1 - seat].token)
        illegal = await move(client, match.id, user, (99, 0, 0), match.seats[seat].token)
        bad = [
            await client.post(f"/api/tables/{match.id}/moves", content=body, headers=header(user))
            for body in (b"not json", b'{"action": "1.2.3", "token": 1}', b'{"action": [1]}',
                         b'{"action": [1.5, 2], "token": 1}', b'{"action": [], "token": 1}')
        ]  # fmt: skip
    assert out_of_turn.status_code == 403 and out_of_turn.json()["error"] == "play.not_your_turn"
    assert illegal.status_code == 403 and illegal.json()["error"] == "play.illegal"
    assert [answer.status_code for answer in bad] == [400] * 5
    assert (await current_match(table_bot.driver)).version == match.version


async def test_a_big_body_and_a_flood_of_requests_are_refused_at_once(table_bot):
    match = await azul_match(table_bot)
    async with table_bot.client() as client:
        big = await client.post(
            f"/api/tables/{match.id}/moves", content=b"x" * 5000, headers=header(ALICE)
        )
        started = time.monotonic()
        answers = await asyncio.gather(
            *(
                client.get(f"/api/tables/{match.id}", headers=header(ALICE))
                for _ in range(2 * PACE.burst)
            )
        )
        took = time.monotonic() - started
        someone_else = await client.get(f"/api/tables/{match.id}", headers=header(BOB))
    assert big.status_code == 413
    codes = [answer.status_code for answer in answers]
    # the burst, and what the bucket drained while the flood was answered (a busy machine
    # answers slower), and no more
    assert 429 in codes
    assert codes.count(200) <= PACE.burst + PACE.per_minute / 60 * took + 1
    refused = next(answer for answer in answers if answer.status_code == 429)
    assert refused.json() == {"error": "too_fast", "message": translator("en")("app.too_fast")}
    assert refused.headers["Retry-After"] == "1"
    assert someone_else.status_code == 200  # a pace per user


async def test_every_answer_carries_the_security_headers(table_bot):
    match = await azul_match(table_bot)
    async with table_bot.client() as client:
        answers = [
            await client.get("/app/"),
            await client.get("/app/static/app.js"),
            await client.get(f"/api/tables/{match.id}", headers=header(ALICE)),
            await client.get(f"/api/tables/{match.id}"),  # refused: headers all the same
        ]
    page = answers[0].text
    for answer in answers:
        policy = answer.headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "script-src 'self' https://telegram.org" in policy
        origins = {word for word in policy.replace(";", " ").split() if "://" in word}
        assert origins == {
            "https://telegram.org",
            "https://web.telegram.org",
            "https://*.web.telegram.org",
        }
        assert "frame-ancestors https://web.telegram.org" in policy
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert "TEST-TOKEN" not in page and "123456" not in page
    assert (
        answers[1].headers["Content-Type"].startswith(("application/javascript", "text/javascript"))
    )


class Events:
    """The ``data:`` events of a live connection, as they come."""

    def __init__(self, response: httpx.Response) -> None:
        self.lines = response.aiter_lines()

    async def next(self, count: int = 1, timeout: float = 5) -> list[dict]:
        events: list[dict] = []

        async def collect() -> None:
            async for line in self.lines:
                if line.startswith("data: "):
                    events.append(json.loads(line[6:]))
                    if len(events) == count:
                        return

        await asyncio.wait_for(collect(), timeout)
        return events


async def test_the_live_channel_tells_every_change_from_the_chat_and_the_app(table_bot):
    match = await azul_match(table_bot)
    host = get_host(table_bot.driver.app)
    async with (
        table_bot.client() as client,
        client.stream("GET", f"/api/tables/{match.id}/live", headers=header(ALICE)) as live,
    ):
        assert live.headers["Content-Type"].startswith("text/event-stream")
        events = Events(live)
        assert await events.next() == [{"version": match.version}]  # where it stands
        # a move from the chat, by Bob or Alice, whoever is to act
        await play_azul.play_move(table_bot.driver, [ALICE, BOB], random.Random(1))
        assert await events.next() == [{"version": match.version + 1}]
        # a move from the app
        now = await current_match(table_bot.driver)
        seat, user = to_act(now)
        action = ENGINE.default_action(now.state, seat)
        assert (
            await move(client, match.id, user, action, now.seats[seat].token)
        ).status_code == 200
        assert await events.next() == [{"version": match.version + 2}]
        assert host.publisher.tables.is_open(match.id, ALICE.id)
    await asyncio.sleep(0.1)
    assert not host.publisher.tables.is_open(match.id, ALICE.id)


async def test_a_user_may_hold_only_a_few_live_connections(table_bot):
    match = await azul_match(table_bot)
    async with table_bot.client() as client:
        streams = [
            client.stream("GET", f"/api/tables/{match.id}/live", headers=header(ALICE))
            for _ in range(limits.LIVE_PER_USER + 1)
        ]
        opened = [await stream.__aenter__() for stream in streams]
        try:
            codes = [response.status_code for response in opened]
        finally:
            for stream in streams:
                await stream.__aexit__(None, None, None)
    assert codes == [200] * limits.LIVE_PER_USER + [503]


async def test_while_a_table_is_open_its_player_gets_no_chat_prompt_until_it_closes(table_bot):
    match = await azul_match(table_bot)
    api, host = table_bot.api, get_host(table_bot.driver.app)
    host.publisher.tables.grace = 0.05
    seat, user = to_act(match)
    other = [ALICE, BOB][1 - seat]
    async with (
        table_bot.client() as client,
        client.stream("GET", f"/api/tables/{match.id}/live", headers=header(other)) as live,
    ):
        events = Events(live)  # kept: a dropped reader would close the connection
        await events.next()
        before = len([m for m in api.calls if m[1].get("chat_id") == other.id])
        action = ENGINE.default_action(match.state, seat)  # now it is the other's turn
        assert (
            await move(client, match.id, user, action, match.seats[seat].token)
        ).status_code == 200
        await table_bot.driver.settle()
        calls = [m for m in api.calls if m[1].get("chat_id") == other.id]
        assert len(calls) == before, calls[before:]  # their table shows it: nothing sent
    await asyncio.sleep(0.3)
    await table_bot.driver.settle()
    sent = [method for method, params in api.calls[-6:] if params.get("chat_id") == other.id]
    assert "sendPhoto" in sent or "sendMessage" in sent  # the turn's notification, after all


async def test_with_the_database_down_reads_and_moves_say_so_in_one_line(table_bot, monkeypatch):
    match = await azul_match(table_bot)
    seat, user = to_act(match)
    storage = get_host(table_bot.driver.app).storage

    async def down(*args, **kwargs):
        raise StorageUnavailable("the database does not answer")

    monkeypatch.setattr(storage, "load", down)
    async with table_bot.client() as client:
        read = await client.get(f"/api/tables/{match.id}", headers=header(user))
        moved = await move(client, match.id, user, (0, 0, 0), match.seats[seat].token)
    assert read.status_code == moved.status_code == 503
    assert read.json()["error"] == "storage_down"


async def test_my_tables_lists_the_running_tile_games(table_bot):
    azul = await azul_match(table_bot)
    async with table_bot.client() as client:
        answer = await client.get("/api/tables", headers=header(ALICE))
        carol = await client.get("/api/tables", headers=header(CAROL))
    (line,) = answer.json()["tables"]
    assert line["match"] == azul.id and line["game"] == "Azul" and line["title"] == "Game Night"
    _, user = to_act(azul)
    assert line["your_turn"] == (user == ALICE) and line["to_act"] == [user.first_name]
    assert carol.json()["tables"] == []


async def test_the_prompts_of_the_tile_games_carry_the_app_and_nothing_else_does(table_bot):
    driver, api = table_bot.driver, table_bot.api
    match = await play_summer_pavilion.start_match(driver, ALICE, [ALICE, BOB])
    await driver.settle()
    seat = match.state["current"]
    user = [ALICE, BOB][seat]
    rows = prompt(driver, user).buttons()
    assert {
        "text": "🎲 Open the table",
        "web_app": {"url": f"{table_bot.url}/app/?m={match.id}"},
    } in rows
    group = [m for m in api.visible(GROUP) if m.from_bot]
    assert not any("web_app" in b for m in group for b in m.buttons())  # private chats only
    await driver.send(ALICE, GROUP, "/cancel")
    await driver.settle()


async def test_a_card_games_prompt_carries_the_app_too(table_bot):
    from tests.bot import play5211

    await play5211.start_game(table_bot.driver, GROUP, ALICE, [ALICE, BOB])
    await table_bot.driver.settle()
    match = await current_match(table_bot.driver)
    app = {"text": "🎲 Open the table", "web_app": {"url": f"{table_bot.url}/app/?m={match.id}"}}
    for user in (ALICE, BOB):
        assert app in prompt(table_bot.driver, user).buttons()


# At most this many Telegram calls per move in a 2-player Azul match played from the app
# (issue 42): the group's board, edited at each move, and a round's news; the players'
# chats wait while their tables are open. From chat prompts it is 4.66 (docs/messages.md).
APP_CALLS_PER_MOVE = 2.5


# ... and in 5211 (issue 55), whose players choose a part's cards at once: a part costs one
# edit of the board, not one a player — each ✔ is on the players' open tables, and the
# group's board waits for the part's cards to be shown (``GroupBoard._may_wait``)
APP_CALLS_PER_MOVE_5211 = 1.0


async def play_from_the_app(bot: TableBot, game: str = "azul", seed: int = 3) -> tuple[int, int]:
    """A whole 2-player match, every move sent by the app with both tables open: the moves,
    and Telegram's sends, edits and deletes from the start on."""
    if game == "azul":
        match = await azul_match(bot)
    else:
        await play5211.start_game(bot.driver, GROUP, ALICE, [ALICE, BOB])
        await bot.driver.settle()
        match = await current_match(bot.driver)
    engine = get_engine(game)
    start = len(bot.api.calls)
    rng = random.Random(seed)
    moves = 0
    async with bot.client() as client:
        streams = [
            client.stream("GET", f"/api/tables/{match.id}/live", headers=header(user))
            for user in (ALICE, BOB)
        ]
        responses = [await stream.__aenter__() for stream in streams]
        readers = [Events(response) for response in responses]
        for reader in readers:
            await reader.next()
        try:
            while (match := await current_match(bot.driver)).status == "playing":
                seat = min(engine.to_act(match.state))
                user = [ALICE, BOB][seat]
                if game == "azul":
                    action = play_azul.choose(match.state, seat, rng)
                else:
                    action = rng.choice(engine.legal_actions(match.state, seat))
                answer = await move(client, match.id, user, action, match.seats[seat].token)
                assert answer.status_code == 200, answer.text
                for reader in readers:  # both tables hear of it
                    assert (await reader.next())[0]["version"] == match.version + 1
                await bot.driver.settle()
                moves += 1
        finally:
            for stream in streams:
                await stream.__aexit__(None, None, None)
    calls = [
        method
        for method, _ in bot.api.calls[start:]
        if method.startswith(("send", "edit", "delete"))
    ]
    return moves, len(calls)


async def test_a_match_played_from_the_app_costs_at_most_two_and_a_half_calls_a_move(
    table_bot, unpaced
):
    moves, calls = await play_from_the_app(table_bot)
    assert moves > 20
    assert calls / moves <= APP_CALLS_PER_MOVE, (calls, moves)


async def test_5211_played_from_the_app_costs_at_most_one_call_a_move(table_bot, unpaced):
    moves, calls = await play_from_the_app(table_bot, "5211")
    assert moves > 20
    assert calls / moves <= APP_CALLS_PER_MOVE_5211, (calls, moves)
    await table_bot.driver.settle()
    match = await current_match(table_bot.driver)
    assert match.status == "finished" and match.published == match.version  # all of it shown


async def test_a_lone_ready_mark_reaches_the_group_board_after_a_moment(
    table_bot, unpaced, monkeypatch
):
    """With both tables open, Alice's hidden choice waits for Bob's before the board shows
    it — and, Bob taking his time, it shows a moment later anyway; from a chat prompt (a
    table closed), at once."""
    monkeypatch.setattr(group_board, "MARK_WAIT_SECONDS", 0.2)
    driver = table_bot.driver
    await play5211.start_game(driver, GROUP, ALICE, [ALICE, BOB])
    await driver.settle()
    match = await current_match(driver)
    engine = get_engine("5211")
    board = play5211.board(driver, GROUP).text
    async with table_bot.client() as client:
        streams = [
            client.stream("GET", f"/api/tables/{match.id}/live", headers=header(user))
            for user in (ALICE, BOB)
        ]
        readers = [Events(await stream.__aenter__()) for stream in streams]
        for reader in readers:
            await reader.next()
        try:
            action = engine.legal_actions(match.state, 0)[0]
            answer = await move(client, match.id, ALICE, action, match.seats[0].token)
            assert answer.status_code == 200, answer.text
            await driver.settle()
            assert play5211.board(driver, GROUP).text == board  # Bob still chooses: it waits
            await asyncio.sleep(0.4)
            await driver.settle()
            assert play5211.board(driver, GROUP).text != board  # Alice's ✔, shown
            assert (await current_match(driver)).published == match.version + 1
        finally:
            for stream in streams:
                await stream.__aexit__(None, None, None)


async def test_without_web_app_url_the_chat_is_as_it_was(driver):
    await play_azul.start_match(driver, ALICE, [ALICE, BOB])
    await driver.settle()
    for user in (ALICE, BOB):
        messages = [m for m in driver.api.visible(user.id) if m.from_bot]
        assert not any("web_app" in b for m in messages for b in m.buttons())


async def test_an_inline_games_prompt_and_my_board_carry_the_app_too(table_bot):
    """A match in an inline message (a chat without the bot): its players' private prompts
    carry the app's button; so does the prompt "🧱 My board" sends again."""
    driver = table_bot.driver
    for user in (ALICE, BOB):
        await started(driver, user)
    inline_id = await open_table(driver, "azul", ALICE, [BOB])
    await driver.settle()
    match = await current_match(driver, stand_in(PAIR))
    assert match.inline_message_id == inline_id
    link = {"text": "🎲 Open the table", "web_app": {"url": f"{table_bot.url}/app/?m={match.id}"}}
    seat, user = to_act(match)
    assert link in prompt(driver, user).buttons()
    other = [ALICE, BOB][1 - seat]
    await driver.follow(other, f"https://t.me/{driver.api.username}?start=m{match.id}")
    await driver.settle()
    assert link in prompt(driver, other).buttons()  # "My board", while waiting too
