"""/stats, /top, /history and /forget as players see them, after real matches."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time

import pytest
from openskill.models import PlackettLuce
from telegram import Update

from bot.presentation.i18n import LANGUAGE_NAMES, LANGUAGES, translator
from bot.presentation.ui import get_ui
from bot.storage.records import FORGOTTEN, MatchRecord, PlayerRecord
from bot.table.host import get_host
from bot.table.match_log import plain_text, readable_log, replay
from bot.table.publishing.messages import names_of
from bot.telegram_api.rate_limit import TelegramLimits
from bot.testing.driver import FakeUser
from bot.testing.fake_telegram import plain
from games import GAME_MODULES, get_engine
from games.core import rank_by
from tests.bot.conftest import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    GIULIA,
    GROUP,
    IVAN,
    MALLORY,
    OKSANA,
    OTHER_GROUP,
    running_bot,
)
from tests.bot.helpers import choose_language, command_menus, current_match, tick, use_clock
from tests.bot.play5211 import board, choose, play_to_the_end, start_game
from tests.bot.storage.test_records import play_match
from tests.bot.table.test_ai_seats import open_with_bots, play_out
from tests.bot.telegram_api.test_rate_limit import press_now

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


def top_lines(text: str) -> list[tuple[str, str, int]]:
    """(name, rating as shown — "1566?" while provisional —, rated games) of each place."""
    found = re.findall(r"^\S+ (\w+) — (\d+\??) \((\d+) games?\)$", text, re.M)
    return [(name, rating, int(games)) for name, rating, games in found]


def points(rating: str) -> int:
    return int(rating.rstrip("?"))


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
        ["Alice", "Bob", "Carol"], key=lambda n: -points(dict((x, r) for x, r, _ in lines)[n])
    )
    ratings = [points(rating) for _, rating, _ in lines]
    assert ratings == sorted(ratings, reverse=True) and {g for _, _, g in lines} == {2}
    stored = await storage.leaderboard("5211", GROUP)
    assert [round(1500 + 20 * s.rating) for s in stored] == ratings
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
    in_group = len(api.visible(GROUP))
    answer = await driver.press_label(BOB, GROUP, f"#{match.id}")
    assert "Sent to your private chat with me" in answer
    assert len(api.visible(GROUP)) == in_group  # nothing more in the group
    screen, log, replay_file = api.visible(BOB.id)[-3:]
    assert f"5211 #{match.id}" in screen.text
    assert log.filename == f"match-{match.id}.txt" and replay_file.filename.endswith(".json")
    text = log.document.decode()
    moves = await get_host(driver.app).storage.moves(match.id)
    assert len([line for line in text.splitlines() if re.match(r"\d+\. ", line)]) == (
        len(moves) - 1
    )
    document = json.loads(replay_file.document)
    assert replay(document) == match.state


async def test_history_tells_a_stopped_match(driver, api):
    await start_game(driver, GROUP, ALICE, PLAYERS)
    api.admins[GROUP].add(ALICE.id)
    await driver.send(ALICE, GROUP, "/cancel")
    await driver.press_label(ALICE, GROUP, "Yes, stop it")
    await driver.send(ALICE, GROUP, "/history")
    assert "stopped" in last_text(driver, GROUP)


async def test_history_in_private_lists_ones_own_practice_games_and_sends_them_there(
    driver, api, deal
):
    """/history in the private chat: the user's practice matches (not the group's, nor
    anyone else's practice), each button sending the match's screen and files right there."""
    await driver.send(ALICE, ALICE.id, "/history")
    assert last_text(driver, ALICE.id) == (
        "None of your practice games has ended yet. /new starts one against bots."
    )
    await finished_5211(driver)  # a group's match: not a practice one
    deal(6)
    await open_with_bots(driver, "azul", [ALICE], bots=0, chat=ALICE.id)
    practice = await play_out(driver, [ALICE], seed=2, chat=ALICE.id)
    await open_with_bots(driver, "azul", [ALICE], bots=0, chat=ALICE.id)
    await driver.send(ALICE, ALICE.id, "/cancel")
    await driver.press_label(ALICE, ALICE.id, "Yes, stop it")
    stopped = await current_match(driver, ALICE.id)
    await driver.send(ALICE, ALICE.id, "/history")
    listing = last_text(driver, ALICE.id)
    assert listing.startswith("📜 Your practice games")
    assert f"#{stopped.id} · Azul ·" in listing and f"#{practice.id} · Azul ·" in listing
    assert "5211" not in listing and "— stopped" in listing and "🤖 Normal Bot" in listing
    assert "Tap a game: its final screen and move log come right here." in listing
    answer = await driver.press_label(ALICE, ALICE.id, f"#{practice.id}")
    assert answer == f"#{practice.id}: its final screen and move log are below."
    screen, log, replay_file = api.visible(ALICE.id)[-3:]
    assert screen.text.startswith(f"📜 Azul #{practice.id}") and "🏆" in screen.text
    assert log.filename == f"match-{practice.id}.txt"
    assert replay_file.filename == f"match-{practice.id}.json"
    await driver.send(BOB, BOB.id, "/history")  # Alice's practice is hers alone
    assert last_text(driver, BOB.id).startswith("None of your practice games")


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


async def test_the_record_commands_are_in_the_menu_in_every_language(driver, api):
    menus = command_menus(api)
    described = {
        lang: tuple(
            next(c["description"] for c in commands if c["command"] == name)
            for name in ("stats", "top", "history", "forget")
        )
        for lang, commands in menus.items()
    }
    assert described == {
        "en": (
            "Your games, wins and ratings",
            "Leaderboard of a game",
            "The group's last games",
            "Delete your stats and ratings",
        ),
        "ru": (
            "Твои игры, победы и рейтинг",
            "Таблица лидеров игры",
            "Последние игры группы",
            "Удалить твою статистику и рейтинг",
        ),
        "uk": (
            "Твої ігри, перемоги й рейтинг",
            "Таблиця лідерів гри",
            "Останні ігри групи",
            "Видалити твою статистику й рейтинг",
        ),
        "it": (
            "Le tue partite, vittorie e valutazioni",
            "Classifica di un gioco",
            "Le ultime partite del gruppo",
            "Cancella le tue statistiche e valutazioni",
        ),
    }


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
async def test_history_and_the_move_log_in_the_readers_language(driver, api, lang):
    """Played in English; the list in the group's language, the match sent to Bob's private
    chat in his."""
    t = translator(lang)
    match = await finished_5211(driver)
    api.admins[GROUP].add(ALICE.id)
    await choose_language(driver, ALICE, GROUP, LANGUAGE_NAMES[lang])
    await choose_language(driver, BOB, BOB.id, LANGUAGE_NAMES[lang])
    await driver.send(BOB, GROUP, "/history")
    assert last_text(driver, GROUP).startswith(plain_text(t("history.title")))
    popup_text = await driver.press_label(BOB, GROUP, f"#{match.id}")
    assert popup_text == t("history.sent", id=match.id)
    screen, log, replay_file = api.visible(BOB.id)[-3:]
    title = get_ui("5211").title(t)
    assert screen.text.startswith(f"📜 {title} #{match.id}")
    assert log.text == plain_text(t("history.log", id=match.id))
    text = log.document.decode()
    lines = text.splitlines()
    assert lines[0].startswith(f"{title} #{match.id} · ")
    assert lines[1] == t("log.players", names="Alice, Bob, Carol")
    moves = await get_host(driver.app).storage.moves(match.id)
    assert text == readable_log(t, match, moves, lines[0])  # the group's language throughout
    assert replay(json.loads(replay_file.document)) == match.state
    assert replay_file.text == plain_text(t("history.replay.5211", id=match.id))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_games_replay_caption_says_what_its_replay_holds(lang):
    """The JSON's caption names the game's secrets: the tile games have no cards and no
    bids, only the bag's order; 5211 and Sultan have cards chosen or bid face down."""
    t = translator(lang)
    captions = {game: t(f"history.replay.{game}", id=7) for game in GAME_MODULES}
    assert len(set(captions.values())) == len(GAME_MODULES)
    words = {
        "en": ("bag", "bid", "card"),
        "ru": ("мешк", "ставк", "карт"),
        "uk": ("мішеч", "ставк", "карт"),
        "it": ("sacchetto", "puntat", "cart"),
    }[lang]
    bag, bid, card = words
    for game in ("azul", "summer_pavilion"):
        assert card not in captions[game] and bid not in captions[game]
    assert bag in captions["azul"]
    assert bid in captions["sultan"] and card in captions["5211"]


