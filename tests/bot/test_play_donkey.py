"""Who's the Donkey? through the real Application and the fake Bot API."""

from __future__ import annotations

import random

import pytest

from bot.presentation.i18n import translator
from bot.table.host import get_host
from bot.telegram_api.callbacks import Callback
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
    running_bot,
)
from tests.bot.helpers import news, set_languages, tick, use_clock
from tests.bot.play_donkey import (
    ENGINE,
    TITLE,
    acting,
    board,
    button,
    current_match,
    hands_label,
    minutes_label,
    move_buttons,
    play_to_the_end,
    prompt,
    random_move,
    start_match,
    tap,
)

PLAYERS = [ALICE, BOB, CAROL, DAVE]
# Seed 15 with four players: Alice (seat 0) holds the donkey, 6 6 6, 12 12 and a joker;
# Bob, next, holds a joker.
SEED = 15
STALE = "This button is no longer valid. Use the latest message."


@pytest.fixture
def seeded(deal):
    deal(SEED)


def hand_messages(driver):
    return [text for text in news(driver) if text.startswith("🏁 Hand ")]


# -- a whole match -----------------------------------------------------------------------------


async def test_a_four_player_match_of_two_hands_from_the_lobby_to_the_results(driver, api, seeded):
    await driver.send(ALICE, GROUP, "/new")
    await driver.press_label(ALICE, GROUP, TITLE)
    lobby = api.last(GROUP)
    assert "• Length: 3 hands" in lobby.text
    assert "• ⏲ By time: off" in lobby.text
    match = await start_match(driver, ALICE, PLAYERS, hands=2, new=False)
    assert match.options == {"hands": 2, "time_limit_minutes": 0}
    state = match.state
    holder = state["turn"]
    first = board(driver).text
    assert "Hand 1 of 2" in first
    assert f"🫏 The donkey is with {PLAYERS[holder].first_name}." in first
    assert f"Round 1: {PLAYERS[holder].first_name} leads." in first
    assert f"👉 {PLAYERS[holder].first_name} 🫏 · 13 cards" in first
    for seat, player in enumerate(PLAYERS):
        text = prompt(driver, player).text
        assert "Your hand (13):" in text and "📍 Game Night" in text
        assert ("Your lead." in text) == (seat == holder)
        assert bool(move_buttons(prompt(driver, player))) == (seat == holder)
    assert "🫏 Lead the donkey" in [b["text"] for b in prompt(driver, PLAYERS[holder]).buttons()]

    rng = random.Random(2)
    moves = await play_to_the_end(driver, PLAYERS, rng)
    match = await current_match(driver)
    assert match.status == "finished"
    result = ENGINE.result(match.state)
    assert result.details["hands_played"] == 2

    hands = hand_messages(driver)
    assert [text.splitlines()[0] for text in hands] == [
        "🏁 Hand 1 is over. Penalty points:",
        "🏁 Hand 2 is over. Penalty points:",
    ]
    history = match.state["history"]
    for seat, player in enumerate(PLAYERS):
        line = next(x for x in hands[1].splitlines() if x.startswith(player.first_name + ":"))
        assert line.endswith(f"Σ {result.scores[seat]}")
        if history[1][seat]:
            assert f": +{history[1][seat]} (" in line
        else:
            assert "no cards left" in line
    final = api.last(GROUP)
    assert final.text.startswith("🏁 Who's the Donkey? is over after 2 hands.")
    winners = ", ".join(PLAYERS[seat].first_name for seat in result.winners)
    assert (f"Winner: {winners}" if len(result.winners) == 1 else f"Winners: {winners}") in (
        final.text
    )
    best = min(result.scores)
    assert all(result.scores[seat] == best for seat in result.winners)
    for seat, player in enumerate(PLAYERS):
        breakdown = " + ".join(str(row[seat]) for row in history)
        assert f"{player.first_name} — {result.scores[seat]} penalty point" in final.text
        assert f"({breakdown})" in final.text
    assert any("Rematch" in b["text"] for b in final.buttons())
    # the board says it is over and keeps no buttons; nobody has a choice left
    assert not api.messages[GROUP][match.board_message_id].buttons()
    assert "The match is over after 2 hands." in api.messages[GROUP][match.board_message_id].text
    assert all(not move_buttons(prompt(driver, player)) for player in PLAYERS)
    # the group got no message per card or round (the board shows them), not even for a
    # donkey round: only the hands' ends and the final (the last hand's end in its message)
    assert any(e["type"] == "round_won" and e["donkey"] for e in match.state["log"])
    posted = [m.text for m in api.visible(GROUP) if m.from_bot][2:]  # after lobby and board
    assert [text.split("\n")[0] for text in posted] == [
        "🏁 Hand 1 is over. Penalty points:",
        "🏁 Who's the Donkey? is over after 2 hands.",
    ], posted
    assert "\n\n🏁 Hand 2 is over. Penalty points:" in posted[-1]
    stored = await get_host(driver.app).storage.moves(match.id)
    assert len(stored) == 1 + moves


