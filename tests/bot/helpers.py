"""Reading what the bot showed and pressing its buttons: shared by the per-game play helpers."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from bot.presentation.i18n import translator
from bot.storage import Match
from bot.table.host import get_host
from bot.telegram_api.callbacks import Callback, Kind
from bot.testing.driver import Driver, FakeUser
from bot.testing.fake_telegram import FakeTelegram, StoredMessage
from games.core import Engine, Result, encode_action
from tests.bot.conftest import GROUP


async def current_match(driver: Driver, group: int = GROUP) -> Match:
    """The latest match opened in a group."""
    storage = get_host(driver.app).storage
    return await storage.load(await storage.latest_match_id(group))


async def start_match(
    driver: Driver,
    game: str,
    creator: FakeUser,
    players: list[FakeUser],
    *,
    group: int = GROUP,
    lang: str = "en",
    options: Iterable[tuple[str, str]] = (),
) -> Match:
    """``/new <game>``; the creator presses each option button labelled ``label`` and must
    be answered ``popup`` (``options``: pairs of them); everyone joins; the creator starts."""
    await driver.send(creator, group, f"/new {game}")
    for label, popup in options:
        assert await driver.press_label(creator, group, label) == popup
    return await join_and_start(driver, creator, players, group=group, lang=lang)


async def join_and_start(
    driver: Driver, creator: FakeUser, players: list[FakeUser], *, group: int, lang: str
) -> Match:
    """Everyone joins the open lobby, then the creator starts the match."""
    t = translator(lang)
    for player in players:
        await driver.press_label(player, group, t("lobby.join"))
    await driver.press_label(creator, group, t("lobby.start"))
    return await current_match(driver, group)


async def choose_language(
    driver: Driver, user: FakeUser, chat_id: int, language: str
) -> str | None:
    """``/language`` in a chat, then the button of ``language``; returns the popup."""
    await driver.send(user, chat_id, "/language")
    return await driver.press_label(user, chat_id, language)


async def set_languages(
    driver: Driver, group_language: str, players: list[FakeUser], languages: Iterable[str]
) -> None:
    """The first player, made an admin of the group, sets the group's language; then each
    player sets their own in the private chat."""
    driver.api.admins[GROUP].add(players[0].id)
    await choose_language(driver, players[0], GROUP, group_language)
    for player, language in zip(players, languages, strict=True):
        await choose_language(driver, player, player.id, language)


def final_summary(driver: Driver, result: Result, players: list[FakeUser]) -> StoredMessage:
    """The group's last message: the final summary, which opens with the winners' names."""
    final = driver.api.last(GROUP)
    assert final.text.startswith("🏆 Game over!")
    winners = ", ".join(players[seat].first_name for seat in result.winners)
    assert winners in final.text.splitlines()[0]
    return final


def assert_over_on_every_screen(
    driver: Driver, match: Match, players: list[FakeUser], final: StoredMessage
) -> None:
    """A finished tile game: a rematch is offered under the summary, the board says the
    game is over and keeps no buttons, and every player sees their final board."""
    assert any("Rematch" in b["text"] for b in final.buttons())
    end_board = driver.api.messages[GROUP][match.board_message_id]
    assert "The game is over." in end_board.text and not end_board.buttons()
    for user in players:
        assert not has_choice(driver, user)
        assert "The game is over. Your final board:" in prompt(driver, user).text


class Clock:
    """The bot's clock, moved by hand: ``clock.now += 181``."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def command_menus(api: FakeTelegram) -> dict[str, list[dict]]:
    """The command menus the bot set, by language ("en" for the default menu)."""
    return {
        params.get("language_code") or "en": json.loads(params["commands"])
        if isinstance(params["commands"], str)
        else params["commands"]
        for method, params in api.calls
        if method == "setMyCommands"
    }


def use_clock(driver: Driver) -> Clock:
    clock = Clock()
    get_host(driver.app).clock = clock
    return clock


async def tick(driver: Driver, clock: Clock, match_id: int = 1) -> None:
    """Let the match's timers see the clock's time, and the bot draw what followed."""
    await get_host(driver.app).timers.tick(match_id, now=clock.now)
    await driver.settle()


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


@dataclass(frozen=True)
class Piece:
    """One piece of the group's news: a message, or the last news, which comes in the final
    result's message below the result."""

    text: str


def news_starting(api: FakeTelegram, group: int, marker: str) -> list[Piece]:
    """The group's news that starts with ``marker`` (a round's summary...), in order: the
    messages that start with it, and the part of the final result's message from it on."""
    pieces = []
    for message in api.visible(group):
        if not message.from_bot:
            continue
        text = message.text
        if text.startswith(marker):
            pieces.append(Piece(text))
        elif f"\n\n{marker}" in text and is_final_result(message):
            pieces.append(Piece(text[text.index(f"\n\n{marker}") + 2 :]))
    return pieces


def is_final_result(message: StoredMessage) -> bool:
    rematch = f"{Kind.REMATCH}:"
    return any(b.get("callback_data", "").startswith(rematch) for b in message.buttons())


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


Choose = Callable[[dict, int, random.Random], tuple]
ByButtons = Callable[[Driver, FakeUser, tuple], Awaitable[str | None]]


@dataclass(frozen=True)
class Play:
    """How the tests play one game through the bot: ``choose`` picks a seat's move from the
    state; ``by_buttons`` makes a move through the prompt's keyboard, step by step."""

    engine: Engine
    choose: Choose
    by_buttons: ByButtons
    max_moves: int = 2000

    async def play_move(
        self,
        driver: Driver,
        users: list[FakeUser],
        rng: random.Random,
        by_buttons: bool = False,
        group: int = GROUP,
    ) -> tuple[int, tuple] | None:
        """One seat that has a decision (the first, if several) makes the move ``choose``
        picks, through the keyboards or by its callback data; None when the game is over."""
        match = await current_match(driver, group)
        if match.status != "playing":
            return None
        seat = min(self.engine.to_act(match.state))
        user = users[seat]
        action = self.choose(match.state, seat, rng)
        if by_buttons:
            await self.by_buttons(driver, user, action)
        else:
            await play_by_data(driver, match, user, action)
        after = await current_match(driver, group)
        assert after.version == match.version + 1, f"{action} was not played"
        return seat, action

    async def play_until(
        self,
        driver: Driver,
        users: list[FakeUser],
        done: Callable[[dict], bool],
        seed: int = 1,
        by_buttons: bool = False,
        group: int = GROUP,
    ) -> int:
        """Play until ``done(state)`` is true (or the game ends); returns the moves made."""
        rng = random.Random(seed)
        for moves in range(self.max_moves):
            match = await current_match(driver, group)
            if match.status != "playing" or done(match.state):
                return moves
            await self.play_move(driver, users, rng, by_buttons, group)
        raise AssertionError("the game did not get there")