def openskill(ranks: list[int]) -> list[str]:
    """The ratings of fresh players after one match with these ranks, as /top shows them:
    1500 + 20 × the ordinal, provisional."""
    model = PlackettLuce()
    rated = model.rate([[model.rating()] for _ in ranks], ranks=ranks)
    return [f"{round(1500 + 20 * team[0].ordinal())}?" for team in rated]


async def test_a_player_the_bot_played_for_is_rated_last_and_lifts_nobody(driver):
    """Bob misses two moves in a row and the bot plays his seat to the end: Alice and Carol
    are rated between themselves, Bob as last of the three, whatever his seat scored."""
    clock = use_clock(driver)
    await start_game(driver, GROUP, ALICE, PLAYERS)
    for _ in range(2):
        await choose(driver, ALICE)
        await choose(driver, CAROL)
        clock.now += 181
        await tick(driver, clock)
    await play_to_the_end(driver, [ALICE, CAROL])
    match = await current_match(driver)
    assert match.status == "finished"
    ranks = get_engine("5211").result(match.state).ranks
    await driver.send(CAROL, GROUP, "/top")
    shown = {name: rating for name, rating, _ in top_lines(last_text(driver, GROUP))}
    alice, carol = openskill([ranks[0], ranks[2]])
    bob = openskill([ranks[0], max(ranks) + 1, ranks[2]])[1]
    assert shown == {"Alice": alice, "Bob": bob, "Carol": carol}
    await driver.feed(reply_to(driver, CAROL, GROUP, "/stats", BOB))
    assert f"rating {bob} after 1 rated game" in last_text(driver, GROUP)


