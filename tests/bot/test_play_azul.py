"""Azul through the real Application and the fake Bot API."""

from __future__ import annotations

import random
import re

import pytest

from bot.presentation.i18n import translator
from bot.presentation.ui.azul import UI, column_points
from bot.presentation.ui.base import Names
from bot.table.host import get_host
from games.azul.engine import FLOOR_LINE, SIZE, floor_penalty
from games.core import encode_action
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
    find,
    has_choice,
    payload,
    play_by_data,
    set_languages,
    tick,
    use_clock,
)
from tests.bot.play_azul import (
    ENGINE,
    board,
    button,
    fresh,
    play_by_buttons,
    play_until,
    press,
    prompt,
    select_tiles,
    start_match,
    tiling_messages,
)

SEED = 20240611
PLAYERS = [ALICE, BOB]
FOUR = [ALICE, BOB, CAROL, DAVE]
STALE = "This button is no longer valid. Use the latest message."
EMOJI = ["🟦", "🟨", "🟥", "⬛", "⬜"]
WORDS = ["blue", "yellow", "red", "black", "white"]
SHAPED = [square + glyph for square, glyph in zip(EMOJI, "●▲◆✚○", strict=True)]  # in choices


# these tests read the text boards; pictures: tests/bot/table/publishing/test_board_pictures.py
pytestmark = pytest.mark.usefixtures("text_boards")


@pytest.fixture
def seeded(deal):
    deal(SEED)


def drafting(state) -> bool:
    return state["phase"] == "draft"


def acting(state) -> int:
    (seat,) = ENGINE.to_act(state)
    return seat


def tiles(count: int) -> str:
    return f"{count} tile" + ("" if count == 1 else "s")


def pairs(legal) -> set[str]:
    return {f"s{a[0]}c{a[1]}" for a in legal}


def colour_steps(legal) -> set[str]:
    """The first keyboard: a button per colour, which selects its source at once when only
    one place has that colour."""
    sources: dict[int, set[int]] = {}
    for source, colour, _line in legal:
        sources.setdefault(colour, set()).add(source)
    return {
        f"s{min(places)}c{colour}" if len(places) == 1 else f"c{colour}"
        for colour, places in sources.items()
    }


def plain_length(text: str) -> int:
    return len(re.sub(r"<[^>]+>", "", text))


