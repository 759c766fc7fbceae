"""Screens that tell the whole story, drawn from real engine states: what a player reads on
the group board and in the private prompt (gem points in Sultan, the last rounds in Who's the
Donkey?, the wall's colours and a compact keyboard in Azul, the bonus reasons and plurals in
Summer Pavilion)."""

from __future__ import annotations

import random
import re

from bot.presentation.i18n import translator
from bot.presentation.ui import get_ui
from bot.presentation.ui.base import Names, Screen
from games import get_engine
from games.azul.engine import EMPTY, FLOOR_LINE, SIZE, wall_colour
from games.sultan.engine import GEM_VALUES
from tests.games import azul_helpers, donkey_helpers, summer_pavilion_helpers

NAMES = Names.of(["Alice", "Bob", "Carol", "Dave", "Eve"])
KEYCAP = "\ufe0f\u20e3"


def labels(screen: Screen) -> list[list[str]]:
    return [[button.label for button in row] for row in screen.rows]


def plain(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text)


def prompt_of(game: str, state: dict, seat: int, lang: str = "en", draft=None) -> Screen:
    engine = get_engine(game)
    legal = engine.legal_actions(state, seat)
    return get_ui(game).prompt(
        translator(lang), engine.view(state, seat), seat, legal, draft, NAMES
    )


def board_of(game: str, state: dict, lang: str = "en") -> str:
    engine = get_engine(game)
    return plain(get_ui(game).board(translator(lang), engine.view(state, None), NAMES).text)


def play_defaults(game: str, state: dict, until) -> dict:
    engine = get_engine(game)
    while not until(state):
        assert not engine.is_over(state), "the game ended before the position was reached"
        seat = min(engine.to_act(state))
        state = engine.apply(state, seat, engine.default_action(state, seat))
    return state


# -- Sultan ------------------------------------------------------------------------------------
SULTAN_GEMS = ["⚪ white gem", "🔴 red gem", "🟡 yellow gem", "🟢 green gem", "🔵 blue gem"]


def gem_points(colour: int) -> str:
    value = GEM_VALUES[colour]
    return f"{SULTAN_GEMS[colour]} · {value} point" + ("" if value == 1 else "s")


def test_sultan_shows_each_gem_s_points_where_it_is_sent_back_and_bid_on():
    engine = get_engine("sultan")
    state = engine.new_game(3, None, seed=4)
    start = state["start"]
    back = prompt_of("sultan", state, start)
    assert labels(back) == [
        [f"↩️ Return the {gem_points(colour)}"] for colour in sorted(set(state["drawn"]))
    ]
    state = engine.apply(state, start, engine.default_action(state, start))
    board = board_of("sultan", state)
    for cushion, colour in enumerate(state["cushions"]):
        assert f"{cushion + 1}. {gem_points(colour)} — no bids yet" in board
    assert "💎 Points per gem: ⚪ 1 · 🔴 2 · 🟡 3 · 🟢 4 · 🔵 5" in board
    bid = prompt_of("sultan", state, start)
    cushion_rows = [row for row in labels(bid) if row[0][0].isdigit()]
    # one cushion per row, each with its gem's points
    assert cushion_rows == [
        [f"{c + 1}. {gem_points(colour)}"] for c, colour in enumerate(state["cushions"])
    ]
    russian = plain(get_ui("sultan").board(translator("ru"), engine.view(state, None), NAMES).text)
    words = {1: "1 очко", 2: "2 очка", 3: "3 очка", 4: "4 очка", 5: "5 очков"}
    for colour in state["cushions"]:
        assert f"· {words[GEM_VALUES[colour]]} —" in russian


def sultan_round_change(players: int, lang: str) -> str:
    engine = get_engine("sultan")
    state = engine.new_game(players, None, seed=players)
    state = play_defaults("sultan", state, lambda s: s["round"] == 2)
    view = engine.view(state, None)
    reveals = [(i, e) for i, e in enumerate(view["log"]) if e["type"] == "reveal"]
    last = max(e["circle"] for _i, e in reveals)
    since = min(i for i, e in reveals if e["circle"] == last)  # the round's last circle
    texts = get_ui("sultan").announce(translator(lang), view["log"][since:], view, NAMES)
    assert len(texts) == 1, "the round's end rides on its last circle's reveal"
    return plain(texts[0])


