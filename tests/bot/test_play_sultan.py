"""Whole games of Sultan through the real Application and the fake Bot API."""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from bot.presentation.ui.sultan import GEM_EMOJI
from bot.table.host import get_host
from bot.telegram_api.callbacks import Callback
from tests.bot.conftest import (
    ALICE,
    BOB,
    CAROL,
    GIULIA,
    GROUP,
    IVAN,
    MALLORY,
    OKSANA,
    running_bot,
)
from tests.bot.helpers import Clock, buttons, choose_language, has_choice
from tests.bot.play_sultan import (
    ENGINE,
    bid,
    board,
    button,
    current_match,
    play_move,
    play_to_the_end,
    press,
    prompt,
    return_gem,
    reveals,
    start_game,
)

GEM_WORDS = ("white", "red", "yellow", "green", "blue")
STALE = "This button is no longer valid. Use the latest message."
STRANGER = "You are not playing in this game."


@pytest.fixture(autouse=True)
def fixed_deal(monkeypatch):
    """A known deal (and first start player) for every match."""
    monkeypatch.setattr("bot.table.flow.secrets.randbits", lambda bits: 20260101)


def gem(colour: int) -> str:
    return f"{GEM_EMOJI[colour]} {GEM_WORDS[colour]} gem"


def worth(colour: int) -> str:
    """A gem where it is bid on or sent back: with its points."""
    points = colour + 1
    return f"{gem(colour)} · {points} point" + ("s" if points > 1 else "")


def russian(n: int, one: str, few: str, many: str) -> str:
    """A Russian count: 1 камень, 2 камня, 5 камней, 11 камней, 21 камень."""
    if n % 10 == 1 and n % 100 != 11:
        return f"{n} {one}"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return f"{n} {few}"
    return f"{n} {many}"


def acting(match) -> int:
    (seat,) = ENGINE.to_act(match.state)
    return seat


async def forged(driver, user, match, kind: str, payload: str) -> str | None:
    """A press with the user's *current* token and made-up data: a hostile client."""
    token = match.seat_of(user.id).token
    data = Callback(kind, match.id, token, payload).encode()
    return await driver.press(user, user.id, prompt(driver, user).message_id, data)


def check_final(text: str, result, names: list[str]) -> None:
    players = result.details["players"]
    for seat, name in enumerate(names):
        line = players[seat]
        score, count = result.scores[seat], line["gem_count"]
        points = f"{score} point" + ("" if score == 1 else "s")
        gems = f"{count} gem" + ("" if count == 1 else "s")
        assert f"{name} — {points}, 💎 {gems}" in text
        assert f"gems {line['gem_points']} + bonuses {line['bonus_points']}" in text
    winners = ", ".join(names[seat] for seat in result.winners)
    if len(result.winners) == 1:
        assert f"Sultan is over. Winner: {winners}" in text
    else:
        assert f"Sultan is over. Shared victory: {winners}" in text