# -- a whole game ----------------------------------------------------------------------------
async def test_a_two_player_game_from_the_lobby_to_the_final_scores(driver, api, seeded):
    await driver.send(ALICE, GROUP, "/new azul")
    assert "• Wall: coloured" in api.last(GROUP).text
    match = await start_match(driver, ALICE, PLAYERS)
    assert match.options == {"wall": "colour"}
    text = board(driver).text
    lines = text.splitlines()
    assert lines[1] == "Round 1 · coloured wall · bag 80, lid 0"
    starter = acting(match.state)
    assert lines[2] == f"👉 {PLAYERS[starter].first_name} takes tiles."
    assert "Centre: 🎯 first-player marker" in text
    for k, tiles in enumerate(ENGINE.view(match.state, None)["factories"]):
        assert f"F{k + 1} " + "".join(EMOJI[c] * n for c, n in enumerate(tiles)) in text
    # an empty wall shows its colour pattern as circles: the first and the last row
    assert text.count("▪️▪️▪️▪️▫️│🔵🟡🔴⚫⚪") == 2 and text.count("▫️▫️▫️▫️▫️│🟡🔴⚫⚪🔵") == 2
    assert "Alice — 0 points" in text and "Bob — 0 points" in text
    assert any(b["text"] == "🧱 My board" for b in board(driver).buttons())
    # the starter chooses among the tiles; the other waits
    mine = prompt(driver, PLAYERS[starter])
    assert "Your turn:" in mine.text and "Your board — 0 points" in mine.text
    assert {payload(b) for b in buttons(mine, "d")} == colour_steps(
        ENGINE.legal_actions(match.state, starter)
    )
    assert not has_choice(driver, PLAYERS[1 - starter])
    # Azul has no secrets: the other's private chat holds no screen to redraw at every move
    # (only "you joined"); the group's board says whose turn it is
    assert prompt(driver, PLAYERS[1 - starter]).text.startswith("You joined")

    # the first round through the keyboards, then the rest by the buttons' data
    moves = await play_until(driver, PLAYERS, lambda s: s["round"] > 1, seed=3, by_buttons=True)
    moves += await play_until(driver, PLAYERS, lambda s: False, seed=3)
    match = await current_match(driver)
    assert match.status == "finished"
    assert len(await get_host(driver.app).storage.moves(match.id)) == 1 + moves

    # one wall-tiling message per round, its scores the engine's
    log = match.state["log"]
    ends = [event for event in log if event["type"] == "round_end"]
    tilings = tiling_messages(driver)
    assert len(tilings) == len(ends) == match.state["round"]
    for message, end in zip(tilings, ends, strict=True):
        assert message.text.startswith(f"🧱 Round {end['round']}: wall tiling")
        for seat, user in enumerate(PLAYERS):
            score = end["scores"][seat]
            unit = "point" if score == 1 else "points"
            assert re.search(rf"^{user.first_name}: .* → {score} {unit}$", message.text, re.M)
    for message, end in zip(tilings[:-1], ends, strict=False):
        assert f"▶️ Round {end['round'] + 1}: {PLAYERS[end['next_player']].first_name} starts." in (
            message.text
        )
    trigger = next(event for event in log if event["type"] == "game_end_triggered")
    assert trigger["reason"] == "row"
    names = ", ".join(PLAYERS[seat].first_name for seat in trigger["seats"])
    assert f"🏁 {names} completed a horizontal row: the game ends." in tilings[-1].text
    group_messages = [m for m in api.visible(GROUP) if m.from_bot]
    assert len(group_messages) <= len(tilings) + 4  # + the final, the board, lobby line, ping

    # the final summary agrees with the engine
    result = ENGINE.result(match.state)
    final = final_summary(driver, result, PLAYERS)
    details = result.details
    for seat, user in enumerate(PLAYERS):
        assert f"{user.first_name} — {result.scores[seat]} points" in final.text
        rows, columns, colours = (details[key][seat] for key in ("rows", "columns", "colours"))
        before = result.scores[seat] - details["bonuses"][seat]
        assert before == ends[-1]["scores"][seat]
        assert (
            f"{before} + rows {rows} (+{2 * rows}) + columns {columns} (+{7 * columns}) "
            f"+ colours {colours} (+{10 * colours})"
        ) in final.text
    assert "more complete rows wins" in final.text
    assert_over_on_every_screen(driver, match, PLAYERS, final)