RATED_GAMES = (
    "Games of two or more people without bots, in a group, are rated (and inline games in any "
    "chat)."
)


async def test_matches_with_ai_seats_and_practice_are_never_rated_and_say_why(driver, api, deal):
    """A group match with a 🤖 seat and a practice match in private count as games in
    /stats, but nobody gets a rating from them and no leaderboard shows them: /top and
    /stats say why, and what makes a rated game."""
    deal(11)
    await open_with_bots(driver, "5211", [ALICE, BOB], bots=1)
    assert (await play_out(driver, [ALICE, BOB], seed=3)).status == "finished"
    await driver.send(ALICE, GROUP, "/stats")
    text = last_text(driver, GROUP)
    assert "5211: 1 game" in text and "not rated: played with 🤖 bots" in text
    assert text.endswith(RATED_GAMES)
    await driver.send(ALICE, GROUP, "/top")
    assert last_text(driver, GROUP) == (
        "No rated games yet.\n"
        "The last finished game, 5211, had a 🤖 bot: games with bots are not rated.\n" + RATED_GAMES
    )
    deal(6)
    await open_with_bots(driver, "azul", [ALICE], bots=0, chat=ALICE.id)  # practice
    assert (await play_out(driver, [ALICE], seed=2, chat=ALICE.id)).status == "finished"
    await driver.send(ALICE, ALICE.id, "/stats")
    text = last_text(driver, ALICE.id)
    assert "Azul: 1 game" in text and "5211: 1 game" in text
    assert "Azul</b>" not in text  # plain text of the reply
    lines = text.split("\n")
    assert any(line.startswith("Azul:") and "not rated: practice games" in line for line in lines)
    assert any(line.startswith("5211:") and "played with 🤖 bots" in line for line in lines)
    await driver.send(ALICE, ALICE.id, "/top azul")
    assert last_text(driver, ALICE.id) == (
        "Nobody has a rating in Azul yet.\n"
        "The last finished game, Azul, was practice in a private chat: practice games are "
        "not rated.\n" + RATED_GAMES
    )
    await driver.send(ALICE, GROUP, "/history")  # the group's match is in its history
    assert "🤖 Normal Bot" in last_text(driver, GROUP)