async def test_full_three_player_game_from_new_to_results(driver, api):
    users = [ALICE, BOB, CAROL]
    names = ["Alice", "Bob", "Carol"]
    await start_game(driver, GROUP, ALICE, users)
    match = await current_match(driver, GROUP)
    start = acting(match)
    drawn = match.state["drawn"]
    first = board(driver, GROUP).text
    assert "Round 1 of 3 · circle 1 of 5" in first
    assert f"🎯 Start player: {names[start]}" in first
    assert "Drawn from the bag: " + " ".join(GEM_EMOJI[c] for c in drawn) in first
    assert f"⏳ {names[start]} chooses the gem that goes back to the bag." in first
    assert f"👉 {names[start]} — 💎 0 gems · 🃏 5 cards" in first
    assert "👝 47 gems in the bag" in first and "🂠 10 cards left in each deck" in first
    for seat, user in enumerate(users):
        text = prompt(driver, user).text
        assert "Game Night" in text and "🃏 Your money cards: " in text
        assert "💎 Behind your screen: no gems yet" in text
        if seat == start:
            labels = [b["text"] for b in buttons(prompt(driver, user), "a")]
            assert labels == [f"↩️ Return the {worth(c)}" for c in sorted(set(drawn))]
            assert "🎯 You are the start player." in text
        else:
            assert not has_choice(driver, user)
            assert f"⏳ {names[start]} chooses the gem" in text

    # the start player sends the cheapest gem back: the others go on the two cushions
    back = min(drawn)
    assert await return_gem(driver, users[start], back) == f"The {gem(back)} goes back to the bag."
    cushions = (await current_match(driver, GROUP)).state["cushions"]
    text = board(driver, GROUP).text
    for index, colour in enumerate(cushions):
        assert f"{index + 1}. {worth(colour)} — no bids yet" in text
    assert f"↩️ Back in the bag: {gem(back)}" in text
    assert f"⏳ {names[start]} is bidding." in text
    assert f"↪️ Last move: {names[start]} — {gem(back)} back to the bag." in text

    # the start player bids first: the group sees the cushion, never the value
    hand = ENGINE.view((await current_match(driver, GROUP)).state, start)["hand"]
    value = hand[-1]
    popup = await bid(driver, users[start], 1, value)
    assert popup == f"You bid {value} on the {gem(cushions[1])}."
    text = board(driver, GROUP).text
    assert f"2. {worth(cushions[1])} — {names[start]}\n" in text
    assert f"↪️ Last move: {names[start]} — a bid on cushion 2 ({gem(cushions[1])})." in text
    assert str(value) not in text.split("↪️")[1].split("\n")[0]  # the card stays secret
    assert f"{names[start]} — 💎 0 gems · 🃏 4 cards" in text
    assert (
        f"Your card this circle: {value} on the {gem(cushions[1])}"
        in prompt(driver, users[start]).text
    )
    nxt = (start + 1) % 3
    assert f"⏳ {names[nxt]} is bidding." in text and f"👉 {names[nxt]} — " in text
    assert has_choice(driver, users[nxt]) and "👉 Your bid" in prompt(driver, users[nxt]).text

    moves = 2 + await play_to_the_end(driver, GROUP, users, seed=3)
    assert moves == 15 * 4
    circles = reveals(driver, GROUP)
    assert [re.match(r"💎 Round (\d), circle (\d)", m.text).groups() for m in circles] == [
        (str(r), str(c)) for r in (1, 2, 3) for c in range(1, 6)
    ]
    # the last circle of a round says so, and that everyone's hand was refilled
    assert "🏁 End of round 1 of 3: every money card in hand has been played." in circles[4].text
    assert (
        "🔄 Round 2 of 3: hands are refilled — everyone takes 5 new money cards from their deck."
        in circles[4].text
    )
    assert "🔄 Round 3 of 3" in circles[9].text and "Round" not in circles[14].text[10:]
    # the first reveal: the start player's bid on cushion 2, with its value
    assert f"2. {worth(cushions[1])}: {names[start]} {value}" in circles[0].text

    match = await current_match(driver, GROUP)
    assert match.status == "finished"
    result = ENGINE.result(match.state)
    final = api.last(GROUP)
    check_final(final.text, result, names)
    assert any("Rematch" in b["text"] for b in final.buttons())
    over = board(driver, GROUP)
    assert "The game is over. The screens are down:" in over.text
    assert not api.messages[GROUP][match.board_message_id].buttons()
    for user in users:
        assert not has_choice(driver, user)
        assert "The game is over" in prompt(driver, user).text
    assert len(await get_host(driver.app).storage.moves(match.id)) == 1 + 60
    # a quiet group: the closed lobby, one reveal per circle, the board and the results,
    # which bring the last circle's reveal below them
    assert len([m for m in api.visible(GROUP) if m.from_bot]) == 1 + 14 + 1 + 1


