"""Azul Mini: Summer Pavilion through the real Application and the fake Bot API."""

from __future__ import annotations

import re

import pytest

from bot.presentation.i18n import translator
from bot.presentation.ui.summer_pavilion import round_bounds
from bot.table.host import get_host
from games.summer_pavilion.engine import CENTRE, Bonus, Keep, Pass, Place, Take, space_index
from tests.bot.conftest import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    GROUP,
    IVAN,
    MALLORY,
    OKSANA,
    running_bot,
)
from tests.bot.helpers import (
    assert_over_on_every_screen,
    buttons,
    current_match,
    final_summary,
    has_choice,
    news_starting,
    payload,
    play_by_data,
    set_languages,
    tick,
    use_clock,
)
from tests.bot.play_summer_pavilion import (
    ENGINE,
    board,
    button,
    find,
    fresh,
    place_from_space,
    play_by_buttons,
    play_until,
    press,
    prompt,
    round_messages,
    start_match,
)

SEED = 20240611
PLAYERS = [ALICE, BOB]
STALE = "This button is no longer valid. Use the latest message."
COLOUR_LIST = ["🟪", "🟩", "🟧", "🟨", "🟦", "🟥"]
STAR_ICONS = ("🌈", "🟪", "🟧", "🟥", "🟦", "🟨", "🟩")
# colour ids: purple, green, orange, yellow, blue, red
COLOUR = {
    "purple": "🟪",
    "green": "🟩",
    "orange": "🟧",
    "yellow": "🟨",
    "blue": "🟦",
    "red": "🟥",
}


# these tests read the text boards; pictures: tests/bot/table/publishing/test_board_pictures.py
pytestmark = pytest.mark.usefixtures("text_boards")


@pytest.fixture
def seeded(deal):
    deal(SEED)


def in_phase(*phases):
    return lambda state: state["phase"] in phases


def acting(state) -> int:
    (seat,) = ENGINE.to_act(state)
    return seat


