"""Azul screens.

Group board: the round, the kind of wall, the bag and the lid, whose move it is, the
factories and the centre (with the first-player marker 🎯 while it lies there), and for
every player a header (score, floor line with its penalty) and five rows that read like the
real board: the pattern line right-aligned (▪️ where the line has no space, ▫️ for an empty
space), a bar, then the wall row (a placed tile as its coloured square; on the coloured
wall an empty space as a circle of the colour printed there, so the wall's pattern shows
where each tile will land; on the grey wall an empty space as ▫️). The takes since the
previous turn of the player to take close the board (``bot.presentation.ui.recent``). Announcements:
one message per wall tiling (per player: tiles placed with their points, tiles that had to
go to the floor, the floor penalty, the new score), with the end trigger appended when the
game ends there; the final summary lists every player's bonuses (rows, columns, colours).

Private prompt (a decision opens with the others' takes since the player's turn: see
``GameUI.since_your_turn``): the same rows for the player's own board, the floor as its
seven spaces, the factories and the centre, and the choices:

* drafting, in short keyboards even with nine factories: tap a colour (one row), then where
  to take it from ("F3 🟦×2", "Centre 🟥×3 🎯"; skipped when only one place has that
  colour) — both selection steps — then the pattern line ("Line 3 · 3/3 ✅ · 1 to floor
  (−1)") or the floor: that press makes the move; "Back" returns one step;
* grey wall: the full line being tiled, its legal columns numbered on the wall row, one
  row of buttons, one per column, with the points the tile would score there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.presentation.i18n import Translator
from bot.presentation.ui.base import (
    BadDraft,
    Button,
    DraftStep,
    GameUI,
    Names,
    Screen,
    medal,
    seat_badge,
    shape_buttons,
    with_shapes,
    without_boards,
)
from games.azul.engine import (
    COLOUR_BONUS,
    COLOURS,
    COLUMN_BONUS,
    ENGINE,
    FLOOR_LINE,
    FLOOR_SPACES,
    MARKER,
    MAX_ROUNDS,
    ROW_BONUS,
    SIZE,
    AzulAction,
    AzulView,
    Column,
    Draft,
    DraftOutcome,
    as_action,
    draft_outcome,
    floor_penalty,
    grey_columns,
    points_if_placed,
    wall_colour,
)
from games.core import Action, Result

COLOUR_EMOJI = ("🟦", "🟨", "🟥", "⬛", "⬜")  # blue, yellow, red, black, white
# An empty space of the coloured wall: the colour printed there, as a circle so that it
# never looks like a placed tile.
PRINTED_EMOJI = ("🔵", "🟡", "🔴", "⚫", "⚪")
KEYCAP = "\ufe0f\u20e3"  # keycap digits number the grey wall's columns, nothing else
MARKER_EMOJI = "🎯"  # the first-player marker (as Sultan's start player)
EMPTY_SPACE = "▫️"  # an empty space of a pattern line, the grey wall or the floor
NO_SPACE = "▪️"  # left of a pattern line: no space there (keeps the lines right-aligned)
BAR = "│"
TURN_MARK = "👉 "
WAIT_MARK = "⏳ "
POINTING = " 👈"
STEP = re.compile(r"s([0-9]{1,2})c([0-9])")  # the tiles: a source and a colour
COLOUR_STEP = re.compile(r"c([0-9])")  # a colour, its source still to choose


# -- small renderings --------------------------------------------------------------------------
def tile(colour: int) -> str:
    return COLOUR_EMOJI[colour]


def colour_name(t: Translator, colour: int) -> str:
    """ "🟦 blue"."""
    return f"{COLOUR_EMOJI[colour]} {t('azul.colour.' + COLOURS[colour])}"


def tiles_row(counts: list[int]) -> str:
    """A factory as one square per tile: "🟦🟦🟨⬛"."""
    return "".join(COLOUR_EMOJI[colour] * count for colour, count in enumerate(counts))


def floor_tiles(floor: list[int]) -> str:
    return "".join(MARKER_EMOJI if item == MARKER else tile(item) for item in floor)


def keycap(number: int) -> str:
    return f"{number}{KEYCAP}"


def pattern_line(view: AzulView, seat: int, row: int) -> str:
    """ "▪️▪️▫️🟨🟨": no space, empty spaces, then the tiles next to the wall."""
    count = view["line_counts"][seat][row]
    colour = view["line_colours"][seat][row]
    tiles = tile(colour) * count if count else ""
    return NO_SPACE * (SIZE - 1 - row) + EMPTY_SPACE * (row + 1 - count) + tiles


def empty_wall_space(view: AzulView, row: int, column: int) -> str:
    """What an empty wall space shows: the printed colour, or nothing on the grey wall."""
    if view["options"]["wall"] == "grey":
        return EMPTY_SPACE
    return PRINTED_EMOJI[wall_colour(row, column)]


def wall_row(view: AzulView, seat: int, row: int, marks: dict[int, str] | None = None) -> str:
    cells = view["walls"][seat][row * SIZE : row * SIZE + SIZE]
    marks = marks or {}
    return "".join(
        marks.get(column, tile(cell) if cell >= 0 else empty_wall_space(view, row, column))
        for column, cell in enumerate(cells)
    )


def board_rows(
    view: AzulView, seat: int, pending: int = -1, columns: Sequence[int] = ()
) -> list[str]:
    """The five rows of a board; on the grey wall, the row being tiled shows its legal
    columns as numbers and a pointer."""
    rows = []
    for row in range(SIZE):
        marks = {column: keycap(column + 1) for column in columns} if row == pending else None
        text = pattern_line(view, seat, row) + BAR + wall_row(view, seat, row, marks)
        rows.append(text + POINTING if row == pending else text)
    return rows


def marker_in_centre(view: AzulView) -> bool:
    return view["phase"] == "draft" and view["marker"] < 0


def source_tiles(view: AzulView, source: int) -> list[int]:
    if source == view["centre_source"]:
        return view["centre"]
    return view["factories"][source]


def column_points(view: AzulView, seat: int, row: int, column: int) -> int:
    """Points of the pending row's tile placed in ``column`` (grey wall)."""
    return points_if_placed(view["walls"][seat], row, column, view["line_colours"][seat][row])