async def test_top_after_an_azul_game_of_two_people_and_a_bot_says_it_was_not_rated(driver, deal):
    """The case players met: two people and a bot finish Azul, and /top explains."""
    deal(4)
    await open_with_bots(driver, "azul", [ALICE, BOB], bots=1)
    assert (await play_out(driver, [ALICE, BOB], seed=1)).status == "finished"
    await driver.send(BOB, GROUP, "/top")
    assert last_text(driver, GROUP).split("\n")[1] == (
        "The last finished game, Azul, had a 🤖 bot: games with bots are not rated."
    )
    driver.api.admins[GROUP].add(ALICE.id)
    await choose_language(driver, ALICE, GROUP, "Русский")
    await driver.send(BOB, GROUP, "/top azul")
    assert last_text(driver, GROUP) == (
        "В игре «Азул» пока ни у кого нет рейтинга.\n"
        "Последняя законченная партия, «Азул», была с 🤖 ботом: игры с ботами на рейтинг не "
        "влияют.\n"
        "В рейтинг идут партии двух и более людей без ботов в группе (и инлайн-игры в любом "
        "чате)."
    )
    await choose_language(driver, ALICE, GROUP, "English")
    await finished_5211(driver)  # a rated game of people: its leaderboard, no explanation
    await driver.send(BOB, GROUP, "/top 5211")
    assert last_text(driver, GROUP).startswith("🏆 5211 — top players of this group\n🥇 ")


async def test_stats_at_username_finds_a_player_who_joined_a_game(driver):
    bob = FakeUser(BOB.id, BOB.first_name, username="bob_plays")
    await finished_5211(driver, players=[ALICE, bob, CAROL])  # Bob joined by the link
    await driver.send(ALICE, GROUP, "/stats @Bob_Plays")
    assert "Bob — games in this group" in last_text(driver, GROUP)


async def test_after_forget_the_history_screen_and_log_show_no_name(driver, api):
    match = await finished_5211(driver)
    await driver.send(ALICE, ALICE.id, "/forget")
    await driver.press_label(ALICE, ALICE.id, "Delete them")
    await driver.send(BOB, GROUP, "/history")
    await driver.press_label(BOB, GROUP, f"#{match.id}")
    screen, log, replay_file = api.visible(BOB.id)[-3:]
    assert "Alice" not in screen.text and FORGOTTEN in screen.text
    text = log.document.decode()
    assert "Alice" not in text and f"{FORGOTTEN}, Bob, Carol" in text
    assert "Alice" not in replay_file.document.decode()


async def test_a_game_abandoned_when_the_bot_was_removed_is_recorded_unrated(driver, api):
    await start_game(driver, GROUP, ALICE, PLAYERS)
    await choose(driver, ALICE)
    api.kicked.add(GROUP)
    await driver.feed(driver.membership_update(CAROL, GROUP, "member", "kicked"))
    api.kicked.discard(GROUP)  # added back later
    await driver.feed(driver.membership_update(CAROL, GROUP, "left", "member"))
    await driver.send(ALICE, GROUP, "/history")
    assert "Alice, Bob, Carol — abandoned (the bot left the group)" in last_text(driver, GROUP)
    await driver.send(ALICE, GROUP, "/top")
    assert last_text(driver, GROUP) == "No rated games yet: finish a game first."
    await driver.send(ALICE, GROUP, "/stats")
    assert "No finished games yet." in last_text(driver, GROUP)


async def test_the_records_move_with_a_group_that_became_a_supergroup(driver, api):
    old, new = -4001, -1004001
    api.chats[old] = {"id": old, "type": "group", "title": "Game Night"}
    match = await finished_5211(driver, group=old)
    api.migrate(old, new)
    for update in driver.migration_updates(ALICE, old, new):
        await driver.feed(update)
    await driver.send(BOB, new, "/top")
    assert {name for name, _, _ in top_lines(last_text(driver, new))} == {"Alice", "Bob", "Carol"}
    await driver.send(BOB, new, "/history")
    assert f"#{match.id} · 5211 ·" in last_text(driver, new)
    await driver.send(BOB, new, "/stats")
    assert "5211: 1 game" in last_text(driver, new)


async def test_the_best_in_who_is_the_donkey_is_the_fewest_penalty_points(driver):
    storage = get_host(driver.app).storage
    users = [ALICE.id, BOB.id, CAROL.id]
    penalties = []
    for seed in (1, 2, 3):
        match = await play_match(
            storage, game="donkey", players=3, seed=seed, chat=GROUP, users=users
        )
        penalties.append(get_engine("donkey").result(match.state).scores[0])
    assert len(set(penalties)) > 1  # the best differs from the worst
    await driver.send(ALICE, GROUP, "/stats")
    text = last_text(driver, GROUP)
    average = f"{sum(penalties) / 3:.1f}"
    assert f"average penalty {average}, best {min(penalties)}" in text