async def test_the_board_shows_the_round_the_last_winner_and_the_totals(driver, api, seeded):
    await start_match(driver, ALICE, PLAYERS, hands=2)
    # Alice leads 6 6 6 in two steps: the value, then how many (and jokers)
    lead = prompt(driver, ALICE)
    labels = [b["text"] for b in move_buttons(lead)]
    assert "6 ×?" in labels and "12 ×?" in labels and "🫏 Lead the donkey" in labels
    assert "3 ×?" in labels  # a single 3, but the joker can join it: still two ways
    # the prompt says what "×?" means, with one of the buttons as the example
    assert "“3 ×?”: tap to choose how many cards (and jokers) to play." in lead.text
    await tap(driver, ALICE, lead, "6 ×?")
    step = api.messages[ALICE.id][lead.message_id]
    assert "How many 6? Jokers 🃏 can be added:" in step.text
    rows = [[b["text"] for b in row] for row in step.markup["inline_keyboard"]]
    assert rows == [["6"], ["6 6", "6 🃏"], ["6 6 6", "6 6 🃏"], ["6 6 6 🃏"], ["⬅️ Back"]]
    await tap(driver, ALICE, step, "⬅️ Back")
    assert "Your lead." in api.messages[ALICE.id][lead.message_id].text
    await tap(driver, ALICE, lead, "6 ×?")
    assert await tap(driver, ALICE, lead, "6 6 6") == "You played 6 6 6."
    text = board(driver).text
    assert "Round 1: Alice led 3 cards · to beat: 6 6 6 (Alice)" in text
    assert "Alice 🫏 · 10 cards → 6 6 6" in text
    assert "👉 Bob · 13 cards" in text
    bob = prompt(driver, BOB)
    assert "Your turn. Play 3 equal cards higher than 6, or pass." in bob.text
    assert "Pass" in [b["text"] for b in move_buttons(bob)]
    assert await tap(driver, BOB, bob, "Pass") == "You passed."
    for player in (CAROL, DAVE):
        await tap(driver, player, prompt(driver, player), "Pass")
    text = board(driver).text
    assert "📜 Last rounds:\n• Round 1: Alice 6 6 6 · pass: Bob, Carol, Dave" in text
    assert "Round 2: Alice leads." in text
    assert "→" not in text  # a new round: nothing played yet
    # the hand goes on to its end: the totals appear on the board of hand 2
    rng = random.Random(5)
    while (await current_match(driver)).state["hand_no"] == 1:
        _match, _seat, user = await acting(driver, PLAYERS)
        await random_move(driver, user, rng)
    match = await current_match(driver)
    text = board(driver).text
    assert "Hand 2 of 2" in text
    for seat, player in enumerate(PLAYERS):
        assert f"Σ {match.state['totals'][seat]}" in next(
            line for line in text.splitlines() if player.first_name in line and "·" in line
        )
    assert "Σ — penalty points so far; the lowest total wins." in text
    assert len(hand_messages(driver)) == 1


# -- the donkey round --------------------------------------------------------------------------


