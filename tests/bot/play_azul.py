"""Playing Azul through the bot the way a person would: in the private chat, tap the tiles
(a factory or the centre and a colour), then the pattern line or the floor; on the grey
wall, tap the column."""

from __future__ import annotations

import random

from bot.callbacks import Callback
from bot.i18n import translator
from bot.storage import Match
from bot.testing.fake_telegram import Driver, FakeUser, StoredMessage
from games import get_engine
from games.core import encode_action
from tests.bot.conftest import GROUP
from tests.bot.helpers import (
    button,
    current_match,
    find,
    fresh,
    latest,
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
    await driver.send(creator, group, "/new azul")
    if grey:
        answer = await driver.press_label(creator, group, t("azul.option.wall.colour"))
        assert answer == t("azul.option.wall.grey")
    for player in players:
        await driver.press_label(player, group, t("lobby.join"))
    await driver.press_label(creator, group, t("lobby.start"))
    return await current_match(driver, group)


def tiling_messages(driver: Driver, group: int = GROUP) -> list[StoredMessage]:
    return [m for m in driver.api.visible(group) if m.from_bot and m.text.startswith("🧱 ")]


async def play_by_buttons(driver: Driver, user: FakeUser, action: tuple) -> str | None:
    """Make ``action`` through the prompt's keyboard; returns the popup of the last press."""
    message = prompt(driver, user)
    if len(action) == 3:  # the tiles (a selection), then the line
        source, colour, _ = action
        assert not find(message, "a", encode_action(action)), "a draft takes two presses"
        assert (
            await press(driver, user, message, button(message, "d", f"s{source}c{colour}")) is None
        )
        message = fresh(driver, user, message)
        assert find(message, "d", "b"), "no back button on the line step"
    return await press(driver, user, message, button(message, "a", encode_action(action)))


async def play_by_data(driver: Driver, match: Match, user: FakeUser, action: tuple) -> str | None:
    """Press the callback data of ``action`` straight away (fast; the host checks it)."""
    seat = match.seat_of(user.id)
    data = Callback("a", match.id, seat.token, encode_action(action)).encode()
    return await driver.press(user, user.id, prompt(driver, user).message_id, data)


def choose(state: dict, seat: int, rng: random.Random) -> tuple:
    """Mostly the engine's default move (it fills lines), sometimes a random legal one."""
    if rng.random() < 0.8:
        return ENGINE.default_action(state, seat)
    return rng.choice(ENGINE.legal_actions(state, seat))


async def play_move(
    driver: Driver,
    users: list[FakeUser],
    rng: random.Random,
    by_buttons: bool = False,
    group: int = GROUP,
) -> tuple[int, tuple] | None:
    """One seat that has a decision moves (the first of several on the grey wall)."""
    match = await current_match(driver, group)
    if match.status != "playing":
        return None
    seat = min(ENGINE.to_act(match.state))
    user = users[seat]
    action = choose(match.state, seat, rng)
    if by_buttons:
        await play_by_buttons(driver, user, action)
    else:
        await play_by_data(driver, match, user, action)
    after = await current_match(driver, group)
    assert after.version == match.version + 1, f"{action} was not played"
    return seat, action


async def play_until(
    driver: Driver,
    users: list[FakeUser],
    done,
    seed: int = 1,
    by_buttons: bool = False,
    group: int = GROUP,
    max_moves: int = 2000,
) -> int:
    """Play until ``done(state)`` is true (or the game ends); returns the moves made."""
    rng = random.Random(seed)
    for moves in range(max_moves):
        match = await current_match(driver, group)
        if match.status != "playing" or done(match.state):
            return moves
        await play_move(driver, users, rng, by_buttons, group)
    raise AssertionError("the game did not get there")


def board(driver: Driver, group: int = GROUP, title: str = TITLE) -> StoredMessage:
    """The group's board: the latest bot message that starts with the game's title."""
    return latest(driver, group, title + "\n")
