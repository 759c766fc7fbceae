"""Playing Sultan through the bot the way a person would: the start player taps the gem that
goes back to the bag; a bidder taps a cushion, a money card, then the confirm button."""

from __future__ import annotations

import random

from bot.testing.driver import Driver, FakeUser
from bot.testing.fake_telegram import StoredMessage
from games import get_engine
from games.sultan.engine import Return
from tests.bot.helpers import Piece, button, current_match, news_starting, press, prompt

ENGINE = get_engine("sultan")


async def start_game(
    driver: Driver,
    group: int,
    creator: FakeUser,
    players: list[FakeUser],
    join: str = "Join",
    start: str = "Start",
) -> None:
    await driver.send(creator, group, "/new sultan")
    for player in players:
        await driver.press_label(player, group, join)
    await driver.press_label(creator, group, start)


def board(driver: Driver, group: int, title: str = "Sultan") -> StoredMessage:
    """The group's board: the latest bot message that starts with the game's title and
    shows the table (not the final summary)."""
    for message in reversed(driver.api.visible(group)):
        if message.from_bot and message.text.startswith(title + "\n"):
            return message
    raise AssertionError("no board in the group")


def reveals(driver: Driver, group: int, marker: str = "💎 Round") -> list[Piece]:
    return news_starting(driver.api, group, marker)


async def return_gem(driver: Driver, user: FakeUser, colour: int) -> str | None:
    message = prompt(driver, user)
    return await press(driver, user, message, button(message, "a", f"0.{colour}"))


async def bid(driver: Driver, user: FakeUser, cushion: int, value: int) -> str | None:
    """Tap the cushion and the card (unless already selected), then confirm."""
    message = prompt(driver, user)
    for step in (f"c{cushion}", f"v{value}"):
        tap = button(message, "d", step)
        if not tap["text"].startswith("✅"):
            await press(driver, user, message, tap)
            message = prompt(driver, user)  # the same message, edited (or a new one)
    return await press(driver, user, message, button(message, "a", f"1.{cushion}.{value}"))


async def play_move(
    driver: Driver, group: int, users: list[FakeUser], rng: random.Random
) -> tuple[int, tuple] | None:
    """The acting player makes a random legal move through the buttons; returns the seat
    and the move, or None when the game is over."""
    match = await current_match(driver, group)
    if match.status != "playing":
        return None
    (seat,) = ENGINE.to_act(match.state)
    user = users[seat]
    action = rng.choice(ENGINE.legal_actions(match.state, seat))
    if type(action) is Return:
        popup = await return_gem(driver, user, action.gem)
        assert popup.endswith("goes back to the bag.") or user.language_code != "en", popup
    else:
        popup = await bid(driver, user, action.cushion, action.value)
        assert popup.startswith(f"You bid {action.value} on the ") or user.language_code != "en"
    return seat, action


async def play_to_the_end(
    driver: Driver, group: int, users: list[FakeUser], seed: int = 1, max_moves: int = 200
) -> int:
    rng = random.Random(seed)
    for moves in range(max_moves):
        if await play_move(driver, group, users, rng) is None:
            return moves
    raise AssertionError("the game did not end")
