"""Playing Azul Mini: Summer Pavilion through the bot the way a person would: in the private
chat, tap a factory (or the centre) and then a colour; to place, tap a star, a space, then
the colour and the wild tiles when there is a choice; bonus and corner tiles one per tap."""

from __future__ import annotations

import random

from bot.presentation.i18n import translator
from bot.storage import Match
from bot.testing.driver import Driver, FakeUser
from bot.testing.fake_telegram import StoredMessage
from games import get_engine
from games.core import encode_action
from games.summer_pavilion.engine import Place, Take, as_action
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

ENGINE = get_engine("summer_pavilion")
TITLE = "Azul Mini: Summer Pavilion"


async def start_match(
    driver: Driver,
    creator: FakeUser,
    players: list[FakeUser],
    *,
    group: int = GROUP,
    variant1: bool = False,
    variant2: bool = False,
    lang: str = "en",
) -> Match:
    """Open a lobby, set the variants, everyone joins, the creator starts."""
    t = translator(lang)
    variants = [
        (t(f"summer_pavilion.option.{name}.False"), t(f"summer_pavilion.option.{name}.True"))
        for name, wanted in (("variant1", variant1), ("variant2", variant2))
        if wanted
    ]
    return await helpers.start_match(
        driver, "summer_pavilion", creator, players, group=group, lang=lang, options=variants
    )


def round_messages(driver: Driver, group: int = GROUP) -> list[Piece]:
    return news_starting(driver.api, group, "🏁 ")


async def play_by_buttons(driver: Driver, user: FakeUser, action: tuple) -> str | None:
    """Make ``action`` through the prompt's keyboard, step by step; returns the last popup."""
    message = prompt(driver, user)
    move = encode_action(action)
    named = as_action(action)
    if type(named) is Take:  # source, then colour
        await press(driver, user, message, button(message, "d", f"s{named.source}"))
        message = fresh(driver, user, message)
        assert find(message, "d", "b"), "no back button on the colour step"
        return await press(driver, user, message, button(message, "a", move))
    if type(named) is Place:  # star, space, [colour], [wilds]
        await press(driver, user, message, button(message, "d", f"t{named.star}"))
        return await place_from_space(driver, user, named, fresh(driver, user, message))
    return await press(driver, user, message, button(message, "a", move))


async def place_from_space(
    driver: Driver, user: FakeUser, action: Place, message: StoredMessage | None = None
) -> str | None:
    """The star is selected already: tap the space (and the colour, when there is a choice
    left), then the placement; returns its popup."""
    if message is None:
        message = prompt(driver, user)
    move = encode_action(action)
    for step in (f"p{action.space}", f"c{action.colour}"):
        if find(message, "a", move):
            break
        await press(driver, user, message, button(message, "d", step))
        message = fresh(driver, user, message)
    return await press(driver, user, message, button(message, "a", move))


def choose(state: dict, seat: int, rng: random.Random) -> tuple:
    """A sensible move: mostly the engine's default, sometimes a random legal one (never a
    pass while a placement is possible, so the boards fill up)."""
    legal = ENGINE.legal_actions(state, seat)
    if rng.random() < 0.75:
        return ENGINE.default_action(state, seat)
    placements = [action for action in legal if type(action) is Place]
    return rng.choice(placements or legal)


def board(driver: Driver, group: int = GROUP, title: str = TITLE) -> StoredMessage:
    """The group's board: the latest bot message that starts with the game's title."""
    return latest(driver, group, title + "\n")


PLAY = helpers.Play(ENGINE, choose, play_by_buttons, max_moves=1000)
play_move = PLAY.play_move
play_until = PLAY.play_until
