"""Commands, bad input, and Telegram's errors: the bot explains or retries, the match goes on."""

from __future__ import annotations

import random
import re
from functools import partial

import pytest

from bot.presentation.i18n import LANGUAGES, negotiate, translator
from bot.presentation.ui import get_ui, playable_games
from bot.telegram_api.messenger import MAX_TEXT, message_parts
from bot.testing.fake_telegram import Fault, plain
from tests.bot.conftest import ALICE, BOB, CAROL, GIULIA, GROUP, IVAN, MALLORY, OKSANA
from tests.bot.helpers import current_match
from tests.bot.play5211 import board, card_buttons, choose, has_choice, prompt, start_game
from tests.bot.play_azul import play_move as azul_move
from tests.bot.play_azul import start_match as start_azul


async def test_help_lists_the_commands_and_games(driver, api):
    await driver.send(ALICE, ALICE.id, "/help")
    text = api.last(ALICE.id).text
    assert "/new" in text and "/rules" in text and "/language" in text
    assert "5211 — /rules 5211" in text


@pytest.mark.parametrize("user", [ALICE, IVAN, OKSANA, GIULIA], ids=lambda user: user.language_code)
@pytest.mark.parametrize("command", ["/start", "/help"])
async def test_start_and_help_in_private_offer_practice_and_a_group(driver, api, user, command):
    """Private /start and /help tell that /new right there starts a practice game, and offer
    it as a button next to Telegram's link for adding the bot to a group; the practice
    button brings the game menu, whose choice opens a practice lobby."""
    t = translator(negotiate(user.language_code))
    await driver.send(user, user.id, command)
    shown = api.last(user.id)
    assert "/new" in shown.text and "💡" in shown.text
    learn, practice, group = shown.buttons()
    assert learn["text"] == t("tutorial.learn_button")
    assert practice["text"] == t("start.practice") and "callback_data" in practice
    assert group == {
        "text": t("start.add_to_group"),
        "url": f"https://t.me/{api.username}?startgroup=new",
    }
    assert await driver.press_label(user, user.id, t("start.practice")) is None
    menu = api.last(user.id)
    assert menu.text == t("lobby.practice_choose") and len(menu.buttons()) == len(playable_games())
    await driver.press_label(user, user.id, get_ui("azul").title(t))
    assert api.last(user.id).message_id == menu.message_id  # the menu became the lobby
    assert "🤖" in menu.text and t("lobby.start") in str(menu.buttons())
    # pressed again while that practice lobby is open: said so, nothing new
    answer = await driver.press_label(user, user.id, t("start.practice"), shown.message_id)
    assert answer == t("lobby.already_running") and api.last(user.id) is menu


async def test_help_in_a_group_has_no_practice_buttons(driver, api):
    await driver.send(ALICE, GROUP, "/help")
    assert api.last(GROUP).buttons() == []
    await driver.send(ALICE, GROUP, "/start")
    assert api.last(GROUP).buttons() == []
    forged = "pr:0:0:"  # the practice button's data, pressed on a message in the group
    message = api.last(GROUP).message_id
    assert await driver.press(ALICE, GROUP, message, forged) == "This button is not valid."


async def test_rules_by_name_and_by_button(driver, api):
    await driver.send(ALICE, ALICE.id, "/rules 5211")
    summary = api.last(ALICE.id)
    assert summary.text.startswith("5211\n\n🏆")
    assert "players + 2" not in summary.text  # the summary, not the full rules
    assert [b["text"] for b in summary.buttons()] == ["📖 Full rules", "🎓 Learn it by playing"]
    assert await driver.press_label(ALICE, ALICE.id, "Full rules") is None
    full = api.messages[ALICE.id][summary.message_id]
    assert "players + 2" in full.text and full.buttons() == []
    await driver.send(ALICE, GROUP, "/rules")
    assert api.last(GROUP).text == "The rules of which game?"
    await driver.press_label(ALICE, GROUP, "5211")
    menu = api.last(GROUP)
    assert menu.text.startswith("5211\n\n🏆") and "Long game" not in menu.text
    await driver.press_label(ALICE, GROUP, "Full rules")
    assert "Long game" in api.messages[GROUP][menu.message_id].text
    await driver.send(ALICE, GROUP, "/rules chess")
    games = ", ".join(playable_games())
    assert api.last(GROUP).text == f"I don't know that game. Choose one of: {games}"


