"""Whole games of 5211 through the real Application and the fake Bot API."""

from __future__ import annotations

import re

from bot.table.host import get_host
from games import get_engine
from tests.bot.conftest import ALICE, BOB, CAROL, GROUP, MALLORY, OTHER_GROUP, running_bot
from tests.bot.helpers import news_starting
from tests.bot.play5211 import (
    board,
    card_buttons,
    choose,
    confirm_button,
    has_choice,
    play_to_the_end,
    prompt,
    start_game,
)


async def current_match(driver, group=GROUP):
    storage = get_host(driver.app).storage
    return await storage.load(await storage.latest_match_id(group))


def round_messages(api, group=GROUP):
    return news_starting(api, group, "📊 Round")


async def test_full_three_player_game_from_new_to_results(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB, CAROL])
    first = board(driver, GROUP)
    assert "Round 1, part 1 of 3" in first.text
    assert all(f"⏳ {name}" in first.text for name in ("Alice", "Bob", "Carol"))
    for player in (ALICE, BOB, CAROL):
        assert len(card_buttons(prompt(driver, player))) == 5
        assert "Game Night" in prompt(driver, player).text

    # part 1: Alice chooses; the group sees that she is ready, not what she chose
    hand_before = prompt(driver, ALICE).text
    popup = await choose(driver, ALICE)
    assert popup.startswith("Played ")
    assert "✅ Alice" in board(driver, GROUP).text and "⏳ Bob" in board(driver, GROUP).text
    assert "Your choice:" in prompt(driver, ALICE).text
    assert not card_buttons(prompt(driver, ALICE))
    played = popup.removeprefix("Played ")
    assert played.split()[0] in hand_before
    assert played not in api.last(GROUP).text

    parts = await play_to_the_end(driver, [ALICE, BOB, CAROL])  # from part 1, Alice done
    assert parts == 7 * 3  # 3 players: six rounds with drawing and a last one without

    rounds = round_messages(api)
    assert [int(re.search(r"Round (\d+)", m.text).group(1)) for m in rounds] == list(range(1, 8))
    assert all("Totals:" in m.text for m in rounds)
    final = api.last(GROUP)
    assert "5211 is over" in final.text
    assert any("Rematch" in b["text"] for b in final.buttons())

    match = await current_match(driver)
    assert match.status == "finished"
    result = get_engine("5211").result(match.state)
    for seat, name in enumerate(("Alice", "Bob", "Carol")):
        assert f"{name} — {result.scores[seat]} points" in final.text
    winners = ", ".join(("Alice", "Bob", "Carol")[seat] for seat in result.winners)
    assert f"Winner: {winners}" in final.text
    # the last round's totals agree with the final scores
    assert all(
        f"{n} {result.scores[s]}" in rounds[-1].text
        for s, n in enumerate(("Alice", "Bob", "Carol"))
    )
    # a finished match leaves no live buttons on the board or in the private chats
    assert not api.messages[GROUP][match.board_message_id].buttons()
    for player in (ALICE, BOB, CAROL):
        assert not has_choice(driver, player)
    moves = await get_host(driver.app).storage.moves(match.id)
    assert len(moves) == 1 + 21 * 3  # the start, then every player's choice in 21 parts


async def test_game_survives_a_restart_between_every_move(api, database):
    players = [ALICE, BOB, CAROL]
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        await start_game(driver, GROUP, ALICE, players)
    moves = 0
    while True:
        async with running_bot(api, database) as driver:
            waiting = [p for p in players if has_choice(driver, p)]
            if not waiting:
                break
            player = waiting[0]
            message = prompt(driver, player)
            # tap one card, restart, and the selection is still there
            await driver.press(
                player, player.id, message.message_id, card_buttons(message)[0]["callback_data"]
            )
        async with running_bot(api, database) as driver:
            assert "✅" in prompt(driver, player).text or any(
                b["text"].startswith("✅") for b in card_buttons(prompt(driver, player))
            )
            await choose(
                driver, player, picks=[] if confirm_button(prompt(driver, player)) else [1]
            )
            moves += 1
    async with running_bot(api, database) as driver:
        match = await current_match(driver)
        assert match.status == "finished"
        assert moves == 21 * 3
        stored = await get_host(driver.app).storage.moves(match.id)
        assert len(stored) == 1 + moves  # the start and every move, each exactly once
        assert "5211 is over" in api.last(GROUP).text
        assert len(round_messages(api)) == 7


