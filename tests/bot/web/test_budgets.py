"""Fair budgets at the door (issue 56): each action that spends something — a prepared
invitation, a practice match, a question to Telegram, the database — is charged to its own
budget (``bot.web.limits.BUDGETS``), and a refusal past it is a 429 in the asker's language
that says when to try again; reading writes nothing; a table, replay or tournament one may
not see is answered exactly as one that is not there. Through the real server, over HTTP,
with the fake Telegram counting the calls."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.presentation.i18n import translator
from bot.table.host import get_host
from bot.telegram_api.rate_limit import TelegramLimits
from bot.testing.driver import FakeUser
from bot.web import limits
from bot.web.practice import FRIEND_GAMES
from tests.bot import play5211
from tests.bot.conftest import ALICE, BOB, CAROL, GROUP, MALLORY
from tests.bot.helpers import current_match
from tests.bot.web.conftest import header, launch_data, open_page, running_table_bot

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])
BUDGETS = limits.BUDGETS


def newcomer(number: int, lang: str = "en") -> FakeUser:
    """A Telegram user who opens the app and has never written to the bot."""
    return FakeUser(800_000 + number, f"Newcomer {number}", lang)


@pytest.fixture(autouse=True)
def a_still_minute(monkeypatch) -> None:
    """The budgets of a minute (all but the requests' pace, of a second) do not refill
    while a test runs, however slow the machine: each test sees a budget's burst and
    nothing more, whatever its wall time."""
    for action, budget in list(BUDGETS.items()):
        if action != "request":
            monkeypatch.setitem(BUDGETS, action, replace(budget, per_minute=1e-6))


@pytest.fixture
def quick_fingers(monkeypatch) -> None:
    """The pace of requests out of the way (a test asks faster than any finger), every
    other budget as it is."""
    monkeypatch.setitem(BUDGETS, "request", limits.Budget(10_000, 600_000, "user", "app.too_fast"))


def refused_as(answer, action: str, lang: str = "en") -> bool:
    budget = BUDGETS[action]
    return (
        answer.status_code == 429
        and answer.json() == {"error": budget.error, "message": translator(lang)(budget.refusal)}
        and int(answer.headers["Retry-After"]) == budget.retry_after
    )


async def group_5211(bot):
    await play5211.start_game(bot.driver, GROUP, ALICE, [ALICE, BOB])
    await bot.driver.settle()
    return await current_match(bot.driver)


# -- invitations ----------------------------------------------------------------------------
@pytest.mark.usefixtures("quick_fingers")
async def test_200_invitation_requests_from_one_user_cost_at_most_the_budgets_calls(database):
    """The issue's attack: one user posting "Play with a friend" as fast as they can. The
    same game's invitation is offered again while Telegram keeps it; a new one is charged to
    the user's budget; past it, a clear answer."""
    async with running_table_bot(database) as bot, bot.client() as client:
        await bot.driver.send(ALICE, ALICE.id, "/start")
        answers = [
            await client.post(
                "/api/friend",
                json={"game": FRIEND_GAMES[n % len(FRIEND_GAMES)]},
                headers=header(ALICE),
            )
            for n in range(200)
        ]
    budget = BUDGETS["invitation"]
    calls = bot.api.count("savePreparedInlineMessage")
    assert calls == min(budget.burst, len(FRIEND_GAMES))  # the burst, and no more
    prepared: dict[str, set[str]] = {}
    for n, answer in enumerate(answers):
        game = FRIEND_GAMES[n % len(FRIEND_GAMES)]
        if answer.status_code == 200:
            prepared.setdefault(game, set()).add(answer.json()["prepared"])
        else:
            assert refused_as(answer, "invitation"), answer.text
    assert all(len(ids) == 1 for ids in prepared.values())  # one invitation a game, reused
    assert len(prepared) == calls
    assert sum(answer.status_code == 200 for answer in answers) >= 200 - 200 // len(FRIEND_GAMES)


async def test_thirty_new_users_inviting_at_once_stay_within_the_apps_telegram_share(database):
    """30 signed users who never started the bot, each asking once: the app's calls never
    exceed their share of the bot's Telegram budget (3 a second, at once 3); the others are
    told to try again in a minute, and no ``users`` row is written for them."""
    share = TelegramLimits()  # the bot's own limiter, as in service
    async with (
        running_table_bot(database, rate_limit=True, rate_limiter=share) as bot,
        bot.client() as client,
    ):
        loop_began = share.app._counted
        answers = [
            await client.post("/api/friend", json={"game": "azul"}, headers=header(newcomer(n)))
            for n in range(30)
        ]
        took = share.app._counted - loop_began
        storage = get_host(bot.driver.app).storage
        rows = [await storage.user(newcomer(n).id) for n in range(30)]
    calls = bot.api.count("savePreparedInlineMessage")
    assert 1 <= calls <= share.app.burst + share.app.per_second * took + 1
    served = [answer for answer in answers if answer.status_code == 200]
    assert len(served) == calls
    assert all(refused_as(answer, "look_ups") for answer in answers if answer not in served)
    # a row for those whose invitation Telegram keeps (its Join needs their name), no other
    assert sum(row is not None for row in rows) == calls


# -- practice matches ---------------------------------------------------------------------
async def test_practice_matches_started_and_stopped_in_a_loop_are_a_few_a_minute(database):
    """The issue's loop: start from the app, /cancel in the chat, confirm, again. The
    running match named again costs nothing; a new one is charged."""
    async with running_table_bot(database) as bot, bot.client() as client:
        driver = bot.driver
        await driver.send(ALICE, ALICE.id, "/start")
        answers, stopped = [], 0
        for _ in range(8):
            answer = await client.post(
                "/api/practice", json={"game": "azul", "level": "easy"}, headers=header(ALICE)
            )
            answers.append(answer)
            if answer.status_code == 200:
                again = await client.post(
                    "/api/practice", json={"game": "azul", "level": "easy"}, headers=header(ALICE)
                )
                assert again.json() == answer.json()  # the running one: free
                await driver.settle()
                await driver.send(ALICE, ALICE.id, "/cancel")
                await driver.press_label(ALICE, ALICE.id, "Yes, stop it")
                stopped += 1
    budget = BUDGETS["practice"]
    assert stopped == budget.burst
    assert [a.status_code for a in answers] == [200] * budget.burst + [429] * (8 - budget.burst)
    assert refused_as(answers[-1], "practice")


async def test_a_crowd_starting_practice_matches_gets_at_most_everyones_budget(database):
    """Many accounts, each within its own budget, still start no more matches than
    everyone's budget holds: each match's board and prompt are calls to Telegram."""
    everyone = BUDGETS["practices"]
    crowd = [newcomer(n) for n in range(everyone.burst + 5)]
    async with running_table_bot(database) as bot, bot.client() as client:
        for user in crowd:
            await bot.driver.send(user, user.id, "/start")
        answers = [
            await client.post(
                "/api/practice", json={"game": "5211", "level": "easy"}, headers=header(user)
            )
            for user in crowd
        ]
        await bot.driver.settle()
    assert [a.status_code for a in answers] == [200] * everyone.burst + [429] * 5
    assert all(refused_as(a, "practices") for a in answers[everyone.burst :])


# -- reading writes nothing ---------------------------------------------------------------
async def test_thirty_new_signed_users_reading_write_no_users_rows(database):
    async with running_table_bot(database) as bot, bot.client() as client:
        match = await group_5211(bot)
        storage = get_host(bot.driver.app).storage
        for n in range(30):
            signed = header(newcomer(n, ["en", "ru", "uk", "it"][n % 4]))
            for path in (
                "/api/tables",
                "/api/lessons",
                f"/api/tables/{match.id}",  # a member of the group: watching
                f"/api/replays/{match.id}",  # still playing: 409
                "/api/tables/999999",
                "/api/tournaments/5",
                "/api/launch",
                "/api/lessons/azul/0",
                "/api/openapi.json",
            ):
                answer = await client.get(path, headers=signed)
                assert answer.status_code in (200, 404, 409), (path, answer.text)
        rows = [await storage.user(newcomer(n).id) for n in range(30)]
    assert rows == [None] * 30


# -- membership look-ups --------------------------------------------------------------------
@pytest.mark.usefixtures("quick_fingers")
async def test_a_crowd_of_strangers_costs_at_most_the_look_up_budget_and_never_a_wrong_yes(
    database,
):
    """150 signed strangers open a group's table: Telegram is asked at most everyone's
    budget of look-ups; past it the answer is "try again in a minute", never the table —
    not even for a real member not yet known; a member known from the last minute is served.
    """
    everyone = BUDGETS["look_ups"]
    async with running_table_bot(database) as bot, bot.client() as client:
        match = await group_5211(bot)
        path = f"/api/tables/{match.id}"
        assert (await client.get(path, headers=header(CAROL))).status_code == 200  # a member
        strangers = [newcomer(n) for n in range(150)]
        bot.api.outsiders[GROUP].update(stranger.id for stranger in strangers)
        asked_before = bot.api.count("getChatMember")
        answers = [await client.get(path, headers=header(stranger)) for stranger in strangers]
        again = await client.get(path, headers=header(strangers[0]))  # known: not asked
        asked = bot.api.count("getChatMember") - asked_before
        member_known = await client.get(path, headers=header(CAROL))
        member_new = await client.get(path, headers=header(newcomer(999)))
    statuses = [answer.status_code for answer in answers]
    assert 200 not in statuses
    assert asked == statuses.count(404)  # each one asked once, the first answered no
    # while everyone's look-ups are spent even a known "no" waits, as a table not there
    # does: what a stranger sees cannot tell them apart
    assert refused_as(again, "look_ups")
    assert asked == everyone.burst - 1  # Carol's look-up was the first of the burst
    assert all(refused_as(a, "look_ups") for a in answers if a.status_code == 429)
    assert member_known.status_code == 200
    assert refused_as(member_new, "look_ups")  # not a guess: asked again in a minute


async def test_one_stranger_probing_tables_spends_their_own_look_ups_alike_for_all(database):
    """Tables that exist and tables that do not cost a stranger the same, and answer the
    same; past their budget, both are "try again in a minute" alike."""
    mine = BUDGETS["look_up"]
    async with running_table_bot(database) as bot, bot.client() as client:
        match = await group_5211(bot)
        probes = [match.id if n % 2 else 500_000 + n for n in range(mine.burst + 4)]
        answers = [
            await client.get(f"/api/tables/{number}", headers=header(MALLORY)) for number in probes
        ]
        others = await client.get(f"/api/tables/{match.id}", headers=header(CAROL))
    assert {a.content for a in answers[: mine.burst]} == {answers[0].content}
    assert all(a.status_code == 404 for a in answers[: mine.burst])
    assert all(refused_as(a, "look_up") for a in answers[mine.burst :])
    assert others.status_code == 200  # someone else's budget is their own


async def test_a_replay_one_may_not_see_answers_as_one_that_is_not_there(database):
    async with running_table_bot(database) as bot, bot.client() as client:
        match = await group_5211(bot)
        await bot.driver.send(ALICE, GROUP, "/cancel")
        await bot.driver.press_label(ALICE, GROUP, "Yes, stop it")
        await bot.driver.settle()
        bot.api.outsiders[GROUP].add(CAROL.id)
        for path in (f"/api/replays/{match.id}", f"/api/replays/{match.id}/0"):
            hidden = await client.get(path, headers=header(CAROL))
            missing = await client.get(path.replace(str(match.id), "999999"), headers=header(CAROL))
            assert hidden.status_code == missing.status_code == 404
            assert hidden.content == missing.content
            assert hidden.json()["message"] == translator("en")("app.unseen_table")
        shown = await client.get(f"/api/replays/{match.id}", headers=header(BOB))
    assert shown.status_code == 200


# -- what the player reads ----------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ru", "uk", "it"])
async def test_the_page_says_each_refusal_in_the_players_language(database, chromium, lang):
    """In a real browser: a fourth new invitation within the minute, and a group's table
    opened by someone not in the group, are said in the player's words, and the page does
    not hammer the server again for a budget spent for a minute."""
    from tests.bot.web.test_lessons import SHARE_STUB

    t = translator(lang)
    player = FakeUser(ALICE.id, ALICE.first_name, lang)
    async with running_table_bot(database) as bot:
        await bot.driver.send(player, player.id, "/start")
        match = await group_5211(bot)
        page = await chromium.new_page(viewport={"width": 400, "height": 900})
        await page.route("https://telegram.org/**", lambda route: route.abort())
        await page.add_init_script(SHARE_STUB % json.dumps(launch_data(player)))
        await page.goto(f"{bot.url}/app/")
        await page.locator("[data-friend]").first.wait_for()
        for game in FRIEND_GAMES:  # one more than the budget's burst
            await page.locator(f"[data-friend='{game}']").click()
            await page.wait_for_timeout(0)
        await page.wait_for_function(
            "(text) => document.querySelector('#status').textContent === text",
            arg=t("app.invitations_spent"),
        )
        assert await page.evaluate("() => window.shared.length") == BUDGETS["invitation"].burst
        assert "null" not in await page.inner_text("#table")  # the home, nothing finished
        asked = bot.api.count("savePreparedInlineMessage")
        bot.api.outsiders[GROUP].add(MALLORY.id)
        stranger = FakeUser(MALLORY.id, MALLORY.first_name, lang)
        other = await open_page(chromium, bot.page_url(stranger, match.id))
        await other.locator("#status.problem").wait_for()
        assert await other.inner_text("#status") == t("app.unseen_table")
    assert asked == BUDGETS["invitation"].burst
    assert len(FRIEND_GAMES) > BUDGETS["invitation"].burst
