"""Reading what the bot showed and pressing its buttons: shared by the per-game play helpers."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

from bot.callbacks import Callback
from bot.host import get_host
from bot.storage import Match
from bot.testing.fake_telegram import Driver, FakeUser, StoredMessage
from games.core import Engine, encode_action
from tests.bot.conftest import GROUP


async def current_match(driver: Driver, group: int = GROUP) -> Match:
    """The latest match opened in a group."""
    storage = get_host(driver.app).storage
    rows = await storage._fetchall(
        "SELECT id FROM matches WHERE chat_id = ? ORDER BY id DESC LIMIT 1", (group,)
    )
    return await storage.load(rows[0]["id"])


def prompt(driver: Driver, user: FakeUser) -> StoredMessage:
    """The user's latest private message from the bot."""
    return driver.api.last(user.id)


def payload(button: dict) -> str:
    return button["callback_data"].split(":", 3)[3]


def buttons(message: StoredMessage, kind: str) -> list[dict]:
    """Move (``a``) or selection (``d``) buttons of a message."""
    return [b for b in message.buttons() if b.get("callback_data", "").startswith(kind + ":")]


def find(message: StoredMessage, kind: str, wanted: str) -> dict | None:
    found = [b for b in buttons(message, kind) if payload(b) == wanted]
    return found[0] if found else None


def button(message: StoredMessage, kind: str, wanted: str) -> dict:
    found = find(message, kind, wanted)
    assert found, f"no {kind}:{wanted} button in: {message.text} {message.buttons()}"
    return found


def has_choice(driver: Driver, user: FakeUser) -> bool:
    message = prompt(driver, user)
    return bool(buttons(message, "a") or buttons(message, "d"))


def latest(driver: Driver, group: int, starts_with: str) -> StoredMessage:
    """The latest bot message in a group whose text starts with ``starts_with`` (a game's
    board starts with its title line)."""
    for message in reversed(driver.api.visible(group)):
        if message.from_bot and message.text.startswith(starts_with):
            return message
    raise AssertionError(f"no message starting with {starts_with!r} in the group")


def news(driver: Driver, group: int = GROUP) -> list[str]:
    """The group's news as a reader meets it, paragraph by paragraph: the news of one
    drawing arrives in one message, its pieces separated by a blank line."""
    return [
        paragraph
        for message in driver.api.visible(group)
        if message.from_bot
        for paragraph in message.text.split("\n\n")
    ]


async def press(driver: Driver, user: FakeUser, message: StoredMessage, data: dict) -> str | None:
    return await driver.press(user, user.id, message.message_id, data["callback_data"])


def fresh(driver: Driver, user: FakeUser, message: StoredMessage) -> StoredMessage:
    """The message as it is now (after edits)."""
    return driver.api.messages[user.id][message.message_id]


async def play_by_data(driver: Driver, match: Match, user: FakeUser, action: tuple) -> str | None:
    """Press the callback data of ``action`` straight away (fast; the host checks it)."""
    seat = match.seat_of(user.id)
    data = Callback("a", match.id, seat.token, encode_action(action)).encode()
    return await driver.press(user, user.id, prompt(driver, user).message_id, data)


async def play_move(
    driver: Driver,
    engine: Engine,
    users: list[FakeUser],
    choose: Callable[[dict, int, random.Random], tuple],
    play_by_buttons: Callable[[Driver, FakeUser, tuple], Awaitable[str | None]],
    rng: random.Random,
    by_buttons: bool = False,
    group: int = GROUP,
) -> tuple[int, tuple] | None:
    """One seat that has a decision (the first, if several) makes the move ``choose`` picks,
    through the keyboards or by its callback data; None when the game is over."""
    match = await current_match(driver, group)
    if match.status != "playing":
        return None
    seat = min(engine.to_act(match.state))
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
    engine: Engine,
    users: list[FakeUser],
    choose: Callable[[dict, int, random.Random], tuple],
    play_by_buttons: Callable[[Driver, FakeUser, tuple], Awaitable[str | None]],
    done: Callable[[dict], bool],
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
        await play_move(driver, engine, users, choose, play_by_buttons, rng, by_buttons, group)
    raise AssertionError("the game did not get there")
