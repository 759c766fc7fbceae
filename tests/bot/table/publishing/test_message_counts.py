"""A tidy chat, counted: whole games of every game played through the fake Bot API, and the
messages they leave behind in the group and in each player's private chat.

A private chat keeps, per match, the "you joined" message and one live prompt, which ends
as the final screen: every earlier prompt was deleted when a new decision came (in Azul and
Summer Pavilion, which have no secrets, at the player's move already). The group
keeps the started lobby's line, the game's news (one message per drawing), one board and
the final result (the last news below it, in the same message): no ping, no second board.
Calls are bounded from above so that a change that sends, edits or deletes much more than
today shows up here.

Calls per move are counted too, at a human pace (each drawing done before the next press,
so nothing coalesces) from the Start press on, and bounded from above.

``python -m tests.bot.table.publishing.test_message_counts`` prints the figures as tables:
the messages and calls per chat, and the calls per move with the matches one token hosts at
one move per 8 seconds per match.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

import bot.table.flow
from bot.presentation.ui.base import COLOUR_GLYPHS
from bot.table.host import get_host
from bot.telegram_api.callbacks import Callback, Kind
from bot.testing.driver import Driver
from bot.testing.fake_telegram import FakeTelegram
from tests.bot.conftest import GROUP, running_bot
from tests.bot.helpers import current_match
from tests.bot.whole_games import PAIR, play_whole_game, play_whole_inline_game

SENDS = ("sendMessage", "sendPhoto")
EDITS = ("editMessageText", "editMessageMedia", "editMessageCaption", "editMessageReplyMarkup")
SEED = 20240611
CALLS_PER_SECOND = 30  # Telegram's global budget for a bot without paid broadcasts
MOVE_SECONDS = 8  # a human pace: one move per match every 8 seconds


@dataclass(frozen=True)
class Tally:
    """What one chat received: messages still there, and the calls that made them."""

    left: int
    sends: int
    edits: int
    deletes: int
    loud: int  # sends that notify (without disable_notification)
    refused: int  # calls Telegram refused (a 400 such as a text edit of a photo)


def tally(api: FakeTelegram, chat_id: int, since: int = 0) -> Tally:
    """The calls to one chat (from the ``since``-th call of the bot on), and what is left."""
    mine = [
        (method, params)
        for method, params in api.calls[since:]
        if params.get("chat_id") is not None and int(params["chat_id"]) == chat_id
    ]
    calls = Counter(method for method, _ in mine)
    return Tally(
        left=sum(1 for message in api.visible(chat_id) if message.from_bot),
        sends=sum(calls[method] for method in SENDS),
        edits=sum(calls[method] for method in EDITS),
        deletes=calls["deleteMessage"],
        loud=sum(1 for m, p in mine if m in SENDS and not p.get("disable_notification")),
        refused=sum(1 for _, chat, _ in api.refused if chat == chat_id),
    )


SQUARES = "🟥🟧🟨🟩🟦🟪⬛⬜"  # emoji that differ by their colour alone


def colour_alone(api: FakeTelegram, chat_ids: list[int]) -> set[str]:
    """The colour squares on the buttons sent to these chats that no symbol follows."""
    bare = set()
    for _, params in api.calls:
        markup = params.get("reply_markup")
        if not markup or params.get("chat_id") is None or int(params["chat_id"]) not in chat_ids:
            continue
        markup = json.loads(markup) if isinstance(markup, str) else markup
        for row in markup["inline_keyboard"]:
            for button in row:
                label = button["text"]
                for index, char in enumerate(label):
                    following = label[index + 1 : index + 2]
                    if char in SQUARES and following not in COLOUR_GLYPHS.values():
                        bare.add(char)
    return bare


# game: (group messages left; at most: group sends, edits, deletes; private sends, edits):
# the group's sends and deletes as measured (a board re-post or a ping more fails), its
# edits and the private chats' calls about 5% above (see docs/messages.md). The tile
# games show board pictures: the group's calls are the same as with text, and so are the
# private chats' (the photo prompt is deleted at the move, as a text prompt would be);
# "azul_text" is a group that chose text.
EXPECTED = {
    "5211": (9, 11, 70, 2, 23, 53),
    "sultan": (17, 21, 63, 4, 18, 56),
    "donkey": (4, 4, 140, 0, 32, 40),
    "azul": (7, 8, 52, 1, 26, 41),
    "azul_text": (7, 8, 52, 1, 26, 42),
    "azul_grey": (7, 8, 115, 1, 30, 77),
    "azul_grey_text": (7, 8, 115, 1, 30, 72),
    # the round summaries in words are longer: the board follows them down twice more
    "summer_pavilion": (8, 12, 155, 4, 59, 93),
    "summer_pavilion_text": (8, 12, 155, 4, 58, 94),
}
# At most this many calls per move from the Start press on (sends, edits and deletes: what
# counts against Telegram's 30 a second), pictures on where the game has them. Issue 27 asked
# for Azul 5.0 and Summer Pavilion and Who's the Donkey? 4.0: met (Who's the Donkey? at
# 492 calls for 123 moves, since the last hand's news comes with the final result). 5211's and
# Sultan's stand at what every remaining call costs (docs/messages.md: why 3.4 and 4.3
# would take fewer notifications or ready marks); the bound catches a call coming back.
CALLS_PER_MOVE = {
    "5211": 4.9,
    "sultan": 5.55,
    "donkey": 4.0,
    "azul": 5.0,
    "azul_text": 5.0,
    "azul_grey": 4.3,
    "azul_grey_text": 4.2,
    "summer_pavilion": 4.0,
    "summer_pavilion_text": 4.0,
}


@pytest.fixture
def seeded(monkeypatch):
    monkeypatch.setattr("bot.table.flow.secrets.randbits", lambda bits: SEED)


@pytest.mark.parametrize("game", list(EXPECTED))
async def test_a_whole_game_leaves_a_tidy_group_and_tidy_private_chats(game, driver, api, seeded):
    players = await play_whole_game(game, driver)
    left, group_sends, group_edits, group_deletes, private_sends, private_edits = EXPECTED[game]
    match = await current_match(driver)
    group = tally(api, GROUP)
    shown = [m for m in api.visible(GROUP) if m.from_bot]
    # the final result last, the board above it (one board), no ping
    rematch = Callback(Kind.REMATCH, match.id, 0, match.game).encode()
    assert [b["callback_data"] for b in shown[-1].buttons()] == [rematch]  # the final result
    assert match.board_message_id in [m.message_id for m in shown[:-1]]
    assert not any("your move" in m.text for m in shown)
    assert group.left == left, group
    assert group.sends <= group_sends and group.edits <= group_edits, group
    assert group.deletes <= group_deletes, group
    # no call Telegram refuses: each would spend the group's or the chat's rate budget
    assert api.refused == [], Counter((method, why) for method, _, why in api.refused)
    # every choice tellable without colour vision: the tile games' colours carry their
    # pictures' symbols ("🟧★", "🟥◆"); elsewhere one colour at most is a plain square
    # (5211's 🟩 among 🔵 ⭐ 🔶 🩵)
    bare = colour_alone(api, [player.id for player in players])
    assert bare == set() if game.startswith(("azul", "summer")) else len(bare) <= 1, bare
    for player in players:
        chat = tally(api, player.id)
        messages = [m for m in api.visible(player.id) if m.from_bot]
        # "you joined", then the live prompt, which ends as the final screen
        assert chat.left == 2, (player.first_name, [m.text[:80] for m in messages])
        assert messages[0].text.startswith("You joined")
        assert " over" in messages[1].text and not messages[1].buttons()
        assert chat.deletes == chat.sends - 2, chat
        assert chat.sends <= private_sends and chat.edits <= private_edits, chat


# -- inline mode: the table is one message, in a chat the bot is not in ----------------------
# game: (at most: edits of the inline message; private sends, edits per player), about 5%
# above the counts (docs/messages.md)
INLINE_EXPECTED = {
    "sultan": (66, 21, 86),
    "azul": (53, 27, 41),
    "donkey": (164, 52, 64),
}


def inline_edits(api: FakeTelegram, inline_id: str) -> int:
    return sum(1 for method, params in api.calls if params.get("inline_message_id") == inline_id)


@pytest.mark.parametrize("game", list(INLINE_EXPECTED))
async def test_a_whole_inline_game_is_one_message_edited_and_one_prompt_each(
    game, driver, api, seeded
):
    players, inline_id = await play_whole_inline_game(game, driver)
    most_edits, private_sends, private_edits = INLINE_EXPECTED[game]
    assert [m.inline_message_id for m in api.visible(PAIR)] == [inline_id]  # nothing else
    assert 0 < inline_edits(api, inline_id) <= most_edits
    assert api.refused == [], api.refused
    for player in players:
        chat = tally(api, player.id)
        messages = [m for m in api.visible(player.id) if m.from_bot]
        # the welcome of /start, then the live prompt, which ends as the final screen
        assert chat.left == 2, (player.first_name, [m.text[:80] for m in messages])
        assert " over" in messages[-1].text and not messages[-1].buttons()
        assert chat.sends <= private_sends and chat.edits <= private_edits, chat


async def measure_inline(game: str) -> tuple[int, dict[str, Tally]]:
    with tempfile.TemporaryDirectory() as folder:
        api = FakeTelegram()
        async with running_bot(api, Path(folder) / "bot.sqlite3") as driver:
            players, inline_id = await play_whole_inline_game(game, driver)
        tallies = {p.first_name: tally(api, p.id) for p in players}
        return inline_edits(api, inline_id), tallies


@pytest.mark.parametrize("game", list(CALLS_PER_MOVE))
async def test_calls_per_move_stay_within_the_targets(game, seeded):
    """Whole games at a human pace (each drawing done before the next press, so nothing
    coalesces): calls per move once the match started, and none refused."""
    play = await measure(game)
    figures = play.per_move()
    assert figures["calls"] <= CALLS_PER_MOVE[game], figures
    assert sum(t.refused for t in play.whole.values()) == 0


# Who's the Donkey? over five deals: a move costs at most 4 calls — the group's board, the
# mover's prompt becoming their waiting screen, the next player's new prompt and the removal
# of their old one — and a lead of several cards one more, the players' own "how many?"
# step (docs/messages.md has the figures)
DONKEY_DEALS = (1, 2, 3, 4, 5)


async def test_who_is_the_donkey_stays_within_four_calls_a_move_over_five_deals(monkeypatch):
    figures = []
    for deal in DONKEY_DEALS:
        monkeypatch.setattr("bot.table.flow.secrets.randbits", lambda bits, deal=deal: deal)
        figures.append((await measure("donkey")).per_move())
    for figure in figures:
        assert figure["calls"] - figure["steps"] <= 4.0, figure
        assert figure["calls"] <= 4.1, figure
        assert 0 < figure["steps"] <= 0.25, figure


async def moves_made(driver) -> int:
    """The players' moves of the match (a selection step is not a move; the deal is not)."""
    match = await current_match(driver)
    return sum(1 for _, seat, _ in await get_host(driver.app).storage.moves(match.id) if seat >= 0)


