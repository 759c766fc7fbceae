"""Each lesson played in English through the fake Telegram, its transcript read against
the engine: every number a caption (or the end's summary) states is one of the engine's
own for that lesson — its constants, the table at that step — so a caption cannot teach
a wrong penalty, bonus, limit or count."""

from __future__ import annotations

import re

import pytest

from bot.presentation.i18n import translator
from bot.presentation.tutorial import Lesson, caption
from bot.testing.fake_telegram import plain
from games.azul import engine as azul
from games.donkey import engine as donkey
from games.g5211 import engine as g5211
from games.sultan import engine as sultan
from games.summer_pavilion import engine as pavilion
from games.tutorial import get_tutorial
from tests.bot.conftest import ALICE
from tests.bot.play_tutorial import lesson_message, open_lesson, play_step


def azul_numbers(state) -> set[int]:
    return {
        *range(1, azul.SIZE + 1),  # the pattern lines and what they hold
        *azul.FLOOR_PENALTIES,
        azul.floor_penalty(1),  # the marker alone on the floor
        0,  # a score's floor
        azul.ROW_BONUS,
        azul.COLUMN_BONUS,
        azul.COLOUR_BONUS,
        state["round"],
    }


def sultan_numbers(state) -> set[int]:
    setup = sultan.SETUPS[state["num_players"]]
    return {
        sultan.ROUNDS,
        setup.draw,  # gems drawn
        setup.cushions,  # placed on the cushions
        *sultan.BONUS_2_PLAYERS,
        *sultan.BONUS_2_PLAYERS.values(),
    }


def g5211_numbers(state) -> set[int]:
    n = state["num_players"]
    return {
        *g5211.PART_SIZES,
        g5211.colour_limit(n),
        n + 2,  # the roosters that score alone (docs/rules/5211.md: N + 2)
        state["round"],
    }


def donkey_numbers(state) -> set[int]:
    return {
        donkey.JOKERS_ALONE_VALUE,
        donkey.JOKER_IN_DONKEY_ROUND,
        donkey.PENALTY_JOKER,
        donkey.PENALTY_DONKEY,
    }


def pavilion_numbers(state) -> set[int]:
    return {
        pavilion.ROUNDS,
        *range(1, pavilion.ROUNDS + 1),  # the wild colour of each round
        pavilion.CORNERS,
        *pavilion.STRUCTURE_BONUS,
        1,  # a placed tile's own point, and the −1 per tile lost
        2,  # the space of the wild step's example
    }


NUMBERS = {
    "azul": azul_numbers,
    "sultan": sultan_numbers,
    "5211": g5211_numbers,
    "donkey": donkey_numbers,
    "summer_pavilion": pavilion_numbers,
}
GAME_NAMES = {"5211"}  # a number in the game's name is no claim
# "N or more": the thresholds the engine counts from (a bonus table's first and last
# rows, the roosters that score alone)
AT_LEAST = {
    "sultan": lambda state: {min(sultan.BONUS_2_PLAYERS), max(sultan.BONUS_2_PLAYERS)},
    "5211": lambda state: {state["num_players"] + 2},
}


def stated(text: str) -> list[int]:
    words = plain(text)
    for name in GAME_NAMES:
        words = words.replace(name, " ")
    return [int(number) for number in re.findall(r"\d+", words)]


@pytest.mark.parametrize("backend", ["sqlite"])
@pytest.mark.parametrize("game", list(NUMBERS))
async def test_every_number_a_caption_states_is_the_engines(driver, api, game):
    t = translator("en")
    tutorial = get_tutorial(game)
    await open_lesson(driver, api, ALICE, game)
    transcript = []
    for index in range(len(tutorial)):
        lesson = Lesson.at(game, index)
        shown = lesson_message(api, ALICE).text
        words = plain(caption(t, lesson)).split("\n👉")[0]  # the named move is the table's
        assert words in shown
        transcript.append(words)
        allowed = NUMBERS[game](tutorial.state_at(index))
        wrong = [n for n in stated(words) if n not in allowed]
        assert not wrong, f"{game} step {index + 1} states {wrong}: {words}"
        assert thresholds(game, words, tutorial.state_at(index)) == [], words
        await play_step(driver, api, ALICE, lesson)
    learned = t(f"tutorial.{game}.learned")
    final = NUMBERS[game](tutorial.state_at(len(tutorial)))
    assert [n for n in stated(learned) if n not in final] == [], learned
    assert thresholds(game, learned, tutorial.state_at(len(tutorial))) == [], learned
    assert len(transcript) == len(tutorial)


def thresholds(game: str, text: str, state) -> list[int]:
    """The "N or more" a text states that the engine does not count from."""
    if game not in AT_LEAST:
        return []
    counted = AT_LEAST[game](state)
    return [int(n) for n in re.findall(r"(\d+) or more", plain(text)) if int(n) not in counted]


def test_a_wrong_threshold_is_caught():
    """The check is not decorative: Sultan's old last line, "3 or more of one colour earn
    a bonus", is caught in a two-player lesson."""
    state = get_tutorial("sultan").state_at(0)
    assert thresholds(
        "sultan", "Gems score their points, and 3 or more of one colour earn a bonus.", state
    ) == [3]
    assert (
        thresholds("sultan", "with two players 4 or more of one colour earn a bonus", state) == []
    )