# -- the two-step keyboard -------------------------------------------------------------------
async def test_drafting_is_the_tiles_then_the_line_with_a_back_button(driver, api, seeded):
    match = await start_match(driver, ALICE, PLAYERS)
    seat = acting(match.state)
    user, other = PLAYERS[seat], PLAYERS[1 - seat]
    view = ENGINE.view(match.state, None)
    legal = ENGINE.legal_actions(match.state, seat)
    message = prompt(driver, user)
    # step 1: one row, a button per colour there is to take
    [row] = message.markup["inline_keyboard"]
    # each colour with its picture's symbol: ● blue, ▲ yellow, ◆ red, ✚ black, ○ white
    shaped = [SHAPED[c] for c in sorted({a[1] for a in legal})]
    assert [b["text"] for b in row] == shaped
    assert {payload(b) for b in row} == colour_steps(legal)
    assert not buttons(message, "a")
    # the biggest pile of a factory whose colour lies in several places: it overflows line 1
    source, colour = max(
        (
            (s, c)
            for s, tiles in enumerate(view["factories"])
            for c in range(5)
            if tiles[c] and f"c{c}" in colour_steps(legal)
        ),
        key=lambda pair: view["factories"][pair[0]][pair[1]],
    )
    count = view["factories"][source][colour]
    assert count >= 2
    # step 2: where that colour lies, each place with the tiles it gives
    assert await press(driver, user, message, button(message, "d", f"c{colour}")) is None
    message = fresh(driver, user, message)
    assert f"Take {SHAPED[colour]} {WORDS[colour]} from where?" in message.text
    places = {payload(b): b["text"] for b in buttons(message, "d") if payload(b) != "b"}
    assert places == {
        f"s{k}c{colour}": f"F{k + 1} {SHAPED[colour]}×{tiles[colour]}"
        for k, tiles in enumerate(view["factories"])
        if tiles[colour]
    }
    assert max(len(row) for row in message.markup["inline_keyboard"]) <= 3
    # back to the colours, and forward again
    await press(driver, user, message, button(message, "d", "b"))
    message = fresh(driver, user, message)
    assert {payload(b) for b in buttons(message, "d")} == colour_steps(legal)
    await press(driver, user, message, button(message, "d", f"c{colour}"))
    message = fresh(driver, user, message)
    # step 3: the line
    assert await press(driver, user, message, button(message, "d", f"s{source}c{colour}")) is None
    message = fresh(driver, user, message)
    assert f"You take {SHAPED[colour]}×{count} from factory {source + 1}." in message.text
    assert "Choose a pattern line or the floor:" in message.text
    offered = {payload(b) for b in buttons(message, "a")}
    assert offered == {encode_action(a) for a in legal if a[:2] == (source, colour)}
    labels = {payload(b): b["text"] for b in buttons(message, "a")}
    assert labels[f"{source}.{colour}.0"] == (
        f"Line 1 · 1/1 ✅ · {tiles(count - 1)} to floor (−{floor_penalty(count - 1)})"
    )
    assert labels[f"{source}.{colour}.4"] == f"Line 5 · {count}/5"
    assert labels[f"{source}.{colour}.{FLOOR_LINE}"] == (
        f"⬇️ All to the floor: {SHAPED[colour]}×{count} · −{floor_penalty(count)} points"
    )
    assert (await current_match(driver)).version == match.version  # nothing taken yet
    # back one step: where to take the colour from
    await press(driver, user, message, button(message, "d", "b"))
    message = fresh(driver, user, message)
    assert "from where?" in message.text and not buttons(message, "a")
    await press(driver, user, message, button(message, "d", f"s{source}c{colour}"))
    message = fresh(driver, user, message)
    # the second press makes the move
    popup = await press(driver, user, message, button(message, "a", f"{source}.{colour}.1"))
    space = min(2, count)
    extra = f" ({tiles(count - 2)} to the floor)" if count > 2 else ""
    assert popup == f"Taken: F{source + 1} {EMOJI[colour]}×{count} → line 2{extra}."
    after = await current_match(driver)
    assert after.version == match.version + 1
    assert after.state["line_counts"][seat * SIZE + 1] == space
    text = board(driver).text
    taken = f"{user.first_name}: F{source + 1} {EMOJI[colour]}×{count} → line 2{extra}"
    assert f"↪️ Latest moves:\n{taken}" in text
    assert f"👉 {other.first_name} takes tiles." in text
    assert has_choice(driver, other) and not has_choice(driver, user)

    # the centre: its button carries the first-player marker, and taking it costs
    centre = ENGINE.view(after.state, None)["centre"]
    message = prompt(driver, other)
    colour = next(c for c in range(5) if centre[c])
    assert "The first to take from the centre also takes 🎯" in message.text
    step = find(message, "d", f"s5c{colour}") or button(message, "d", f"c{colour}")
    await press(driver, other, message, step)
    message = fresh(driver, other, message)
    if payload(step) != f"s5c{colour}":  # the colour lies in a factory too
        label = button(message, "d", f"s5c{colour}")["text"]
        assert label == f"Centre {SHAPED[colour]}×{centre[colour]} 🎯"
        await press(driver, other, message, button(message, "d", f"s5c{colour}"))
        message = fresh(driver, other, message)
    assert f"You take {SHAPED[colour]}×{centre[colour]} from the centre." in message.text
    assert "You also take 🎯: it goes on your floor line (−1)." in message.text
    floor = button(message, "a", f"5.{colour}.{FLOOR_LINE}")["text"]
    n = centre[colour]
    penalty = floor_penalty(1 + n) - 1
    assert floor == f"⬇️ All to the floor: {SHAPED[colour]}×{n} · −{penalty} point" + (
        "s" if penalty > 1 else ""
    )
    popup = await press(driver, other, message, button(message, "a", f"5.{colour}.{FLOOR_LINE}"))
    assert popup == f"Taken: Centre {EMOJI[colour]}×{n} + 🎯 → floor."
    text = board(driver).text
    assert f"{other.first_name} — 0 points · floor 🎯{EMOJI[colour] * n}" in text
    assert "first-player marker" not in text
    assert "1️⃣" not in text + message.text  # keycaps number grey-wall columns only


