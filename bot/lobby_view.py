"""The lobby message: game, options, move time limit, players, and its buttons."""

from __future__ import annotations

import html
import typing

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import Callback
from bot.host import Host
from bot.i18n import Translator
from bot.storage import Match
from bot.timers import turn_label
from bot.ui import get_ui
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


def lobby_screen(host: Host, match: Match, t: Translator) -> tuple[str, InlineKeyboardMarkup]:
    engine = get_engine(match.game)
    ui = get_ui(match.game)
    lines = [t("lobby.title", game=html.escape(ui.title(t)))]
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
    lines.append(t("lobby.hint", min=engine.min_players))
    rows = [
        [
            InlineKeyboardButton(t("lobby.join"), url=host.deep_link(f"j{match.id}")),
            InlineKeyboardButton(t("lobby.leave"), callback_data=Callback("lv", match.id).encode()),
        ]
    ]
    for name in option_choices(match.game):
        label = "⚙️ " + ui.option_label(t, name, match.options[name])
        rows.append(
            [InlineKeyboardButton(label, callback_data=Callback("op", match.id, 0, name).encode())]
        )
    turn = Callback("op", match.id, 0, TURN_OPTION).encode()
    rows.append([InlineKeyboardButton(turn_label(t, match.turn_seconds), callback_data=turn)])
    rows.append(
        [
            InlineKeyboardButton(t("lobby.start"), callback_data=Callback("st", match.id).encode()),
            InlineKeyboardButton(
                t("lobby.cancel"), callback_data=Callback("cx", match.id).encode()
            ),
        ]
    )
    return "\n".join(lines), InlineKeyboardMarkup(rows)
