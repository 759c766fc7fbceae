"""Learning and practising from the table app: a lesson's steps drawn as a match's table,
the pieces of the taught move lit, a wrong move explained and not played, the end with a
practice game; the home's lessons and practice; the lessons' API and its counts."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.presentation.i18n import translator
from bot.presentation.tutorial import Lesson, caption
from bot.presentation.ui import get_ui, playable_games
from bot.table.host import get_host
from bot.web.tables import plain_lines
from games.tutorial import get_tutorial
from tests.bot.conftest import ALICE, BOB, IVAN
from tests.bot.web.conftest import header, launch_data, open_page

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])
TAPS_PER_STEP = 6  # the most taps a step's move takes (a colour, a source, a line…)


def lesson_url(table_bot, user, game: str) -> str:
    return table_bot.page_url(user).replace("/app/#", f"/app/?l={game}#")


async def step_of(page) -> int:
    return int(await page.locator("#table").get_attribute("data-lesson-step"))


@pytest.mark.parametrize("game", playable_games())
async def test_a_newcomer_who_taps_the_lit_pieces_finishes_the_lesson(table_bot, chromium, game):
    t = translator("en")
    page = await open_page(chromium, lesson_url(table_bot, ALICE, game))
    await table_bot.driver.send(ALICE, ALICE.id, "/start")  # (a practice game needs the chat)
    tutorial = get_tutorial(game)
    for index in range(len(tutorial)):
        await page.locator(f"#table[data-lesson-step='{index}']").wait_for()
        shown = await page.inner_text(".lesson-caption")
        assert shown.split("\n")[0][:40] in plain_lines(caption(t, Lesson.at(game, index)))[0]
        for _ in range(TAPS_PER_STEP):
            if await step_of(page) != index:
                break
            drawn = int(await page.locator("#table").get_attribute("data-draws"))
            await page.locator(".teach").first.click()
            await page.wait_for_function(  # the tap's answer drawn (a pick, or the move's)
                "n => Number(document.querySelector('#table').dataset.draws) > n", arg=drawn
            )
        await page.wait_for_function(
            "n => Number(document.querySelector('#table').dataset.lessonStep) > n", arg=index
        )
    learned = await page.inner_text(".lesson-learned")
    assert t(f"tutorial.{game}.learned").splitlines()[0] in learned
    assert page.errors == []
    counts = await get_host(table_bot.driver.app).storage.tutorial_counts()
    assert counts[game] == {step: 1 for step in range(len(tutorial) + 1)}
    # the end: the full rules below, and a practice game whose table opens
    await page.locator("[data-lesson='rules']").click()
    assert plain_lines(get_ui(game).rules(t))[0][:30] in await page.inner_text(".lesson-rules")
    await page.locator("[data-lesson='practice']").click()
    await page.wait_for_url("**/app/?m=*")
    await page.locator("#table[data-version]").wait_for()
    assert await page.locator("[data-seat]").count() >= 2


async def test_a_wrong_tap_is_explained_and_not_played(table_bot, chromium):
    page = await open_page(chromium, lesson_url(table_bot, IVAN, "azul"))
    await page.locator("#table[data-lesson-step='0']").wait_for()
    # the lit tiles, then the floor: legal, but it fills no line (this step's goal)
    await page.locator(".teach").first.click()
    await page.locator(".floor.lit").first.click()
    await page.locator("#status.refused").wait_for()
    assert (await page.inner_text("#status")).startswith("✋ Не этот ход")
    assert await step_of(page) == 0
    await page.locator("[data-lesson='hint']").click()
    assert (await page.inner_text("#status")).startswith("💡")


async def test_the_home_offers_the_lessons_and_a_practice_match(table_bot, chromium):
    await table_bot.driver.send(BOB, BOB.id, "/start")  # the chat a practice match needs
    page = await open_page(chromium, table_bot.page_url(BOB))
    await page.locator(".home-learn a").first.wait_for()
    titles = await page.locator(".home-learn a").all_inner_texts()
    assert titles == [get_ui(game).title(translator("en")) for game in playable_games()]
    await page.select_option("select[name=game]", "sultan")
    await page.select_option("select[name=level]", "easy")
    await page.locator("[data-practice='start']").click()
    await page.wait_for_url("**/app/?m=*")
    await page.locator(".cards-game").wait_for()
    storage = get_host(table_bot.driver.app).storage
    match_id = int(page.url.split("?m=")[1].split("#")[0])
    assert await storage.active_match_id(BOB.id, 0) == match_id
    match = await storage.load(match_id)
    assert match.game == "sultan" and match.status == "playing" and match.practice
    assert [seat.ai for seat in match.seats] == [None, "easy"]
    # back home: the running practice table is listed first
    home = await open_page(chromium, table_bot.page_url(BOB))
    await home.locator(".tables li").first.wait_for()
    assert (await home.locator(".tables li").first.inner_text()).startswith("Sultan")


async def test_the_lessons_api(table_bot):
    async with table_bot.client() as client:
        menu = (await client.get("/api/lessons", headers=header(ALICE))).json()
        assert [lesson["game"] for lesson in menu["lessons"]] == playable_games()
        first = (await client.post("/api/lessons/donkey", headers=header(ALICE))).json()
        assert first["lesson"]["step"] == 0 and first["lesson"]["teach"] == [1, 1, 2, 0]
        assert first["players"][0]["me"] and len(first["players"]) == 3
        wrong = await client.post(
            "/api/lessons/donkey/0/moves", headers=header(ALICE), json={"action": [1, 2, 1, 0]}
        )
        assert wrong.json()["right"] is False and wrong.json()["why"].startswith("✋")
        right = await client.post(
            "/api/lessons/donkey/0/moves", headers=header(ALICE), json={"action": [1, 1, 2, 0]}
        )
        assert right.json()["right"] and right.json()["table"]["lesson"]["step"] == 1
        for path, body, status in [
            ("/api/lessons/chess", None, 404),
            ("/api/lessons/donkey/5/moves", {"action": [0]}, 409),  # its end: nothing to play
            ("/api/lessons/donkey/9/moves", {"action": [0]}, 409),
            ("/api/lessons/donkey/0/moves", {"action": [1, 1, 2, 0]}, 409),  # sent again
            ("/api/lessons/donkey", {"step": 3}, 409),  # a step not reached: no retry
            ("/api/lessons/donkey", {"step": "x"}, 400),
            ("/api/lessons/donkey/0/moves", {"action": "x"}, 400),
            ("/api/lessons/donkey/0/moves", {"action": [-1]}, 400),
            ("/api/practice", {"game": "chess", "level": "easy"}, 400),
        ]:
            answer = await client.post(path, headers=header(ALICE), json=body)
            assert answer.status_code == status, path
        unsigned = await client.post("/api/lessons/donkey")
        assert unsigned.status_code == 401
    counts = await get_host(table_bot.driver.app).storage.tutorial_counts()
    assert counts == {"donkey": {0: 1, 1: 1}}


async def test_a_lesson_finished_five_times_is_counted_once(table_bot):
    """Each learner's start and finish count once per game, however often they restart,
    retry a step or send the last move again; another learner counts again."""
    game = "sultan"
    tutorial = get_tutorial(game)
    async with table_bot.client() as client:

        async def post(path, user, body):  # at a finger's pace: the request budget is 10/s
            await asyncio.sleep(0.11)
            return await client.post(path, headers=header(user), json=body)

        for user in (ALICE, ALICE, ALICE, ALICE, ALICE, BOB):
            begun = (await post(f"/api/lessons/{game}", user, {"step": 0})).json()
            assert begun["lesson"]["step"] == 0
            for index, move in enumerate(tutorial.script):
                if index == len(tutorial) - 1:  # a retry of the last step on the way
                    again = await post(f"/api/lessons/{game}", user, {"step": index})
                    assert again.json()["lesson"]["step"] == index
                answer = await post(
                    f"/api/lessons/{game}/{index}/moves", user, {"action": list(move)}
                )
                assert answer.json()["right"], (index, answer.json())
            last = len(tutorial) - 1
            repeated = await post(
                f"/api/lessons/{game}/{last}/moves", user, {"action": list(tutorial.script[-1])}
            )
            assert repeated.status_code == 409  # the last move sent again: nothing counted
        home = (await client.get("/api/lessons", headers=header(ALICE))).json()
        line = next(lesson for lesson in home["lessons"] if lesson["game"] == game)
        assert line["done"] and line["reached"] == len(tutorial)
        assert not next(lesson for lesson in home["lessons"] if lesson["game"] == "azul")["done"]
    counts = await get_host(table_bot.driver.app).storage.tutorial_counts()
    assert counts == {game: {step: 2 for step in range(len(tutorial) + 1)}}  # Alice and Bob


async def test_a_lesson_resumes_where_it_was_left(table_bot):
    """The learner's place is stored: a new visit (the app opened again, the bot
    restarted) goes on at the step they were at, on the position their moves made."""
    game = "5211"
    async with table_bot.client() as client:
        await client.post(f"/api/lessons/{game}", headers=header(IVAN), json={})
        other = [20, 20]  # 🟩3 🟩3: as good as the hint's pair, and accepted
        answer = await client.post(
            f"/api/lessons/{game}/0/moves", headers=header(IVAN), json={"action": other}
        )
        assert answer.json()["right"]
        resumed = (await client.post(f"/api/lessons/{game}", headers=header(IVAN), json={})).json()
        assert resumed["lesson"]["step"] == 1
    assert await get_host(table_bot.driver.app).storage.lesson_path(IVAN.id, game) == [other]


SHARE_STUB = """
window.shared = [];
window.Telegram = { WebApp: {
  initData: %s, themeParams: {}, ready() {}, expand() {}, onEvent() {},
  MainButton: { setText() {}, onClick() {}, offClick() {}, show() {}, hide() {} },
  BackButton: { onClick() {}, offClick() {}, show() {}, hide() {} },
  HapticFeedback: { selectionChanged() {}, impactOccurred() {}, notificationOccurred() {} },
  shareMessage(id) { window.shared.push(id); },
} };
"""
PAIR = 7_000_002  # the private chat between two friends: the bot is not in it


async def test_play_with_a_friend_shares_an_invitation_whose_join_opens_the_table(
    table_bot, chromium
):
    """The bot prepares the game's invitation (savePreparedInlineMessage), the page hands it
    to Telegram's chat picker (shareMessage); the friend's Join there seats them, and the
    table starts as any inline table."""
    driver = table_bot.driver
    for user in (ALICE, BOB):
        await driver.send(user, user.id, "/start")
    page = await chromium.new_page(viewport={"width": 400, "height": 900})
    await page.route("https://telegram.org/**", lambda route: route.abort())
    await page.add_init_script(SHARE_STUB % json.dumps(launch_data(ALICE)))
    await page.goto(f"{table_bot.url}/app/")
    await page.locator("[data-friend]").first.wait_for()
    titles = await page.locator("[data-friend]").all_inner_texts()
    assert "Who's the Donkey?" not in titles and "Azul" in titles  # two can play these
    await page.locator("[data-friend='azul']").click()
    await page.wait_for_function("() => window.shared.length === 1")
    prepared = await page.evaluate("() => window.shared[0]")
    kept = table_bot.api.prepared[prepared]
    assert kept["user_id"] == ALICE.id and kept["allow_user_chats"] and kept["allow_group_chats"]
    assert "Alice" in kept["result"]["input_message_content"]["message_text"]
    inline_id = driver.share_prepared(ALICE, prepared, PAIR)
    joined = await driver.press_inline_label(BOB, inline_id, "Join")
    assert joined == "You joined Azul. Your cards and moves come in our private chat."
    assert await driver.press_inline_label(ALICE, inline_id, "Start") == "Let's play!"
    await driver.settle()
    storage = get_host(driver.app).storage
    match = await storage.load(await storage.inline_match_id(inline_id))
    assert match.game == "azul" and match.status == "playing"
    assert {seat.user_id for seat in match.seats} == {ALICE.id, BOB.id}


async def test_play_with_a_friend_outside_telegram_says_so(table_bot, chromium):
    page = await open_page(chromium, table_bot.page_url(ALICE))  # no Telegram script
    await page.locator("[data-friend='sultan']").click()
    await page.locator("#status.refused").wait_for()
    assert await page.inner_text("#status") == translator("en")("home.friend_needs_telegram")
    async with table_bot.client() as client:
        bad = await client.post("/api/friend", headers=header(ALICE), json={"game": "donkey"})
        assert bad.status_code == 400  # three or more players: no friend's invitation
    assert table_bot.api.prepared == {}
