"""What a tournament shows in Telegram: its lobby and its running message with their buttons.
Their words are the presentation's (:mod:`bot.presentation.tournaments`)."""

from __future__ import annotations

import html
from collections.abc import Callable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.presentation.i18n import Translator
from bot.presentation.tournaments import (
    SHOWN_TABLES,
    bye_lines,
    clock_label,
    format_label,
    rule_lines,
    rules_line,
    standings_lines,
    starts_in_label,
    table_line,
    tie_names,
    title,
)
from bot.presentation.ui import get_ui
from bot.storage.tournaments import StoredTournament
from bot.telegram_api.callbacks import Callback, Kind
from bot.tournaments.formats import format_of
from bot.tournaments.pairing import planned_rounds


def press(tournament_id: int, label: str, payload: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(
        label, callback_data=Callback(Kind.TOURNAMENT, tournament_id, 0, payload).encode()
    )


def lobby_screen(
    stored: StoredTournament, t: Translator, join_link: str, starts_in: str | None
) -> tuple[str, InlineKeyboardMarkup]:
    humans = [e for e in stored.state.entrants if e.player > 0]
    ui = get_ui(stored.game)
    lines = [title(t, stored), rules_line(t, stored)]
    lines += ["• " + ui.option_label(t, name, value) for name, value in stored.options.items()]
    lines.append("")
    lines.append(t("tournament.entrants", count=len(humans)))
    lines += [f"{n}. {html.escape(stored.names[e.player])}" for n, e in enumerate(humans, 1)]
    lines.append("")
    lines.append(t("tournament.starts_in", when=starts_in) if starts_in else t("tournament.hint"))
    tid = stored.id
    state = stored.state
    rows = [
        [
            InlineKeyboardButton(t("tournament.join"), url=join_link),
            press(tid, t("tournament.leave"), "leave"),
        ],
        [
            press(tid, f"⚙️ {format_label(t, state)} ▸", "format"),
            press(tid, f"⚙️ {t('tournament.table_size', count=state.rules.table_size)} ▸", "size"),
        ],
    ]
    second = []
    if format_of(state).rounds_chosen:
        second.append(
            press(tid, f"⚙️ {t('tournament.rounds', count=state.rules.rounds)} ▸", "rounds")
        )
    second.append(press(tid, f"{clock_label(t, stored.turn_seconds)} ▸", "clock"))
    rows.append(second)
    order = " → ".join(tie_names(t, state.rules))
    rows.append([press(tid, f"⚙️ {t('tournament.ties_button', order=order)} ▸", "ties")])
    for name, value in stored.options.items():  # the game's own options, as in a lobby
        rows.append([press(tid, f"⚙️ {ui.option_label(t, name, value)} ▸", f"o.{name}")])
    bots = t("tournament.bots_on") if stored.with_bots else t("tournament.bots_off")
    rows.append(
        [
            press(tid, f"⚙️ {bots} ▸", "bots"),
            press(tid, f"⚙️ {starts_in_label(t, starts_in)} ▸", "when"),
        ]
    )
    rows.append(
        [press(tid, t("tournament.start"), "start"), press(tid, t("tournament.cancel"), "cancel")]
    )
    return "\n".join(lines), InlineKeyboardMarkup(rows)


def running_screen(
    stored: StoredTournament,
    t: Translator,
    watch: Callable[[int], str | None],
    late_link: str,
    page_link: str | None = None,
) -> tuple[str, InlineKeyboardMarkup | None]:
    """The message while it runs and after; ``page_link``: its page in the table app, where
    the app is on."""
    state = stored.state
    number = len(state.rounds)
    lines = [title(t, stored), rules_line(t, stored), ""]
    if stored.status == "finished":
        lines.append(t("tournament.final_head"))
    elif stored.status == "cancelled":
        lines.append(t("tournament.cancelled_head"))
    lines += standings_lines(t, stored)
    if state.rounds and stored.status == "running":
        current = state.rounds[-1]
        lines += ["", t("tournament.round_head", round=number, total=planned_rounds(state))]
        for index, table in enumerate(current.tables[:SHOWN_TABLES]):
            lines.append(table_line(t, stored, index + 1, table.players, table.places, watch))
        if len(current.tables) > SHOWN_TABLES:
            lines.append(t.plural("tournament.more_tables", len(current.tables) - SHOWN_TABLES))
        lines += bye_lines(t, stored, current.byes)
    lines += ["", *rule_lines(t, stored)]
    if page_link is not None:
        label = html.escape(t("tournament.page.link"))
        lines.append(f'<a href="{html.escape(page_link)}">{label}</a>')
    markup = None
    if stored.status == "running" and format_of(state).late_join_open(state):
        markup = InlineKeyboardMarkup(
            [[InlineKeyboardButton(t("tournament.join_late"), url=late_link)]]
        )
    return "\n".join(lines), markup
