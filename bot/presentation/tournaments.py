"""A tournament's words: its standings with their tie-breaks and the rules they follow, an
elimination's own columns, each round's tables and pairings, the podium — pure functions of
a tournament as shown (its names, its state, its game) and a translator, for the group's
messages and the table app's page alike. The buttons around them are the bot's
(``bot.table.tournaments.screens``)."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any, Protocol

from bot.presentation.i18n import Translator, format_duration
from bot.presentation.ui import get_ui
from bot.tournaments.formats import format_of, standings
from bot.tournaments.formats.elimination import CHAMPION
from bot.tournaments.model import ByeKind, Rules, Tournament, is_bot
from bot.tournaments.pairing import planned_rounds
from bot.tournaments.scoring import format_points
from bot.tournaments.standings import Row


class Shown(Protocol):
    """What the words read of a stored tournament."""

    game: str
    status: str
    turn_seconds: int
    with_bots: bool
    names: dict[int, str]
    state: Tournament
    matches: dict[tuple[int, int], int]
    options: dict[str, Any]


MEDALS = ("🥇", "🥈", "🥉")
SHOWN_ROWS = 30  # standings rows in the message (Telegram's 4,096 characters); the rest: "…"
SHOWN_TABLES = 24  # a round's tables in the tournament message
# the pairings message's tables and byes, each player mentioned (notified): within Telegram's
# 4,096 characters; the players of the tables beyond have their private prompt
PAIRED_TABLES = 24
NAME_CHARS = 32
MENTIONED = 8


def name_of(stored: Shown, t: Translator, player: int) -> str:
    """A player's name as the tournament's messages show it: long names cut, so that 30 rows
    of standings or 24 tables of pairings always fit in one message."""
    if player < 0:
        return t("tournament.bot_name", number=-player)
    name = stored.names.get(player, "?")
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def mention(stored: Shown, t: Translator, player: int) -> str:
    """A player's name that notifies them (a bot's: plain)."""
    name = html.escape(name_of(stored, t, player))
    return name if player < 0 else f'<a href="tg://user?id={player}">{name}</a>'


def format_label(t: Translator, state: Tournament) -> str:
    played = format_of(state)
    if played.label_counts_advance:
        return t.plural(played.label, state.rules.advance)
    return t(played.label)


def clock_label(t: Translator, seconds: int) -> str:
    if not seconds:
        return t("tournament.clock.none")
    return t("tournament.clock", limit=format_duration(t, seconds))


def rules_line(t: Translator, stored: Shown) -> str:
    state = stored.state
    parts = [
        format_label(t, state),
        t("tournament.table_size", count=state.rules.table_size),
        t("tournament.rounds", count=planned_rounds(state))
        if format_of(state).rounds_chosen or state.rounds
        else t("tournament.rounds_from_field"),
        clock_label(t, stored.turn_seconds),
    ]
    if stored.with_bots:
        parts.append(t("tournament.with_bots"))
    return " · ".join(parts)


def title(t: Translator, stored: Shown) -> str:
    return t("tournament.title", game=html.escape(get_ui(stored.game).title(t)))


def starts_in_label(t: Translator, starts_in: str | None) -> str:
    return t("tournament.when", when=starts_in) if starts_in else t("tournament.when_by_hand")


def tie_breaks_of(rules: Rules):
    return format_of(rules).tie_breaks(rules)


def tie_names(t: Translator, rules: Rules) -> list[str]:
    """The tie-breaks' names, in the order the standings use them."""
    return [t(f"tournament.tie.{kind.value}") for kind in tie_breaks_of(rules)]


def standings_lines(t: Translator, stored: Shown) -> list[str]:
    state = stored.state
    rows = standings(state)
    own = format_of(state).own_standings
    if own is not None:
        lines = [t(f"tournament.standings_head.{own}")]
    else:
        columns = " · ".join(tie_names(t, state.rules))
        lines = [t("tournament.standings_head", measures=columns)]
    for row in rows[:SHOWN_ROWS]:
        name = html.escape(name_of(stored, t, row.player))
        if row.withdrawn:
            name = f"<s>{name}</s> 🏳️"  # withdrawn: struck out, and flagged for screen readers
        if own is not None:
            lines.append(
                t(
                    f"tournament.standings_row.{own}",
                    place=row.rank,
                    name=name,
                    detail=reached(t, row, state),
                )
            )
            continue
        points, *ties = standings_cells(t, row, state)
        lines.append(
            t(
                "tournament.standings_row",
                place=row.rank,
                name=name,
                points=points,
                ties=" · ".join(ties),
            )
        )
    if len(rows) > SHOWN_ROWS:
        lines.append(t.plural("tournament.more", len(rows) - SHOWN_ROWS))
    return lines


def reached(t: Translator, row: Row, state: Tournament) -> str:
    """An elimination row's own columns: the round reached, the place at its table there,
    and whether they went on."""
    key = _outcome(row, state)
    return t(f"tournament.reached.{key}", round=row.reached, table_place=row.table_place or 0)


def _outcome(row: Row, state: Tournament) -> str:
    """Where an elimination row stands: playing, passed, advanced, out, final, champion."""
    final = bool(state.rounds) and row.reached == len(state.rounds) and _final(state)
    if row.table_place is None:
        return "playing" if row.status != "advanced" else "passed"
    if final:
        return "champion" if row.status == CHAMPION else "final"
    return row.status


