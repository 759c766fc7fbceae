"""/stats, /top, /history and /forget as players see them, after real matches."""

from __future__ import annotations

import json
import re

from bot.host import get_host
from bot.match_log import replay
from bot.storage.records import FORGOTTEN
from bot.testing.fake_telegram import FakeUser
from games import get_engine
from tests.bot.conftest import ALICE, BOB, CAROL, GROUP, IVAN, OTHER_GROUP
from tests.bot.helpers import current_match
from tests.bot.play5211 import play_to_the_end, start_game
from tests.bot.test_records import play_match

PLAYERS = [ALICE, BOB, CAROL]


async def finished_5211(driver, group=GROUP, players=PLAYERS):
    await start_game(driver, group, players[0], players)
    await play_to_the_end(driver, players)
    match = await current_match(driver, group)
    assert match.status == "finished"
    return match


def reply_to(driver, user, chat_id, text, replied_user):
    update = driver.message_update(user, chat_id, text)
    update["message"]["reply_to_message"] = {
        "message_id": 1,
        "date": 0,
        "chat": driver.api.chat(chat_id),
        "from": replied_user.as_dict(),
        "text": "hi",
    }
    return update


def last_text(driver, chat_id) -> str:
    return driver.api.last(chat_id).text


async def test_stats_in_the_group_in_private_and_of_someone_else(driver):
    match = await finished_5211(driver)
    result = get_engine("5211").result(match.state)
    await driver.send(ALICE, GROUP, "/stats")
    text = last_text(driver, GROUP)
    assert "Alice — games in this group" in text
    wins = 1 if result.ranks[0] == 1 else 0
    assert f"5211: 1 game · {wins} win{'' if wins == 1 else 's'} ({100 * wins}%)" in text
    assert f"best {result.scores[0]}" in text and "rating " in text
    await driver.send(ALICE, OTHER_GROUP, "/stats")  # another group: nothing there
    assert "No finished games yet." in last_text(driver, OTHER_GROUP)
    await driver.send(ALICE, ALICE.id, "/stats")  # private: everywhere
    assert "Alice — all games" in last_text(driver, ALICE.id)
    await driver.feed(reply_to(driver, ALICE, GROUP, "/stats", BOB))
    text = last_text(driver, GROUP)
    assert "Bob — games in this group" in text and f"best {result.scores[1]}" in text
    await driver.send(ALICE, GROUP, "/stats @nobody_here")
    assert "I don't know @nobody_here yet" in last_text(driver, GROUP)


async def test_stats_at_username_finds_a_player_who_used_the_bot(driver, api):
    await finished_5211(driver)
    bob = FakeUser(BOB.id, BOB.first_name, username="bobby")
    await driver.send(bob, GROUP, "/top")  # the bot learns @bobby
    await driver.send(ALICE, GROUP, "/stats @Bobby")
    assert "Bob — games in this group" in last_text(driver, GROUP)


async def test_stats_in_russian_uses_plural_forms(driver):
    await finished_5211(driver, players=[ALICE, IVAN, CAROL])
    await driver.send(IVAN, IVAN.id, "/stats")
    text = last_text(driver, IVAN.id)
    assert "Иван — все игры" in text and "1 игра" in text and "рейтинг" in text


def top_lines(text: str) -> list[tuple[str, float, int]]:
    found = re.findall(r"^\S+ (\w+) — (-?[0-9.]+) \((\d+) games?\)$", text, re.M)
    return [(name, float(rating), int(games)) for name, rating, games in found]


async def test_top_orders_by_rating_and_switches_game(driver):
    await finished_5211(driver)
    await finished_5211(driver)
    storage = get_host(driver.app).storage
    await play_match(storage, game="sultan", players=2, seed=3, chat=GROUP)
    await driver.send(ALICE, GROUP, "/top")
    text = last_text(driver, GROUP)
    assert "5211 — top players of this group" in text
    lines = top_lines(text)
    assert [name for name, _, _ in lines] == sorted(
        ["Alice", "Bob", "Carol"], key=lambda n: -dict((x, r) for x, r, _ in lines)[n]
    )
    ratings = [rating for _, rating, _ in lines]
    assert ratings == sorted(ratings, reverse=True) and {g for _, _, g in lines} == {2}
    stored = await storage.leaderboard("5211", GROUP)
    assert [round(s.rating, 1) for s in stored] == ratings
    await driver.press_label(ALICE, GROUP, "Sultan")
    text = last_text(driver, GROUP)
    assert "Sultan — top players of this group" in text
    assert [name for name, _, _ in top_lines(text)] == [
        s.name for s in await storage.leaderboard("sultan", GROUP)
    ]
    await driver.send(ALICE, ALICE.id, "/top 5211")  # private: everyone's
    assert "5211 — top players everywhere" in last_text(driver, ALICE.id)