async def test_full_two_player_game_with_two_bids_per_circle(driver, api):
    users = [ALICE, BOB]
    names = ["Alice", "Bob"]
    await start_game(driver, GROUP, ALICE, users)
    match = await current_match(driver, GROUP)
    start = acting(match)
    other = 1 - start
    assert "Round 1 of 3 · circle 1 of 4" in board(driver, GROUP).text
    assert "🃏 8 cards" in board(driver, GROUP).text
    drawn = match.state["drawn"]
    assert len(drawn) == 4
    await return_gem(driver, users[start], drawn[0])
    state = (await current_match(driver, GROUP)).state
    hands = [ENGINE.view(state, seat)["hand"] for seat in (0, 1)]
    common = sorted(set(hands[0]) & set(hands[1]))
    assert common, "the fixed deal gives both players a card of the same value"
    tie = common[0]
    # start player, other player, start player, other player; two different cushions each
    assert "Your first bid this circle" in prompt(driver, users[start]).text
    await bid(driver, users[start], 0, tie)
    assert not has_choice(driver, users[start])
    await bid(driver, users[other], 0, tie)
    second = prompt(driver, users[start])
    assert "Your second bid this circle, on another cushion" in second.text
    assert f"Your card this circle: {tie} on the {gem(state['cushions'][0])}" in second.text
    assert [b["text"] for b in buttons(second, "d") if b["text"][0].isdigit()] == [
        f"2. {worth(state['cushions'][1])}",
        f"3. {worth(state['cushions'][2])}",
    ]
    answer = await forged(driver, users[start], await current_match(driver, GROUP), "d", "c0")
    assert answer == STALE  # no second card on the cushion already used
    before = await current_match(driver, GROUP)
    answer = await forged(driver, users[start], before, "a", f"1.0.{hands[start][-1]}")
    assert answer == "That move is not allowed now."
    assert (await current_match(driver, GROUP)).version == before.version
    low_start = ENGINE.view(before.state, start)["hand"][0]
    await bid(driver, users[start], 1, low_start)
    low_other = ENGINE.view(before.state, other)["hand"][0]
    await bid(driver, users[other], 2, low_other)
    reveal = reveals(driver, GROUP)[0].text
    expected = (
        f"{names[start]} {tie}, {names[other]} {tie} → {names[start]}"
        " (equal bids: the start player wins)"
    )
    assert f"1. {worth(state['cushions'][0])}: {expected}" in reveal
    match = await current_match(driver, GROUP)
    assert acting(match) == other  # the start player alternates
    assert f"🎯 Start player: {names[other]}" in board(driver, GROUP).text

    moves = 5 + await play_to_the_end(driver, GROUP, users, seed=5)
    assert moves == 12 * 5
    assert len(reveals(driver, GROUP)) == 12
    assert "everyone takes 8 new money cards" in reveals(driver, GROUP)[3].text
    match = await current_match(driver, GROUP)
    result = ENGINE.result(match.state)
    check_final(api.last(GROUP).text, result, names)
    assert len(await get_host(driver.app).storage.moves(match.id)) == 1 + 60


async def test_a_restart_in_the_middle_of_a_circle_loses_nothing(api, database):
    users = [ALICE, BOB, CAROL]
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        await start_game(driver, GROUP, ALICE, users)
        match = await current_match(driver, GROUP)
        start = acting(match)
        await return_gem(driver, users[start], match.state["drawn"][-1])
        value = ENGINE.view((await current_match(driver, GROUP)).state, start)["hand"][0]
        await bid(driver, users[start], 0, value)
        second = (start + 1) % 3
        message = prompt(driver, users[second])
        await press(driver, users[second], message, button(message, "d", "c1"))
        version = (await current_match(driver, GROUP)).version
    async with running_bot(api, database) as driver:
        match = await current_match(driver, GROUP)
        assert match.version == version and acting(match) == second
        message = prompt(driver, users[second])
        assert button(message, "d", "c1")["text"].startswith("✅")  # the selection survived
        assert f"1. {worth(match.state['cushions'][0])} — {users[start].first_name}" in (
            board(driver, GROUP).text
        )
        hand = ENGINE.view(match.state, second)["hand"]
        await bid(driver, users[second], 1, hand[-1])
    async with running_bot(api, database) as driver:
        third = (start + 2) % 3
        assert has_choice(driver, users[third])
        hand = ENGINE.view((await current_match(driver, GROUP)).state, third)["hand"]
        await bid(driver, users[third], 1, hand[0])
        assert len(reveals(driver, GROUP)) == 1
        assert "Round 1 of 3 · circle 2 of 5" in board(driver, GROUP).text
        match = await current_match(driver, GROUP)
        assert acting(match) == (start + 1) % 3 and match.state["phase"] == "return"
        assert has_choice(driver, users[(start + 1) % 3])
    async with running_bot(api, database) as driver:  # nothing is announced twice
        rng = random.Random(7)
        for _ in range(4):
            await play_move(driver, GROUP, users, rng)
        assert len(reveals(driver, GROUP)) == 2


