"""A tidy chat: one live prompt per match in a private chat, no ping in the group (only a
player the bot cannot reach is named there), and ``/board``."""

from __future__ import annotations

import random

import pytest

from bot.table.publishing.messages import SCREEN_ROWS, screen_rows
from bot.testing.fake_telegram import Fault
from games import get_engine
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, GROUP, OTHER_GROUP
from tests.bot.helpers import command_menus, current_match
from tests.bot.play5211 import board, card_buttons, choose, prompt, start_game
from tests.bot.play_azul import play_move
from tests.bot.play_azul import start_match as start_azul
from tests.bot.play_sultan import play_move as play_sultan_move
from tests.bot.play_sultan import start_game as start_sultan

AZUL = get_engine("azul")


def prompts_with_buttons(api, user) -> list:
    return [m for m in api.visible(user.id) if card_buttons(m)]


async def test_a_new_decision_replaces_the_old_prompt(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    first = prompt(driver, ALICE)
    await choose(driver, ALICE)
    await choose(driver, BOB)  # part 2: a new decision for both
    # Alice's comes as a new message (it notifies); her old prompt is gone. Bob made the
    # last move: he is looking at his prompt, which is edited in place
    assert api.messages[ALICE.id][first.message_id].deleted
    for player in (ALICE, BOB):
        shown = [m for m in api.visible(player.id) if m.from_bot]
        assert len(shown) == 2  # "you joined", and the live prompt
        assert "part 2 of 3" in shown[-1].text and len(prompts_with_buttons(api, player)) == 1


async def test_an_old_prompt_that_cannot_be_deleted_shrinks_to_one_line(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    old = prompt(driver, ALICE)
    # Telegram refuses to delete messages older than 48 hours
    api.faults.append(
        Fault("deleteMessage", 400, "Bad Request: message can't be deleted for everyone", ALICE.id)
    )
    await choose(driver, ALICE)
    await choose(driver, BOB)
    shrunk = api.messages[ALICE.id][old.message_id]
    assert not shrunk.deleted and not shrunk.buttons()
    assert shrunk.text == "📍 Game Night: ✔️ this choice is over; the current one is below."
    assert "part 2 of 3" in prompt(driver, ALICE).text


def group_sends(api, since: int) -> list[dict]:
    """The messages the bot sent to the group since the call numbered ``since``."""
    return [
        params
        for method, params in api.calls[since:]
        if method == "sendMessage" and int(params["chat_id"]) == GROUP
    ]


async def test_no_ping_in_the_group_each_player_to_act_is_notified_privately(driver, api):
    """A grey-wall game, where several players choose columns at once: after every move the
    group gets no message unless the game has news (a round ended), and each player whose
    decision has just come gets a new private prompt, which notifies them; only the player
    who made the move before is edited in place (they are looking at it)."""
    players = [ALICE, BOB, CAROL, DAVE]
    await start_azul(driver, ALICE, players, grey=True)
    rng = random.Random(5)
    several = fresh_prompts = 0
    while (await current_match(driver)).state["round"] <= 2:
        before = await current_match(driver)
        calls = len(api.calls)
        prompts = {p.id: api.last(p.id).message_id for p in players}
        await play_move(driver, players, rng)
        match = await current_match(driver)
        news = len(match.state["log"]) > len(before.state["log"])
        sent = group_sends(api, calls)
        assert all(params.get("disable_notification") for params in sent) or news, sent
        assert not any(params["text"].startswith("👉 ") for params in sent)
        acting = AZUL.to_act(match.state)
        several += len(acting) > 1
        for seat in acting:
            player = players[seat]
            if match.seats[seat].token == match.version and seat != match.last_mover:
                assert api.last(player.id).message_id > prompts[player.id], player.first_name
                fresh_prompts += 1
    assert several and fresh_prompts  # the column choice came to several players at once


async def test_a_player_the_bot_cannot_reach_is_named_in_the_group_at_each_of_their_turns(
    driver, api
):
    """The only group message that names a player to act: Bob blocked the bot, so each
    time his turn comes the group tells him to open the private chat; Alice's turns
    (her private prompt notifies her) leave no message in the group."""
    players = [ALICE, BOB]
    await start_azul(driver, ALICE, players)
    api.blocked.add(BOB.id)
    rng = random.Random(2)
    bob_turns = alice_turns = 0
    for _ in range(6):
        calls = len(api.calls)
        await play_move(driver, players, rng)
        match = await current_match(driver)
        (seat,) = AZUL.to_act(match.state)
        texts = [params["text"] for params in group_sends(api, calls)]
        notices = [text for text in texts if "can't write to you" in text]
        if seat == 1:
            bob_turns += 1
            assert len(notices) == 1 and f"tg://user?id={BOB.id}" in notices[0], texts
        else:
            alice_turns += 1
            assert not notices and not any(f"tg://user?id={ALICE.id}" in t for t in texts)
    assert bob_turns and alice_turns


async def test_the_board_follows_the_news_down_only_once_it_is_out_of_sight(driver, api):
    """A whole Sultan game (news after each of 15 circles): the board is edited in place,
    with the news collecting below it, until the news below it would fill a phone screen;
    then it is posted again below the news, silently (the news notified), and the old one
    is deleted. At the end it stays where it is: the final result says it all."""
    players = [ALICE, BOB, CAROL]
    await start_sultan(driver, GROUP, ALICE, players)
    rng = random.Random(4)
    stayed = moved = 0
    while True:
        old = (await current_match(driver)).board_message_id
        calls = len(api.calls)
        if await play_sultan_move(driver, GROUP, players, rng) is None:
            break
        match = await current_match(driver)
        shown = [m for m in api.visible(GROUP) if m.from_bot]
        ids = [m.message_id for m in shown]
        below = shown[ids.index(match.board_message_id) + 1 :]
        rows = sum(screen_rows(m.html) for m in below)
        news = [p for p in group_sends(api, calls) if not p.get("disable_notification")]
        if match.board_message_id == old:
            assert rows <= SCREEN_ROWS or match.status == "finished", rows
            stayed += bool(news)
            continue
        moved += 1
        assert api.messages[GROUP][old].deleted and below == []  # one board, at the bottom
        (board_sent,) = [p for p in group_sends(api, calls) if p.get("disable_notification")]
        first_line = api.messages[GROUP][match.board_message_id].html.split("\n")[0]
        assert board_sent["text"].split("\n")[0] == first_line
        # the news below the old board had filled a screen
        since_old = [m for m in api.messages[GROUP].values() if m.from_bot and m.message_id > old]
        news_rows = sum(screen_rows(m.html) for m in since_old if m.message_id != ids[-1])
        assert news_rows > SCREEN_ROWS, news_rows
    assert stayed >= 5 and 1 <= moved <= 5, (stayed, moved)
    # the end: the final result is the last message, the final board above it
    shown = [m for m in api.visible(GROUP) if m.from_bot]
    assert shown[-1].text.startswith("🏁 Sultan is over.")
    assert sum(1 for m in shown if m.message_id == match.board_message_id) == 1


async def test_board_reposts_the_board_at_the_bottom_and_removes_the_old_one(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    old = board(driver, GROUP)
    await driver.send(BOB, GROUP, "/help")  # the chat moves on; the board scrolls up
    await driver.send(CAROL, GROUP, "/board")
    new = api.last(GROUP)
    assert new.message_id > old.message_id and new.text == old.text
    assert new.buttons() == old.buttons()
    assert api.messages[GROUP][old.message_id].deleted
    assert (await current_match(driver)).board_message_id == new.message_id
    boards = [m for m in api.visible(GROUP) if m.from_bot and m.text.startswith("5211\n")]
    assert boards == [new]  # one board per match
    # the game goes on with the new board
    await choose(driver, ALICE)
    assert "✅ Alice" in api.messages[GROUP][new.message_id].text


@pytest.mark.parametrize(
    ("chat", "answer"),
    [
        (OTHER_GROUP, "There is no game here."),
        (ALICE.id, "There is no game here."),
    ],
)
async def test_board_without_a_game_here_says_so(driver, api, chat, answer):
    await driver.send(ALICE, chat, "/board")
    assert api.last(chat).text == answer


async def test_board_is_in_the_command_menu_in_every_language(driver, api):
    menus = command_menus(api)
    descriptions = {
        lang: next(c["description"] for c in commands if c["command"] == "board")
        for lang, commands in menus.items()
    }
    assert descriptions == {
        "en": "Show the game's board at the bottom of the chat",
        "ru": "Показать доску игры внизу чата",
        "uk": "Показати дошку гри внизу чату",
        "it": "Mostra il tabellone della partita in fondo alla chat",
    }