# -- a whole game ----------------------------------------------------------------------------
async def test_a_two_player_game_from_the_lobby_to_the_final_scores(driver, api, seeded):
    await driver.send(ALICE, GROUP, "/new summer_pavilion")
    lobby = api.last(GROUP)
    assert "• Stars: coloured" in lobby.text
    assert "• Wild order: standard" in lobby.text
    match = await start_match(driver, ALICE, PLAYERS)
    assert match.options == {"variant1": False, "variant2": False}
    first = board(driver).text
    lines = first.splitlines()
    assert lines[1] == "Round 1/6 · wild: 🟪 purple"
    assert lines[2] == "Phase 1: taking tiles"
    starter = acting(match.state)
    assert lines[3] == f"👉 {PLAYERS[starter].first_name} takes tiles."
    assert "Factories:" in first and "first-player tile" in first and "Supply: " in first
    assert "Alice — 5 points" in first and "Bob — 5 points" in first
    assert first.count("🌈······ 🟪······ 🟧······ 🟥······") == 2
    assert any(b["text"] == "🧩 My board" for b in board(driver).buttons())
    # the starter chooses among the factories (the centre is empty), the other waits
    mine = prompt(driver, PLAYERS[starter])
    assert "Your turn: take tiles." in mine.text
    assert {payload(b) for b in buttons(mine, "d")} == {f"s{k}" for k in range(1, 6)}
    assert "🟪 1️⃣2️⃣3️⃣4️⃣5️⃣6️⃣" in mine.text and "Next round's wild: 🟩 green" in mine.text
    # Summer Pavilion has no secrets: the other's private chat holds no screen to redraw at
    # every move (only "you joined"); the group's board says whose turn it is
    assert not has_choice(driver, PLAYERS[1 - starter])
    assert prompt(driver, PLAYERS[1 - starter]).text.startswith("You joined")

    # the whole game through the keyboards, step by step
    moves = await play_until(driver, PLAYERS, lambda state: False, seed=3, by_buttons=True)
    match = await current_match(driver)
    assert match.status == "finished"
    stored = await get_host(driver.app).storage.moves(match.id)
    assert len(stored) == 1 + moves

    # one summary per round, each with the round's wild colour, and the next round's start
    rounds = round_messages(driver)
    assert [int(re.search(r"Round (\d) is over", m.text).group(1)) for m in rounds] == [
        1, 2, 3, 4, 5, 6
    ]  # fmt: skip
    wilds = ["purple", "green", "orange", "yellow", "blue", "red"]
    for number, (message, wild) in enumerate(zip(rounds, wilds, strict=True), start=1):
        assert f"(wild: {COLOUR[wild]} {wild})" in message.text
        assert "Alice:" in message.text and "Bob:" in message.text and "Scores:" in message.text
        if number < 6:
            assert f"▶️ Round {number + 1}: wild" in message.text
    # in words a player follows, a line per move: "🌈 Centre star, space 5: 🟦 blue,
    # +6 points; 🏛 pillar surrounded; bonus: 🟩 green", not "🟦→🌈⑤ +6 🏛🎁🟩"
    placing = re.compile(
        r"^    (🌈 Centre|🟪 Purple|🟧 Orange|🟥 Red|🟦 Blue|🟨 Yellow|🟩 Green) star, "
        r"space [1-6]: (🟪 purple|🟩 green|🟧 orange|🟨 yellow|🟦 blue|🟥 red), \+\d+ points?"
        r"(; [🏛🗿🪟] (pillar|statue|window)(, [🏛🗿🪟] (pillar|statue|window))* surrounded"
        r"(; bonus: .+)?)?$"
    )
    log = match.state["log"]
    for number, message in enumerate(rounds, start=1):
        assert "→" not in message.text and "🎁" not in message.text
        moves_shown = [line for line in message.text.splitlines() if line.startswith("    ")]
        placed = [line for line in moves_shown if not line.startswith("    ✋")]
        assert all(placing.match(line) for line in placed), placed
        first, last = round_bounds(log, number)
        assert len(placed) == sum(e["type"] == "place" for e in log[first:last])
        bonuses = [e for e in log[first:last] if e["type"] == "bonus"]
        assert sum(line.count("bonus: ") for line in placed) <= len(bonuses)
        assert all(line.count("; bonus: ") <= 1 for line in placed)
    group_messages = [m for m in api.visible(GROUP) if m.from_bot]
    assert len(group_messages) <= 6 + 1 + 3  # rounds, final, board, lobby line, ping

    # the final summary agrees with the engine, with the end-scoring breakdown
    result = ENGINE.result(match.state)
    final = final_summary(driver, result, PLAYERS)
    breakdown = next(e for e in match.state["log"] if e["type"] == "final")["players"]
    for seat, user in enumerate(PLAYERS):
        figures = breakdown[seat]
        assert f"{user.first_name} — {result.scores[seat]} points" in final.text
        stars = ", ".join(f"{STAR_ICONS[star]} +{points}" for star, points in figures["stars"])
        numbers = ", ".join(f"{'⓪①②③④'[number]} +{points}" for number, points in figures["numbers"])
        detail = (
            f"after round 6: {figures['before']} · stars {stars or '—'} · "
            f"numbers {numbers or '—'} · corners −{figures['corner_penalty']}"
        )
        assert detail in final.text
        bonuses = sum(points for _, points in figures["stars"] + figures["numbers"])
        assert figures["before"] + bonuses - figures["corner_penalty"] == result.scores[seat]
        # the last round's totals are the scores before the end scoring
        assert f"{user.first_name} {figures['before']}" in rounds[-1].text
    assert_over_on_every_screen(driver, match, PLAYERS, final)