async def test_out_of_turn_and_stale_presses_get_a_popup_and_change_nothing(driver, api):
    users = [ALICE, BOB, CAROL]
    await start_game(driver, GROUP, ALICE, users)
    match = await current_match(driver, GROUP)
    start = acting(match)
    waiting = users[(start + 1) % 3]
    # a waiting player with a made-up move or selection step
    colour = match.state["drawn"][0]
    assert await forged(driver, waiting, match, "a", f"0.{colour}") == "It is not your turn."
    assert await forged(driver, waiting, match, "d", "c0") == STALE
    assert (await current_match(driver, GROUP)).version == match.version

    old_return = prompt(driver, users[start])
    data = buttons(old_return, "a")[0]  # kept: the bot removes the keyboard after the move
    await return_gem(driver, users[start], colour)
    version = (await current_match(driver, GROUP)).version
    assert await press(driver, users[start], old_return, data) == STALE
    # selection steps that do not fit: a missing cushion, a card not in hand
    match = await current_match(driver, GROUP)
    assert await forged(driver, users[start], match, "d", "c2") == STALE  # 2 cushions
    missing = next(v for v in range(1, 16) if v not in ENGINE.view(match.state, start)["hand"])
    assert await forged(driver, users[start], match, "d", f"v{missing}") == STALE
    assert await forged(driver, users[start], match, "d", "zz") == STALE
    assert await forged(driver, users[start], match, "a", f"1.0.{missing}") == (
        "That move is not allowed now."
    )
    assert (await current_match(driver, GROUP)).version == version

    # a bid prompt used, then pressed again
    hand = ENGINE.view(match.state, start)["hand"]
    before = prompt(driver, users[start])
    steps = [button(before, "d", step) for step in ("c1", f"v{hand[1]}")]
    await bid(driver, users[start], 0, hand[0])
    version = (await current_match(driver, GROUP)).version
    for step in steps:
        assert await press(driver, users[start], before, step) == STALE
    assert await forged(driver, users[start], match, "a", f"1.1.{hand[1]}") == STALE
    after = await current_match(driver, GROUP)
    assert after.version == version and after.state["bid_values"] == [hand[0]]


async def test_a_stranger_pressing_a_players_buttons_changes_nothing(driver, api):
    users = [ALICE, BOB, CAROL]
    await start_game(driver, GROUP, ALICE, users)
    before = await current_match(driver, GROUP)
    start = acting(before)
    message = prompt(driver, users[start])
    for data in buttons(message, "a"):
        assert (
            await driver.press(MALLORY, users[start].id, message.message_id, data["callback_data"])
            == STRANGER
        )
    await return_gem(driver, users[start], before.state["drawn"][0])
    message = prompt(driver, users[start])
    card = buttons(message, "d")[-1]
    assert (
        await driver.press(MALLORY, users[start].id, message.message_id, card["callback_data"])
        == STRANGER
    )
    # another player of the match is no stranger, but it is not their message to press
    other = users[(start + 1) % 3]
    answer = await driver.press(other, users[start].id, message.message_id, card["callback_data"])
    assert answer == STALE
    after = await current_match(driver, GROUP)
    assert after.state["bid_cushions"] == [] and after.seats[start].draft is None


