"""Telegram's limits with the rate limiter on: a group never gets more than 19 calls in any
rolling minute, board edits still coalesce, and presses are answered before slower work.

Telegram's minute is shrunk to ``WINDOW`` seconds (``TelegramLimits(window=...)``), so many
"minutes" of play fit in a few seconds of a test."""

from __future__ import annotations

import asyncio
import time

from telegram import Update

from bot.presentation.i18n import translator
from bot.presentation.ui import get_ui
from bot.table.host import get_host
from bot.table.publishing.messages import names_of
from bot.telegram_api.callbacks import Callback
from bot.telegram_api.rate_limit import APP_CALL, Pacing, ShareSpent, TelegramLimits
from bot.testing.fake_telegram import plain
from games import get_engine
from games.core import encode_action
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, GROUP, running_bot
from tests.bot.databases import Look
from tests.bot.helpers import Clock
from tests.bot.play5211 import board, choose, start_game

WINDOW = 1.0
ENGINE = get_engine("5211")


async def press_now(driver, user, match, seat) -> None:
    """A player's move by its callback data, without waiting for the bot to draw it."""
    action = ENGINE.legal_actions(match.state, seat)[0]
    data = Callback("a", match.id, match.seats[seat].token, encode_action(action)).encode()
    update = driver.press_update(user, user.id, 1, data)
    await driver.app.process_update(Update.de_json(update, driver.app.bot))


def group_calls(api) -> list[tuple[float, str]]:
    return [(when, method) for when, method, chat in api.timeline if chat == GROUP]


async def test_fast_play_with_timeouts_keeps_a_group_within_19_calls_a_minute(api, database):
    limits = TelegramLimits(window=WINDOW, margin=0.05)
    async with running_bot(api, database, limits, rate_limit=True) as driver:
        driver.group(GROUP, "Game Night")
        clock = Clock()
        host = get_host(driver.app)
        host.clock = clock
        await driver.send(ALICE, GROUP, "/new 5211")
        await driver.press_label(ALICE, GROUP, "Length: one game")
        await driver.press_label(ALICE, GROUP, "to 50 points")  # a long match: to 100
        for player in (ALICE, BOB, CAROL):
            await driver.press_label(player, GROUP, "Join")
        await driver.press_label(ALICE, GROUP, "Start")
        api.timeline.clear()
        for _ in range(30):  # Alice and Carol play at once; Bob times out every time
            match = await host.storage.load(1)
            if match.status != "playing":
                break
            for seat, user in ((0, ALICE), (2, CAROL)):
                await press_now(driver, user, match, seat)
            clock.now += 181
            await host.timers.tick(1, now=clock.now)
            if len(group_calls(api)) < 4 * 19:
                # each part's news and board reach the group before the next part: a
                # demand well above the budget (news of many parts would merge into one)
                await driver.settle()
        await driver.settle()
        match = await host.storage.load(1)
        t = translator("en")
        expected = get_ui("5211").board(t, ENGINE.view(match.state, None), names_of(match))
        shown = board(driver, GROUP)
    calls = group_calls(api)
    assert len(calls) > 3 * 19  # the demand was well above one window's budget...
    assert api.peak_group_calls_per_minute(window=WINDOW) <= 19  # ...and never exceeded
    assert any("Moves Bob missed in a row: 2." in m.text for m in api.visible(GROUP))
    # coalescing: the board shows the latest state, after fewer edits than moves
    clock_line = "\n\n⏱ Time left to move: over 2 minutes."
    assert shown.text == plain(expected.text) + clock_line and match.published == match.version
    board_edits = sum(1 for _, method in calls if method == "editMessageText")
    assert board_edits < match.version