# -- the step-by-step keyboards ----------------------------------------------------------------
async def test_taking_is_a_source_then_a_colour_with_a_back_button(driver, api, seeded):
    match = await start_match(driver, ALICE, PLAYERS)
    seat = acting(match.state)
    user = PLAYERS[seat]
    message = prompt(driver, user)
    factory = match.state["factories"][0]
    label = button(message, "d", "s1")["text"]
    # each tile with its picture's symbol: no colour told by colour alone
    shaped = [square + glyph for square, glyph in zip(COLOUR_LIST, "✕■★▲●◆", strict=True)]
    assert label == "① " + "".join(shaped[c] * n for c, n in enumerate(factory))
    # step 1: the factory (a selection: nothing is taken yet)
    assert await press(driver, user, message, button(message, "d", "s1")) is None
    message = fresh(driver, user, message)
    assert "From factory 1" in message.text
    legal = [a for a in ENGINE.legal_actions(match.state, seat) if a.source == 1]
    offered = {payload(b) for b in buttons(message, "a")}
    assert offered == {".".join(map(str, a)) for a in legal}
    assert (await current_match(driver)).version == match.version
    # back to the sources, and again
    await press(driver, user, message, button(message, "d", "b"))
    message = fresh(driver, user, message)
    assert find(message, "d", "s2") and not buttons(message, "a")
    await press(driver, user, message, button(message, "d", "s1"))
    message = fresh(driver, user, message)
    # step 2: the colour takes
    action = legal[0]
    popup = await press(driver, user, message, button(message, "a", ".".join(map(str, action))))
    assert popup.startswith("You took ")
    after = await current_match(driver)
    assert after.version == match.version + 1
    assert sum(after.state["hands"][seat]) >= 1
    text = board(driver).text
    assert f"↪️ Latest moves:\n{user.first_name}: took " in text and "from factory 1" in text
    assert f"👉 {PLAYERS[1 - seat].first_name} takes tiles." in text
    assert "at hand " in text
    # the other player now has the choice; the mover's prompt waits
    assert has_choice(driver, PLAYERS[1 - seat]) and not has_choice(driver, user)


def colour_and_wild_choice(state, seat):
    """A centre-star space where several colours fit and one of them can be paid in
    several ways (with more or fewer wild tiles)."""
    placements = [
        a for a in ENGINE.legal_actions(state, seat) if type(a) is Place and a.star == CENTRE
    ]
    for space in range(1, 7):
        here = [a for a in placements if a.space == space]
        colours = {a.colour for a in here}
        for colour in colours:
            ways = [a for a in here if a.colour == colour]
            if len(colours) > 1 and len(ways) > 1:
                return space, colour, ways
    return None


async def test_placing_is_star_space_colour_and_wilds_with_back_buttons(driver, api, seeded):
    await start_match(driver, ALICE, PLAYERS)
    found = None

    def ready(state):
        nonlocal found
        if state["phase"] != "placing":
            return False
        found = colour_and_wild_choice(state, acting(state))
        return found is not None

    await play_until(driver, PLAYERS, ready, seed=5)
    match = await current_match(driver)
    seat = acting(match.state)
    user = PLAYERS[seat]
    space, colour, ways = found
    message = prompt(driver, user)
    assert "Your turn: place a tile or pass." in message.text
    assert "Passing ends your round" in message.text
    assert find(message, "a", "2"), "Pass is always there"
    stars = {payload(b) for b in buttons(message, "d")}
    legal = ENGINE.legal_actions(match.state, seat)
    assert stars == {f"t{a.star}" for a in legal if type(a) is Place}
    # star → its spaces with their cost and points; back; star again
    await press(driver, user, message, button(message, "d", "t0"))
    message = fresh(driver, user, message)
    assert "Centre star: choose a space." in message.text
    label = button(message, "d", f"p{space}")["text"]
    assert label.startswith(
        f"Space {space}: pay {space} tile" + ("s" if space > 1 else "") + " · +"
    )
    assert find(message, "a", "2") and find(message, "d", "b")
    await press(driver, user, message, button(message, "d", "b"))
    message = fresh(driver, user, message)
    assert "Choose a star." in message.text
    await press(driver, user, message, button(message, "d", "t0"))
    await press(driver, user, message, button(fresh(driver, user, message), "d", f"p{space}"))
    message = fresh(driver, user, message)
    # the colour step: only the colours that fit
    assert f"Centre star, space {space} (costs {space}): choose the colour." in message.text
    here = [a for a in legal if type(a) is Place and a.star == CENTRE and a.space == space]
    shown = {int(payload(b)[1:]) for b in buttons(message, "d") if payload(b).startswith("c")}
    shown |= {int(payload(b).split(".")[3]) for b in buttons(message, "a") if payload(b) != "2"}
    assert shown == {a.colour for a in here}
    await press(driver, user, message, button(message, "d", f"c{colour}"))
    message = fresh(driver, user, message)
    # the wild step: exactly the legal ways to pay
    assert "how many wild tiles" in message.text
    offered = {payload(b) for b in buttons(message, "a")} - {"2"}
    assert offered == {".".join(map(str, a)) for a in ways}
    # back to the colours, then choose again and place
    await press(driver, user, message, button(message, "d", "b"))
    message = fresh(driver, user, message)
    assert "choose the colour." in message.text
    await press(driver, user, message, button(message, "d", f"c{colour}"))
    message = fresh(driver, user, message)
    action = ways[-1]
    popup = await press(driver, user, message, button(message, "a", ".".join(map(str, action))))
    assert popup.startswith(f"🌈 Centre star, space {space}: placed {COLOUR_LIST[colour]}, paid ")
    after = await current_match(driver)
    assert after.state["boards"][seat][space - 1] == colour
    latest = board(driver).text.split("↪️ Latest moves:\n")[1]
    placed = f"🌈 Centre star, space {space}: {COLOUR_LIST[colour]} "  # in words, as the summary
    assert f"{user.first_name}: " in latest and placed in latest