async def test_timeouts_return_the_cheapest_gem_and_bid_the_lowest_card(driver, api, ai_fails):
    clock = Clock()
    host = get_host(driver.app)
    host.clock = clock
    users = [ALICE, BOB, CAROL]
    names = ["Alice", "Bob", "Carol"]
    await start_game(driver, GROUP, ALICE, users)  # 3 minutes per move by default
    match = await current_match(driver, GROUP)
    start = acting(match)
    drawn = list(match.state["drawn"])
    assert ENGINE.default_action(match.state, start) == (0, min(drawn))

    clock.now += 181
    await host.timers.tick(match.id, now=clock.now)
    await driver.settle()
    match = await current_match(driver, GROUP)
    assert match.state["phase"] == "bid"
    kept = list(drawn)
    kept.remove(min(drawn))
    assert match.state["cushions"] == kept
    assert f"⏰ {names[start]} ran out of time, so I made a move for them." in [
        m.text for m in api.visible(GROUP)
    ]
    assert f"↩️ Back in the bag: {gem(min(drawn))}" in board(driver, GROUP).text
    assert has_choice(driver, users[start])  # the bid is the start player's own again

    value = ENGINE.view(match.state, start)["hand"][-1]
    await bid(driver, users[start], 0, value)
    match = await current_match(driver, GROUP)
    second = (start + 1) % 3
    expected = ENGINE.default_action(match.state, second)
    hand = ENGINE.view(match.state, second)["hand"]
    best = max(range(2), key=lambda c: (match.state["cushions"][c], -c))
    assert expected == (1, best, hand[0])
    clock.now += 181
    await host.timers.tick(match.id, now=clock.now)
    await driver.settle()
    match = await current_match(driver, GROUP)
    assert match.state["bid_cushions"] == [0, best]
    assert hand[0] not in ENGINE.view(match.state, second)["hand"]
    assert f"{best + 1}. {worth(match.state['cushions'][best])} — " in board(driver, GROUP).text
    assert await host.storage.automatic_moves(match.id) == 2
    assert has_choice(driver, users[(start + 2) % 3])


async def test_a_game_in_russian_with_ukrainian_and_italian_players(driver, api):
    users = [IVAN, OKSANA, GIULIA]
    for user, language in zip(users, ("Русский", "Українська", "Italiano"), strict=True):
        await choose_language(driver, user, user.id, language)  # private chats in theirs
    await start_game(driver, GROUP, IVAN, users, join="Играю", start="Начать")
    text = board(driver, GROUP, "Султан").text
    assert "Раунд 1 из 3 · круг 1 из 5" in text and "👝 в мешочке 47 камней" in text
    assert "Твои карты денег" in prompt(driver, IVAN).text
    assert "Твої карти грошей" in prompt(driver, OKSANA).text
    assert "Le tue carte denaro" in prompt(driver, GIULIA).text
    assert await play_to_the_end(driver, GROUP, users, seed=11) == 60
    assert len(reveals(driver, GROUP, "💎 Раунд")) == 15
    match = await current_match(driver, GROUP)
    result = ENGINE.result(match.state)
    final = api.last(GROUP).text
    assert "Игра «Султан» окончена." in final
    for seat, user in enumerate(users):
        line = result.details["players"][seat]
        score = russian(result.scores[seat], "очко", "очка", "очков")
        gems = russian(line["gem_count"], "камень", "камня", "камней")
        assert f"{user.first_name} — {score}, 💎 {gems}" in final
    assert "Гру закінчено" in prompt(driver, OKSANA).text
    assert "La partita è finita" in prompt(driver, GIULIA).text


async def test_selection_steps_edit_the_prompt_even_when_the_group_is_drawn_last(
    driver, api, monkeypatch
):
    users = [ALICE, BOB, CAROL]
    await start_game(driver, GROUP, ALICE, users)
    match = await current_match(driver, GROUP)
    start = acting(match)
    storage = get_host(driver.app).storage
    edit = api._api_editMessageText

    async def slow_group(params: dict) -> dict:
        """The group is slow (its rate limit): the private prompt is drawn before the
        group's board, whose drawing must not write back an older copy of the prompt's."""
        if int(params["chat_id"]) == GROUP:
            for _ in range(2000):
                seat = (await storage.load(match.id)).seats[start]
                if seat.prompt_token == seat.token:
                    break
                await asyncio.sleep(0.001)  # waits for the condition, not for a fixed time
        return edit(params)

    monkeypatch.setattr(api, "_api_editMessageText", slow_group)
    await return_gem(driver, users[start], match.state["drawn"][0])
    message = prompt(driver, users[start])
    await press(driver, users[start], message, button(message, "d", "c0"))
    assert prompt(driver, users[start]).message_id == message.message_id
