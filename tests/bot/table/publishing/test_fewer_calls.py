"""Fewer calls to Telegram per move, nothing a player sees the worse (issue 27).

* A waiting player's screen is not redrawn for the others' moves: the group's board shows
  them, and their turn comes as a new message (which notifies) saying what happened since.
  It is redrawn when their own secrets change (a hand that took cards), so it never shows
  a hand they no longer hold, and it says it is not updated at every move.
* Azul and Summer Pavilion have no secrets: the prompt a player decided on is deleted at
  their move (no text screen sent in its place), so their next turn has no old prompt to
  delete; between turns their chat holds the "you joined" message, the group's board
  shows everything, and the final screen comes at the end.
"""

from __future__ import annotations

import logging
import random

import pytest

from bot.testing.fake_telegram import FakeTelegram, Fault
from games import get_engine
from tests.bot import play_azul, play_donkey, play_sultan, play_summer_pavilion
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, GROUP
from tests.bot.helpers import buttons, current_match, fresh, press, prompt

WAITING_NOTE = "⏸ Not updated at every move"
SENDS = ("sendMessage", "sendPhoto")
EDITS = ("editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup")


def calls_to(api: FakeTelegram, chat_id: int, since: int) -> list[tuple[str, dict]]:
    return [
        (method, params)
        for method, params in api.calls[since:]
        if params.get("chat_id") is not None and int(params["chat_id"]) == chat_id
    ]


def shown(api: FakeTelegram, user) -> list:
    return [m for m in api.visible(user.id) if m.from_bot]


def hand_count(text: str) -> int:
    """The number in a Who's the Donkey? screen's "Your hand (N)"."""
    return int(text.split("Your hand (", 1)[1].split(")", 1)[0])


async def test_a_waiting_players_screen_is_redrawn_only_when_their_own_hand_changes(driver, api):
    players = [ALICE, BOB, CAROL, DAVE]
    await play_donkey.start_match(driver, ALICE, players, hands=2)
    engine, rng = get_engine("donkey"), random.Random(5)
    refreshed_hand = 0
    while True:
        match, _seat, user = await play_donkey.acting(driver, players)
        if user is None:
            break
        hands = {p.id: engine.view(match.state, match.seat_of(p.id).seat)["hand"] for p in players}
        since = len(api.calls)
        await play_donkey.random_move(driver, user, rng)
        after = await current_match(driver)
        if after.status != "playing":
            break
        to_act = {after.seats[s].user_id for s in engine.to_act(after.state)}
        for player in players:
            if player.id == user.id or player.id in to_act:
                continue  # the mover, and whoever decides next: their prompt changes
            edits = [m for m, _ in calls_to(api, player.id, since) if m in EDITS + SENDS]
            hand = engine.view(after.state, after.seat_of(player.id).seat)["hand"]
            screen = shown(api, player)[-1]
            # whatever happened, the screen shows the hand they hold and says it waits
            assert hand_count(screen.text) == len(hand), screen.text
            assert WAITING_NOTE in screen.text and not screen.buttons()
            if hand == hands[player.id]:
                assert edits == [], (player.first_name, edits)  # only the others moved
            else:
                refreshed_hand += 1
    assert refreshed_hand > 0  # the game did take cards into waiting hands


async def test_at_your_turn_a_new_message_notifies_with_since_your_turn_and_the_clock(driver, api):
    """The waiting screen goes (one live prompt), the new prompt notifies and opens with the
    others' moves; the clock stands in it."""
    players = [ALICE, BOB, CAROL, DAVE]
    await play_donkey.start_match(driver, ALICE, players, hands=1)
    rng = random.Random(2)
    for _ in range(3):  # Alice leads; three others follow
        _, _, user = await play_donkey.acting(driver, players)
        await play_donkey.random_move(driver, user, rng)
    _, _, user = await play_donkey.acting(driver, players)
    waiting = shown(api, user)[-1]
    assert WAITING_NOTE in waiting.text or "Since your turn" in waiting.text
    messages = shown(api, user)
    assert len(messages) == 2  # "you joined", and the live prompt
    new = [
        params
        for method, params in api.calls
        if method == "sendMessage" and int(params["chat_id"]) == user.id
    ][-1]
    assert not new.get("disable_notification")  # it notifies
    assert "↪️ Since your turn:" in messages[-1].text
    assert "⏱ You have" in messages[-1].text and WAITING_NOTE not in messages[-1].text


@pytest.mark.parametrize("game", ["azul", "summer_pavilion"])
async def test_a_tile_games_photo_prompt_goes_at_the_move_and_the_next_one_notifies(
    game, driver, api
):
    players = [ALICE, BOB]
    play = play_azul if game == "azul" else play_summer_pavilion
    await play.start_match(driver, ALICE, players)
    match = await current_match(driver)
    players = [ALICE if seat.user_id == ALICE.id else BOB for seat in match.seats]  # by seat
    # before their first turn, the other player's chat holds only "you joined": nothing to
    # delete when their turn comes
    (waiting,) = {0, 1} - set(play.ENGINE.to_act(match.state))
    assert [m.text.startswith("You joined") for m in shown(api, players[waiting])] == [True]
    rng = random.Random(3)
    for _ in range(6):
        match = await current_match(driver)
        seat = min(play.ENGINE.to_act(match.state))
        mover, other = players[seat], players[1 - seat]
        photo = shown(api, mover)[-1]
        assert photo.is_photo and photo.buttons()  # the picture, with the choices
        since = len(api.calls)
        await play.play_move(driver, players, rng, by_buttons=True)
        after = await current_match(driver)
        if seat in play.ENGINE.to_act(after.state):
            continue  # several choices in a row: the same prompt, edited
        mine = [method for method, _ in calls_to(api, mover.id, since)]
        # the step edits, then one delete: no text screen sent in the photo's place
        assert mine[-1] == "deleteMessage" and not any(m in SENDS for m in mine), mine
        assert [m.text.startswith("You joined") for m in shown(api, mover)] == [True]
        theirs = calls_to(api, other.id, since)
        new = [params for method, params in theirs if method == "sendPhoto"]
        assert len(new) == 1 and not new[0].get("disable_notification")  # it notifies
        assert not any(method == "deleteMessage" for method, _ in theirs)
        assert "↪️ Since your turn:" in new[0]["caption"] and "⏱ You have" in new[0]["caption"]