def test_sultan_says_when_a_round_ends_and_the_hands_are_refilled():
    text = sultan_round_change(3, "en")
    assert "🏁 End of round 1 of 3: every money card in hand has been played." in text
    assert "🔄 Round 2 of 3: hands are refilled — everyone takes 5 new money cards" in text
    assert "everyone takes 8 new money cards" in sultan_round_change(2, "en")
    assert "каждый берёт из своей колоды 5 новых карт денег" in sultan_round_change(4, "ru")
    assert "кожен бере зі своєї колоди 8 нових карт грошей" in sultan_round_change(2, "uk")
    # the hand in each private prompt is the new one
    engine = get_engine("sultan")
    state = play_defaults("sultan", engine.new_game(3, None, seed=3), lambda s: s["round"] == 2)
    for seat in range(3):
        assert len(engine.view(state, seat)["hand"]) == 5


# -- Who's the Donkey? ---------------------------------------------------------------------------
def test_donkey_board_keeps_the_last_three_rounds_of_the_hand():
    engine = get_engine("donkey")
    state = engine.new_game(5, None, seed=8)
    state = play_defaults("donkey", state, lambda s: s["round_no"] == 6)
    board = board_of("donkey", state)
    history = board.split("📜 Last rounds:\n", 1)[1].split("\n🫏", 1)[0].splitlines()
    won = [e for e in state["log"] if e["type"] == "round_won"]
    assert [line.split(":")[0] for line in history] == [f"• Round {e['round']}" for e in won[-3:]]
    assert "• Round 2" not in board  # only the last three
    # each line names everyone who played, with the cards, and the passes
    moves: list[dict] = []
    rounds = []
    for event in state["log"]:
        if event["type"] in ("play", "pass", "donkey_card", "donkey_led"):
            moves.append(event)
        elif event["type"] == "round_won":
            rounds.append(moves)
            moves = []
    for line, played in zip(history, rounds[-3:], strict=True):
        for event in played:
            assert NAMES[event["seat"]] in line
        passes = [NAMES[e["seat"]] for e in played if e["type"] == "pass"]
        if passes:
            assert line.endswith("pass: " + ", ".join(passes))
    # a new hand starts with a clean history
    state = play_defaults("donkey", state, lambda s: s["hand_no"] == 2)
    assert "Last rounds" not in board_of("donkey", state)


def test_donkey_history_names_who_took_a_donkey_round():
    D, J = donkey_helpers.DONKEY, donkey_helpers.JOKER
    state = donkey_helpers.rigged([[D, 3, 5], [9, 9, 4], [2, 8, 8], [J, 6, 7]], turn=0)
    state = donkey_helpers.apply_all(
        state,
        [(0, donkey_helpers.LEAD_DONKEY), (1, donkey_helpers.card(9)), (2, (3, 8)), (3, (3, 7))],
    )
    assert "• Round 2 🫏: Alice 🫏 · Bob 9 · Carol 8 · Dave 7 → Bob takes 4 cards" in board_of(
        "donkey", state
    )
    assert "→ Bob забирает: 4 карточки" in board_of("donkey", state, "ru")


def test_donkey_buttons_with_several_ways_say_they_ask_how_many():
    J = donkey_helpers.JOKER
    state = donkey_helpers.rigged(
        [[0, 7, 7, 7, J, 2], [9, 9, 4, 5, 6, 8], [2, 8, 8, 3, 4, 5]], turn=0
    )
    screen = prompt_of("donkey", state, 0)
    flat = [label for row in labels(screen) for label in row]
    assert "7 ×?" in flat and "2 ×?" in flat  # 7 7 7 with or without the joker; 2 or 2 🃏
    assert "“2 ×?”: tap to choose how many cards (and jokers) to play." in screen.text
    step = get_ui("donkey").draft(
        get_engine("donkey").view(state, 0),
        0,
        get_engine("donkey").legal_actions(state, 0),
        None,
        "v7",
    )
    how_many = prompt_of("donkey", state, 0, draft=step.draft)
    assert labels(how_many) == [
        ["7"],
        ["7 7", "7 🃏"],
        ["7 7 7", "7 7 🃏"],
        ["7 7 7 🃏"],
        ["⬅️ Back"],
    ]
    russian = prompt_of("donkey", state, 0, "ru")
    assert "«2 ×?» — нажми и выбери, сколько карточек (и джокеров) сыграть." in russian.text