async def test_bonus_tiles_one_per_press_and_keeping_tiles_then_done(driver, api, seeded):
    await start_match(driver, ALICE, PLAYERS)
    await play_until(driver, PLAYERS, in_phase("bonus"), seed=7)
    match = await current_match(driver)
    seat = acting(match.state)
    user = PLAYERS[seat]
    due = match.state["bonus_due"]
    message = prompt(driver, user)
    assert "Bonus!" in message.text and f"Take {due} more tile" in message.text
    # the prompt names what the placement surrounded, with the tiles each one gives
    placed = next(e for e in reversed(match.state["log"]) if e["type"] == "place")
    kinds = {0: "🏛 pillar surrounded: +1 tile", 1: "🗿 statue surrounded: +2 tiles"}
    kinds[2] = "🪟 window surrounded: +3 tiles"
    assert ", ".join(kinds[kind] for kind, _star in placed["structures"]) in message.text
    supply = match.state["supply"]
    offered = {payload(b) for b in buttons(message, "a")}
    assert offered == {f"3.{c}" for c in range(6) if supply[c]}
    text = board(driver).text
    assert f"{user.first_name} takes " in text and f"({due} left)" in text
    colour = next(c for c in range(6) if supply[c])
    held = match.state["hands"][seat][colour]
    assert await play_by_buttons(driver, user, (3, colour)) == (
        f"Bonus tile {COLOUR_LIST[colour]} taken."
    )
    after = await current_match(driver)
    assert after.state["hands"][seat][colour] == held + 1
    if due > 1:
        assert f"Take {due - 1} more tile" in prompt(driver, user).text

    # keeping: a player who passes with tiles chooses them one by one, then Done
    await play_until(driver, PLAYERS, in_phase("keeping"), seed=8)
    match = await current_match(driver)
    seat = acting(match.state)
    user = PLAYERS[seat]
    hand = list(match.state["hands"][seat])
    message = prompt(driver, user)
    room = min(4 - sum(match.state["corners"][seat]), sum(hand))
    assert "You passed." in message.text and f"(room for {room} more)" in message.text
    loss = min(sum(hand), match.state["scores"][seat])
    verb = "goes" if sum(hand) == 1 else "go"
    assert "Done now: " in message.text and f"{verb} to the box, −{loss}." in message.text
    assert button(message, "a", "5")["text"] == f"✅ Done: discard {sum(hand)}, −{loss}"
    assert f"{user.first_name} passes and chooses the tiles to keep." in board(driver).text
    colour = next(c for c in range(6) if hand[c])
    assert await play_by_buttons(driver, user, (4, colour)) == (
        f"{COLOUR_LIST[colour]} kept on a corner."
    )
    match = await current_match(driver)
    assert match.state["phase"] == "keeping" and acting(match.state) == seat
    message = prompt(driver, user)
    assert f"(room for {room - 1} more)" in message.text
    left = sum(match.state["hands"][seat])
    loss = min(left, match.state["scores"][seat])
    assert await play_by_buttons(driver, user, (5,)) == "Done: the other tiles went to the box."
    match = await current_match(driver)
    assert match.state["corners"][seat][colour] == 1
    assert not any(match.state["hands"][seat])
    assert match.state["phase"] == "placing"  # the other player goes on placing
    passed = f"✋ pass, kept {COLOUR_LIST[colour]}, −{loss}"
    assert f"{user.first_name}: {passed}" in board(driver).text.split("↪️ Latest moves:\n")[1]
    assert f"{user.first_name} — " in board(driver).text and "✋ passed" in board(driver).text