# -- the grey wall with four players -----------------------------------------------------------
def two_choosing(state) -> bool:
    return state["phase"] == "wall" and len(ENGINE.to_act(state)) >= 2


async def test_four_players_on_the_grey_wall_choose_columns_at_the_same_time(driver, api, seeded):
    await driver.send(ALICE, GROUP, "/new azul")
    popup = await driver.press_label(ALICE, GROUP, "Wall: coloured")
    assert popup == "Wall: grey (pick columns)"
    assert "• Wall: grey (pick columns)" in api.last(GROUP).text
    for user in FOUR:
        await driver.press_label(user, GROUP, "Join")
    await driver.press_label(ALICE, GROUP, "Start")
    match = await current_match(driver)
    assert match.options == {"wall": "grey"}
    assert board(driver).text.splitlines()[1] == "Round 1 · grey wall · bag 64, lid 0"

    await play_until(driver, FOUR, two_choosing, seed=5)
    match = await current_match(driver)
    view = ENGINE.view(match.state, None)
    choosing = sorted(ENGINE.to_act(match.state))
    text = board(driver).text
    names = ", ".join(FOUR[seat].first_name for seat in choosing)
    assert f"🧱 Wall tiling: {names} are choosing a column…" in text
    for seat in choosing:
        assert f"⏳ {FOUR[seat].first_name} — " in text
    assert "Centre:" not in text  # the factories are empty: no table in the wall phase
    # each chooser has the row with its legal columns numbered, and points on the buttons
    for seat in choosing:
        message = prompt(driver, FOUR[seat])
        row = view["pending_rows"][seat]
        colour = view["line_colours"][seat][row]
        assert f"line {row + 1} is full. Choose the column for {SHAPED[colour]}" in message.text
        marked = next(line for line in message.text.splitlines() if line.endswith("👈"))
        for column in view["pending_columns"][seat]:
            assert f"{column + 1}\ufe0f\u20e3" in marked
        labels = {payload(b): b["text"] for b in buttons(message, "a")}
        assert labels == {
            str(c): f"{c + 1}\ufe0f\u20e3 +{column_points(view, seat, row, c)}"
            for c in view["pending_columns"][seat]
        }
        # the columns are one row of buttons, numbered like the marked wall row
        [columns] = message.markup["inline_keyboard"]
        assert len(columns) == len(view["pending_columns"][seat])
        # the grey wall has no printed colours: its empty spaces stay blank
        assert not any(circle in message.text for circle in "🔵🟡🔴⚫⚪")
    for seat in range(4):
        if seat not in choosing:
            assert not has_choice(driver, FOUR[seat])
            assert f"Wall tiling: waiting for {names}." in prompt(driver, FOUR[seat]).text
    # the second chooser's buttons stay valid while the first one chooses
    first, second = choosing[0], choosing[1]
    second_message = prompt(driver, FOUR[second])
    second_action = ENGINE.legal_actions(match.state, second)[-1]
    first_action = ENGINE.legal_actions(match.state, first)[0]
    popup = await play_by_buttons(driver, FOUR[first], first_action)
    assert f"column {first_action[0] + 1}" in popup
    middle = await current_match(driver)
    assert middle.version == match.version + 1
    # [decision] as on a real table: the choice is public at once, on the group's board,
    # while the second chooser is still choosing
    shown = board(driver).text
    assert f"⏳ {FOUR[second].first_name} — " in shown
    block = shown.split(f" {FOUR[first].first_name} — ", 1)[1].splitlines()
    row = view["pending_rows"][first]
    wall_row = re.findall(r"▫️|[🟦🟨🟥⬛⬜]", block[1 + row].split("│")[1])
    assert wall_row[first_action[0]] == EMOJI[view["line_colours"][first][row]]
    popup = await press(
        driver, FOUR[second], second_message, button(second_message, "a", str(second_action[0]))
    )
    assert f"column {second_action[0] + 1}" in popup
    after = await current_match(driver)
    assert after.version == match.version + 2
    for seat, action in ((first, first_action), (second, second_action)):
        row = view["pending_rows"][seat]
        colour = view["line_colours"][seat][row]
        assert after.state["walls"][seat][row * SIZE + action[0]] == colour

    # to the end: somewhere a tile with a single legal column was placed on its own
    await play_until(driver, FOUR, lambda s: False, seed=5)
    match = await current_match(driver)
    assert match.status == "finished"
    log = match.state["log"]
    automatic = [e for e in log if e["type"] == "tile_placed" and e.get("chosen") is False]
    chosen = [e for e in log if e["type"] == "tile_placed" and e.get("chosen")]
    assert automatic and chosen
    tilings = tiling_messages(driver)
    assert len(tilings) == match.state["round"]
    auto = automatic[0]
    message = tilings[auto["round"] - 1].text
    player = FOUR[auto["seat"]].first_name
    assert re.search(rf"^{player}: .*{EMOJI[auto['colour']]} \+{auto['points']}", message, re.M)
    final = api.last(GROUP)
    assert final.text.startswith("🏆 Game over!")
    result = ENGINE.result(match.state)
    for seat, user in enumerate(FOUR):
        score = result.scores[seat]
        assert f"{user.first_name} — {score} point" in final.text