async def test_an_admin_switches_the_groups_leaderboard_off(driver, api):
    await finished_5211(driver)
    await driver.send(BOB, GROUP, "/top off")
    assert "Only a group admin" in last_text(driver, GROUP)
    api.admins[GROUP].add(ALICE.id)
    await driver.send(ALICE, GROUP, "/top off")
    assert "leaderboard is off" in last_text(driver, GROUP)
    await driver.send(BOB, GROUP, "/top")
    assert "switched off in this group" in last_text(driver, GROUP)
    await driver.send(ALICE, GROUP, "/top on")
    await driver.send(BOB, GROUP, "/top")
    assert "top players of this group" in last_text(driver, GROUP)


async def test_history_lists_matches_and_shows_a_final_screen_log_and_replay(driver, api):
    match = await finished_5211(driver)
    await driver.send(ALICE, GROUP, "/history")
    listing = last_text(driver, GROUP)
    assert f"#{match.id} · 5211 ·" in listing and "🏆" in listing
    await driver.press_label(BOB, GROUP, f"#{match.id}")
    sent = [m for m in api.visible(GROUP)][-3:]
    screen, log, replay_file = sent
    assert f"5211 #{match.id}" in screen.text
    assert log.filename == f"match-{match.id}.txt" and replay_file.filename.endswith(".json")
    text = log.document.decode()
    moves = await get_host(driver.app).storage.moves(match.id)
    assert len([line for line in text.splitlines() if re.match(r"\d+\. ", line)]) == (
        len(moves) - 1
    )
    document = json.loads(replay_file.document)
    assert replay(document) == match.state


async def test_history_tells_a_stopped_match_and_needs_a_group(driver, api):
    await start_game(driver, GROUP, ALICE, PLAYERS)
    api.admins[GROUP].add(ALICE.id)
    await driver.send(ALICE, GROUP, "/cancel")
    await driver.press_label(ALICE, GROUP, "Yes, stop it")
    await driver.send(ALICE, GROUP, "/history")
    assert "stopped" in last_text(driver, GROUP)
    await driver.send(ALICE, ALICE.id, "/history")
    assert "send it in the group" in last_text(driver, ALICE.id)


async def test_forget_deletes_stats_and_ratings_after_a_confirmation(driver):
    match = await finished_5211(driver)
    storage = get_host(driver.app).storage
    await driver.send(ALICE, GROUP, "/forget")
    assert "private chat" in last_text(driver, GROUP)
    await driver.send(ALICE, ALICE.id, "/forget")
    await driver.press_label(ALICE, ALICE.id, "Keep them")
    assert await storage.player_stats(ALICE.id)
    await driver.send(ALICE, ALICE.id, "/forget")
    await driver.press_label(ALICE, ALICE.id, "Delete them")
    assert "deleted" in last_text(driver, ALICE.id)
    assert await storage.player_stats(ALICE.id) == []
    assert await storage.player_stats(ALICE.id, GROUP) == []
    assert ALICE.id not in {s.user_id for s in await storage.leaderboard("5211")}
    assert {s.user_id for s in await storage.leaderboard("5211")} == {BOB.id, CAROL.id}
    past = await storage.past_match(match.id)
    assert [p.name for p in past.players] == [FORGOTTEN, "Bob", "Carol"]
    await driver.send(BOB, GROUP, "/history")
    assert "Alice" not in last_text(driver, GROUP) and FORGOTTEN in last_text(driver, GROUP)


async def test_stats_in_a_forum_topic_is_the_senders_own(driver):
    """In a topic every message replies to the topic's first message: that is no choice of
    whose stats to show."""
    await finished_5211(driver)
    update = reply_to(driver, ALICE, GROUP, "/stats", BOB)
    message = update["message"]
    message["message_thread_id"] = message["reply_to_message"]["message_id"]
    message["is_topic_message"] = True
    await driver.feed(update)
    assert "Alice — games in this group" in last_text(driver, GROUP)