# -- variants ---------------------------------------------------------------------------------
async def test_variant_1_stars_of_your_own_colours_and_other_numbers(driver, api, seeded):
    await driver.send(ALICE, GROUP, "/new summer_pavilion")
    popup = await driver.press_label(ALICE, GROUP, "Stars: coloured")
    assert popup == "Stars: you colour them (V1)"
    assert "• Stars: you colour them (V1)" in api.last(GROUP).text
    for user in PLAYERS:
        await driver.press_label(user, GROUP, "Join")
    await driver.press_label(ALICE, GROUP, "Start")
    match = await current_match(driver)
    assert match.options == {"variant1": True, "variant2": False}
    text = board(driver).text
    assert "Round 1/6 · wild: 🟪 purple" in text
    assert text.count("🌟······ ⭐1······ ⭐2······ ⭐3······") == 2
    starter = PLAYERS[acting(match.state)]
    assert "⭐1 3️⃣2️⃣1️⃣4️⃣5️⃣6️⃣" in prompt(driver, starter).text
    assert "🌟 3️⃣3️⃣3️⃣3️⃣3️⃣3️⃣" in prompt(driver, starter).text
    # phase 2: an outer star takes any colour while it is empty
    await play_until(driver, PLAYERS, in_phase("placing"), seed=2)
    match = await current_match(driver)
    seat = acting(match.state)
    user = PLAYERS[seat]
    message = prompt(driver, user)
    await press(driver, user, message, button(message, "d", "t1"))
    message = fresh(driver, user, message)
    assert "⭐ Star 1: choose a space." in message.text
    # each space by the number printed on it, as the picture shows it (star 1 prints 3, 2,
    # 1, 4, 5, 6 on its spaces 1..6): the space that costs 1 is "Space 1"
    spaces = [b["text"] for b in message.buttons() if b["text"].startswith("Space ")]
    assert any(label.startswith("Space 1: pay 1 ") for label in spaces)
    assert any(label.startswith("Space 3: pay 3 ") for label in spaces)
    assert all(re.match(r"Space (\d): pay \1 tiles? · \+", label) for label in spaces), spaces
    await press(driver, user, message, button(message, "d", "b"))
    # two more rounds: the wild colours of the usual order
    await play_until(driver, PLAYERS, lambda s: s["round"] == 3, seed=2, by_buttons=True)
    assert "Round 3/6 · wild: 🟧 orange" in board(driver).text
    summaries = round_messages(driver)
    assert "▶️ Round 2: wild 🟩 green." in summaries[0].text
    assert "🌟" in summaries[0].text or "⭐" in summaries[0].text