# -- Azul ----------------------------------------------------------------------------------------
SQUARES = "🟦🟨🟥⬛⬜"
CIRCLES = "🔵🟡🔴⚫⚪"


def wall_rows(text: str) -> list[str]:
    return [line.split("│")[1].removesuffix(" 👈") for line in text.splitlines() if "│" in line]


def test_azul_empty_wall_spaces_show_their_printed_colour_as_circles():
    wall = azul_helpers.colour_wall("x....", ".x...", ".....", "...xx", "x...x")
    state = azul_helpers.rig(2, walls={0: wall}, factories={0: azul_helpers.tiles(blue=4)})
    rows = wall_rows(plain(prompt_of("azul", state, 0).text))
    assert len(rows) == SIZE
    for row, text in enumerate(rows):
        cells = re.findall(r"[🟦🟨🟥⬛⬜🔵🟡🔴⚫⚪]", text)
        for column, cell in enumerate(cells):
            colour = wall_colour(row, column)
            placed = wall[row * SIZE + column] != EMPTY
            assert cell == (SQUARES if placed else CIRCLES)[colour], (row, column)
    grey = azul_helpers.rig(
        2,
        "grey",
        factories={0: azul_helpers.tiles(red=4)},
        walls={0: azul_helpers.grey_wall("B....", *azul_helpers.EMPTY_WALL[1:])},
    )
    grey_rows = wall_rows(plain(prompt_of("azul", grey, 0).text))
    assert grey_rows[0] == "🟦▫️▫️▫️▫️" and not any(c in "".join(grey_rows) for c in CIRCLES)


def test_azul_tile_picker_stays_small_with_four_players():
    engine = get_engine("azul")
    state = engine.new_game(4, None, seed=11)
    seat = min(engine.to_act(state))
    legal = engine.legal_actions(state, seat)
    pairs = {(a[0], a[1]) for a in legal}
    assert len(pairs) > 20  # one button per pair would be a wall of buttons
    first = prompt_of("azul", state, seat)
    assert len(first.rows) == 1 and len(first.rows[0]) <= 5
    assert "Choose the colour:" in first.text
    ui, view = get_ui("azul"), engine.view(state, seat)
    for button in first.rows[0]:
        step = ui.draft(view, seat, legal, None, button.draft)
        second = prompt_of("azul", state, seat, draft=step.draft)
        if step.draft.get("s") is None:  # several places hold this colour
            assert len(second.rows) <= 5 and all(len(row) <= 3 for row in second.rows)
            assert second.rows[-1][0].draft == "b"
        else:
            assert "Choose a pattern line or the floor:" in second.text


def test_azul_first_player_marker_is_no_column_number():
    engine = get_engine("azul")
    state = engine.new_game(2, {"wall": "grey"}, seed=5)
    seen_marker = seen_columns = False
    rng = random.Random(5)
    while not engine.is_over(state):
        for seat in range(2):
            screen = prompt_of("azul", state, seat)
            text = screen.text + str(labels(screen)) + board_of("azul", state)
            seen_marker |= "🎯" in text
            if state["phase"] == "wall" and engine.legal_actions(state, seat):
                seen_columns = True
                assert len(screen.rows) == 1  # the columns: one row of buttons
                for label in labels(screen)[0]:
                    assert re.fullmatch(rf"[1-5]{KEYCAP} \+\d+", label), label
            else:
                assert KEYCAP not in text, "keycaps number grey-wall columns only"
        seat = rng.choice(sorted(engine.to_act(state)))
        state = engine.apply(state, seat, engine.default_action(state, seat))
    assert seen_marker and seen_columns


