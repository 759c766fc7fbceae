"""Azul Mini: Summer Pavilion screens.

Group board: the round and its wild colour, the phase and whose move it is, the factories
and the centre (phase 1), the supply, the moves since the previous turn of the player to
act (``bot.presentation.ui.recent``), and for every player one line with the
score, the tiles at hand and on the corners, then two lines with their seven stars (a filled
space shows its printed number in a circle, an empty one a dot). One announcement per round
(first-player tile, every placement with its points and bonus tiles, every pass with its
loss, the scores), and the end-scoring breakdown in the final summary.

Private prompt: the player's own board in detail (each star on one line, a filled space as
its tile's colour, an empty one as the number of tiles it costs), tiles at hand and on the
corners, the wild colour, and the choices when it is their move:

* phase 1: tap a factory or the centre (a selection step), then the colour: that press takes;
* phase 2: tap a star, then a space (with its cost and the points it would score), then the
  colour where there is a choice, then the number of wild tiles where there is a choice
  (each step has a back button; a step with a single option is folded into the previous
  press); "Pass" is always there;
* bonus tiles: one press per tile from the supply; the prompt says which structures the
  placement surrounded (pillar, statue, window) and how many tiles remain;
* after passing: one press per tile kept on a corner (up to 4), then "Done", which shows
  what goes to the tower and the points it costs.

The first-player tile is 🎯 (as Sultan's start player): keycap digits are the costs of
empty spaces in the private board, circled digits the printed numbers of covered spaces.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

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
from bot.presentation.ui.summer_pavilion_pieces import (
    BONUS_MARK,
    COLOUR_EMOJI,
    FIRST_TILE,
    TURN_MARK,
    circled,
    colour_name,
    payment,
    placements,
    source_tiles,
    space_label,
    square,
    star_cells_private,
    star_cells_public,
    star_icon,
    star_label,
    take_text,
    tiles_counts,
    tiles_list,
    tiles_row,
)
from games.core import Action, Result
from games.summer_pavilion.engine import (
    COLOURS,
    DONE_ACTION,
    ENGINE,
    PASS_ACTION,
    Bonus,
    Done,
    Keep,
    Pass,
    Place,
    SummerPavilionAction,
    SummerPavilionView,
    Take,
    as_action,
    keep_room,
    placement_preview,
    score_loss,
    scores_before,
)


class PlaceSelection(NamedTuple):
    """A placement being chosen: star, then space, then colour (``None``: not chosen yet)."""

    star: int | None = None
    space: int | None = None
    colour: int | None = None


def round_bounds(log: list[dict], round_no: int) -> tuple[int, int]:
    """The slice of the log that belongs to round ``round_no``."""
    start = end = len(log)
    for index, event in enumerate(log):
        if event["type"] == "round":
            if event["round"] == round_no:
                start = index
            elif event["round"] == round_no + 1:
                end = index
                break
        elif event["type"] == "final" and index > start:
            end = index
            break
    return start, end


class SummerPavilionUI(GameUI[SummerPavilionView]):
    engine = ENGINE

    # -- shared pieces ---------------------------------------------------------------------
    def _round_line(self, t: Translator, view: SummerPavilionView) -> str:
        return t(
            "summer_pavilion.board.round",
            round=view["round"],
            rounds=view["rounds"],
            wild=colour_name(t, view["wild"]),
        )

    def _turn_line(self, t: Translator, view: SummerPavilionView, names: Names) -> str:
        phase, current = view["phase"], view["current"]
        assert current is not None, "whose turn it is: only while the game runs"
        name = names[current]
        if phase == "bonus":
            return t.plural("summer_pavilion.board.turn.bonus", view["bonus_due"], name=name)
        return t(f"summer_pavilion.board.turn.{phase}", name=name)

    def _source_name(self, t: Translator, source: int) -> str:
        if source == 0:
            return t("summer_pavilion.source.centre")
        return t("summer_pavilion.source.factory", number=source)

    def _table_lines(self, t: Translator, view: SummerPavilionView) -> list[str]:
        """Factories and the centre (phase 1 only), then the supply."""
        lines = []
        if view["phase"] == "taking":
            factories = [
                f"{circled(k + 1)}{tiles_row(tiles)}"
                for k, tiles in enumerate(view["factories"])
                if any(tiles)
            ]
            if factories:
                lines.append(t("summer_pavilion.board.factories"))
                lines += ["  ".join(factories[i : i + 3]) for i in range(0, len(factories), 3)]
            parts = [tiles_counts(view["centre"], "×")]
            if view["first_player_tile"] < 0:
                parts.append(t("summer_pavilion.board.first_tile", first=FIRST_TILE))
            centre = " + ".join(part for part in parts if part) or "—"
            lines.append(t("summer_pavilion.board.centre", tiles=centre))
        supply = tiles_row(view["supply"]) or "—"
        lines.append(t("summer_pavilion.board.supply", tiles=supply))
        return lines

    def _player_lines(
        self, t: Translator, view: SummerPavilionView, names: Names, seat: int
    ) -> list[str]:
        player = view["players"][seat]
        over = view["phase"] == "over"
        mark = TURN_MARK if view["current"] == seat else ""
        parts = [
            f"{mark}<b>{names[seat]}</b> — " + t.plural("summer_pavilion.points", player["score"])
        ]
        if not over and view["first_player_tile"] == seat:
            parts.append(t("summer_pavilion.board.first", first=FIRST_TILE))
        if any(player["hand"]):
            parts.append(t("summer_pavilion.board.hand", tiles=tiles_counts(player["hand"])))
        if any(player["corners"]):
            parts.append(t("summer_pavilion.board.corners", tiles=tiles_counts(player["corners"])))
        if not over and player["passed"]:
            parts.append(t("summer_pavilion.board.passed"))
        board = player["board"]
        stars = [star_cells_public(view, board, star) for star in range(7)]
        return [" · ".join(parts), "    " + " ".join(stars[:4]), "    " + " ".join(stars[4:])]

    move_events = frozenset({"take", "place", "bonus", "pass"})

    def move_text(self, t: Translator, view: SummerPavilionView, event: dict) -> str:
        """ "took 🟥×2 + 🟨 from factory 3", "🟥 Red star, space 4: 🟥 red, +3 points",
        "🎁 🟦 blue", or the pass and its cost: in words, as the round's summary."""
        kind = event["type"]
        if kind == "take":
            tiles = f"{square(event['colour'])}×{event['count']}"
            if event["wild"]:
                tiles += f" + {square(view['wild'])}"
            text = t(
                "summer_pavilion.move.take",
                tiles=tiles,
                source=self._source_name(t, event["source"]),
            )
            if "first_player_tile" in event:
                text += " " + t(
                    "summer_pavilion.move.first",
                    first=FIRST_TILE,
                    points=event["first_player_tile"],
                )
            return text
        if kind == "place":
            text = self._placement_words(t, view, event)
            if event["wilds"]:  # the colour says the rest of the payment
                cost = view["numbers"][event["star"]][event["space"] - 1]
                tiles = payment(event["colour"], cost, event["wilds"], view["wild"])
                text += " · " + t("summer_pavilion.move.paid", tiles=tiles)
            return text
        if kind == "bonus":
            return f"{BONUS_MARK} {colour_name(t, event['colour'])}"
        return self._pass_text(t, event)

    def log_step(
        self, t: Translator, view: SummerPavilionView, action: Action, seat: int
    ) -> str | None:
        """A pass's first steps (the tiles kept are told again with the pass)."""
        match as_action(action):
            case Pass():
                return t("summer_pavilion.log.passing")
            case Keep(colour=colour):
                return t("summer_pavilion.log.keep", tile=square(colour))
        return None

    def _latest(self, t: Translator, view: SummerPavilionView, names: Names) -> str:
        """The moves since the previous turn of the player to act (while the game runs)."""
        if view["phase"] == "over" or view["current"] is None:
            return ""
        return self.latest_moves(t, view, view["current"], names)

    def _placement_words(self, t: Translator, view: SummerPavilionView, event: dict) -> str:
        """ "🌈 Centre star, space 5: 🟦 blue, +6 points; 🏛 pillar surrounded" (the space by
        the number printed on it, as the picture shows it)."""
        star, space = event["star"], event["space"]
        text = t.plural(
            "summer_pavilion.round.place",
            event["points"],
            star=star_label(t, view, star),
            number=space_label(view, star, space),
            tile=colour_name(t, event["colour"]),
        )
        done = event.get("structures") or []
        structures = [t(f"summer_pavilion.structure_name.{kind}") for kind, _ in done]
        if structures:
            text += "; " + t("summer_pavilion.round.surrounded", structures=", ".join(structures))
        return text

    def _pass_text(self, t: Translator, event: dict) -> str:
        if event.get("auto"):
            return t("summer_pavilion.pass.auto")
        kept, penalty = tiles_list(event["kept"]), event["penalty"]
        if not event["discarded"]:
            return t("summer_pavilion.pass.kept_all", tiles=kept)
        if kept:
            return t("summer_pavilion.pass.kept", tiles=kept, penalty=penalty)
        return t("summer_pavilion.pass.plain", penalty=penalty)

    # -- group -----------------------------------------------------------------------------
    def board(self, t: Translator, view: SummerPavilionView, names: Names) -> Screen:
        n = view["num_players"]
        lines = [f"<b>{self.title(t)}</b>"]
        if view["phase"] == "over":
            lines.append(t("summer_pavilion.board.over"))
        else:
            lines.append(self._round_line(t, view))
            key = "taking" if view["phase"] == "taking" else "placing"
            lines.append(t(f"summer_pavilion.board.phase.{key}"))
            lines.append(self._turn_line(t, view, names))
            lines.append("")
            lines += self._table_lines(t, view)
        lines.append("")
        for seat in range(n):
            lines += self._player_lines(t, view, names, seat)
        latest = self._latest(t, view, names)
        if latest:
            lines += ["", latest]
        return Screen("\n".join(lines))

    def caption(self, t: Translator, view: SummerPavilionView, names: Names) -> str:
        """Under the picture: the round and whose turn, each seat's number as drawn with
        its name, score and tiles, and the latest moves."""
        lines = [super().caption(t, view, names), ""]
        for seat in range(view["num_players"]):
            header = self._player_lines(t, view, names, seat)[0]
            lines.append(f"{seat_badge(seat)} {header}")
        latest = self._latest(t, view, names)
        if latest:
            lines += ["", latest]
        return "\n".join(lines)

    def private_button_label(self, t: Translator) -> str:
        return t("summer_pavilion.private_button")

    def announce(
        self, t: Translator, events: list[dict], view: SummerPavilionView, names: Names
    ) -> list[str]:
        messages = []
        for event in events:
            if event["type"] == "round" and event["round"] > 1:
                text = self._round_summary(t, view, names, event["round"] - 1)
                text += "\n\n" + t(
                    "summer_pavilion.round.next",
                    round=event["round"],
                    wild=colour_name(t, event["wild"]),
                    name=names[event["start"]],
                )
                messages.append(text)
            elif event["type"] == "final":
                messages.append(self._round_summary(t, view, names, view["rounds"]))
        return messages

    def _round_summary(
        self, t: Translator, view: SummerPavilionView, names: Names, round_no: int
    ) -> str:
        log = view["log"]
        n = view["num_players"]
        start, end = round_bounds(log, round_no)
        events = log[start:end]
        wild = events[0]["wild"] if events and events[0]["type"] == "round" else view["wild"]
        lines = [t("summer_pavilion.round.title", round=round_no, wild=colour_name(t, wild))]
        moves: list[list[str]] = [[] for _ in range(n)]
        for event in events:
            kind = event["type"]
            if kind == "take" and "first_player_tile" in event:
                lines.append(
                    t(
                        "summer_pavilion.round.first",
                        first=FIRST_TILE,
                        name=names[event["seat"]],
                        points=event["first_player_tile"],
                    )
                )
            elif kind == "place":
                moves[event["seat"]].append([self._placement_words(t, view, event), []])
            elif kind == "bonus" and moves[event["seat"]]:
                moves[event["seat"]][-1][1].append(colour_name(t, event["colour"]))
            elif kind == "pass":
                moves[event["seat"]].append([self._pass_text(t, event), []])
        lines.append("")
        # in words, a line per move: "Centre star, space 5: 🟦 blue, +6 points; 🏛 pillar
        # surrounded: took 🟩 green"
        for seat in range(n):
            if not moves[seat]:
                lines.append(f"<b>{names[seat]}</b>: {t('summer_pavilion.round.nothing')}")
                continue
            lines.append(f"<b>{names[seat]}</b>:")
            for text, bonus in moves[seat]:
                if bonus:
                    text += "; " + t("summer_pavilion.round.bonus", tiles=", ".join(bonus))
                lines.append(f"    {text}")
        scores = scores_before(log, end, n)
        totals = ", ".join(f"{names[seat]} {scores[seat]}" for seat in range(n))
        lines += ["", t("summer_pavilion.round.scores", scores=totals)]
        return "\n".join(lines)

    def final(self, t: Translator, view: SummerPavilionView, result: Result, names: Names) -> str:
        winners = result.winners
        key = (
            "summer_pavilion.final.winner" if len(winners) == 1 else "summer_pavilion.final.shared"
        )
        lines = [t(key, names=names.join(winners)), ""]
        final = next((e for e in reversed(view["log"]) if e["type"] == "final"), None)
        players = {p["seat"]: p for p in final["players"]} if final else {}
        order = sorted(range(len(names)), key=lambda seat: (result.ranks[seat], seat))
        for seat in order:
            lines.append(
                f"{medal(result.ranks[seat])} "
                + t(
                    "summer_pavilion.final.line",
                    name=names[seat],
                    score=t.plural("summer_pavilion.points", result.scores[seat]),
                )
            )
            figures = players.get(seat)
            if figures is None:
                continue
            stars = ", ".join(
                f"{star_icon(view, star)} +{points}" for star, points in figures["stars"]
            )
            numbers = ", ".join(
                f"{circled(number)} +{points}" for number, points in figures["numbers"]
            )
            lines.append(
                "    "
                + t(
                    "summer_pavilion.final.detail",
                    before=figures["before"],
                    stars=stars or "—",
                    numbers=numbers or "—",
                    corners=figures["corner_penalty"],
                )
            )
        lines += ["", t("summer_pavilion.final.tiebreak")]
        return "\n".join(lines)

    # -- private ---------------------------------------------------------------------------
    def _own_lines(self, t: Translator, view: SummerPavilionView, seat: int) -> list[str]:
        player = view["players"][seat]
        score = t.plural("summer_pavilion.points", player["score"])
        lines = [t("summer_pavilion.prompt.score", score=score)]
        lines.append(t("summer_pavilion.prompt.stars"))
        board = player["board"]
        for star in range(7):
            lines.append(star_cells_private(view, board, star))
        hand = tiles_counts(player["hand"], "×") or "—"
        lines.append(t("summer_pavilion.prompt.hand", tiles=hand))
        if any(player["corners"]):
            corners = tiles_counts(player["corners"], "×")
            lines.append(t("summer_pavilion.prompt.corners", tiles=corners))
        return lines

    def prompt(
        self,
        t: Translator,
        view: SummerPavilionView,
        seat: int,
        legal: Sequence[Action],
        draft: Any,
        names: Names,
    ) -> Screen:
        lines = [f"<b>{self.title(t)}</b>"]
        if view["phase"] == "over":
            lines.append(t("summer_pavilion.prompt.over"))
            lines.append("")
            lines += self._own_lines(t, view, seat)
            return Screen("\n".join(lines))
        lines.append(self._round_line(t, view))
        if view["next_wild"] is not None:
            lines.append(
                t("summer_pavilion.prompt.next_wild", wild=colour_name(t, view["next_wild"]))
            )
        boards = len(lines)
        lines.append("")
        lines += self._own_lines(t, view, seat)
        choice = len(lines)
        lines.append("")
        if not legal:
            if view["players"][seat]["passed"]:
                lines.append(t("summer_pavilion.prompt.passed"))
            lines.append(self._turn_line(t, view, names))
            if view["phase"] == "taking":
                lines += self._table_lines(t, view)
            return Screen("\n".join(lines))
        moves = [as_action(action) for action in legal]
        phase = view["phase"]
        board = len(lines)
        if phase == "taking":
            rows = self._take_choices(t, view, moves, draft, lines)
        elif phase == "placing":
            rows = self._place_choices(t, view, seat, moves, draft, lines)
        elif phase == "bonus":
            rows = self._bonus_choices(t, view, moves, lines)
        else:
            rows = self._keep_choices(t, view, seat, moves, lines)
        # the choice and its buttons: each colour with its picture's symbol
        lines[board:] = [with_shapes(line, COLOUR_EMOJI, COLOURS) for line in lines[board:]]
        caption = without_boards(lines, boards, choice)
        return Screen("\n".join(lines), shape_buttons(rows, COLOUR_EMOJI, COLOURS), caption)

    # phase 1: a source, then a colour ---------------------------------------------------
    @staticmethod
    def _take_source(draft: Any, moves: list[SummerPavilionAction]) -> int | None:
        """The source selected in the draft while it still has tiles to take."""
        sources = {move.source for move in moves if type(move) is Take}
        if isinstance(draft, dict) and draft.get("src") in sources:
            return draft["src"]
        return None

    def _take_choices(
        self,
        t: Translator,
        view: SummerPavilionView,
        moves: list[SummerPavilionAction],
        draft: Any,
        lines: list[str],
    ) -> list[list[Button]]:
        takes = [move for move in moves if type(move) is Take]
        source = self._take_source(draft, moves)
        first_free = view["first_player_tile"] < 0
        if source is None:
            lines.append(t("summer_pavilion.prompt.take"))
            if first_free and any(view["centre"]):
                lines.append(t("summer_pavilion.prompt.take_first", first=FIRST_TILE))
            lines.append(t("summer_pavilion.board.supply", tiles=tiles_row(view["supply"]) or "—"))
            sources = sorted({take.source for take in takes})
            factories = [
                Button(f"{circled(k)} {tiles_row(source_tiles(view, k))}", draft=f"s{k}")
                for k in sources
                if k
            ]
            # two a row: each tile with its symbol ("① 🟧★🟧★🟨▲🟥◆") fits a phone's button
            rows = [factories[i : i + 2] for i in range(0, len(factories), 2)]
            if 0 in sources:
                label = t(
                    "summer_pavilion.prompt.centre_button", tiles=tiles_counts(view["centre"], "×")
                )
                if first_free:
                    label += f" {FIRST_TILE}"
                rows.append([Button(label, draft="s0")])
            return rows
        lines.append(
            t(
                "summer_pavilion.prompt.take_colour",
                source=self._source_name(t, source),
                tiles=tiles_counts(source_tiles(view, source), "×"),
            )
        )
        if source == 0 and first_free:
            lines.append(t("summer_pavilion.prompt.take_first", first=FIRST_TILE))
        buttons = [
            Button(take_text(view, take), action=take) for take in takes if take.source == source
        ]
        rows = [buttons[i : i + 2] for i in range(0, len(buttons), 2)]
        rows.append([Button(t("summer_pavilion.prompt.back"), draft="b")])
        return rows

    # phase 2: a star, a space, a colour, the wild tiles ---------------------------------
    @staticmethod
    def _place_selection(draft: Any, moves: list[SummerPavilionAction]) -> PlaceSelection:
        """The selected star, space and colour, each kept only while it still leads to a
        legal placement; a colour with no alternative is selected already."""
        if not isinstance(draft, dict):
            return PlaceSelection()
        star, space, colour = draft.get("s"), draft.get("p"), draft.get("c")
        if star is None or not placements(moves, star=star):
            return PlaceSelection()
        if space is None or not placements(moves, star=star, space=space):
            return PlaceSelection(star)
        colours = sorted({place.colour for place in placements(moves, star=star, space=space)})
        if colour not in colours:
            colour = colours[0] if len(colours) == 1 else None
        return PlaceSelection(star, space, colour)

    def _place_choices(
        self,
        t: Translator,
        view: SummerPavilionView,
        seat: int,
        moves: list[SummerPavilionAction],
        draft: Any,
        lines: list[str],
    ) -> list[list[Button]]:
        selection = self._place_selection(draft, moves)
        rows: list[list[Button]] = []
        if not placements(moves):
            lines.append(t("summer_pavilion.prompt.cannot_place"))
        elif selection.star is None:
            rows = self._star_choices(t, view, moves, lines)
        elif selection.space is None:
            rows = self._space_choices(t, view, seat, moves, selection.star, lines)
        else:
            rows = self._payment_choices(t, view, moves, selection, lines)
        if selection.star is None:
            lines.append(self._pass_hint(t, view, seat))
        rows.append([Button(t("summer_pavilion.prompt.pass_button"), action=PASS_ACTION)])
        return rows

    def _star_choices(
        self,
        t: Translator,
        view: SummerPavilionView,
        moves: list[SummerPavilionAction],
        lines: list[str],
    ) -> list[list[Button]]:
        lines.append(t("summer_pavilion.prompt.place"))
        stars = sorted({place.star for place in placements(moves)})
        buttons = [Button(star_label(t, view, star), draft=f"t{star}") for star in stars]
        return [buttons[i : i + 2] for i in range(0, len(buttons), 2)]

    def _space_choices(
        self,
        t: Translator,
        view: SummerPavilionView,
        seat: int,
        moves: list[SummerPavilionAction],
        star: int,
        lines: list[str],
    ) -> list[list[Button]]:
        """One button per free space of ``star`` with its cost and gain; a space with a
        single way to pay makes the placement at once."""
        lines.append(t("summer_pavilion.prompt.space", star=star_label(t, view, star)))
        rows = []
        for space in sorted({place.space for place in placements(moves, star=star)}):
            ways = placements(moves, star=star, space=space)
            points, bonus = placement_preview(view, seat, star, space)
            gain = f"+{points}" + (f" 🎁{bonus}" if bonus else "")
            if len(ways) == 1:
                label = t(
                    "summer_pavilion.prompt.space_pay",
                    space=space_label(view, star, space),
                    tiles=self._payment(view, ways[0]),
                    gain=gain,
                )
                rows.append([Button(label, action=ways[0])])
            else:
                cost = view["numbers"][star][space - 1]
                label = t.plural(
                    "summer_pavilion.prompt.space_button",
                    cost,
                    space=space_label(view, star, space),
                    gain=gain,
                )
                rows.append([Button(label, draft=f"p{space}")])
        rows.append([Button(t("summer_pavilion.prompt.back"), draft="b")])
        return rows

    def _payment_choices(
        self,
        t: Translator,
        view: SummerPavilionView,
        moves: list[SummerPavilionAction],
        selection: PlaceSelection,
        lines: list[str],
    ) -> list[list[Button]]:
        """The colour for the chosen space (a colour with one way to pay places at once),
        or, once the colour is chosen, the number of wild tiles to spend."""
        star, space = selection.star, selection.space
        assert star is not None and space is not None
        where = t(
            "summer_pavilion.prompt.where",
            star=star_label(t, view, star),
            space=space_label(view, star, space),
            cost=view["numbers"][star][space - 1],
        )
        ways = placements(moves, star=star, space=space)
        buttons = []
        if selection.colour is None:
            lines.append(t("summer_pavilion.prompt.colour", where=where))
            for colour in sorted({place.colour for place in ways}):
                same = [place for place in ways if place.colour == colour]
                if len(same) == 1:
                    buttons.append(Button(self._payment(view, same[0]), action=same[0]))
                else:
                    buttons.append(Button(colour_name(t, colour), draft=f"c{colour}"))
        else:
            lines.append(t("summer_pavilion.prompt.wilds", where=where, wild=square(view["wild"])))
            buttons = [
                Button(self._payment(view, place), action=place)
                for place in ways
                if place.colour == selection.colour
            ]
        rows = [buttons[i : i + 2] for i in range(0, len(buttons), 2)]
        rows.append([Button(t("summer_pavilion.prompt.back"), draft="b")])
        return rows

    @staticmethod
    def _payment(view: SummerPavilionView, place: Place) -> str:
        cost = view["numbers"][place.star][place.space - 1]
        return payment(place.colour, cost, place.wilds, view["wild"])

    def _pass_hint(self, t: Translator, view: SummerPavilionView, seat: int) -> str:
        player = view["players"][seat]
        keep = keep_room(player["corners"], player["hand"])
        return t.plural("summer_pavilion.prompt.pass_hint", keep)

    # bonus tiles ------------------------------------------------------------------------
    def _bonus_choices(
        self,
        t: Translator,
        view: SummerPavilionView,
        moves: list[SummerPavilionAction],
        lines: list[str],
    ) -> list[list[Button]]:
        lines.append(self._bonus_reason(t, view))
        lines.append(t.plural("summer_pavilion.prompt.bonus", view["bonus_due"]))
        lines.append(t("summer_pavilion.board.supply", tiles=tiles_row(view["supply"])))
        buttons = [
            Button(f"{colour_name(t, move.colour)} ({view['supply'][move.colour]})", action=move)
            for move in moves
            if type(move) is Bonus
        ]
        return [buttons[i : i + 2] for i in range(0, len(buttons), 2)]

    @staticmethod
    def _bonus_reason(t: Translator, view: SummerPavilionView) -> str:
        """Which structures the placement just made surrounded: "🏛 pillar surrounded: +1"."""
        placed = next(event for event in reversed(view["log"]) if event["type"] == "place")
        # bonus tiles are owed only right after a placement that surrounded something
        reasons = [t(f"summer_pavilion.structure.{kind}") for kind, _ in placed["structures"]]
        return t("summer_pavilion.prompt.bonus_reason", structures=", ".join(reasons))

    # keeping tiles on the corners -------------------------------------------------------
    def _keep_choices(
        self,
        t: Translator,
        view: SummerPavilionView,
        seat: int,
        moves: list[SummerPavilionAction],
        lines: list[str],
    ) -> list[list[Button]]:
        player = view["players"][seat]
        held = sum(player["hand"])
        loss = score_loss(held, player["score"])
        left = keep_room(player["corners"], player["hand"])
        lines.append(t.plural("summer_pavilion.prompt.keep", left))
        if view["round"] == view["rounds"]:
            lines.append(t("summer_pavilion.prompt.keep_last"))
        lines.append(
            t.plural(
                "summer_pavilion.prompt.discard", held, tiles=tiles_row(player["hand"]), points=loss
            )
        )
        buttons = [
            Button(
                t(
                    "summer_pavilion.prompt.keep_button",
                    tile=square(move.colour),
                    count=player["hand"][move.colour],
                ),
                action=move,
            )
            for move in moves
            if type(move) is Keep
        ]
        rows = [buttons[i : i + 3] for i in range(0, len(buttons), 3)]
        done = t("summer_pavilion.prompt.done_button", count=held, points=loss)
        rows.append([Button(done, action=DONE_ACTION)])
        return rows

    # selection steps --------------------------------------------------------------------
    def draft(
        self, view: SummerPavilionView, seat: int, legal: Sequence[Action], draft: Any, step: str
    ) -> DraftStep:
        if not legal or not step:
            raise BadDraft(step)
        moves = [as_action(action) for action in legal]
        phase = view["phase"]
        kind, number = step[0], step[1:]
        if kind == "b" and not number:
            return DraftStep(self._back(phase, draft, moves))
        if not (number.isascii() and number.isdigit()) or len(number) > 2:
            raise BadDraft(step)
        value = int(number)
        if phase == "taking" and kind == "s":
            if not any(type(move) is Take and move.source == value for move in moves):
                raise BadDraft(step)
            return DraftStep({"src": value})
        if phase != "placing":
            raise BadDraft(step)
        star, space, _ = self._place_selection(draft, moves)
        if kind == "t" and placements(moves, star=value):
            return DraftStep({"s": value})
        if kind == "p" and star is not None and placements(moves, star=star, space=value):
            return DraftStep({"s": star, "p": value})
        if (
            kind == "c"
            and star is not None
            and space is not None
            and placements(moves, star=star, space=space, colour=value)
        ):
            return DraftStep({"s": star, "p": space, "c": value})
        raise BadDraft(step)

    def _back(self, phase: str, draft: Any, moves: list[SummerPavilionAction]) -> dict | None:
        if phase == "taking":
            return None
        if phase != "placing":
            raise BadDraft("b")
        star, space, _ = self._place_selection(draft, moves)
        explicit = isinstance(draft, dict) and "c" in draft and space is not None
        if explicit:
            return {"s": star, "p": space}
        if space is not None:
            return {"s": star}
        return None

    def move_label(
        self,
        t: Translator,
        view: SummerPavilionView,
        action: Action,
        seat: int,
        suggested: bool = False,
    ) -> str:
        kind = "summer_pavilion.suggested" if suggested else "summer_pavilion.played"
        match as_action(action):
            case Take() as take:
                return t(f"{kind}.take", tiles=take_text(view, take))
            case Place() as place:
                return t(
                    f"{kind}.place",
                    tile=square(place.colour),
                    star=star_label(t, view, place.star),
                    space=space_label(view, place.star, place.space),
                    tiles=self._payment(view, place),
                )
            case Pass():
                return t(f"{kind}.pass")
            case Bonus(colour=colour):
                return t(f"{kind}.bonus", tile=square(colour))
            case Keep(colour=colour):
                return t(f"{kind}.keep", tile=square(colour))
            case Done():
                return t(f"{kind}.done")
        return t("play.move_done")


UI = SummerPavilionUI()
