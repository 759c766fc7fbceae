"""Playing Who's the Donkey? through the bot the way a person would: in the private chat, tap
a value, then (if the value allows several plays) how many cards and jokers."""

from __future__ import annotations

import random

from bot.presentation.i18n import translator
from bot.storage import Match
from bot.testing.driver import Driver, FakeUser
from bot.testing.fake_telegram import StoredMessage
from games import get_engine
from tests.bot.conftest import GROUP
from tests.bot.helpers import current_match, join_and_start, latest, prompt

ENGINE = get_engine("donkey")
TITLE = "Who's the Donkey?"


def hands_label(hands: int, lang: str = "en") -> str:
    return translator(lang)(f"donkey.option.hands.{hands}")


def minutes_label(minutes: int, lang: str = "en") -> str:
    return translator(lang)(f"donkey.option.time_limit_minutes.{minutes}")


async def cycle_to(driver: Driver, creator: FakeUser, group: int, labels: list[str], want: str):
    """Press the lobby's option button showing one of ``labels`` until it shows ``want``."""
    for _ in range(len(labels) + 1):
        lobby = driver.api.last(group)
        if "• " + want in lobby.text:
            return
        current = next(
            b for b in lobby.buttons() if b["text"].removeprefix("⚙️ ").removesuffix(" ▸") in labels
        )
        await driver.press(creator, group, lobby.message_id, current["callback_data"])
    raise AssertionError(f"the lobby never offered {want!r}")


async def start_match(
    driver: Driver,
    creator: FakeUser,
    players: list[FakeUser],
    *,
    group: int = GROUP,
    hands: int | None = None,
    minutes: int | None = None,
    no_move_limit: bool = False,
    lang: str = "en",
    new: bool = True,
) -> Match:
    """Open a lobby (unless ``new`` is false: one is open), set the options, join, start."""
    t = translator(lang)
    if new:
        await driver.send(creator, group, "/new")
        await driver.press_label(creator, group, t("donkey.title"))
    if hands is not None:
        labels = [hands_label(value, lang) for value in (1, 2, 3, 5, 10)]
        await cycle_to(driver, creator, group, labels, hands_label(hands, lang))
    if minutes is not None:
        labels = [minutes_label(value, lang) for value in (0, 15, 30, 60)]
        await cycle_to(driver, creator, group, labels, minutes_label(minutes, lang))
    if no_move_limit:
        for _ in range(6):
            if "• " + t("lobby.turn.none") in driver.api.last(group).text:
                break
            await driver.press_label(creator, group, "⏱")
    return await join_and_start(driver, creator, players, group=group, lang=lang)


def user_of(match: Match, players: list[FakeUser], seat: int) -> FakeUser:
    return next(p for p in players if p.id == match.seats[seat].user_id)


async def acting(driver: Driver, players: list[FakeUser], group: int = GROUP):
    """The match, the seat to act and its user (None when the match is over)."""
    match = await current_match(driver, group)
    seats = sorted(ENGINE.to_act(match.state))
    if match.status != "playing" or not seats:
        return match, None, None
    return match, seats[0], user_of(match, players, seats[0])


def move_buttons(message: StoredMessage) -> list[dict]:
    return [
        b
        for b in message.buttons()
        if b.get("callback_data", "").startswith(("a:", "d:"))
        and not (b["callback_data"].startswith("d:") and b["callback_data"].endswith(":b"))
    ]


def button(message: StoredMessage, label: str) -> dict:
    found = [b for b in message.buttons() if b["text"] == label]
    assert found, f"no button {label!r} in {[b['text'] for b in message.buttons()]}"
    return found[0]


async def tap(driver: Driver, user: FakeUser, message: StoredMessage, label: str) -> str | None:
    """Press the button labelled exactly ``label`` on a private message."""
    data = button(driver.api.messages[user.id][message.message_id], label)["callback_data"]
    return await driver.press(user, user.id, message.message_id, data)


async def random_move(driver: Driver, user: FakeUser, rng: random.Random) -> str | None:
    """Tap a random choice; a value with several plays opens a second step: tap one there."""
    message = prompt(driver, user)
    buttons = move_buttons(message)
    assert buttons, f"{user.first_name} has no choice: {message.text}"
    choice = rng.choice(buttons)
    answer = await driver.press(user, user.id, message.message_id, choice["callback_data"])
    if choice["callback_data"].startswith("d:"):
        edited = driver.api.messages[user.id][message.message_id]
        second = move_buttons(edited)
        assert second and all(b["callback_data"].startswith("a:") for b in second), (
            answer,
            choice,
            edited.text,
            edited.buttons(),
        )
        pick = rng.choice(second)
        answer = await driver.press(user, user.id, message.message_id, pick["callback_data"])
    return answer


async def play_to_the_end(
    driver: Driver, players: list[FakeUser], rng: random.Random, max_moves: int = 2000
) -> int:
    for moves in range(max_moves):
        _match, _seat, user = await acting(driver, players)
        if user is None:
            return moves
        await random_move(driver, user, rng)
    raise AssertionError("the match did not end")


def board(driver: Driver, group: int = GROUP, title: str = TITLE) -> StoredMessage:
    """The group's board: the latest bot message that starts with the game's title."""
    return latest(driver, group, f"🫏 {title}\n")