def test_azul_floor_button_says_what_it_costs_or_that_it_costs_nothing():
    state = azul_helpers.rig(2, factories={0: azul_helpers.tiles(red=3, blue=1)})
    screen = prompt_of("azul", state, 0, draft={"s": 0, "c": 2})
    floor = next(
        b.label for row in screen.rows for b in row if b.action and b.action[2] == FLOOR_LINE
    )
    assert floor == "⬇️ All to the floor: 🟥◆×3 · −4 points"
    russian = prompt_of("azul", state, 0, "ru", draft={"s": 0, "c": 2})
    assert "⬇️ Всё на пол: 🟥◆×3 · −4 очка" in str(labels(russian))
    full = azul_helpers.rig(
        2,
        factories={0: azul_helpers.tiles(red=3, blue=1)},
        floors={0: [0, 0, 1, 1, 3, 3, 4]},
    )
    screen = prompt_of("azul", full, 0, draft={"s": 0, "c": 2})
    assert "⬇️ All to the floor: 🟥◆×3 · no penalty, the floor is full" in str(labels(screen))
    assert "(−0)" not in str(labels(screen))
    # lines that overflow a full floor send the rest to the lid, for nothing
    assert ["Line 1 · 1/1 ✅ · 2 tiles to the lid (floor full)"] in labels(screen)


# -- Summer Pavilion ------------------------------------------------------------------------
def test_summer_pavilion_pass_hint_agrees_with_the_number_of_tiles():
    tiles = summer_pavilion_helpers.tiles
    one = summer_pavilion_helpers.build(hands={0: tiles(orange=1)})
    four = summer_pavilion_helpers.build(hands={0: tiles(purple=2, green=3)})
    assert "you may keep 1 tile on your corners," in prompt_of("summer_pavilion", one, 0).text
    assert (
        "you may keep up to 4 tiles on your corners," in prompt_of("summer_pavilion", four, 0).text
    )
    assert "1 плитку можно оставить в углах" in prompt_of("summer_pavilion", one, 0, "ru").text
    assert "до 4 плиток можна залишити в кутах" in prompt_of("summer_pavilion", four, 0, "uk").text
    assert "keep 1 tiles" not in prompt_of("summer_pavilion", one, 0).text


def test_summer_pavilion_bonus_prompt_names_what_was_surrounded():
    engine = get_engine("summer_pavilion")
    state = engine.new_game(2, None, seed=3)
    state = play_defaults("summer_pavilion", state, lambda s: s["phase"] == "bonus")
    seat = state["current"]
    placed = next(e for e in reversed(state["log"]) if e["type"] == "place")
    words = {
        0: ("🏛 pillar surrounded: +1 tile", "🏛 колонна окружена: +1 плитка"),
        1: ("🗿 statue surrounded: +2 tiles", "🗿 статуя окружена: +2 плитки"),
        2: ("🪟 window surrounded: +3 tiles", "🪟 окно окружено: +3 плитки"),
    }
    english = prompt_of("summer_pavilion", state, seat).text
    russian = prompt_of("summer_pavilion", state, seat, "ru").text
    reasons = [words[kind] for kind, _star in placed["structures"]]
    assert "🎁 Bonus! " + ", ".join(en for en, _ru in reasons) + "." in plain(english)
    assert "🎁 Бонус! " + ", ".join(ru for _en, ru in reasons) + "." in plain(russian)
    due = state["bonus_due"]
    assert f"Take {due} more tile" + ("s" if due > 1 else "") + " from the supply" in english


def test_summer_pavilion_first_player_tile_is_no_number():
    engine = get_engine("summer_pavilion")
    state = engine.new_game(3, None, seed=2)
    board = board_of("summer_pavilion", state)
    assert "Centre: 🎯 first-player tile" in board and KEYCAP not in board
    seat = state["current"]
    state = engine.apply(state, seat, engine.default_action(state, seat))  # from a factory
    taker = prompt_of("summer_pavilion", state, state["current"])
    assert any(state["centre"]) and state["first_player_tile"] < 0
    assert "The first to take from the centre gets the 🎯 first-player tile" in plain(taker.text)
    state = play_defaults("summer_pavilion", state, lambda s: s["first_player_tile"] >= 0)
    holder = state["first_player_tile"]
    board = board_of("summer_pavilion", state)
    assert f"{NAMES[holder]} — " in board and "🎯 first player" in board
    assert KEYCAP not in board
    screen = prompt_of("summer_pavilion", state, holder)
    stars = [line for line in screen.text.splitlines() if KEYCAP in line]
    assert stars, "keycaps are the costs of empty spaces on the private board"
    assert all("🎯" not in line for line in stars)