async def test_four_players_fit_on_a_phone(driver, api, seeded):
    await start_match(driver, ALICE, FOUR, grey=True)
    lengths = []
    for round_no in (2, 3, 4):
        await play_until(driver, FOUR, lambda s, r=round_no: s["round"] >= r, seed=6)
        if (await current_match(driver)).status != "playing":
            break
        text = board(driver).text
        lengths.append(len(text))
        assert all(f"{user.first_name} — " in text for user in FOUR)
        assert len(text.splitlines()) <= 45
    assert lengths and max(lengths) < 1200


def test_the_fullest_four_player_board_stays_well_under_the_telegram_limit():
    """Every wall and pattern line full, seven tiles on every floor, every factory full, the
    centre holding every colour, and names of 64 characters."""
    state = ENGINE.new_game(4, {"wall": "grey"}, seed=1)
    state["factories"] = [1, 1, 1, 1, 0] * 9
    state["centre"] = [12, 12, 12, 12, 12]
    state["line_colours"] = [row % 5 for row in range(20)]
    state["line_counts"] = [row % 5 + 1 for row in range(20)]
    state["walls"] = [[(c - r) % 5 for r in range(5) for c in range(5)] for _ in range(4)]
    state["floors"] = [[5, 0, 1, 2, 3, 4, 0] for _ in range(4)]
    state["scores"] = [188, 199, 207, 240]
    state["log"].append(
        {
            "type": "draft",
            "round": 1,
            "seat": 0,
            "source": 9,
            "centre": True,
            "colour": 2,
            "count": 15,
            "line": 0,
            "to_line": 1,
            "to_floor": 6,
            "to_lid": 8,
            "marker": True,
        }
    )
    for lang in ("en", "ru", "uk", "it"):
        t = translator(lang)
        names = Names.of(["W" * 64, "Ж" * 64, "<&>" * 21, "Giulia" * 10])
        text = UI.board(t, ENGINE.view(state, None), names).text
        assert plain_length(text) < 2000, (lang, plain_length(text))
        for seat in range(4):
            screen = UI.prompt(t, ENGINE.view(state, seat), seat, [], None, names)
            assert plain_length(screen.text) < 1500