@pytest.mark.parametrize("user", [ALICE, IVAN, OKSANA, GIULIA], ids=lambda user: user.language_code)
async def test_rules_start_with_the_summary_in_the_reader_s_language(driver, api, user):
    t = translator(negotiate(user.language_code))
    for game in playable_games():
        ui = get_ui(game)
        await driver.send(user, user.id, f"/rules {game}")
        shown = api.last(user.id)
        assert shown.text == plain(f"<b>{ui.title(t)}</b>\n\n{ui.summary(t)}")
        await driver.press_label(user, user.id, t("rules.full"))
        assert shown.text == plain(f"<b>{ui.title(t)}</b>\n\n{ui.rules(t)}")
        assert api.last(user.id).message_id == shown.message_id


async def test_full_rules_longer_than_a_message_continue_below(driver, api, monkeypatch):
    import bot.handlers.commands as commands

    monkeypatch.setattr(commands, "message_parts", partial(message_parts, limit=700))
    await driver.send(ALICE, GROUP, "/rules azul")
    summary = api.last(GROUP)
    await driver.press_label(ALICE, GROUP, "Full rules")
    after = [m for m in api.visible(GROUP) if m.message_id >= summary.message_id]
    assert len(after) >= 5 and all(len(m.text) <= 700 and not m.buttons() for m in after)
    english = translator("en")
    whole = plain(f"<b>Azul</b>\n\n{get_ui('azul').rules(english)}")
    assert " ".join(" ".join(m.text for m in after).split()) == " ".join(whole.split())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_full_rules_text_fits_telegram_messages_with_whole_tags(lang):
    t = translator(lang)
    for game in playable_games():
        ui = get_ui(game)
        text = f"<b>{ui.title(t)}</b>\n\n{ui.rules(t)}"
        for limit in (MAX_TEXT, 1000):
            parts = message_parts(text, limit)
            assert all(0 < len(part) <= limit for part in parts)
            assert " ".join(parts).split() == text.split()  # nothing lost, nothing moved
            for part in parts:  # each part is valid HTML on its own
                opened = re.findall(r"<([a-z]+)[ >]", part)
                closed = re.findall(r"</([a-z]+)>", part)
                assert sorted(opened) == sorted(closed), (game, lang, part)


def test_a_long_text_splits_between_paragraphs_then_lines_then_words():
    text = "a" * 10 + "\n\n" + "b" * 10 + "\n" + "c" * 5 + "\n\nd d d d"
    assert message_parts(text, 100) == [text]
    assert message_parts(text, 20) == ["a" * 10, "b" * 10 + "\nccccc", "d d d d"]
    assert message_parts(text, 12) == ["a" * 10, "b" * 10, "ccccc", "d d d d"]
    assert message_parts("one two three", 8) == ["one two ", "three"]
    assert message_parts("x" * 9, 4) == ["xxxx", "xxxx", "x"]


async def test_unknown_commands_get_a_clear_answer_where_they_are_meant_for_the_bot(driver, api):
    await driver.send(ALICE, ALICE.id, "/dance")
    assert api.last(ALICE.id).text == "I don't know the command /dance. Send /help for the list."
    sent = len(api.visible(GROUP))
    await driver.send(ALICE, GROUP, "/dance")  # maybe for another bot in the group: stay quiet
    assert len(api.visible(GROUP)) == sent + 1  # only the user's own message
    await driver.send(ALICE, GROUP, "/dance@tablebot_test_bot")
    assert "I don't know the command /dance@tablebot_test_bot" in api.last(GROUP).text


