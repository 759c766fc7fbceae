"""Playing Azul through the bot the way a person would: in the private chat, tap a colour,
then where to take it from (a factory or the centre; skipped when only one place has it),
then the pattern line or the floor; on the grey wall, tap the column."""

from __future__ import annotations

import random

from bot.presentation.i18n import translator
from bot.storage import Match
from bot.testing.driver import Driver, FakeUser
from bot.testing.fake_telegram import StoredMessage
from games import get_engine
from games.core import encode_action
from tests.bot import helpers
from tests.bot.conftest import GROUP
from tests.bot.helpers import (
    Piece,
    button,
    find,
    fresh,
    latest,
    news_starting,
    press,
    prompt,
)

ENGINE = get_engine("azul")
TITLE = "Azul"


async def start_match(
    driver: Driver,
    creator: FakeUser,
    players: list[FakeUser],
    *,
    group: int = GROUP,
    grey: bool = False,
    lang: str = "en",
) -> Match:
    """Open a lobby, choose the wall, everyone joins, the creator starts."""
    t = translator(lang)
    wall = [(t("azul.option.wall.colour"), t("azul.option.wall.grey"))] if grey else []
    return await helpers.start_match(
        driver, "azul", creator, players, group=group, lang=lang, options=wall
    )


def tiling_messages(driver: Driver, group: int = GROUP) -> list[Piece]:
    return news_starting(driver.api, group, "🧱 ")


async def select_tiles(driver: Driver, user: FakeUser, source: int, colour: int) -> StoredMessage:
    """Tap the colour, then (when it lies in several places) the source: the prompt then
    offers the pattern lines."""
    message = prompt(driver, user)
    pair = f"s{source}c{colour}"
    tap = find(message, "d", pair) or button(message, "d", f"c{colour}")
    assert await press(driver, user, message, tap) is None
    message = fresh(driver, user, message)
    if find(message, "d", pair):  # the colour is in several places: choose this one
        assert await press(driver, user, message, button(message, "d", pair)) is None
        message = fresh(driver, user, message)
    assert find(message, "d", "b"), "no back button on the line step"
    return message


async def play_by_buttons(driver: Driver, user: FakeUser, action: tuple) -> str | None:
    """Make ``action`` through the prompt's keyboard; returns the popup of the last press."""
    message = prompt(driver, user)
    if len(action) == 3:  # the colour, its source (selections), then the line
        assert not find(message, "a", encode_action(action)), "a draft takes several presses"
        message = await select_tiles(driver, user, action[0], action[1])
    return await press(driver, user, message, button(message, "a", encode_action(action)))


def choose(state: dict, seat: int, rng: random.Random) -> tuple:
    """Mostly the engine's default move (it fills lines), sometimes a random legal one."""
    if rng.random() < 0.8:
        return ENGINE.default_action(state, seat)
    return rng.choice(ENGINE.legal_actions(state, seat))


def board(driver: Driver, group: int = GROUP, title: str = TITLE) -> StoredMessage:
    """The group's board: the latest bot message that starts with the game's title."""
    return latest(driver, group, title + "\n")


PLAY = helpers.Play(ENGINE, choose, play_by_buttons, max_moves=2000)
play_move = PLAY.play_move
play_until = PLAY.play_until