async def test_variant_2_uses_the_other_order_of_wild_colours(driver, api, seeded):
    await driver.send(ALICE, GROUP, "/new summer_pavilion")
    popup = await driver.press_label(ALICE, GROUP, "Wild order: standard")
    assert popup == "Wild order: Variant 2"
    for user in PLAYERS:
        await driver.press_label(user, GROUP, "Join")
    await driver.press_label(ALICE, GROUP, "Start")
    match = await current_match(driver)
    assert match.options == {"variant1": False, "variant2": True}
    assert "Round 1/6 · wild: 🟧 orange" in board(driver).text
    starter = PLAYERS[acting(match.state)]
    assert "Next round's wild: 🟥 red" in prompt(driver, starter).text
    await play_until(driver, PLAYERS, lambda s: s["round"] == 3, seed=4, by_buttons=True)
    assert "Round 3/6 · wild: 🟦 blue" in board(driver).text
    summaries = round_messages(driver)
    assert "(wild: 🟧 orange)" in summaries[0].text
    assert "▶️ Round 2: wild 🟥 red." in summaries[0].text
    assert "(wild: 🟥 red)" in summaries[1].text
    assert "▶️ Round 3: wild 🟦 blue." in summaries[1].text


# -- restarts, strangers, stale and out-of-turn presses ----------------------------------------
async def test_a_restart_in_phase_2_in_the_middle_of_a_placement(api, database, seeded):
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        await start_match(driver, ALICE, PLAYERS)
        await play_until(driver, PLAYERS, in_phase("placing"), seed=6)
        match = await current_match(driver)
        seat = acting(match.state)
        user = PLAYERS[seat]
        action = next(
            a
            for a in ENGINE.legal_actions(match.state, seat)
            if type(a) is Place and a.star != CENTRE  # an outer star: star, then the space
        )
        message = prompt(driver, user)
        await press(driver, user, message, button(message, "d", f"t{action.star}"))
    async with running_bot(api, database) as driver:
        # the selection survived: the star's spaces are still offered
        message = prompt(driver, user)
        assert ": choose a space." in message.text
        before = await current_match(driver)
        assert before.version == match.version
        popup = await place_from_space(driver, user, action)
        assert " space " in popup and "paid" in popup
        after = await current_match(driver)
        assert after.version == match.version + 1
        index = space_index(action.star, action.space)
        assert after.state["boards"][seat][index] == action.colour
        assert "Phase 2: placing tiles" in board(driver).text
    async with running_bot(api, database) as driver:
        await play_until(driver, PLAYERS, lambda s: False, seed=6)
        assert (await current_match(driver)).status == "finished"
        assert len(round_messages(driver)) == 6
        assert api.last(GROUP).text.startswith("🏆 Game over!")


async def test_strangers_out_of_turn_stale_and_forged_presses_change_nothing(driver, api, seeded):
    match = await start_match(driver, ALICE, PLAYERS)
    seat = acting(match.state)
    user, other = PLAYERS[seat], PLAYERS[1 - seat]
    message = prompt(driver, user)
    source = button(message, "d", "s1")
    # a stranger presses the player's buttons
    assert await press(driver, MALLORY, message, source) == "You are not playing in this game."
    await press(driver, user, message, source)
    message = fresh(driver, user, message)
    take = buttons(message, "a")[0]
    assert await driver.press(MALLORY, user.id, message.message_id, take["callback_data"]) == (
        "You are not playing in this game."
    )
    # the other player forges the same move with their own token: not their turn
    legal = ENGINE.legal_actions(match.state, seat)
    assert await play_by_data(driver, match, other, legal[0]) == "It is not your turn."
    # a forged selection step
    forged = source["callback_data"].rsplit(":", 1)[0] + ":t9"
    assert await driver.press(user, user.id, message.message_id, forged) == STALE
    unchanged = await current_match(driver)
    assert unchanged.version == match.version and unchanged.state == match.state
    # the real move, then the old buttons are stale
    await press(driver, user, message, take)
    moved = await current_match(driver)
    assert moved.version == match.version + 1
    assert await press(driver, user, message, source) == STALE
    assert await press(driver, user, message, take) == STALE
    assert (await current_match(driver)).version == moved.version
    assert f"👉 {other.first_name} takes tiles." in board(driver).text