async def traces_of(storage, user_id: int, name: str) -> dict[str, int]:
    """Rows that still name the user or hold their id, table by table (the users table,
    which the bot needs to write to them at all, aside)."""
    found = {}
    for table, columns in (
        ("match_players", ("user_id", "name")),
        ("ratings", ("user_id", "name")),
        ("seats", ("user_id", "name")),
        ("forgotten_players", ("user_id",)),
    ):
        where = " OR ".join(f"{column} = ?" for column in columns)
        values = [user_id if column == "user_id" else name for column in columns]
        rows = await storage._rows(f"SELECT COUNT(*) FROM {table} WHERE {where}", values)
        found[table] = rows[0][0]
    return found


async def test_forget_during_a_match_leaves_no_trace_when_it_ends(driver, api):
    """Alice forgets herself mid-match: she plays on with her prompts as before, but the
    match is recorded and rated without her name or id; a match she starts afterwards
    records her as usual."""
    storage = get_host(driver.app).storage
    await start_game(driver, GROUP, ALICE, PLAYERS)
    await choose(driver, ALICE)
    await driver.send(ALICE, ALICE.id, "/forget")
    await driver.press_label(ALICE, ALICE.id, "Delete them")
    assert "deleted" in last_text(driver, ALICE.id)
    await play_to_the_end(driver, PLAYERS)  # Alice still gets her prompts and plays
    match = await current_match(driver)
    assert match.status == "finished"
    past = await storage.past_match(match.id)
    assert [p.name for p in past.players] == [FORGOTTEN, "Bob", "Carol"]
    assert await traces_of(storage, ALICE.id, "Alice") == {
        "match_players": 0,
        "ratings": 0,
        "seats": 0,
        "forgotten_players": 0,
    }
    assert await storage.player_stats(ALICE.id) == []
    for scope in (None, GROUP):
        assert {s.user_id for s in await storage.leaderboard("5211", scope)} == {BOB.id, CAROL.id}
    await driver.send(BOB, GROUP, "/top")
    assert "Alice" not in last_text(driver, GROUP) and "Bob" in last_text(driver, GROUP)
    await driver.send(BOB, GROUP, "/history")
    assert "Alice" not in last_text(driver, GROUP) and FORGOTTEN in last_text(driver, GROUP)
    await driver.send(ALICE, GROUP, "/stats")
    assert "No finished games yet." in last_text(driver, GROUP)
    # a new match after forgetting is recorded as any other
    await finished_5211(driver)
    await driver.send(ALICE, GROUP, "/stats")
    assert "5211: 1 game" in last_text(driver, GROUP)
    assert ALICE.id in {s.user_id for s in await storage.leaderboard("5211", GROUP)}


async def test_history_goes_to_the_private_chat_once_and_a_stranger_is_sent_there(driver, api):
    """A press sends the match to the presser's private chat, once in a few minutes; Dave,
    who never opened the bot's chat, is sent there by the press and gets it on Start."""
    match = await finished_5211(driver)
    await driver.send(BOB, GROUP, "/history")
    in_group = len(api.visible(GROUP))
    for _ in range(3):
        await driver.press_label(CAROL, GROUP, f"#{match.id}")
    sent = [m for m in api.visible(CAROL.id) if m.text.startswith("📜") or m.filename]
    assert len(sent) == 3  # the screen and the two files, once
    assert (
        api.answers[-1]["text"]
        == f"#{match.id} is already in your private chat with me: have a look there."
    )
    await driver.press_label(DAVE, GROUP, f"#{match.id}")
    answer = api.answers[-1]
    assert "Open your private chat with me and tap Start" in answer["text"]
    assert answer["url"] == f"https://t.me/{api.username}?start=h{match.id}"
    assert api.visible(DAVE.id) == []
    await driver.follow(DAVE, answer["url"])  # Dave's app opens the chat; he taps Start
    screen, log, replay_file = api.visible(DAVE.id)[-3:]
    assert replay_file.filename == f"match-{match.id}.json"
    assert screen.text.startswith(f"📜 5211 #{match.id}") and log.filename.endswith(".txt")
    assert len(api.visible(GROUP)) == in_group  # nothing of it in the group
    clock = use_clock(driver)  # a few minutes later Carol may have it again
    clock.now += 301
    await driver.press_label(CAROL, GROUP, f"#{match.id}")
    assert len([m for m in api.visible(CAROL.id) if m.text.startswith("📜")]) == 2