def draft_preview(view: AzulView, seat: int, draft: Draft) -> DraftOutcome:
    """Where the tiles of ``draft`` would go, and what the floor would cost."""
    count = source_tiles(view, draft.source)[draft.colour]
    line_count = 0 if draft.line == FLOOR_LINE else view["line_counts"][seat][draft.line]
    marker = draft.source == view["centre_source"] and marker_in_centre(view)
    return draft_outcome(count, draft.line, line_count, len(view["floors"][seat]), marker)


class AzulUI(GameUI[AzulView]):
    engine = ENGINE

    # -- shared pieces ---------------------------------------------------------------------
    def _source_short(self, t: Translator, view: AzulView, source: int) -> str:
        if source == view["centre_source"]:
            return t("azul.centre_short")
        return t("azul.factory_short", number=source + 1)

    def _source_name(self, t: Translator, view: AzulView, source: int) -> str:
        if source == view["centre_source"]:
            return t("azul.source.centre")
        return t("azul.source.factory", number=source + 1)

    def _round_line(self, t: Translator, view: AzulView) -> str:
        return t(
            "azul.board.round",
            round=view["round"],
            wall=t(f"azul.wall.{view['options']['wall']}"),
            bag=sum(view["bag"]),
            lid=sum(view["lid"]),
        )

    def _turn_line(self, t: Translator, view: AzulView, names: Names) -> str:
        if view["phase"] == "draft":
            return t("azul.board.turn", name=names[view["turn"]])
        choosing = view["to_act"]
        return t.plural("azul.board.choosing", len(choosing), names=names.join(choosing))

    def _table_lines(self, t: Translator, view: AzulView) -> list[str]:
        """The factories (two per line, empty ones left out) and the centre."""
        factories = [
            f"{t('azul.factory_short', number=k + 1)} {tiles_row(tiles)}"
            for k, tiles in enumerate(view["factories"])
            if any(tiles)
        ]
        lines = ["   ".join(factories[i : i + 2]) for i in range(0, len(factories), 2)]
        parts = [" ".join(f"{tile(c)}×{n}" for c, n in enumerate(view["centre"]) if n)]
        if marker_in_centre(view):
            parts.append(t("azul.board.marker", marker=MARKER_EMOJI))
        lines.append(
            t("azul.board.centre", tiles=" + ".join(part for part in parts if part) or "—")
        )
        return lines

    def _player_header(self, t: Translator, view: AzulView, names: Names, seat: int) -> str:
        mark = ""
        if view["phase"] == "draft" and view["turn"] == seat:
            mark = TURN_MARK
        elif view["phase"] == "wall" and seat in view["to_act"]:
            mark = WAIT_MARK
        text = f"{mark}<b>{names[seat]}</b> — " + t.plural("azul.points", view["scores"][seat])
        floor = view["floors"][seat]
        if floor:
            text += " · " + t(
                "azul.board.floor", tiles=floor_tiles(floor), penalty=floor_penalty(len(floor))
            )
        return text

    def _move_text(self, t: Translator, view: AzulView, event: dict) -> str:
        """ "F3 🟦×2 → line 3 (1 to floor)" for a draft event."""
        tiles = f"{tile(event['colour'])}×{event['count']}"
        if event["marker"]:
            tiles += f" + {MARKER_EMOJI}"
        source = self._source_short(t, view, event["source"])
        if event["line"] == FLOOR_LINE:
            return t("azul.move.floor", source=source, tiles=tiles)
        text = t("azul.move.line", source=source, tiles=tiles, line=event["line"] + 1)
        over = event["to_floor"] + event["to_lid"]  # beyond the floor's spaces: to the lid
        if over:
            text += " " + t.plural("azul.move.overflow", over)
        return text

    move_events = frozenset({"draft"})  # the grey wall's columns: told in the tiling message

    def move_text(self, t: Translator, view: AzulView, event: dict) -> str:
        return self._move_text(t, view, event)

    def log_step(self, t: Translator, view: AzulView, action: Action, seat: int) -> str | None:
        """The grey wall's column, chosen in the open (the tiling message tells it again)."""
        if isinstance(as_action(action), Column):
            return self.move_label(t, view, action, seat)
        return None

    def _latest(self, t: Translator, view: AzulView, names: Names) -> str:
        """The takes since the previous turn of the player to take (while drafting)."""
        if view["phase"] != "draft":
            return ""
        return self.latest_moves(t, view, view["turn"], names)

    # -- group -----------------------------------------------------------------------------
    def board(self, t: Translator, view: AzulView, names: Names) -> Screen:
        lines = [f"<b>{self.title(t)}</b>"]
        if view["over"]:
            lines.append(t("azul.board.over"))
        else:
            lines.append(self._round_line(t, view))
            lines.append(self._turn_line(t, view, names))
        if view["phase"] == "draft":
            lines.append("")
            lines += self._table_lines(t, view)
        for seat in range(view["num_players"]):
            lines.append("")
            lines.append(self._player_header(t, view, names, seat))
            lines += board_rows(view, seat)
        latest = self._latest(t, view, names)
        if latest:
            lines += ["", latest]
        return Screen("\n".join(lines))

    def caption(self, t: Translator, view: AzulView, names: Names) -> str:
        """Under the picture: the round and whose turn, each seat's number as drawn with
        its name and score, and the latest moves."""
        lines = [super().caption(t, view, names), ""]
        for seat in range(view["num_players"]):
            lines.append(f"{seat_badge(seat)} {self._player_header(t, view, names, seat)}")
        latest = self._latest(t, view, names)
        if latest:
            lines += ["", latest]
        return "\n".join(lines)

    def private_button_label(self, t: Translator) -> str:
        return t("azul.private_button")

    def announce(
        self, t: Translator, events: list[dict], view: AzulView, names: Names
    ) -> list[str]:
        messages = []
        for event in events:
            if event["type"] == "round_end":
                messages.append(self._tiling_message(t, view, names, event))
        return messages

    def _tiling_message(self, t: Translator, view: AzulView, names: Names, end: dict) -> str:
        round_no = end["round"]
        n = view["num_players"]
        placed: list[list[str]] = [[] for _ in range(n)]
        floors: list[dict | None] = [None] * n
        for event in view["log"]:
            if event.get("round") != round_no:
                continue
            kind = event["type"]
            if kind == "tile_placed":
                placed[event["seat"]].append(f"{tile(event['colour'])} +{event['points']}")
            elif kind == "line_to_floor":
                placed[event["seat"]].append(
                    t(
                        "azul.round.line_to_floor",
                        tiles=f"{tile(event['colour'])}×{event['count']}",
                        line=event["row"] + 1,
                    )
                )
            elif kind == "wall_tiling":
                floors[event["seat"]] = event
        lines = [t("azul.round.title", round=round_no)]
        for seat in range(n):
            parts = [", ".join(placed[seat]) or t("azul.round.nothing")]
            tiling = floors[seat]
            if tiling and tiling["penalty"]:
                parts.append(
                    t(
                        "azul.round.floor",
                        tiles=floor_tiles(tiling["floor"]),
                        penalty=tiling["penalty"],
                    )
                )
                if tiling["unclamped"] < 0:  # the floor cost more than the round's points
                    parts.append(t("azul.round.clamped"))
            score = end["scores"][seat]
            lines.append(
                t(
                    "azul.round.player",
                    name=names[seat],
                    detail=" · ".join(parts),
                    score=t.plural("azul.points", score),
                )
            )
        trigger = next(
            (
                event
                for event in view["log"]
                if event["type"] == "game_end_triggered" and event["round"] == round_no
            ),
            None,
        )
        lines.append("")
        if trigger is None:
            lines.append(t("azul.round.next", round=round_no + 1, name=names[end["next_player"]]))
        else:
            lines.append(self._end_text(t, trigger, names))
        return "\n".join(lines)

    def _end_text(self, t: Translator, trigger: dict, names: Names) -> str:
        reason = trigger["reason"]
        if reason == "row":
            seats = trigger["seats"]
            return t.plural("azul.end.row", len(seats), names=names.join(seats))
        if reason == "round_limit":
            return t("azul.end.round_limit", round=trigger["round"], max=MAX_ROUNDS)
        return t(f"azul.end.{reason}")

    def final(self, t: Translator, view: AzulView, result: Result, names: Names) -> str:
        details = result.details
        winners = result.winners
        key = "azul.final.winner" if len(winners) == 1 else "azul.final.winners"
        lines = [t(key, names=names.join(winners)), ""]
        order = sorted(range(len(result.scores)), key=lambda seat: (result.ranks[seat], seat))
        for seat in order:
            score = t.plural("azul.points", result.scores[seat])
            lines.append(f"{medal(result.ranks[seat])} <b>{names[seat]}</b> — {score}")
            rows, columns, colours = (details[k][seat] for k in ("rows", "columns", "colours"))
            lines.append(
                "    "
                + t(
                    "azul.final.detail",
                    before=result.scores[seat] - details["bonuses"][seat],
                    rows=rows,
                    row_points=rows * ROW_BONUS,
                    columns=columns,
                    column_points=columns * COLUMN_BONUS,
                    full_colours=colours,
                    colour_points=colours * COLOUR_BONUS,
                )
            )
        lines += ["", t("azul.final.tiebreak")]
        best = max(result.scores)
        if len(winners) == 1 and result.scores.count(best) > 1:
            lines.append(t("azul.final.decided", name=names[winners[0]]))
        return "\n".join(lines)

    # -- private ---------------------------------------------------------------------------
    def _own_lines(self, t: Translator, view: AzulView, seat: int) -> list[str]:
        pending = view["pending_rows"][seat] if view["phase"] == "wall" else -1
        columns = view["pending_columns"][seat] if pending >= 0 else []
        lines = [t("azul.prompt.board", score=t.plural("azul.points", view["scores"][seat]))]
        lines += board_rows(view, seat, pending, columns)
        floor = view["floors"][seat]
        spaces = floor_tiles(floor) + EMPTY_SPACE * (FLOOR_SPACES - len(floor))
        penalty = floor_penalty(len(floor))
        lines.append(t("azul.prompt.floor", tiles=spaces) + (f" −{penalty}" if penalty else ""))
        return lines

    def prompt(
        self,
        t: Translator,
        view: AzulView,
        seat: int,
        legal: Sequence[Action],
        draft: Any,
        names: Names,
    ) -> Screen:
        lines = [f"<b>{self.title(t)}</b>"]
        if view["over"]:
            lines.append(t("azul.prompt.over"))
            lines.append("")
            lines += self._own_lines(t, view, seat)
            return Screen("\n".join(lines))
        lines.append(self._round_line(t, view))
        boards = len(lines)
        lines.append("")
        lines += self._own_lines(t, view, seat)
        if view["phase"] == "draft":
            lines.append("")
            lines += self._table_lines(t, view)
        choice = len(lines)
        lines.append("")
        if not legal:
            if view["phase"] == "wall":
                lines.append(t("azul.prompt.waiting", names=names.join(view["to_act"])))
            else:
                lines.append(self._turn_line(t, view, names))
            return Screen("\n".join(lines))
        moves = [as_action(action) for action in legal]
        board = len(lines)
        if view["phase"] == "draft":
            rows = self._draft_choices(t, view, seat, moves, draft, lines)
        else:
            rows = self._column_choices(t, view, seat, moves, lines)
        # the choice and its buttons: each colour with its picture's symbol
        lines[board:] = [with_shapes(line, COLOUR_EMOJI, COLOURS) for line in lines[board:]]
        caption = without_boards(lines, boards, choice)
        return Screen("\n".join(lines), shape_buttons(rows, COLOUR_EMOJI, COLOURS), caption)

    # drafting: a colour, then its source, then the line ----------------------------------
    @staticmethod
    def _selection(draft: Any, drafts: list[Draft]) -> tuple[int, int] | None:
        """The (source, colour) selected in the draft while it is still there to take."""
        if isinstance(draft, dict):
            source, colour = draft.get("s"), draft.get("c")
            for move in drafts:
                if move.source == source and move.colour == colour:
                    return move.source, move.colour
        return None

    @staticmethod
    def _sources_of(drafts: list[Draft], colour: int) -> list[int]:
        """Where tiles of ``colour`` can be taken: the factories, then the centre."""
        return sorted({move.source for move in drafts if move.colour == colour})

    def _colour_selection(self, draft: Any, drafts: list[Draft]) -> int | None:
        """The colour chosen before its source, while several sources still hold it."""
        if isinstance(draft, dict) and "s" not in draft:
            colour = draft.get("c")
            if isinstance(colour, int) and len(self._sources_of(drafts, colour)) > 1:
                return colour
        return None

    def _take_label(self, t: Translator, view: AzulView, source: int, colour: int) -> str:
        count = source_tiles(view, source)[colour]
        label = f"{self._source_short(t, view, source)} {tile(colour)}×{count}"
        if source == view["centre_source"] and marker_in_centre(view):
            label += f" {MARKER_EMOJI}"
        return label

    def _draft_choices(
        self,
        t: Translator,
        view: AzulView,
        seat: int,
        moves: list[AzulAction],
        draft: Any,
        lines: list[str],
    ) -> list[list[Button]]:
        drafts = [move for move in moves if type(move) is Draft]
        selection = self._selection(draft, drafts)
        if selection is not None:
            source, colour = selection
            return self._line_choices(t, view, seat, drafts, source, colour, lines)
        colour = self._colour_selection(draft, drafts)
        if colour is not None:
            return self._source_choices(t, view, drafts, colour, lines)
        return self._colour_choices(t, view, drafts, lines)

    def _colour_choices(
        self, t: Translator, view: AzulView, drafts: list[Draft], lines: list[str]
    ) -> list[list[Button]]:
        """One row: a button per colour there is to take. A colour found in one place only
        selects that place at once."""
        lines.append(t("azul.prompt.take"))
        if marker_in_centre(view) and any(view["centre"]):
            lines.append(t("azul.prompt.marker_hint", marker=MARKER_EMOJI))
        buttons = []
        for colour in sorted({move.colour for move in drafts}):
            sources = self._sources_of(drafts, colour)
            step = f"s{sources[0]}c{colour}" if len(sources) == 1 else f"c{colour}"
            buttons.append(Button(tile(colour), draft=step))
        return [buttons]

    def _source_choices(
        self, t: Translator, view: AzulView, drafts: list[Draft], colour: int, lines: list[str]
    ) -> list[list[Button]]:
        """Where to take the chosen colour from, with how many tiles each place gives."""
        lines.append(t("azul.prompt.take_from", tile=colour_name(t, colour)))
        if marker_in_centre(view) and view["centre"][colour]:
            lines.append(t("azul.prompt.marker_hint", marker=MARKER_EMOJI))
        buttons = [
            Button(self._take_label(t, view, source, colour), draft=f"s{source}c{colour}")
            for source in self._sources_of(drafts, colour)
        ]
        rows = [buttons[i : i + 3] for i in range(0, len(buttons), 3)]
        rows.append([Button(t("azul.prompt.back"), draft="b")])
        return rows

    def _line_choices(
        self,
        t: Translator,
        view: AzulView,
        seat: int,
        drafts: list[Draft],
        source: int,
        colour: int,
        lines: list[str],
    ) -> list[list[Button]]:
        """The chosen tiles, then one button per pattern line (and the floor) they may go
        to, each showing how full the line gets and what the floor costs."""
        tiles = source_tiles(view, source)
        took = f"{tile(colour)}×{tiles[colour]}"
        lines.append(t("azul.prompt.taking", tiles=took, source=self._source_name(t, view, source)))
        if source != view["centre_source"]:
            rest = [tile(c) * n for c, n in enumerate(tiles) if n and c != colour]
            if rest:
                lines.append(t("azul.prompt.rest", tiles="".join(rest)))
        choices = [move for move in drafts if move.source == source and move.colour == colour]
        outcome = draft_preview(view, seat, choices[0])
        if outcome.marker and outcome.marker_penalty:  # onto the floor
            penalty = outcome.marker_penalty
            lines.append(t("azul.prompt.marker_taken", marker=MARKER_EMOJI, penalty=penalty))
        elif outcome.marker:  # the floor is full: the marker costs nothing
            lines.append(t("azul.prompt.marker_free", marker=MARKER_EMOJI))
        lines.append(t("azul.prompt.line_choice"))
        counts = view["line_counts"][seat]
        grey = view["options"]["wall"] == "grey"
        warned = False
        rows = []
        for move in choices:
            outcome = draft_preview(view, seat, move)
            if move.line == FLOOR_LINE:
                label = self._floor_label(t, took, outcome.tiles_penalty)
            else:
                label = t(
                    "azul.prompt.line_button",
                    line=move.line + 1,
                    filled=counts[move.line] + outcome.to_line,
                    size=move.line + 1,
                )
                if outcome.line_full:
                    label += " ✅"
                over = outcome.to_floor + outcome.to_lid
                if over:
                    penalty = outcome.tiles_penalty
                    key = "azul.prompt.overflow" if penalty else "azul.prompt.overflow_free"
                    label += " · " + t.plural(key, over, penalty=penalty)
                if grey and not grey_columns(view["walls"][seat], move.line, colour):
                    label += " ⚠️"
                    warned = True
            rows.append([Button(label, action=move)])
        if warned:
            lines.append(t("azul.prompt.no_column_warning"))
        rows.append([Button(t("azul.prompt.back"), draft="b")])
        return rows

    @staticmethod
    def _floor_label(t: Translator, tiles: str, penalty: int) -> str:
        """ "All to the floor: 🟦×2 · −2 points"; beyond a full floor, no penalty."""
        if penalty:
            return t.plural("azul.prompt.floor_button", penalty, tiles=tiles)
        return t("azul.prompt.floor_button_free", tiles=tiles)

    # grey wall -----------------------------------------------------------------------------
    def _column_choices(
        self, t: Translator, view: AzulView, seat: int, moves: list[AzulAction], lines: list[str]
    ) -> list[list[Button]]:
        row = view["pending_rows"][seat]
        colour = view["line_colours"][seat][row]
        lines.append(t("azul.prompt.column", line=row + 1, tile=colour_name(t, colour)))
        buttons = []
        for move in moves:
            if type(move) is not Column:
                continue
            points = column_points(view, seat, row, move.column)
            label = t("azul.prompt.column_button", column=keycap(move.column + 1), points=points)
            buttons.append(Button(label, action=move))
        return [buttons]  # at most five columns: one row, numbered like the wall row

    # selection steps -----------------------------------------------------------------------
    def draft(
        self, view: AzulView, seat: int, legal: Sequence[Action], draft: Any, step: str
    ) -> DraftStep:
        if not legal or view["phase"] != "draft":
            raise BadDraft(step)
        drafts = [move for move in map(as_action, legal) if type(move) is Draft]
        if step == "b":  # one step back: from the line to the source (if there was a choice)
            selection = self._selection(draft, drafts)
            if selection is not None and len(self._sources_of(drafts, selection[1])) > 1:
                return DraftStep({"c": selection[1]})
            return DraftStep(None)
        found = COLOUR_STEP.fullmatch(step)
        if found:
            colour = int(found.group(1))
            if not self._sources_of(drafts, colour):
                raise BadDraft(step)
            return DraftStep({"c": colour})
        found = STEP.fullmatch(step)
        if not found:
            raise BadDraft(step)
        source, colour = int(found.group(1)), int(found.group(2))
        if not any(move.source == source and move.colour == colour for move in drafts):
            raise BadDraft(step)
        return DraftStep({"s": source, "c": colour})

    def move_label(
        self, t: Translator, view: AzulView, action: Action, seat: int, suggested: bool = False
    ) -> str:
        kind = "azul.suggested" if suggested else "azul.played"
        move = as_action(action)
        if isinstance(move, Column):
            row = view["pending_rows"][seat]
            colour = view["line_colours"][seat][row]
            return t(
                f"{kind}.column",
                tile=tile(colour),
                column=move.column + 1,
                points=column_points(view, seat, row, move.column),
            )
        outcome = draft_preview(view, seat, move)
        event = {
            "source": move.source,
            "colour": move.colour,
            "count": source_tiles(view, move.source)[move.colour],
            "marker": outcome.marker,
            "line": move.line,
            "to_floor": outcome.to_floor,
            "to_lid": outcome.to_lid,
        }
        return t(f"{kind}.take", move=self._move_text(t, view, event))


UI = AzulUI()