async def test_a_donkey_round_one_card_each_and_the_last_highest_takes_all(driver, api, seeded):
    match = await start_match(driver, ALICE, PLAYERS)
    assert (await tap(driver, ALICE, prompt(driver, ALICE), "🫏 Lead the donkey")) == (
        "You led the donkey 🫏."
    )
    text = board(driver).text
    assert "Round 1: 🫏 donkey round led by Alice" in text
    assert "🫏 The donkey is on the table." in text
    assert "Alice · 12 cards → 🫏" in text
    bob = prompt(driver, BOB)
    assert "Your card. Play any one card" in bob.text
    labels = [b["text"] for b in move_buttons(bob)]
    hand = ENGINE.view(match.state, 1)["hand"]
    distinct = sorted(set(hand))
    assert labels == [str(v) if v < 14 else "🃏 (=1)" for v in distinct]
    assert "Pass" not in labels
    # Bob and Carol play a 13 each, Dave his lowest card: of the equal highest cards the
    # last one takes
    assert await tap(driver, BOB, bob, "13") == "You played 13."
    assert "Would take them now: Bob, with 13." in board(driver).text
    await tap(driver, CAROL, prompt(driver, CAROL), "13")
    assert "Would take them now: Carol, with 13." in board(driver).text
    await tap(driver, DAVE, prompt(driver, DAVE), "1")
    match = await current_match(driver)
    assert match.state["turn"] == 2
    # no news in the group: the board tells the donkey round
    assert not [m for m in api.visible(GROUP) if m.from_bot][2:]
    taker = CAROL
    text = board(driver).text
    assert "• Round 1 🫏: Alice 🫏 · Bob 13 · Carol 13 · Dave 1 → Carol takes 4 cards" in text
    assert "🫏 The donkey is with Carol." in text
    assert "Carol took the donkey and may not lead it this round." in text
    assert "👉 Carol 🫏 · 16 cards" in text
    lead = prompt(driver, taker)
    assert "You took the donkey last round: you may not lead it in this round." in lead.text
    assert "🫏 Lead the donkey" not in [b["text"] for b in lead.buttons()]


# -- restarts ----------------------------------------------------------------------------------


async def test_a_restart_in_the_middle_of_a_round_and_of_a_two_step_choice(api, database, seeded):
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        await start_match(driver, ALICE, PLAYERS)
        lead = prompt(driver, ALICE)
        await tap(driver, ALICE, lead, "12 ×?")
    async with running_bot(api, database) as driver:
        # the half-made choice survived: the second step is still on screen and works
        step = api.messages[ALICE.id][lead.message_id]
        assert "How many 12?" in step.text
        assert await tap(driver, ALICE, step, "12 12") == "You played 12 12."
        await tap(driver, BOB, prompt(driver, BOB), "Pass")
    async with running_bot(api, database) as driver:
        text = board(driver).text
        assert "Round 1: Alice led 2 cards · to beat: 12 12 (Alice)" in text
        assert "Bob · 13 cards → pass" in text and "👉 Carol" in text
        carol = prompt(driver, CAROL)
        assert "Play 2 equal cards higher than 12" in carol.text
        await tap(driver, CAROL, carol, "Pass")
        await tap(driver, DAVE, prompt(driver, DAVE), "Pass")
        match = await current_match(driver)
        assert match.state["round_no"] == 2 and match.state["turn"] == 0
        moves = await get_host(driver.app).storage.moves(match.id)
        # the start and four moves, each exactly once
        assert [(seat, action) for _v, seat, action in moves] == [
            (-1, "start"),
            (0, "1.12.2.0"),
            (1, "0"),
            (2, "0"),
            (3, "0"),
        ]
        assert "• Round 1: Alice 12 12 · pass: Bob, Carol, Dave" in board(driver).text


# -- presses that must change nothing ------------------------------------------------------------