@dataclass
class Play:
    """One whole game's calls: every chat's tally over the whole game, and from the Start
    press on (the lobby's calls are the same however long the game), and its moves."""

    whole: dict[str, Tally]
    played: dict[str, Tally]
    moves: int
    steps: int = 0  # the players' selection presses (a lead's "how many?"): one edit each

    def per_move(self) -> dict[str, float]:
        """Calls per move once the match started: the group's and the private chats' sends,
        edits and deletes, and all of them together."""
        group = self.played["group"]
        private = [t for name, t in self.played.items() if name != "group"]
        figures = {f"group {kind}": getattr(group, kind) / self.moves for kind in KINDS}
        for kind in KINDS:
            figures[f"private {kind}"] = sum(getattr(t, kind) for t in private) / self.moves
        figures["calls"] = sum(calls(t) for t in self.played.values()) / self.moves
        figures["steps"] = self.steps / self.moves
        return figures


def counting_from_the_start(api: FakeTelegram) -> list[int]:
    """Note how many calls the bot had made when a match started (``bot.table.flow``)."""
    starts: list[int] = []
    start_match = bot.table.flow.start_match

    async def noted(*args, **kwargs):
        starts.append(len(api.calls))
        return await start_match(*args, **kwargs)

    bot.table.flow.start_match = noted
    return starts