async def test_a_stranger_pressing_a_players_buttons_changes_nothing(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    message = prompt(driver, ALICE)
    card = card_buttons(message)[0]["callback_data"]
    before = await current_match(driver)
    answer = await driver.press(MALLORY, ALICE.id, message.message_id, card)
    assert answer == "You are not playing in this game."
    await driver.press(ALICE, ALICE.id, message.message_id, card)
    await driver.press(
        ALICE, ALICE.id, message.message_id, card_buttons(prompt(driver, ALICE))[1]["callback_data"]
    )
    confirm = confirm_button(prompt(driver, ALICE))["callback_data"]
    answer = await driver.press(MALLORY, ALICE.id, message.message_id, confirm)
    assert answer == "You are not playing in this game."
    after = await current_match(driver)
    assert after.version == before.version and after.state == before.state
    assert "⏳ Alice" in api.last(GROUP).text


async def test_stale_buttons_get_a_popup_and_change_nothing(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    old = prompt(driver, ALICE)
    old_card = card_buttons(old)[0]["callback_data"]
    await choose(driver, ALICE)
    confirm_again = await driver.press(ALICE, ALICE.id, old.message_id, old_card)
    assert confirm_again == "This button is no longer valid. Use the latest message."
    await choose(driver, BOB)  # part 1 resolves: new prompts for part 2
    version = (await current_match(driver)).version
    assert await driver.press(ALICE, ALICE.id, old.message_id, old_card) == (
        "This button is no longer valid. Use the latest message."
    )
    assert (await current_match(driver)).version == version
    assert "Round 1, part 2 of 3" in api.last(GROUP).text


async def test_a_player_who_cannot_be_reached_is_named_in_the_group_and_the_game_waits(driver, api):
    await driver.send(ALICE, GROUP, "/new")
    await driver.press_label(ALICE, GROUP, "5211")
    for player in (ALICE, BOB, CAROL):
        await driver.press_label(player, GROUP, "Join")
    api.blocked.add(BOB.id)  # Bob blocks the bot after joining
    await driver.press_label(ALICE, GROUP, "Start")
    notice = [m for m in api.visible(GROUP) if "can't write to you" in m.text]
    assert len(notice) == 1 and "Bob" in notice[0].text
    link = notice[0].buttons()[0]["url"]
    await choose(driver, ALICE)
    await choose(driver, CAROL)
    assert "⏳ Bob" in board(driver, GROUP).text and "part 1" in board(driver, GROUP).text
    api.blocked.discard(BOB.id)
    await driver.follow(BOB, link)  # the fix the group was told about
    assert has_choice(driver, BOB)
    await choose(driver, BOB)
    assert "Round 1, part 2 of 3" in board(driver, GROUP).text


async def test_someone_who_never_opened_the_private_chat_is_not_seated_until_they_do(driver, api):
    await driver.send(ALICE, GROUP, "/new")
    await driver.press_label(ALICE, GROUP, "5211")
    lobby = api.last(GROUP)
    assert "1. Alice" not in lobby.text  # the creator has no private chat with the bot yet
    assert await driver.press_label(BOB, GROUP, "Leave") == "You have not joined this game."
    assert (
        await driver.press_label(ALICE, GROUP, "Start")
        == "Not enough players yet: the game needs at least 2."
    )
    await driver.press_label(ALICE, GROUP, "Join")  # opens the chat and takes the seat
    assert "1. Alice" in api.last(GROUP).text
    assert "You joined 5211 in Game Night" in api.last(ALICE.id).text


async def test_two_groups_play_at_once_with_one_shared_player(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    await start_game(driver, OTHER_GROUP, CAROL, [CAROL, BOB])
    bob_prompts = [m for m in api.visible(BOB.id) if card_buttons(m)]
    assert {m.text.splitlines()[0] for m in bob_prompts} == {"📍 Game Night", "📍 Office"}
    office = next(m for m in bob_prompts if "Office" in m.text)
    night = next(m for m in bob_prompts if "Game Night" in m.text)
    # Bob plays in the office game only
    await choose(driver, BOB, picks=[0, 1], message=office)
    assert "✅ Bob" in api.last(OTHER_GROUP).text
    assert "⏳ Bob" in api.last(GROUP).text
    # his card buttons in the other game still work
    assert card_buttons(api.messages[BOB.id][night.message_id])
    await choose(driver, BOB, picks=[0, 1], message=night)
    assert "✅ Bob" in api.last(GROUP).text
    await choose(driver, CAROL)
    assert "part 2" in api.last(OTHER_GROUP).text and "part 1" in api.last(GROUP).text


async def test_a_crash_between_commit_and_messages_is_redrawn_at_start_up(
    api, database, monkeypatch
):
    from bot.table.publishing.publisher import Publisher

    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        await start_game(driver, GROUP, ALICE, [ALICE, BOB])
        await choose(driver, ALICE)
        message = prompt(driver, BOB)
        for index in (0, 1):
            data = card_buttons(api.messages[BOB.id][message.message_id])[index]["callback_data"]
            await driver.press(BOB, BOB.id, message.message_id, data)
        confirm = confirm_button(api.messages[BOB.id][message.message_id])["callback_data"]
        # the process dies right after the commit: the press is answered, nothing is drawn
        monkeypatch.setattr(Publisher, "request", lambda *args, **kwargs: None)
        assert (await driver.press(BOB, BOB.id, message.message_id, confirm)).startswith("Played")
        assert "part 1" in board(driver, GROUP).text
        monkeypatch.undo()
    async with running_bot(api, database) as driver:
        # start-up publishes the committed version: the reveal is on the board and both
        # players have their part-2 prompt
        assert "Round 1, part 2 of 3" in board(driver, GROUP).text
        assert has_choice(driver, ALICE) and has_choice(driver, BOB)
        assert "part 2" in prompt(driver, BOB).text


SQUARE_EMOJI = set("🟥🟧🟨🟩🟦🟪🟫⬛⬜")


async def test_cards_are_told_apart_without_colour_vision_and_the_count_stays(driver, api):
    """Each colour is its own shape as well (🔵 circle, ⭐ star, 🔶 diamond, 🟩 square,
    🩵 heart): no two colours are squares that differ by colour alone, as 🟦 blue and 🩵
    turquoise, 🟨 yellow and 🟩 green did. And "Selected: n/n." stays once the choice is
    complete, with the confirm button."""
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    hand = prompt(driver, ALICE)
    marks = {b["text"][0] for b in card_buttons(hand)}
    assert marks <= {"🔵", "⭐", "🔶", "🟩", "🩵"}
    assert len(marks & SQUARE_EMOJI) <= 1  # at most one colour is a square
    assert "Your hand: " in hand.text and not SQUARE_EMOJI - {"🟩"} & set(hand.text)
    size = int(hand.text.split("Selected: 0/", 1)[1][0])
    for index in range(size):
        await driver.press(
            ALICE, ALICE.id, hand.message_id, card_buttons(hand)[index]["callback_data"]
        )
        hand = api.messages[ALICE.id][hand.message_id]
        assert f"Selected: {index + 1}/{size}." in hand.text
    assert any(b["text"].startswith("✔️ Play") for b in hand.buttons())
