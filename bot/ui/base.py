"""The contract between the host and a game's UI adapter.

An adapter turns engine *views* into screens (text plus buttons) and public log events into
announcements, in one language. It never sees the raw state, so it cannot leak a secret the
engine's view does not contain. The host owns everything Telegram-specific: callback data,
tokens, sending, editing and error handling.
"""

from __future__ import annotations

import abc
import html
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic

from bot.i18n import Translator
from games.core import Action, Engine, Result, ViewT

# The board pictures give each colour a symbol (``bot.pictures.drawing.SYMBOLS``); the text
# screens put it, as a glyph, after a colour's square where a player chooses, so that no
# choice rests on colour alone (🟧 orange and 🟥 red, 🟩 green and 🟨 yellow look alike to
# many): "🟧★×2", "🟥◆×1"
COLOUR_GLYPHS = {
    "blue": "●",  # circle
    "yellow": "▲",  # triangle
    "red": "◆",  # diamond
    "black": "✚",  # plus
    "white": "○",  # ring
    "purple": "✕",  # cross
    "green": "■",  # square
    "orange": "★",  # star
}


def with_shapes(text: str, squares: Sequence[str], colours: Sequence[str]) -> str:
    """``text`` with each colour's square (``squares[i]`` for ``colours[i]``) followed by
    its picture's symbol."""
    for square, colour in zip(squares, colours, strict=True):
        text = text.replace(square, square + COLOUR_GLYPHS[colour])
    return text


def shape_buttons(rows: list[list[Button]], squares: Sequence[str], colours: Sequence[str]):
    """The buttons with each colour's symbol after its square (:func:`with_shapes`)."""
    return [[replace(b, label=with_shapes(b.label, squares, colours)) for b in row] for row in rows]


class BadDraft(ValueError):
    """A selection step that does not fit the current choices (stale or forged button)."""


@dataclass(frozen=True)
class Button:
    """One inline button: an engine move, a selection step (``draft``), or a link."""

    label: str
    action: Action | None = None
    draft: str | None = None
    url: str | None = None
    seat: int | None = None  # on the group board: the seat whose move this is


@dataclass
class Screen:
    text: str  # Telegram HTML
    rows: list[list[Button]] = field(default_factory=list)


@dataclass(frozen=True)
class DraftStep:
    """The outcome of a selection step: the new selection, and the move once it is complete."""

    draft: Any
    action: Action | None = None


def seat_badge(seat: int) -> str:
    """❶ ❷ ❸ ❹...: a seat as the board pictures number it (white digits on black)."""
    return chr(0x2776 + seat)


@dataclass(frozen=True)
class Names:
    """Players' display names by seat, already HTML-escaped."""

    names: Sequence[str]

    @classmethod
    def of(cls, raw: Sequence[str]) -> Names:
        return cls(tuple(html.escape(name) for name in raw))

    def __getitem__(self, seat: int) -> str:
        return self.names[seat]

    def __len__(self) -> int:
        return len(self.names)

    def join(self, seats: Sequence[int]) -> str:
        return ", ".join(self.names[seat] for seat in seats)


class GameUI(abc.ABC, Generic[ViewT]):
    """One game's screens over its engine's view type ``ViewT``. ``t`` is a translator in the
    reader's language. ``legal`` holds the engine's named actions: an adapter reads their
    fields by name and asks the engine (its view, its helper functions) for anything the
    rules decide; it formats, it never decides."""

    engine: Engine[Any, ViewT]

    @property
    def game_id(self) -> str:
        return self.engine.id

    def title(self, t: Translator) -> str:
        return t(f"{self.game_id}.title")

    @abc.abstractmethod
    def board(self, t: Translator, view: ViewT, names: Names) -> Screen:
        """The group board: everything public. Buttons, if any, must name their ``seat``."""

    def caption(self, t: Translator, view: ViewT, names: Names) -> str:
        """The short text under the group's board picture (games with pictures): by default
        the text board's head, up to its first blank line."""
        return self.board(t, view, names).text.split("\n\n", 1)[0]

    @abc.abstractmethod
    def prompt(
        self,
        t: Translator,
        view: ViewT,
        seat: int,
        legal: Sequence[Action],
        draft: Any,
        names: Names,
    ) -> Screen:
        """A seat's private message: its secrets, and its choices when ``legal`` is not empty."""

    def draft(
        self, view: ViewT, seat: int, legal: Sequence[Action], draft: Any, step: str
    ) -> DraftStep:
        """Apply a selection step pressed on a ``Button(draft=...)``. Adapters whose moves are
        single presses need not override this."""
        raise BadDraft(step)

    @abc.abstractmethod
    def announce(self, t: Translator, events: list[dict], view: ViewT, names: Names) -> list[str]:
        """Group messages for new public events (empty strings and events not worth a
        message are left out)."""

    @abc.abstractmethod
    def final(self, t: Translator, view: ViewT, result: Result, names: Names) -> str:
        """The end-of-game summary: scores, tie-breaks, winners."""

    def option_label(self, t: Translator, name: str, value: Any) -> str:
        """The lobby's label for one option value, e.g. "Long game: to 50 points"."""
        return t(f"{self.game_id}.option.{name}.{value}")

    def private_button_label(self, t: Translator) -> str:
        """The group board's link to the player's private chat (their hand, their moves)."""
        return t("play.my_cards")

    def rules(self, t: Translator) -> str:
        return t(f"{self.game_id}.rules")

    def summary(self, t: Translator) -> str:
        """The rules in 3–5 lines: how to win and what a turn is (``/rules`` shows it first)."""
        return t(f"{self.game_id}.summary")

    def move_label(self, t: Translator, view: ViewT, action: Action, seat: int) -> str:
        """A short description of ``seat``'s move, for the popup answer to the press."""
        return t("play.move_done")


def medal(rank: int) -> str:
    return {1: "🥇", 2: "🥈", 3: "🥉"}.get(rank, f"{rank}.")


def standings(
    t: Translator, result: Result, names: Names, line_key: str, points_key: str, **extra: list
) -> str:
    """Ranked lines "🥇 Alice — 34 points …" using ``line_key`` with ``name``, ``score`` (the
    score in words, by the plural message ``points_key``) and any per-seat ``extra`` values."""
    order = sorted(range(len(result.scores)), key=lambda seat: (result.ranks[seat], seat))
    lines = []
    for seat in order:
        values = {key: column[seat] for key, column in extra.items()}
        lines.append(
            f"{medal(result.ranks[seat])} "
            + t(
                line_key,
                name=names[seat],
                score=t.plural(points_key, result.scores[seat]),
                **values,
            )
        )
    return "\n".join(lines)