async def test_history_presses_never_hold_back_a_running_match_in_the_group(api, database):
    """With Telegram's pacing on, 20 presses on /history's buttons (by a stranger and by
    players) post nothing in the group, and a move made meanwhile is drawn at once."""
    limits = TelegramLimits(window=2.0, margin=0.05)
    async with running_bot(api, database, limits, rate_limit=True) as driver:
        driver.group(GROUP, "Game Night")
        host = get_host(driver.app)
        for player in (*PLAYERS, MALLORY):
            await driver.send(player, player.id, "/start")
        await play_match(host.storage, players=3, seed=4, chat=GROUP)
        await driver.send(MALLORY, GROUP, "/history")
        listing = api.last(GROUP)
        data = listing.buttons()[0]["callback_data"]
        await start_game(driver, GROUP, ALICE, PLAYERS)
        await asyncio.sleep(2.1)  # a fresh minute for the group
        match = await current_match(driver)
        before = len(api.visible(GROUP))
        group_calls = len([c for c in api.timeline if c[2] == GROUP])
        presses = [
            driver.press_update(user, GROUP, listing.message_id, data)
            for user in [MALLORY, DAVE, ALICE, BOB, CAROL] * 4
        ]
        started = time.monotonic()
        await asyncio.gather(
            *(driver.app.process_update(Update.de_json(p, driver.app.bot)) for p in presses),
            press_now(driver, ALICE, match, 0),
            press_now(driver, BOB, match, 1),
            press_now(driver, CAROL, match, 2),
        )
        await driver.settle()
        drawn_after = time.monotonic() - started
        played = await current_match(driver)
        t = translator("en")
        expected = get_ui("5211").board(
            t, get_engine("5211").view(played.state, None), names_of(played)
        )
        assert played.version > match.version
        assert plain(expected.text) in board(driver, GROUP).text  # the move is on the board
    assert drawn_after < 1.0  # not behind the budget of a minute (2 s here)
    history_in_group = len(api.visible(GROUP)) - before
    assert history_in_group <= 3  # the move's news and board at most, no history
    calls = [c for c in api.timeline if c[2] == GROUP][group_calls:]
    assert not any(method == "sendDocument" for _, method, _ in calls)
    for user in (MALLORY, ALICE, BOB, CAROL):
        assert len([m for m in api.visible(user.id) if m.filename]) == 2  # sent once


# -- the rating as players read it ---------------------------------------------------------
LEGEND = (
    "The rating is a cautious estimate of skill, starting at 1500: good results and more games "
    "raise it, poor results lower it; ? — provisional: fewer than 10 rated games."
)


async def test_a_newcomers_rating_starts_near_1500_and_is_provisional(driver):
    """After one game nobody reads a penalty: everyone is a few dozen points from 1500, the
    last place too, marked "?" — and the legend under /top and /stats says what that means."""
    await finished_5211(driver)
    await driver.send(ALICE, GROUP, "/top")
    text = last_text(driver, GROUP)
    lines = top_lines(text)
    assert [name for name, _, _ in lines] == [
        s.name for s in await get_host(driver.app).storage.leaderboard("5211", GROUP)
    ]
    assert len(lines) == 3 and all(rating.endswith("?") for _, rating, _ in lines), text
    assert all(1400 <= points(rating) <= 1600 for _, rating, _ in lines), text
    assert points(lines[-1][1]) < 1500 < points(lines[0][1])  # the last lost, the first won
    assert LEGEND in text.splitlines()
    await driver.send(ALICE, GROUP, "/stats")
    text = last_text(driver, GROUP)
    alice = dict((name, rating) for name, rating, _ in lines)["Alice"]
    assert f"rating {alice} after 1 rated game" in text
    assert text.splitlines()[-1] == LEGEND