# -- restarts, strangers, stale and out-of-turn presses ----------------------------------------
async def test_a_restart_in_the_middle_of_a_round_keeps_the_selected_tiles(api, database, seeded):
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        await start_match(driver, ALICE, PLAYERS)
        await play_until(driver, PLAYERS, lambda s: len(s["log"]) >= 5, seed=2)
        match = await current_match(driver)
        assert drafting(match.state) and match.state["round"] == 1
        seat = acting(match.state)
        user = PLAYERS[seat]
        action = ENGINE.legal_actions(match.state, seat)[0]
        await select_tiles(driver, user, action[0], action[1])
    async with running_bot(api, database) as driver:
        # the selection survived the restart: the line step is still there
        message = prompt(driver, user)
        assert "Choose a pattern line or the floor:" in message.text
        assert (await current_match(driver)).version == match.version
        popup = await press(driver, user, message, button(message, "a", encode_action(action)))
        assert popup.startswith("Taken: ")
        after = await current_match(driver)
        assert after.version == match.version + 1
        assert f"↪️ Latest moves:\n{user.first_name}: " in board(driver).text
        await play_until(driver, PLAYERS, lambda s: s["round"] == 2, seed=2)
    async with running_bot(api, database) as driver:
        assert [m.text.splitlines()[0] for m in tiling_messages(driver)] == [
            "🧱 Round 1: wall tiling"
        ]
        assert "Round 2 · coloured wall" in board(driver).text
        await play_until(driver, PLAYERS, lambda s: s["round"] == 3, seed=2, by_buttons=True)
        assert len(tiling_messages(driver)) == 2


async def test_strangers_out_of_turn_stale_and_forged_presses_change_nothing(driver, api, seeded):
    match = await start_match(driver, ALICE, PLAYERS)
    seat = acting(match.state)
    user, other = PLAYERS[seat], PLAYERS[1 - seat]
    legal = ENGINE.legal_actions(match.state, seat)
    message = prompt(driver, user)
    source, colour, _line = legal[0]
    tiles = find(message, "d", f"s{source}c{colour}") or button(message, "d", f"c{colour}")
    # a stranger presses the player's buttons
    assert await press(driver, MALLORY, message, tiles) == "You are not playing in this game."
    message = await select_tiles(driver, user, source, colour)
    line = button(message, "a", encode_action(legal[0]))
    assert await driver.press(MALLORY, user.id, message.message_id, line["callback_data"]) == (
        "You are not playing in this game."
    )
    # the other player forges the same move with their own token: not their turn
    assert await play_by_data(driver, match, other, legal[0]) == "It is not your turn."
    # forged selection steps: a pair that is not on the table, and nonsense
    base = tiles["callback_data"].rsplit(":", 1)[0]
    missing = (
        next(c for c in range(5) if all(a[1] != c for a in legal))
        if len({a[1] for a in legal}) < 5
        else None
    )
    for forged in ("s9c9", "s0", "x", "s99c1", "c9", "c") + ((f"c{missing}",) if missing else ()):
        assert await driver.press(user, user.id, message.message_id, f"{base}:{forged}") == STALE
    # a forged move that is not legal
    match_and_token = base.split(":", 1)[1].split(".")[0]  # without the selection step
    illegal = f"a:{match_and_token}:0.0.9"
    assert await driver.press(user, user.id, message.message_id, illegal) == (
        "That move is not allowed now."
    )
    unchanged = await current_match(driver)
    assert unchanged.version == match.version and unchanged.state == match.state
    # the real move, then the old buttons are stale
    await press(driver, user, message, line)
    moved = await current_match(driver)
    assert moved.version == match.version + 1
    assert await press(driver, user, message, tiles) == STALE
    assert await press(driver, user, message, line) == STALE
    assert (await current_match(driver)).version == moved.version
    assert f"👉 {other.first_name} takes tiles." in board(driver).text