# an elimination's own columns, as a table shows them apart (the message joins them)
OWN_COLUMNS = ("round_reached", "table_place", "outcome")


def standings_columns(t: Translator, rules: Rules) -> list[str]:
    """The standings' columns after rank and name, as the message names them: points and
    the tie-breaks in the creator's order, or a format's own columns."""
    own = format_of(rules).own_standings
    if own is not None:
        return [t(f"tournament.column.{own}.{column}") for column in OWN_COLUMNS]
    return [t("tournament.column.points"), *tie_names(t, rules)]


def standings_cells(t: Translator, row: Row, state: Tournament) -> list[str]:
    """A row's values under `standings_columns`."""
    if format_of(state).own_standings is not None:
        place = str(row.table_place) if row.table_place is not None else "–"
        outcome = t(f"tournament.outcome.{_outcome(row, state)}")
        return [str(row.reached), place, outcome]
    order = tie_breaks_of(state.rules)
    return [format_points(row.points), *(format_points(row.tie_break(kind)) for kind in order)]


def _final(state: Tournament) -> bool:
    last = state.rounds[-1]
    return len(last.tables) == 1 and not last.byes


def rule_lines(t: Translator, stored: Shown) -> list[str]:
    """The rules the standings follow, published with them: what a place is worth, the
    tie-breaks in their order, and the tables that had bots."""
    rules = stored.state.rules
    own = format_of(rules).own_standings
    if own is not None:
        lines = [t.plural(f"tournament.rule.{own}", rules.advance)]
    elif rules.table_size == 2:
        lines = [t("tournament.rule.two_player")]
    else:
        lines = [t("tournament.rule.multiplayer")]
    first, second, third = tie_names(t, rules)
    lines.append(t("tournament.tie_breaks", first=first, second=second, third=third))
    with_bots = [
        t("tournament.bot_table", round=round_.number, number=index)
        for round_ in stored.state.rounds
        for index, table in enumerate(round_.tables, 1)
        if any(is_bot(player) for player in table.players)
    ]
    if with_bots:
        shown = "; ".join(with_bots[:SHOWN_TABLES])
        lines.append(t("tournament.bot_tables", tables=shown))
    return lines


def table_line(
    t: Translator,
    stored: Shown,
    number: int,
    players: tuple[int, ...],
    places: tuple[int, ...] | None,
    watch: Callable[[int], str | None],
) -> str:
    if places is None:
        names = " – ".join(html.escape(name_of(stored, t, p)) for p in players)
        state = "⏳"
    else:
        order = sorted(zip(places, players, strict=True))
        names = " – ".join(f"{place}. {html.escape(name_of(stored, t, p))}" for place, p in order)
        state = "✅"
    line = t("tournament.table_line", number=number, players=names, detail=state)
    match_id = stored.matches.get((len(stored.state.rounds), number - 1))
    link = watch(match_id) if match_id is not None and places is None else None
    if link is not None:
        line += f' <a href="{html.escape(link)}">{html.escape(t("tournament.the_table"))}</a>'
    return line


def bye_lines(t: Translator, stored: Shown, byes) -> list[str]:
    lines = []
    for kind in (ByeKind.FULL, ByeKind.ADVANCE):
        names = [html.escape(name_of(stored, t, b.player)) for b in byes if b.kind is kind]
        if names:
            lines.append(t(f"tournament.bye.{kind.value}", names=", ".join(names)))
    return lines


def pairings_text(stored: Shown, t: Translator) -> str:
    """A round's pairings: one message that notifies every player of the round."""
    state = stored.state
    current = state.rounds[-1]
    lines = [
        t("tournament.pairings_head", round=current.number, total=planned_rounds(state)),
        html.escape(get_ui(stored.game).title(t)),
        "",
    ]
    for index, table in enumerate(current.tables[:PAIRED_TABLES], 1):
        players = " – ".join(mention(stored, t, p) for p in table.players)
        lines.append(t("tournament.table_line", number=index, players=players, detail=""))
    if len(current.tables) > PAIRED_TABLES:  # (each of them has had their private prompt)
        lines.append(t.plural("tournament.more_tables", len(current.tables) - PAIRED_TABLES))
    for kind in (ByeKind.FULL, ByeKind.ADVANCE):
        names = [mention(stored, t, b.player) for b in current.byes if b.kind is kind][:MENTIONED]
        if names:
            lines.append(t(f"tournament.bye.{kind.value}", names=", ".join(names)))
    lines += ["", t("tournament.pairings_hint")]
    return "\n".join(line.rstrip() for line in lines)


def podium_text(stored: Shown, t: Translator) -> str:
    rows = standings(stored.state)
    lines = [t("tournament.podium_head", game=html.escape(get_ui(stored.game).title(t))), ""]
    own = format_of(stored.state).own_standings
    for row in rows[:3]:
        medal = MEDALS[row.rank - 1] if row.rank <= 3 else f"{row.rank}."
        name = mention(stored, t, row.player)
        if own is not None:  # where they got to, not points nobody played for
            detail = reached(t, row, stored.state)
            lines.append(t(f"tournament.podium_row.{own}", medal=medal, name=name,
                           detail=detail))  # fmt: skip
            continue
        lines.append(
            t("tournament.podium_row", medal=medal, name=name, points=format_points(row.points))
        )
    return "\n".join(lines)
