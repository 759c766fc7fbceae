"""A tidy chat: one live prompt per match in a private chat, pings that name everyone to
act, and ``/board``."""

from __future__ import annotations

import json
import random

import pytest

from bot.i18n import translator
from bot.testing.fake_telegram import Fault
from games import get_engine
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, GROUP, OTHER_GROUP
from tests.bot.helpers import current_match
from tests.bot.play5211 import board, card_buttons, choose, prompt, start_game
from tests.bot.play_azul import play_move
from tests.bot.play_azul import start_match as start_azul

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


async def test_the_ping_names_everyone_who_is_to_act_on_the_grey_wall(driver, api):
    """After every move of a grey-wall game: a ping in the group names every player to act,
    as the board does (choosing columns, several act at once)."""
    players = [ALICE, BOB, CAROL, DAVE]
    await start_azul(driver, ALICE, players, grey=True)
    rng = random.Random(5)
    several = 0
    while (await current_match(driver)).state["round"] <= 3:
        await play_move(driver, players, rng)
        match = await current_match(driver)
        pings = [m for m in api.visible(GROUP) if m.text.startswith("👉 ")]
        assert len(pings) <= 1
        if not pings:
            continue
        acting = [players[seat].first_name for seat in sorted(AZUL.to_act(match.state))]
        named = pings[0].text.removeprefix("👉 ").removesuffix(", your move!").split(", ")
        assert set(acting) <= set(named), (acting, pings[0].text)
        several += len(named) > 1
    assert several  # the column choice came to several players at once


def test_a_ping_names_several_players_without_a_pronoun_that_guesses():
    names = "Иван, Оксана"
    assert translator("ru")("play.your_turn_many", names=names) == f"👉 {names}, пора ходить!"
    assert translator("uk")("play.your_turn_many", names=names) == f"👉 {names}, час ходити!"
    assert translator("it")("play.your_turn_many", names=names) == f"👉 {names}, tocca a voi!"


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
        (ALICE.id, "Games are played in groups: add me to a group and send /new there."),
    ],
)
async def test_board_without_a_game_here_says_so(driver, api, chat, answer):
    await driver.send(ALICE, chat, "/board")
    assert api.last(chat).text == answer


async def test_board_is_in_the_command_menu_in_every_language(driver, api):
    menus = {
        params.get("language_code") or "en": json.loads(params["commands"])
        if isinstance(params["commands"], str)
        else params["commands"]
        for method, params in api.calls
        if method == "setMyCommands"
    }
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