async def test_a_column_already_chosen_is_stale_and_a_waiting_player_cannot_choose(
    driver, api, seeded
):
    await start_match(driver, ALICE, FOUR, grey=True)
    await play_until(driver, FOUR, two_choosing, seed=5)
    match = await current_match(driver)
    choosing = sorted(ENGINE.to_act(match.state))
    first = choosing[0]
    message = prompt(driver, FOUR[first])
    column = buttons(message, "a")[0]
    # someone who is not choosing forges a column with their own token
    idle = next((seat for seat in range(4) if seat not in choosing), None)
    if idle is not None:
        action = ENGINE.legal_actions(match.state, first)[0]
        assert await play_by_data(driver, match, FOUR[idle], action) == "It is not your turn."
    assert await press(driver, MALLORY, message, column) == "You are not playing in this game."
    await press(driver, FOUR[first], message, column)
    after = await current_match(driver)
    assert after.version == match.version + 1
    assert await press(driver, FOUR[first], message, column) == STALE
    assert (await current_match(driver)).version == after.version


# -- timeouts where the AI fails: the default move of each kind of decision -------------------
async def test_timeouts_play_the_default_draft_and_the_default_columns(
    driver, api, ai_fails, seeded
):
    clock = use_clock(driver)
    match = await start_match(driver, ALICE, FOUR, grey=True)
    # drafting: the engine's default take
    seat = acting(match.state)
    expected = ENGINE.default_action(match.state, seat)
    clock.now += 181
    await tick(driver, clock, match.id)
    after = await current_match(driver)
    assert after.version == match.version + 1
    assert ENGINE.apply(match.state, seat, expected) == after.state
    notices = [m for m in api.visible(GROUP) if "ran out of time" in m.text]
    assert [m.text for m in notices] == [
        f"⏰ {FOUR[seat].first_name} ran out of time, so I made a move for them."
    ]
    # the grey wall: every chooser whose time is up gets the best column
    await play_until(driver, FOUR, two_choosing, seed=5)
    match = await current_match(driver)
    choosing = sorted(ENGINE.to_act(match.state))
    expected_state = match.state
    for seat in choosing:
        action = ENGINE.default_action(expected_state, seat)
        view = ENGINE.view(expected_state, None)
        row = view["pending_rows"][seat]
        best = max(column_points(view, seat, row, c) for c in view["pending_columns"][seat])
        assert column_points(view, seat, row, action[0]) == best
        expected_state = ENGINE.apply(expected_state, seat, action)
    clock.now += 181
    await tick(driver, clock, match.id)
    after = await current_match(driver)
    assert after.version == match.version + len(choosing)
    # each timed-out seat got its best column, in seat order; one timeout is not autopilot
    assert after.state == expected_state
    assert not any(s.autopilot for s in after.seats)
    for seat in sorted(ENGINE.to_act(after.state)):  # a further line: a new decision
        assert after.seats[seat].deadline == clock.now + 180


# -- languages ---------------------------------------------------------------------------------
async def test_a_quick_game_in_ukrainian_and_russian(driver, api, seeded):
    players = [OKSANA, IVAN]
    await set_languages(driver, "Українська", players, ("Українська", "Русский"))
    match = await start_match(driver, OKSANA, players, lang="uk")
    text = board(driver, title="Азул").text
    assert "Раунд 1 · кольорова стіна · мішечок 80, кришка 0" in text
    assert "Центр: 🎯 маркер першого гравця" in text and "Ф1 " in text
    seat = acting(match.state)
    # each prompt comes at its player's turn (Azul has no secrets: none while waiting)
    texts = {players[seat]: prompt(driver, players[seat]).text}
    await play_until(driver, players, lambda s: 1 - seat in ENGINE.to_act(s), by_buttons=True)
    texts[players[1 - seat]] = prompt(driver, players[1 - seat]).text
    # the informal "you" in both languages
    assert "Твій планшет — 0 очок" in texts[OKSANA] and "Твой планшет — 0 очков" in texts[IVAN]
    assert "Твій хід:" in texts[OKSANA] and "Твой ход:" in texts[IVAN]
    await play_until(driver, players, lambda s: s["round"] == 2, seed=11, by_buttons=True)
    await play_until(driver, players, lambda s: False, seed=11)
    tilings = tiling_messages(driver)
    assert tilings[0].text.startswith("🧱 Раунд 1: викладання на стіну")
    assert "▶️ Раунд 2: починає" in tilings[0].text
    assert "🏁 " in tilings[-1].text and "гру закінчено" in tilings[-1].text
    final = api.last(GROUP)
    assert final.text.startswith("🏆 Гру закінчено!")
    assert "ряди" in final.text and "стовпці" in final.text and "кольори" in final.text
    assert "Гру закінчено. Твій підсумковий планшет:" in prompt(driver, OKSANA).text
    assert "Игра окончена. Твой итоговый планшет:" in prompt(driver, IVAN).text