def counting_selection_steps(driver: Driver) -> list[str]:
    """Note every selection press (a draft button, ``d:``): each redraws the prompt once."""
    steps: list[str] = []
    press = driver.press

    async def noted(user, chat_id, message_id, data):
        if data.startswith(f"{Kind.DRAFT}:"):
            steps.append(data)
        return await press(user, chat_id, message_id, data)

    driver.press = noted
    return steps


async def measure(game: str) -> Play:
    """Play one game in a fresh bot and tally every chat (for the tables below)."""
    with tempfile.TemporaryDirectory() as folder:
        api = FakeTelegram()
        start_match = bot.table.flow.start_match
        starts = counting_from_the_start(api)
        try:
            async with running_bot(api, Path(folder) / "bot.sqlite3") as driver:
                driver.group(GROUP, "Game Night")
                steps = counting_selection_steps(driver)
                players = await play_whole_game(game, driver)
                moves = await moves_made(driver)
        finally:
            bot.table.flow.start_match = start_match
        chats = [("group", GROUP)] + [(p.first_name, p.id) for p in players]
        return Play(
            whole={name: tally(api, chat) for name, chat in chats},
            played={name: tally(api, chat, since=starts[0]) for name, chat in chats},
            moves=moves,
            steps=len(steps),
        )