async def test_strangers_out_of_turn_stale_and_forged_presses_change_nothing(driver, api, seeded):
    match = await start_match(driver, ALICE, PLAYERS)
    lead = prompt(driver, ALICE)
    six = button(lead, "6 ×?")["callback_data"]
    donkey = button(lead, "🫏 Lead the donkey")["callback_data"]
    before = await current_match(driver)

    # a stranger, on Alice's message
    answer = await driver.press(MALLORY, ALICE.id, lead.message_id, donkey)
    assert answer == "You are not playing in this game."
    assert await driver.press(MALLORY, ALICE.id, lead.message_id, six) == (
        "You are not playing in this game."
    )
    # Bob, out of turn, with his own current token
    bob_token = before.seats[1].token
    forged = Callback("a", match.id, bob_token, "0").encode()
    assert await driver.press(BOB, BOB.id, prompt(driver, BOB).message_id, forged) == (
        "It is not your turn."
    )
    # Alice, an illegal move and a selection step that does not exist
    token = before.seats[0].token
    illegal = Callback("a", match.id, token, "1.6.4.0").encode()
    assert await driver.press(ALICE, ALICE.id, lead.message_id, illegal) == (
        "That move is not allowed now."
    )
    bad_step = Callback("d", match.id, token, "v4").encode()
    assert await driver.press(ALICE, ALICE.id, lead.message_id, bad_step) == STALE
    after = await current_match(driver)
    assert after.version == before.version and after.state == before.state
    assert "Your lead." in api.messages[ALICE.id][lead.message_id].text

    # Alice leads; her old buttons are stale from now on
    await tap(driver, ALICE, lead, "6 ×?")
    await tap(driver, ALICE, lead, "6 6 6")
    version = (await current_match(driver)).version
    assert await driver.press(ALICE, ALICE.id, lead.message_id, donkey) == STALE
    assert await driver.press(ALICE, ALICE.id, lead.message_id, six) == STALE
    # Bob's turn now: a pass button from an earlier message of his would be stale too
    bob = prompt(driver, BOB)
    bob_pass = button(bob, "Pass")["callback_data"]
    await tap(driver, BOB, bob, "Pass")
    assert await driver.press(BOB, BOB.id, bob.message_id, bob_pass) == STALE
    match = await current_match(driver)
    assert match.version == version + 1
    assert [play[0] for play in match.state["plays"]] == [0, 1]
    assert "👉 Carol" in board(driver).text


# -- time limits -------------------------------------------------------------------------------


async def test_timeouts_lead_all_of_the_commonest_value_then_followers_pass(
    driver, api, ai_fails, seeded
):
    clock = use_clock(driver)
    match = await start_match(driver, ALICE, PLAYERS)  # 3 minutes per move
    expected = ENGINE.default_action(match.state, 0)
    assert expected == (1, 6, 3, 0)  # all her 6s, her commonest value
    clock.now += 181
    await tick(driver, clock, match.id)
    match = await current_match(driver)
    assert match.state["plays"] == [[0, 1, 6, 3, 0]]
    assert "⏰ Alice ran out of time, so I made a move for them." in news(driver)
    assert "Alice 🫏 · 10 cards → 6 6 6" in board(driver).text
    clock.now += 181
    await tick(driver, clock, match.id)
    match = await current_match(driver)
    assert match.state["plays"][-1] == [1, 0, 0, 0, 0]  # Bob passed
    assert "Bob · 13 cards → pass" in board(driver).text
    assert "👉 Carol" in board(driver).text
    assert "Play 3 equal cards higher than 6" in prompt(driver, CAROL).text


async def test_a_timeout_in_a_donkey_round_plays_the_lowest_card_a_joker_first(
    driver, api, ai_fails, seeded
):
    clock = use_clock(driver)
    match = await start_match(driver, ALICE, PLAYERS)
    await tap(driver, ALICE, prompt(driver, ALICE), "🫏 Lead the donkey")
    match = await current_match(driver)
    assert ENGINE.default_action(match.state, 1) == (3, 14)
    clock.now += 181
    await tick(driver, clock, match.id)
    match = await current_match(driver)
    assert match.state["plays"][-1] == [1, 3, 14, 1, 1]
    assert "Bob · 12 cards → 🃏" in board(driver).text
    # Carol plays a card herself; Dave times out too and his joker goes
    await tap(driver, CAROL, prompt(driver, CAROL), "13")
    match = await current_match(driver)
    assert ENGINE.default_action(match.state, 3) == (3, 14)
    clock.now += 181
    await tick(driver, clock, match.id)
    match = await current_match(driver)
    assert match.state["round_no"] == 2 and match.state["turn"] == 2
    assert "Alice 🫏 · Bob 🃏 · Carol 13 · Dave 🃏 → Carol takes 4 cards" in board(driver).text