def test_the_rules_mention_the_engines_own_end_rules_in_every_language():
    for lang, words in {
        "en": ("round 20", "no row of any wall"),
        "ru": ("20-го раунда", "ни на одной стене уже нельзя заполнить"),
        "uk": ("20-го раунду", "вже не можна заповнити на жодній стіні"),
        "it": ("round 20", "nessuna riga di nessun muro"),
    }.items():
        rules = UI.rules(translator(lang))
        assert all(word in rules for word in words), lang
        assert "🎯" in rules and "⚠️" in rules and "1️⃣" not in rules


def test_move_labels_for_every_kind_of_move():
    t = translator("en")
    state = ENGINE.new_game(2, {"wall": "grey"}, seed=3)
    rng = random.Random(3)
    seen = set()
    while not ENGINE.is_over(state):
        seat = min(ENGINE.to_act(state))
        action = rng.choice(ENGINE.legal_actions(state, seat))
        label = UI.move_label(t, ENGINE.view(state, seat), action, seat)
        if len(action) == 3:
            assert label.startswith("Taken: ") and label.endswith(".")
            seen.add("take")
        else:
            assert f"column {action[0] + 1}" in label
            seen.add("column")
        state = ENGINE.apply(state, seat, action)
    assert seen == {"take", "column"}


def test_a_line_whose_colour_fits_no_column_of_the_grey_wall_is_flagged():
    t = translator("en")
    state = ENGINE.new_game(2, {"wall": "grey"}, seed=4)
    seat = state["turn"]
    wall = state["walls"][seat]
    wall[4] = 1  # row 1 holds yellow in column 5; blue fills columns 1-4 lower down
    for row, column in ((1, 0), (2, 1), (3, 2), (4, 3)):
        wall[row * SIZE + column] = 0
    state["factories"][0:5] = [2, 1, 1, 0, 0]
    legal = ENGINE.legal_actions(state, seat)
    assert (0, 0, 0) in legal  # drafting allows it: the line would end on the floor
    view = ENGINE.view(state, seat)
    screen = UI.prompt(t, view, seat, legal, {"s": 0, "c": 0}, Names.of(["A", "B"]))
    labels = {button.action: button.label for row in screen.rows for button in row}
    assert labels[(0, 0, 0)] == "Line 1 · 1/1 ✅ · 1 tile to floor (−1) ⚠️"
    assert all("⚠️" not in label for action, label in labels.items() if action != (0, 0, 0))
    assert "⚠️ No column of that row can take this colour any more" in screen.text


@pytest.mark.parametrize(
    ("reason", "seats", "text"),
    [
        ("row", [1], "🏁 B completed a horizontal row: the game ends."),
        ("no_tiles", [], "🏁 Not a single tile is left to refill the factories"),
        ("no_row_possible", [], "🏁 No row of any wall can be completed any more"),
        ("round_limit", [], "🏁 Round 20 was the last one (at most 20)"),
    ],
)
def test_every_end_trigger_is_announced_with_the_last_wall_tiling(reason, seats, text):
    t = translator("en")
    view = ENGINE.view(ENGINE.new_game(2, {"wall": "grey"}, seed=4), None)
    events = [
        {"type": "round_end", "round": 20, "scores": [3, 1], "next_player": 0},
        {"type": "game_end_triggered", "round": 20, "reason": reason, "seats": seats},
    ]
    view["log"] = events
    (message,) = UI.announce(t, events, view, Names.of(["A", "B"]))
    assert message.splitlines()[:3] == [
        "🧱 <b>Round 20: wall tiling</b>",
        "A: no tile → 3 points",
        "B: no tile → 1 point",
    ]
    assert text in message and "▶️" not in message