async def test_a_broken_start_link_and_free_text_are_answered(driver, api):
    await driver.send(ALICE, ALICE.id, "/start j12x")
    assert (
        api.last(ALICE.id).text == "This link is not valid. Use the buttons in the group, or /help."
    )
    await driver.send(ALICE, ALICE.id, "/start m999")
    assert api.last(ALICE.id).text == "You have no running game there."
    await driver.send(ALICE, ALICE.id, "hello?")
    assert api.last(ALICE.id).text == "Use the buttons to play. /help shows the commands."


async def test_malformed_and_forged_callback_data_get_a_popup(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    message = prompt(driver, ALICE)
    for data in ("a:1:x:1", "zz:1:1:1", "a:1:1", "", "a:1:1:1;DROP", "d:1:99999999999:t0"):
        assert await driver.press(ALICE, ALICE.id, message.message_id, data) == (
            "This button is not valid."
        )
    step_token = card_buttons(message)[0]["callback_data"].split(":")[2]  # token.step
    token = step_token.split(".")[0]
    for data in (f"d:1:{step_token}:t9", f"d:1:{step_token}:zz"):
        assert await driver.press(ALICE, ALICE.id, message.message_id, data) == (
            "This button is no longer valid. Use the latest message."
        )
    # cards out of order: never a legal move, whatever the deal
    assert await driver.press(ALICE, ALICE.id, message.message_id, f"a:1:{token}:2.1") == (
        "That move is not allowed now."
    )
    assert await driver.press(ALICE, ALICE.id, message.message_id, f"a:77:{token}:1.2") == (
        "This game was not found."
    )
    assert has_choice(driver, ALICE) and "⏳ Alice" in board(driver, GROUP).text


async def test_cancel_stops_a_running_game_after_confirmation(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    old_prompt = prompt(driver, BOB)
    data = card_buttons(old_prompt)[0]["callback_data"]
    await driver.send(BOB, GROUP, "/cancel")
    assert api.last(GROUP).text == "Only the player who opened the game or an admin can do that."
    await driver.send(ALICE, GROUP, "/cancel")
    assert api.last(GROUP).text == "Really stop the game?"
    await driver.press_label(ALICE, GROUP, "Yes, stop it")
    assert api.last(GROUP).text == "⏹ The game was stopped by Alice."
    assert api.messages[BOB.id][old_prompt.message_id].buttons() == []
    assert not [b for b in board(driver, GROUP).buttons()]
    assert await driver.press(BOB, BOB.id, old_prompt.message_id, data) == "This game is over."
    await driver.send(ALICE, GROUP, "/cancel")
    assert api.last(GROUP).text == "There is no game here."


async def test_a_stopped_game_leaves_every_prompt_saying_so(driver, api):
    """Alice stops an Azul game while Carol is to move: Carol's prompt (a picture of her
    board with "Your turn" and the time to move under it) and the others' waiting prompts
    all say who stopped which game, and no button or clock is left in any private chat."""
    players = [ALICE, BOB, CAROL]
    await start_azul(driver, ALICE, players)
    rng = random.Random(3)
    while not has_choice(driver, CAROL):  # Alice and Bob move first
        await azul_move(driver, players, rng, by_buttons=True)
    carol = prompt(driver, CAROL)
    assert carol.is_photo and "⏱" in carol.text and carol.buttons()
    await driver.send(ALICE, GROUP, "/cancel")
    await driver.press_label(ALICE, GROUP, "Yes, stop it")
    assert api.last(GROUP).text == "⏹ The game was stopped by Alice."
    match = await current_match(driver)
    for player in (ALICE, BOB, CAROL):
        shown = api.messages[player.id][match.seat_of(player.id).prompt_message_id]
        assert shown.text == "⏹ The game in Game Night was stopped by Alice."
        assert not [m for m in api.visible(player.id) if m.buttons() or "⏱" in m.text]
    assert api.messages[CAROL.id][carol.message_id].is_photo  # her board stays in sight


async def test_no_keep_playing_leaves_the_game_and_tidies_the_question(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    before = await current_match(driver)
    await driver.send(ALICE, GROUP, "/cancel")
    question = api.last(GROUP)
    assert [b["text"] for b in question.buttons()] == ["Yes, stop it", "No, keep playing"]
    # only who may stop the game may answer the question
    refused = await driver.press_label(BOB, GROUP, "No, keep playing")
    assert refused == "Only the player who opened the game or an admin can do that."
    assert len(question.buttons()) == 2
    assert await driver.press_label(ALICE, GROUP, "No, keep playing") == "▶️ The game goes on."
    assert question.text == "▶️ The game goes on." and question.buttons() == []
    after = await current_match(driver)
    assert after.status == "playing" and after.version == before.version
    yes = f"ab:{before.id}:0:"  # the old "Yes", forged on the tidied question
    assert await driver.press(ALICE, GROUP, question.message_id, yes) == "This button is not valid."
    assert (await current_match(driver)).status == "playing" and has_choice(driver, BOB)
    await choose(driver, ALICE)
    assert "✅ Alice" in board(driver, GROUP).text


async def test_no_keeps_a_lobby_open(driver, api):
    await driver.send(ALICE, GROUP, "/new 5211")
    lobby = api.last(GROUP)
    await driver.send(ALICE, GROUP, "/cancel")
    question = api.last(GROUP)
    assert [b["text"] for b in question.buttons()] == ["Yes, stop it", "No, keep it open"]
    assert await driver.press_label(ALICE, GROUP, "No, keep it open") == "▶️ The lobby stays open."
    assert question.text == "▶️ The lobby stays open." and question.buttons() == []
    # "No" forged on the lobby itself: it stays a lobby
    keep = f"cx:{(await current_match(driver)).id}:0:keep"
    assert await driver.press(ALICE, GROUP, lobby.message_id, keep) == "This button is not valid."
    assert (await current_match(driver)).status == "lobby" and lobby.buttons()
    await driver.press_label(BOB, GROUP, "Join")
    assert "Bob" in lobby.text


async def test_429_is_retried_after_the_time_telegram_asks(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    api.faults.append(
        Fault("editMessageText", 429, "Too Many Requests: retry after 7", GROUP, retry_after=7)
    )
    await choose(driver, ALICE)
    assert driver.app.bot_data["waits"] == [7]
    assert "✅ Alice" in board(driver, GROUP).text


async def test_network_errors_are_retried(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    api.faults.append(Fault("editMessageText", 502, "Bad Gateway", GROUP, times=2))
    await choose(driver, ALICE)
    assert "✅ Alice" in board(driver, GROUP).text
    assert len(driver.app.bot_data["waits"]) == 2


async def test_time_outs_are_retried_and_nothing_is_lost(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    api.faults.append(Fault("editMessageText", 0, "timed out", GROUP))
    api.faults.append(Fault("sendMessage", 0, "timed out", ALICE.id))
    await choose(driver, ALICE)
    await choose(driver, BOB)
    assert "Round 1, part 2 of 3" in board(driver, GROUP).text
    assert has_choice(driver, BOB) and has_choice(driver, ALICE)
    assert len(driver.app.bot_data["waits"]) == 2


async def test_message_not_modified_is_harmless(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    api.faults.append(Fault("editMessageText", 400, "Bad Request: message is not modified", GROUP))
    popup = await choose(driver, ALICE)
    assert popup.startswith("Played")
    await choose(driver, BOB)
    assert "part 2" in board(driver, GROUP).text


async def test_a_deleted_board_is_sent_anew(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    old = board(driver, GROUP)
    old.deleted = True  # an admin deleted the board
    await choose(driver, ALICE)
    new = board(driver, GROUP)
    assert new.message_id != old.message_id and "✅ Alice" in new.text


async def test_a_stranger_gets_no_cards(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    await driver.follow(MALLORY, "https://t.me/tablebot_test_bot?start=m1")
    assert api.last(MALLORY.id).text == "You have no running game there."
