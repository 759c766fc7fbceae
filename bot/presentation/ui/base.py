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

from bot.presentation.i18n import Translator
from bot.presentation.ui.recent import block, move_lines, moves_since_turn
from games.core import Action, Engine, Result, ViewT

# The board pictures give each colour a symbol (``bot.presentation.pictures.drawing.SYMBOLS``);
# the text screens put it, as a glyph, after a colour's square where a player chooses, so that no
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
    # a prompt's text without the boards, for a caption under a picture that shows them
    # (the tile games); None: the text is the caption
    caption: str | None = None


@dataclass(frozen=True)
class DraftStep:
    """The outcome of a selection step: the new selection, and the move once it is complete."""

    draft: Any
    action: Action | None = None


def without_boards(lines: list[str], start: int, end: int) -> str:
    """A prompt's caption under the picture, which shows the boards, the supply and the
    game: its lines but the title (the first), the text board (from ``start`` to ``end``)
    and the blank line after it — a few lines, so that the picture, the caption and the
    buttons fit one phone screen."""
    return "\n".join(lines[1:start] + lines[end + 1 :])


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

    def board_may_wait(self, view: ViewT) -> bool:
        """Whether the group's board may wait a moment before showing this public view: a
        hidden choice made while others still choose (only its ✔ would change); by default
        every change is shown at once."""
        return False

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

    # -- what happened since a seat's turn -------------------------------------------------
    #: the public log's events that are a seat's own moves (each names its ``seat``); none:
    #: the game has nobody moving between a seat's decisions (5211's secret choices)
    move_events: frozenset[str] = frozenset()
    #: events after which earlier moves no longer count (a new deal): told elsewhere
    story_breaks: frozenset[str] = frozenset()

    def move_text(self, t: Translator, view: ViewT, event: dict) -> str | None:
        """One move event in a few words, without the mover's name ("F3 🟦×2 → line 3");
        None: not worth telling."""
        return None

    # -- the match log (/history) ----------------------------------------------------------
    def log_step(self, t: Translator, view: ViewT, action: Action, seat: int) -> str | None:
        """For the match log: ``seat``'s move (over ``view``, the table before it) that left
        no move event in the public log — a step of a longer move, told again at its end;
        None: a secret, told at its reveal (the log says the player moved)."""
        return None

    def log_news(self, t: Translator, events: list[dict], view: ViewT, names: Names) -> list[str]:
        """The public events a move caused, as the match log tells them: the group's news
        (:meth:`announce`), and what only the board showed (cards face up, a round won)."""
        return self.announce(t, events, view, names)

    def since_your_turn(self, t: Translator, view: ViewT, seat: int, names: Names) -> str:
        """What the other players did since ``seat``'s previous turn, for the top of its
        prompt: "Since your turn:" and a line per turn ("" when nobody moved)."""
        events = moves_since_turn(
            view["log"], seat, self.move_events, others_only=True, breaks=self.story_breaks
        )
        lines = move_lines(t, events, names.names, lambda event: self.move_text(t, view, event))
        return block(t("recent.since_your_turn"), lines)

    def latest_moves(self, t: Translator, view: ViewT, seat: int, names: Names) -> str:
        """For the group board: every move since the previous turn of ``seat``, the player
        to act — a move made a second before (a bot's) stays in view until they move."""
        events = moves_since_turn(
            view["log"], seat, self.move_events, others_only=False, breaks=self.story_breaks
        )
        lines = move_lines(t, events, names.names, lambda event: self.move_text(t, view, event))
        return block(t("recent.latest_moves"), lines)

    def move_label(
        self, t: Translator, view: ViewT, action: Action, seat: int, suggested: bool = False
    ) -> str:
        """A short description of ``seat``'s move, for the popup answer to the press; with
        ``suggested``, the move as advice (a practice hint: "Take …", not "Taken: …")."""
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