async def test_a_press_is_answered_before_the_moves_of_seats_on_autopilot(driver, api, database):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB, CAROL])
    host = get_host(driver.app)
    match = await host.storage.load(1)
    for seat in match.seats[1:]:  # Bob and Carol play on autopilot
        seat.autopilot = True
        seat.deadline = host.clock()
    await host.storage.save(match)
    async with host.lock(1):
        await host.timers.settle(match)
    answered_at: list[int] = []
    answer = api._api_answerCallbackQuery
    look = Look(database)

    def moves_when_answered(params: dict) -> bool:
        answered_at.append(look.rows("SELECT COUNT(*) FROM moves")[0][0])
        return answer(params)

    api._api_answerCallbackQuery = moves_when_answered
    await choose(driver, ALICE, picks=[0, 1])
    # the start, Bob's and Carol's first moves, Alice's move: answered; then autopilot
    assert answered_at[-1] == 4
    assert len(await host.storage.moves(1)) == 6
    assert "Round 1, part 2 of 3" in board(driver, GROUP).text
    look.close()


async def test_an_admin_check_is_not_held_up_by_a_busy_group(api, database):
    limits = TelegramLimits(window=2.0, margin=0.05)
    async with running_bot(api, database, limits, rate_limit=True) as driver:
        driver.group(GROUP, "Game Night")
        api.admins[GROUP].add(DAVE.id)
        await driver.send(ALICE, GROUP, "/new 5211")
        for player in (ALICE, BOB):
            await driver.press_label(player, GROUP, "Join")
        api.timeline.clear()
        host = get_host(driver.app)
        # the group's budget is spent: these messages wait their turn
        busy = [asyncio.create_task(host.messenger.send(GROUP, f"news {n}")) for n in range(25)]
        await asyncio.sleep(0.1)
        await driver.press_label(DAVE, GROUP, "Start")  # an admin, not the creator
        await asyncio.gather(*busy)
        await driver.settle()
        assert (await host.storage.load(1)).status == "playing"
    order = [method for _, method, chat in api.timeline if chat in (GROUP, None)]
    answered = order.index("answerCallbackQuery")
    assert "getChatMember" in order[:answered]
    sent_before = order[:answered].count("sendMessage")
    assert sent_before < 25, "the press waited for the group's queue"


async def test_overall_pacing_allows_a_burst_then_the_rate_and_serves_calls_in_order():
    """The overall limit (Telegram's 30 calls a second, a burst of 30), here at 300 a second
    so the test takes a fraction of a second: the burst at once, then the rate, first come
    first served."""
    overall = TelegramLimits().overall  # the bot's own: 30 a second, 30 at once
    assert (overall.per_second, overall.burst) == (30, 30)
    limits = TelegramLimits(overall_per_second=300)
    limits.overall = Pacing(300, burst=30)
    loop = asyncio.get_running_loop()
    sent: list[tuple[float, int]] = []

    async def call(number: int) -> int:
        sent.append((loop.time(), number))
        return number

    began = loop.time()
    calls = [
        asyncio.create_task(
            limits.process_request(call, (n,), {}, "sendMessage", {"chat_id": 1000 + n}, None)
        )
        for n in range(120)
    ]
    await asyncio.sleep(0)  # each call's first step: the burst goes at once, without waiting
    assert len(sent) == 30
    results = await asyncio.gather(*calls)
    assert results == list(range(120))
    assert [number for _, number in sent] == list(range(120))  # in the order they came
    times = [when - began for when, _ in sent]
    assert times[-1] >= (120 - 30) / 300 - 0.01  # the rest at the rate...
    for start in times:  # ...never more than the burst plus the rate in any span
        assert sum(1 for when in times if start <= when < start + 0.1) <= 30 + 30 + 1


async def test_overall_pacing_sends_no_more_than_the_burst_after_the_loop_stalled():
    pacing = Pacing(300, burst=30)
    loop = asyncio.get_running_loop()
    sent: list[float] = []

    async def call() -> None:
        await pacing.wait()
        sent.append(loop.time())

    calls = [asyncio.create_task(call()) for _ in range(120)]
    await asyncio.sleep(0)  # the burst goes, the others wait
    time.sleep(0.2)  # the loop stalls: the time of 60 calls passes
    await asyncio.gather(*calls)
    after = sent[30:]
    assert len(after) == 90
    assert sum(1 for when in after if when - after[0] < 0.01) <= 30 + 3  # a burst at most