async def test_a_tile_games_final_screen_comes_silently_to_every_player(driver, api):
    """The prompt went at the move, so the final screen comes as a new message where there
    is none: silent, as the edit it replaces was; every chat ends with the same two
    messages."""
    players = [ALICE, BOB]
    await play_azul.start_match(driver, ALICE, players)
    await play_azul.play_until(driver, players, lambda state: False, seed=3)
    assert (await current_match(driver)).status == "finished"
    for player in players:
        messages = shown(api, player)
        assert len(messages) == 2 and messages[0].text.startswith("You joined")
        final = messages[1]
        assert " over" in final.text and not final.buttons()
        sent = [
            params
            for method, params in api.calls
            if method in SENDS and int(params["chat_id"]) == player.id
        ]
        if sent and sent[-1].get("text") == final.html:  # sent, not edited: silently
            assert sent[-1].get("disable_notification") is True


async def test_a_player_who_blocked_the_bot_after_their_move_is_named_at_their_next_turn(
    driver, api, caplog
):
    """Their photo prompt cannot be deleted (403): the game goes on, and at their next
    decision the group is told they cannot be reached, as for any decision."""
    players = [ALICE, BOB]
    await play_azul.start_match(driver, ALICE, players)
    match = await current_match(driver)
    first = min(play_azul.ENGINE.to_act(match.state))
    mover = players[0] if match.seats[first].user_id == ALICE.id else players[1]
    caplog.set_level(logging.INFO)
    api.blocked.add(mover.id)  # the delete of their prompt is refused too
    api.faults.append(
        Fault("deleteMessage", 403, "Forbidden: bot was blocked by the user", mover.id)
    )
    rng = random.Random(3)
    await play_azul.play_move(driver, players, rng)  # their move: its prompt stays undeleted
    while True:  # the other's moves, until the blocked player's turn comes
        match = await current_match(driver)
        if match.seat_of(mover.id).seat in play_azul.ENGINE.to_act(match.state):
            break
        await play_azul.play_move(driver, players, rng)
    # a private chat that refuses is the player's doing, never the bot leaving a group
    assert not any("the bot left chat" in record.getMessage() for record in caplog.records)
    news = [m.text for m in api.visible(GROUP) if m.from_bot]
    assert any(
        "I can't write to you in private" in text and mover.first_name in text for text in news
    )


async def test_a_selection_step_that_changes_only_the_buttons_edits_only_them(driver, api):
    """Sultan's bid: a tapped cushion or card gets its ✅ on the keyboard, the text stays:
    one editMessageReplyMarkup, no text sent again."""
    players = [ALICE, BOB, CAROL]
    await play_sultan.start_game(driver, GROUP, ALICE, players)
    rng = random.Random(1)
    steps = 0
    for _ in range(6):
        match = await current_match(driver)
        (seat,) = play_sultan.ENGINE.to_act(match.state)
        user = players[seat]
        message = prompt(driver, user)
        taps = [b for b in buttons(message, "d") if not b["text"].startswith("✅")]
        if not taps:
            await play_sultan.play_move(driver, GROUP, players, rng)
            continue
        before, since = (message.text, message.buttons()), len(api.calls)
        await press(driver, user, message, taps[0])
        after = fresh(driver, user, message)
        methods = [method for method, _ in calls_to(api, user.id, since)]
        if after.text == before[0]:
            assert methods == ["editMessageReplyMarkup"], methods
            assert after.buttons() != before[1]
            steps += 1
        await play_sultan.play_move(driver, GROUP, players, rng)
    assert steps > 0


async def test_the_final_result_and_the_last_news_come_in_one_message(driver, api):
    """The match's result and the last hand's penalties arrive together: one message, one
    notification whose preview says who won, the rematch button under both; the board
    stays above it."""
    players = [ALICE, BOB, CAROL]
    await play_donkey.start_match(driver, ALICE, players, hands=1)
    since = len(api.calls)
    await play_donkey.play_to_the_end(driver, players, random.Random(4))
    match = await current_match(driver)
    assert match.status == "finished"
    group = [m for m in api.visible(GROUP) if m.from_bot]
    final = group[-1]
    assert "Hand 1 is over" in final.text and "Winner" in final.text, final.text
    assert final.text.startswith("🏁 Who's the Donkey? is over after 1 hand.")
    assert final.text.index("Winner") < final.text.index("Hand 1 is over")
    assert [b["text"] for b in final.buttons()] == ["🔁 Rematch"]
    assert group[-2].message_id == match.board_message_id
    sent = [p for m, p in calls_to(api, GROUP, since) if m in SENDS]
    assert not any("Hand 1 is over" in p["text"] and "Winner" not in p["text"] for p in sent)