def calls(t: Tally) -> int:
    """The calls that count against Telegram's 30 a second: sends, edits and deletes."""
    return t.sends + t.edits + t.deletes


def matches_per_token(per_move: float) -> float:
    """Matches one bot token hosts at once at one move per ``MOVE_SECONDS`` per match."""
    return CALLS_PER_SECOND / (per_move / MOVE_SECONDS)


def main() -> None:
    bot.table.flow.secrets.randbits = lambda bits: SEED  # the same deals as the test
    print(
        "| game | group left | group sends (notifying) / edits / deletes / refused "
        "| private left | private sends / edits / deletes / refused, per player |"
    )
    print("|---|---|---|---|---|")
    measured = {game: asyncio.run(measure(game)) for game in EXPECTED}
    for game, play in measured.items():
        chats = dict(play.whole)
        group = chats.pop("group")
        private_left = ", ".join(f"{name} {t.left}" for name, t in chats.items())
        private = ", ".join(
            f"{name} {t.sends} / {t.edits} / {t.deletes} / {t.refused}" for name, t in chats.items()
        )
        print(
            f"| {game} | {group.left} | {group.sends} ({group.loud}) / {group.edits} / "
            f"{group.deletes} / {group.refused} | {private_left} | {private} |"
        )
    print()
    print("| inline game | inline message edits | private sends / edits / deletes, per player |")
    print("|---|---|---|")
    for game in INLINE_EXPECTED:
        edits, chats = asyncio.run(measure_inline(game))
        private = ", ".join(
            f"{name} {t.sends} / {t.edits} / {t.deletes}" for name, t in chats.items()
        )
        print(f"| {game} ({len(chats)}) | {edits} | {private} |")
    print()
    print(
        "Calls per move from the Start press on (sends, edits and deletes: what counts against "
        f"Telegram's {CALLS_PER_SECOND} a second), and the matches one token hosts at one move "
        f"per {MOVE_SECONDS} s per match:"
    )
    print()
    print(
        "| game | moves | group sends / edits / deletes per move "
        "| private sends / edits / deletes per move | calls per move | matches per token |"
    )
    print("|---|---|---|---|---|---|")
    for game, play in measured.items():
        figures = play.per_move()
        group = " / ".join(f"{figures[f'group {kind}']:.2f}" for kind in KINDS)
        private = " / ".join(f"{figures[f'private {kind}']:.2f}" for kind in KINDS)
        print(
            f"| {game} | {play.moves} | {group} | {private} | **{figures['calls']:.2f}** "
            f"| {matches_per_token(figures['calls']):.0f} |"
        )
    print()
    print("Who's the Donkey? (4 players) over five deals:")
    print()
    print('| deal | moves | calls per move | of which "how many?" steps | without them |')
    print("|---|---|---|---|---|")
    for deal in DONKEY_DEALS:
        bot.table.flow.secrets.randbits = lambda bits, deal=deal: deal
        play = asyncio.run(measure("donkey"))
        figures = play.per_move()
        print(
            f"| {deal} | {play.moves} | {figures['calls']:.3f} | {figures['steps']:.3f} "
            f"| {figures['calls'] - figures['steps']:.3f} |"
        )
    sys.stdout.flush()


KINDS = ("sends", "edits", "deletes")


if __name__ == "__main__":
    main()