# -- timeouts where the AI fails: the default move of each kind of decision -------------------
async def expect_default_on_timeout(driver, api, clock, phase_check) -> tuple:
    match = await current_match(driver)
    seat = acting(match.state)
    assert phase_check(match.state)
    expected = ENGINE.default_action(match.state, seat)
    clock.now += 181
    await tick(driver, clock, match.id)
    after = await current_match(driver)
    assert after.version == match.version + 1
    name = PLAYERS[seat].first_name
    notices = [m for m in api.visible(GROUP) if f"{name} ran out of time" in m.text]
    assert notices
    assert ENGINE.apply(match.state, seat, expected) == after.state
    return seat, expected


async def test_timeouts_play_the_default_take_place_bonus_and_keep(driver, api, ai_fails, seeded):
    clock = use_clock(driver)
    await start_match(driver, ALICE, PLAYERS)
    # phase 1: the biggest take
    seat, action = await expect_default_on_timeout(driver, api, clock, in_phase("taking"))
    assert type(action) is Take
    # phase 2: the best placement (or a pass)
    await play_until(driver, PLAYERS, in_phase("placing"), seed=9)
    seat, action = await expect_default_on_timeout(driver, api, clock, in_phase("placing"))
    assert type(action) in (Place, Pass)
    # bonus tiles
    await play_until(driver, PLAYERS, in_phase("bonus"), seed=9)
    seat, action = await expect_default_on_timeout(driver, api, clock, in_phase("bonus"))
    assert type(action) is Bonus
    # keeping tiles on the corners
    await play_until(driver, PLAYERS, in_phase("keeping"), seed=9)
    seat, action = await expect_default_on_timeout(driver, api, clock, in_phase("keeping"))
    assert type(action) is Keep
    # the next decision is the player's own again (one timeout is not autopilot)
    match = await current_match(driver)
    assert not match.seats[seat].autopilot


# -- languages ---------------------------------------------------------------------------------
async def test_a_quick_game_in_ukrainian_and_russian(driver, api, seeded):
    players = [OKSANA, IVAN]
    await set_languages(driver, "Українська", players, ("Українська", "Русский"))
    match = await start_match(driver, OKSANA, players, lang="uk")
    uk = translator("uk")
    text = board(driver, title=uk("summer_pavilion.title")).text
    assert "Раунд 1/6 · джокер: 🟪 фіолетовий" in text
    assert "Етап 1: вибір плиток" in text and "Вітрини фабрик:" in text
    seat = acting(match.state)
    # each prompt comes at its player's turn (no secrets: none while waiting)
    texts = {players[seat]: prompt(driver, players[seat]).text}
    await play_until(driver, players, lambda s: 1 - seat in ENGINE.to_act(s), by_buttons=True)
    texts[players[1 - seat]] = prompt(driver, players[1 - seat]).text
    # the informal "you" in both languages
    assert "Твої зірки" in texts[OKSANA] and "Твои звёзды" in texts[IVAN]
    assert "Твій хід: візьми плитки." in texts[OKSANA]
    assert "Твой ход: возьми плитки." in texts[IVAN]
    await play_until(driver, players, lambda s: False, seed=11, by_buttons=True)
    summaries = news_starting(api, GROUP, "🏁 Раунд ")
    assert len(summaries) == 6 and "закінчено" in summaries[0].text
    final = api.last(GROUP)
    assert final.text.startswith("🏆 Гру закінчено!")
    assert "після 6-го раунду" in final.text
    assert "Гру закінчено. Твій планшет:" in prompt(driver, OKSANA).text
    assert "Игра окончена. Твой планшет:" in prompt(driver, IVAN).text


async def test_four_players_fit_on_a_phone(driver, api, seeded):
    players = [ALICE, BOB, CAROL, DAVE]
    await start_match(driver, ALICE, players)
    await play_until(driver, players, in_phase("placing"), seed=12)
    text = board(driver).text
    lines = text.splitlines()
    assert len(lines) <= 24
    assert max(len(line) for line in lines) <= 60
    for user in players:
        assert f"{user.first_name} — " in text
    await play_until(driver, players, lambda s: s["round"] == 2, seed=12)
    summary = round_messages(driver)[0].text
    assert all(f"{user.first_name}:" in summary for user in players)
