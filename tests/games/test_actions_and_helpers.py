"""Named actions, and the engine helpers the screens use: they must say what the engine
then does. Checked over seeded random games of every game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from games import get_engine
from games.azul import engine as azul
from games.core import decode_action, encode_action
from games.donkey import engine as donkey
from games.g5211 import engine as g5211
from games.sultan import engine as sultan
from games.summer_pavilion import engine as pavilion

MODULES = {
    "5211": g5211,
    "sultan": sultan,
    "donkey": donkey,
    "azul": azul,
    "summer_pavilion": pavilion,
}
PLAYERS = {"5211": 3, "sultan": 3, "donkey": 4, "azul": 3, "summer_pavilion": 3}


def random_steps(game: str, games: int = 3):
    """Every (state, seat, action, next state) of a few seeded random games."""
    engine = get_engine(game)
    for seed in range(games):
        rng = random.Random(seed)
        state = engine.new_game(PLAYERS[game], None, seed)
        while not engine.is_over(state):
            seat = rng.choice(sorted(engine.to_act(state)))
            action = rng.choice(engine.legal_actions(state, seat))
            after = engine.apply(state, seat, action)
            yield state, seat, action, after
            state = after


@pytest.mark.parametrize("game", list(MODULES))
def test_a_button_gives_back_the_same_named_action(game):
    engine, module = get_engine(game), MODULES[game]
    for state, seat, _, _ in random_steps(game, games=1):
        for action in engine.legal_actions(state, seat):
            plain = decode_action(encode_action(action))  # what a button sends back
            assert type(plain) is tuple and plain == action
            named = module.as_action(plain)
            assert named == action and type(named) is type(action)


@pytest.mark.parametrize("game", ["sultan", "donkey", "azul", "summer_pavilion"])
def test_malformed_actions_have_no_name(game):
    module = MODULES[game]
    for malformed in [(), (9, 9), (9, 9, 9, 9, 9, 9, 9), (1, -1, 2), (0, "1", 2)]:
        assert module.parse_action(malformed) is None
        with pytest.raises(ValueError):
            module.as_action(malformed)


def test_named_fields():
    assert pavilion.as_action((1, 3, 6, 5, 2)) == pavilion.Place(1, 3, 6, 5, 2)
    place = pavilion.as_action((1, 3, 6, 5, 2))
    assert (place.star, place.space, place.colour, place.wilds) == (3, 6, 5, 2)
    assert azul.as_action((9, 2, 5)) == azul.Draft(source=9, colour=2, line=5)
    assert azul.as_action((4,)).column == 4
    play = donkey.as_action((1, 7, 3, 1))
    assert (play.value, play.size, play.jokers) == (7, 3, 1)
    bid = sultan.as_action((1, 2, 15))
    assert (bid.cushion, bid.value) == (2, 15)


def test_summer_pavilion_placement_preview_is_what_the_placement_brings():
    engine = get_engine("summer_pavilion")
    checked = 0
    for state, seat, action, after in random_steps("summer_pavilion"):
        if type(action) is not pavilion.Place:
            continue
        view = engine.view(state, seat)
        points, bonus = pavilion.placement_preview(view, seat, action.star, action.space)
        event = next(e for e in reversed(after["log"]) if e["type"] == "place")
        assert points == event["points"]
        assert bonus == event.get("bonus", [0, 0])[1]
        checked += 1
    assert checked > 100


def test_summer_pavilion_round_scores_from_the_log_are_the_scores():
    engine = get_engine("summer_pavilion")
    for _, _, _, after in random_steps("summer_pavilion", games=2):
        if not engine.is_over(after):
            log = after["log"]
            assert pavilion.scores_before(log, len(log), 3) == after["scores"]


def test_azul_draft_outcome_is_where_the_tiles_go():
    engine = get_engine("azul")
    checked = 0
    for state, seat, action, after in random_steps("azul"):
        if type(action) is not azul.Draft:
            continue
        view = engine.view(state, seat)
        if action.source == view["centre_source"]:
            count = state["centre"][action.colour]
            marker = state["marker"] < 0
        else:
            count = view["factories"][action.source][action.colour]
            marker = False
        line_count = 0 if action.line == azul.FLOOR_LINE else view["line_counts"][seat][action.line]
        floor = len(state["floors"][seat])
        outcome = azul.draft_outcome(count, action.line, line_count, floor, marker)
        event = next(e for e in reversed(after["log"]) if e["type"] == "draft")
        assert (outcome.to_line, outcome.to_floor, outcome.to_lid) == (
            event["to_line"],
            event["to_floor"],
            event["to_lid"],
        )
        assert outcome.marker == event["marker"]
        if after["round"] == state["round"] and after["phase"] == "draft":  # floor not scored yet
            grown = azul.floor_penalty(len(after["floors"][seat])) - azul.floor_penalty(floor)
            assert grown == outcome.marker_penalty + outcome.tiles_penalty
        checked += 1
    assert checked > 100


def test_donkey_view_names_who_takes_the_donkey_round():
    engine = get_engine("donkey")
    checked = 0
    for state, seat, _, after in random_steps("donkey", games=6):
        view = engine.view(state, seat)
        if not view["donkey_round"]:
            assert view["taker"] is None
            continue
        won = [e for e in after["log"][len(state["log"]) :] if e["type"] == "round_won"]
        if won:  # the last card of the round: the taker is the one the view named...
            taker, worth = engine.view(
                {**state, "plays": [*state["plays"], after_play(state, seat, after)]}, None
            )["taker"]
            assert (won[0]["seat"], won[0]["worth"]) == (taker, worth)
            checked += 1
    assert checked > 0


def after_play(state, seat, after):
    """The play row ``seat`` just added to a donkey round (the round may have closed)."""
    card = next(e for e in after["log"][len(state["log"]) :] if e["type"] == "donkey_card")
    return [seat, donkey.K_CARD, card["card"], 1, int(card["card"] == donkey.JOKER)]


def test_sultan_win_reason():
    assert sultan.win_reason([[0, 9]], 3) == "highest"
    assert sultan.win_reason([[0, 9], [1, 12], [2, 3]], 3) == "highest"
    assert sultan.win_reason([[0, 9], [1, 9]], 3) == "tie_earlier"
    assert sultan.win_reason([[1, 9], [0, 9]], 2) == "tie_start"


@pytest.mark.parametrize("game", list(MODULES))
def test_every_engine_points_to_its_rules_in_the_repository(game):
    path = f"docs/rules/{game}.md"
    assert path in (MODULES[game].__doc__ or "")
    root = Path(__file__).resolve().parents[2]
    text = (root / path).read_text(encoding="utf-8")
    assert text.startswith("# ") and "[decision]" in text and "## Decisions in the code" in text