# -- the table app's share ---------------------------------------------------------------
async def test_the_apps_calls_never_exceed_their_share_and_past_it_are_refused_at_once():
    """A tenth of the budget (here 300 a second, so 30, a burst of 30): within it the calls
    go; past it each is refused without waiting, and nothing is sent for it."""
    limits = TelegramLimits(overall_per_second=300)
    assert (limits.app.per_second, limits.app.burst) == (30, 30)
    assert TelegramLimits().app.per_second == 3  # the bot's own: 3 of its 30 a second
    loop = asyncio.get_running_loop()
    sent: list[float] = []

    async def call() -> None:
        sent.append(loop.time())

    async def app_call() -> bool:
        try:
            await limits.process_request(call, (), {}, "savePreparedInlineMessage", {}, APP_CALL)
        except ShareSpent as spent:
            assert 0 < spent.retry_after <= 1 / 30 + 0.01
            return False
        return True

    began = loop.time()
    first = await asyncio.gather(*(app_call() for _ in range(100)))
    assert first.count(True) == 30 and len(sent) == 30  # the burst; the other 70 refused
    assert loop.time() - began < 0.05  # and none of them waited
    await asyncio.sleep(0.1)  # the share refills: 3 more calls' worth
    again = [await app_call() for _ in range(10)]
    assert 2 <= again.count(True) <= 4


async def test_the_games_calls_go_before_the_apps_calls_waiting_with_them():
    """With the overall budget spent, a group's calls that come after the app's calls still
    leave before them."""
    limits = TelegramLimits(overall_per_second=300)
    limits.overall = Pacing(300, burst=1)
    order: list[str] = []

    async def call(name: str) -> None:
        order.append(name)

    await limits.process_request(call, ("first",), {}, "sendMessage", {"chat_id": 5}, None)
    app = [
        asyncio.create_task(
            limits.process_request(call, (f"app{n}",), {}, "getChatMember", {}, APP_CALL)
        )
        for n in range(3)
    ]
    await asyncio.sleep(0)  # the app's calls wait for the overall budget
    games = [
        asyncio.create_task(
            limits.process_request(call, (f"game{n}",), {}, "sendMessage", {"chat_id": 9 + n}, None)
        )
        for n in range(3)
    ]
    await asyncio.gather(*app, *games)
    assert order == ["first", "game0", "game1", "game2", "app0", "app1", "app2"]


async def test_a_groups_calls_go_before_the_private_chats_calls_waiting_with_them():
    """A crowd playing practice matches spends the overall budget in private chats: a
    group's move that comes after their calls still leaves first, and the private chats'
    calls then leave in the order they came, before the app's."""
    limits = TelegramLimits(overall_per_second=300)
    limits.overall = Pacing(300, burst=1)
    order: list[str] = []

    async def call(name: str) -> None:
        order.append(name)

    def request(name: str, chat_id: int | None, marked: str | None = None) -> asyncio.Task:
        data = {} if chat_id is None else {"chat_id": chat_id}
        return asyncio.create_task(
            limits.process_request(call, (name,), {}, "sendPhoto", data, marked)
        )

    await limits.process_request(call, ("first",), {}, "sendMessage", {"chat_id": 5}, None)
    crowd = [request(f"practice{n}", 1000 + n) for n in range(3)]
    app = [request("app", None, APP_CALL)]
    await asyncio.sleep(0)  # the crowd's and the app's calls wait for the overall budget
    group = [request("group", GROUP)]
    await asyncio.gather(*crowd, *app, *group)
    assert order == ["first", "group", "practice0", "practice1", "practice2", "app"]


async def test_a_shared_budget_that_does_not_answer_leaves_the_local_limits_alone(caplog):
    """The database behind the workers' budget fails: each call goes on at the local pace,
    and the operator reads one line, not one a call."""

    class Failing:
        async def reserve_call(self, overall, group=None) -> float:
            raise ConnectionError("the database does not answer")

    limits = TelegramLimits(overall_per_second=1000)
    limits.share(Failing())
    sent = []

    async def call(n: int) -> int:
        sent.append(n)
        return n

    for n in range(5):
        data = {"chat_id": GROUP, "text": "x"}
        assert await limits.process_request(call, (n,), {}, "sendMessage", data, None) == n
    assert sent == list(range(5))
    assert sum("shared Telegram budget" in r.message for r in caplog.records) == 1
