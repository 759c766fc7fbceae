"""The lobby message: game, options, move time limit, players, and its buttons."""

from __future__ import annotations

import html
import typing

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.presentation.i18n import Translator, format_duration
from bot.presentation.ui import get_ui
from bot.storage import Match
from bot.table.ai_moves import LOBBY_LEVELS
from bot.telegram_api.callbacks import Callback, Kind
from games import get_engine

TURN_OPTION = "turn"  # the lobby's move time limit, a host option beside the game's own


def option_choices(game: str) -> dict[str, tuple]:
    """Every option of a game with its possible values, from the engine's options model."""
    choices = {}
    for name, info in get_engine(game).Options.model_fields.items():
        annotation = info.annotation
        if annotation is bool:
            values: tuple = (False, True)
        else:
            values = typing.get_args(annotation)
        choices[name] = values
    return choices


def turn_label(t: Translator, seconds: int) -> str:
    """The lobby's move time limit, in words."""
    if not seconds:
        return t("lobby.turn.none")
    return t("lobby.turn", limit=format_duration(t, seconds))


def option_button(label: str, setting: bool = True) -> str:
    """An option's button: "⚙️ Wall: coloured ▸" — the arrow says a press moves on to the
    next value. The time limit's label has its own ⏱ instead of the cog."""
    return f"⚙️ {label} ▸" if setting else f"{label} ▸"


def lobby_screen(match: Match, t: Translator, join_link: str) -> tuple[str, InlineKeyboardMarkup]:
    """The lobby's text and buttons; ``join_link`` opens the private chat to join (in an
    inline message, Join seats the presser at once where the bot can already write to
    them, and opens the private chat otherwise)."""
    engine = get_engine(match.game)
    ui = get_ui(match.game)
    if match.practice:
        title_key, hint_key = "lobby.practice_title", "lobby.practice_hint"
    elif match.inline:
        title_key = "lobby.title" if match.rematch_of is None else "lobby.rematch_title"
        hint_key = "inline.lobby_hint"
    elif match.rematch_of is None:
        title_key, hint_key = "lobby.title", "lobby.hint"
    else:
        title_key, hint_key = "lobby.rematch_title", "lobby.rematch_hint"
    lines = [t(title_key, game=html.escape(ui.title(t)))]
    for name, value in match.options.items():
        lines.append("• " + ui.option_label(t, name, value))
    lines.append("• " + turn_label(t, match.turn_seconds))
    lines.append("")
    lines.append(
        t("lobby.players", count=len(match.seats), min=engine.min_players, max=engine.max_players)
    )
    for seat in match.seats:
        lines.append(f"{seat.seat + 1}. {html.escape(seat.name)}")
    lines.append("")
    lines.append(t(hint_key, min=engine.min_players))

    def press(label: str, kind: Kind, payload: str = "") -> InlineKeyboardButton:
        return InlineKeyboardButton(
            label, callback_data=Callback(kind, match.id, 0, payload).encode()
        )

    rows = []
    if match.inline:
        rows.append([press(t("lobby.join"), Kind.INLINE_JOIN), press(t("lobby.leave"), Kind.LEAVE)])
    elif not match.practice:  # a practice match is its one player's: nobody joins or leaves
        rows.append(
            [
                InlineKeyboardButton(t("lobby.join"), url=join_link),
                press(t("lobby.leave"), Kind.LEAVE),
            ]
        )
    bots = []  # two to a row, so each label fits a phone
    if len(match.seats) < engine.max_players:
        bots += [
            press("➕🤖 " + t(f"ai.level.{level}"), Kind.ADD_AI, level) for level in LOBBY_LEVELS
        ]
    if any(seat.is_ai for seat in match.seats):
        bots.append(press("➖🤖 " + t("lobby.remove_ai"), Kind.REMOVE_AI))
    rows += [bots[i : i + 2] for i in range(0, len(bots), 2)]
    for name in option_choices(match.game):
        label = option_button(ui.option_label(t, name, match.options[name]))
        rows.append([press(label, Kind.OPTION, name)])
    turn = option_button(turn_label(t, match.turn_seconds), setting=False)
    rows.append([press(turn, Kind.OPTION, TURN_OPTION)])
    rows.append([press(t("lobby.start"), Kind.START), press(t("lobby.cancel"), Kind.CANCEL_LOBBY)])
    return "\n".join(lines), InlineKeyboardMarkup(rows)