async def test_a_timed_match_shows_its_clock_and_ends_with_the_hand_in_progress(
    driver, api, seeded
):
    clock = use_clock(driver)
    match = await start_match(driver, ALICE, [ALICE, BOB, CAROL], minutes=15, no_move_limit=True)
    assert match.options["time_limit_minutes"] == 15
    assert "⏲ Timed match: 15 minutes · hand 1" in board(driver).text
    rng = random.Random(1)
    for _ in range(4):
        _match, _seat, user = await acting(driver, [ALICE, BOB, CAROL])
        await random_move(driver, user, rng)
    clock.now += 15 * 60 + 1
    await tick(driver, clock, match.id)
    assert "⏰ Time is up: hand 1 is the last one." in news(driver)
    assert "⏲ Timed match: 15 minutes · hand 1 · ⏰ time is up: last hand" in board(driver).text
    await play_to_the_end(driver, [ALICE, BOB, CAROL], rng)
    final = api.last(GROUP)
    assert final.text.startswith("🏁 Who's the Donkey? is over after 1 hand.")


# -- languages ---------------------------------------------------------------------------------


async def test_a_quick_game_in_russian_ukrainian_and_italian(driver, api, seeded):
    players = [IVAN, OKSANA, GIULIA]
    # private screens follow the language each player chose with /language in private
    await set_languages(driver, "Русский", players, ("Русский", "Українська", "Italiano"))
    await start_match(driver, IVAN, players, hands=1, lang="ru")
    assert board(driver, title="Кто осёл?").text.splitlines()[1] == "Партия 1 из 1"
    texts = {player: prompt(driver, player).text for player in players}
    assert "Твои карточки (13):" in texts[IVAN]
    assert "Твої картки (13):" in texts[OKSANA]
    assert "La tua mano (13):" in texts[GIULIA]
    await play_to_the_end(driver, players, random.Random(4))
    assert any(text.startswith("🏁 Партия 1 окончена.") for text in news(driver))
    final = api.last(GROUP)
    assert final.text.startswith("🏁 Кто осёл? Матч окончен после 1 партии.")
    assert "штрафн" in final.text
    t = translator("uk")
    assert "Хто віслюк?" in prompt(driver, OKSANA).text
    assert t("donkey.title") == "Хто віслюк?"


def test_lobby_labels_for_every_match_length():
    assert hands_label(2) == "Length: 2 hands" and hands_label(1) == "Length: 1 hand"
    assert minutes_label(30) == "⏲ By time: 30 min"
    assert minutes_label(0, "ru") == "⏲ На время: нет"
    assert (
        hands_label(5, "ru") == "Длительность: 5 партий"
        and hands_label(2, "uk") == "Тривалість: 2 партії"
    )


async def test_time_up_between_hands_ends_the_match_at_once(driver, api, seeded):
    clock = use_clock(driver)
    players = [ALICE, BOB, CAROL]
    match = await start_match(driver, ALICE, players, minutes=30, no_move_limit=True)
    rng = random.Random(8)
    while (await current_match(driver)).state["hand_no"] == 1:
        _match, _seat, user = await acting(driver, players)
        await random_move(driver, user, rng)
    assert "⏲ Timed match: 30 minutes · hand 2" in board(driver).text
    clock.now += 30 * 60
    await tick(driver, clock, match.id)
    assert "⏰ Time is up: the match ends now, hand 2 is not played." in news(driver)
    assert api.last(GROUP).text.startswith("🏁 Who's the Donkey? is over after 1 hand.")
    match = await current_match(driver)
    assert match.status == "finished"
    assert "The match is over after 1 hand." in api.messages[GROUP][match.board_message_id].text