async def test_the_provisional_mark_goes_after_ten_rated_games(driver):
    storage = get_host(driver.app).storage
    users = [ALICE.id, BOB.id]
    for seed in range(1, 10):
        await play_match(storage, players=2, seed=seed, chat=GROUP, users=users)
    await driver.send(ALICE, GROUP, "/top")
    lines = top_lines(last_text(driver, GROUP))
    assert [(rating[-1], games) for _, rating, games in lines] == [("?", 9), ("?", 9)]
    await play_match(storage, players=2, seed=10, chat=GROUP, users=users)
    await driver.send(ALICE, GROUP, "/top")
    lines = top_lines(last_text(driver, GROUP))
    assert [(rating.isdigit(), games) for _, rating, games in lines] == [(True, 10), (True, 10)]
    await driver.send(ALICE, GROUP, "/stats")
    assert re.search(r"rating \d+ after 10 rated games", last_text(driver, GROUP))


@pytest.mark.parametrize("backend", ["sqlite"])  # the display; the storage is tested elsewhere
async def test_no_shown_rating_is_negative_in_a_long_random_league(driver, backend):
    """300 rated matches of 2 to 6 of 16 players — some strong, some weak, each ranked by
    skill plus luck — recorded and rated by the bot's own code: every rating /stats and
    /top show is a plain number well above 0, and /top still reads in rating order."""
    storage = get_host(driver.app).storage
    rng = random.Random(26)
    league = [FakeUser(1000 + i, f"Player{i}") for i in range(16)]
    skill = {user.id: rng.gauss(0, 1) for user in league}
    for number in range(300):
        seated = rng.sample(league, rng.randint(2, 6))
        # a match row for the record to belong to (a chat holds one lobby at a time)
        lobby = await storage.create_lobby(GROUP - 1000 - number, 0, "5211", {}, seated[0].id)
        luck = [skill[user.id] + rng.gauss(0, 1) for user in seated]
        ranks = rank_by([(value,) for value in luck])
        record = MatchRecord(
            lobby.id, GROUP, "5211", {}, "finished", time.time(), time.time(),
            [PlayerRecord(seat, user.id, user.first_name, 0, rank)
             for seat, (user, rank) in enumerate(zip(seated, ranks, strict=True))],
            season=storage.season_now(time.time()),  # as a save that ends a match gives it
        )  # fmt: skip
        assert await storage._write_record(record)
    shown = []
    for user in league:
        await driver.send(user, user.id, "/stats")
        found = re.findall(r"rating (\S+) after (\d+) rated games", last_text(driver, user.id))
        assert len(found) == 1, last_text(driver, user.id)
        shown.append(found[0][0])
    assert all(re.fullmatch(r"\d+\??", rating) for rating in shown), shown
    assert min(points(rating) for rating in shown) >= 500, shown  # the scale, not the floor
    await driver.send(league[0], GROUP, "/top")
    board = [points(rating) for _, rating, _ in top_lines(last_text(driver, GROUP))]
    assert len(board) == 10 and board == sorted(board, reverse=True)


@pytest.mark.parametrize(
    ("user", "average", "rate"),
    [(IVAN, "средний штраф {}", "({} %)"), (OKSANA, "середній штраф {}", "({}%)"),
     (GIULIA, "penalità media {}", "({}%)")],
)  # fmt: skip
async def test_stats_write_numbers_as_the_readers_language_does(driver, user, average, rate):
    """An average penalty with a decimal comma, the win rate as the language writes a
    percentage, the rating with no hyphen anywhere."""
    storage = get_host(driver.app).storage
    users = [user.id, BOB.id, CAROL.id]
    penalties, wins = [], 0
    for seed in (1, 2, 4):
        match = await play_match(
            storage, game="donkey", players=3, seed=seed, chat=GROUP, users=users
        )
        result = get_engine("donkey").result(match.state)
        penalties.append(result.scores[0])
        wins += result.ranks[0] == 1
    mean = f"{sum(penalties) / 3:.1f}"
    assert not mean.endswith(".0")  # a real decimal
    await driver.send(user, user.id, "/stats")
    text = last_text(driver, user.id)
    assert average.format(mean.replace(".", ",")) in text, text
    assert rate.format(round(100 * wins / 3)).replace(" ", "\N{NO-BREAK SPACE}") in text, text
    assert mean not in text and "-" not in text, text
