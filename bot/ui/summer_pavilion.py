"""Azul Mini: Summer Pavilion screens.

Group board: the round and its wild colour, the phase and whose move it is, the factories
and the centre (phase 1), the supply, the last move, and for every player one line with the
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
* bonus tiles: one press per tile from the supply, the prompt says how many remain;
* after passing: one press per tile kept on a corner (up to 4), then "Done", which shows
  what goes to the tower and the points it costs.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import Translator
from bot.ui.base import BadDraft, Button, DraftStep, GameUI, Names, Screen, medal
from games.core import Action, Result, View
from games.summer_pavilion.engine import (
    BONUS,
    COLOURS,
    CORNERS,
    DONE,
    EMPTY,
    ENGINE,
    KEEP,
    PASS,
    PLACE,
    STRUCTURE_BONUS,
    STRUCTURES,
    TAKE,
    completed_structures,
    ring_points,
)

COLOUR_EMOJI = ("🟪", "🟩", "🟧", "🟨", "🟦", "🟥")  # purple, green, orange, yellow, blue, red
CIRCLED = "⓪①②③④⑤⑥⑦⑧⑨"
KEYCAP = "\ufe0f\u20e3"
CENTRE_ICON = "🌈"
VARIANT1_CENTRE_ICON = "🌟"
VARIANT1_STAR_ICON = "⭐"
FIRST_TILE = "1" + KEYCAP
STRUCTURE_EMOJI = ("🏛", "🗿", "🪟")  # pillar, statue, window
TURN_MARK = "👉 "
EMPTY_SPACE = "·"


# -- small renderings --------------------------------------------------------------------------
def square(colour: int) -> str:
    return COLOUR_EMOJI[colour]


def colour_name(t: Translator, colour: int) -> str:
    """ "🟪 purple"."""
    return f"{COLOUR_EMOJI[colour]} {t('summer_pavilion.colour.' + COLOURS[colour])}"


def tiles_row(counts: list[int]) -> str:
    """A small pile as squares, one per tile: "🟪🟪🟨🟥"."""
    return "".join(COLOUR_EMOJI[c] * count for c, count in enumerate(counts))


def tiles_counts(counts: list[int], sep: str = "") -> str:
    """A pile as counts per colour: "🟥3 🟩1" (``sep`` between square and count)."""
    return " ".join(f"{COLOUR_EMOJI[c]}{sep}{count}" for c, count in enumerate(counts) if count)


def tiles_list(colours: list[int]) -> str:
    """Tiles given one per entry, as squares."""
    return "".join(COLOUR_EMOJI[c] for c in colours)


def keycap(number: int) -> str:
    return f"{number}{KEYCAP}"


def circled(number: int) -> str:
    return CIRCLED[number] if 0 <= number < len(CIRCLED) else f"({number})"


def variant1(view: View) -> bool:
    return bool(view["options"]["variant1"])


def star_icon(view: View, star: int) -> str:
    if variant1(view):
        return VARIANT1_CENTRE_ICON if star == 0 else f"{VARIANT1_STAR_ICON}{star}"
    colour = view["star_colours"][star]
    return CENTRE_ICON if colour < 0 else COLOUR_EMOJI[colour]


def star_name(t: Translator, view: View, star: int) -> str:
    if star == 0:
        return t("summer_pavilion.star.0")
    if variant1(view):
        return t("summer_pavilion.star.numbered", n=star)
    return t(f"summer_pavilion.star.{star}")


def star_label(t: Translator, view: View, star: int) -> str:
    """ "🟪 Purple star"; Variant 1: "⭐ Star 3"."""
    icon = VARIANT1_STAR_ICON if variant1(view) and star else star_icon(view, star)
    return f"{icon} {star_name(t, view, star)}"


def star_cells_public(view: View, board: list[list[int]], star: int) -> str:
    """ "🟪①②·④··": the star's icon, then each space: its printed number if filled."""
    numbers = view["numbers"][star]
    cells = "".join(
        circled(numbers[offset]) if tile != EMPTY else EMPTY_SPACE
        for offset, tile in enumerate(board[star])
    )
    return star_icon(view, star) + cells


def star_cells_private(view: View, board: list[list[int]], star: int) -> str:
    """ "🟪 🟪🟪3️⃣4️⃣🟪6️⃣": a filled space as its tile, an empty one as its cost."""
    numbers = view["numbers"][star]
    cells = "".join(
        COLOUR_EMOJI[tile] if tile != EMPTY else keycap(numbers[offset])
        for offset, tile in enumerate(board[star])
    )
    return f"{star_icon(view, star)} {cells}"


def payment(colour: int, cost: int, wilds: int, wild: int) -> str:
    """ "🟥×3 + 🟪×1": the tiles spent on a placement."""
    text = f"{COLOUR_EMOJI[colour]}×{cost - wilds}"
    if wilds:
        text += f" + {COLOUR_EMOJI[wild]}×{wilds}"
    return text


def take_text(view: View, source: int, colour: int) -> str:
    """What a take gets: "🟥×2 + 🟪" (all of a colour, plus one wild tile if any)."""
    tiles = view["centre"] if source == 0 else view["factories"][source - 1]
    wild = view["wild"]
    if colour == wild:
        return f"{COLOUR_EMOJI[wild]}×1"
    text = f"{COLOUR_EMOJI[colour]}×{tiles[colour]}"
    if tiles[wild]:
        text += f" + {COLOUR_EMOJI[wild]}"
    return text


def flat_board(board: list[list[int]]) -> list[int]:
    return [tile for star in board for tile in star]


def preview(view: View, seat: int, star: int, space: int) -> tuple[int, int]:
    """Points and bonus tiles a placement on (star, space) would bring."""
    board = flat_board(view["players"][seat]["board"])
    index = star * 6 + space - 1
    board[index] = 0  # any colour: points and structures only depend on filled spaces
    done = completed_structures(board, index)
    bonus = sum(STRUCTURE_BONUS[STRUCTURES[sid][0]] for sid in done)
    return ring_points(board, index), min(bonus, sum(view["supply"]))


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


def scores_after(log: list[dict], end: int, num_players: int, start_score: int = 5) -> list[int]:
    """Scores reconstructed from the log up to (not including) ``end``: points of
    placements, losses of the first-player tile and of passes (already floored at 0)."""
    scores = [start_score] * num_players
    for event in log[:end]:
        kind = event["type"]
        if kind == "take" and "first_player_tile" in event:
            scores[event["seat"]] -= event["first_player_tile"]
        elif kind == "place":
            scores[event["seat"]] += event["points"]
        elif kind == "pass" and not event.get("auto"):
            scores[event["seat"]] -= event["penalty"]
    return scores


class SummerPavilionUI(GameUI):
    engine = ENGINE

    # -- shared pieces ---------------------------------------------------------------------
    def _round_line(self, t: Translator, view: View) -> str:
        return t(
            "summer_pavilion.board.round",
            round=view["round"],
            rounds=view["rounds"],
            wild=colour_name(t, view["wild"]),
        )

    def _turn_line(self, t: Translator, view: View, names: Names) -> str:
        phase = view["phase"]
        name = names[view["current"]]
        if phase == "bonus":
            return t.plural("summer_pavilion.board.turn.bonus", view["bonus_due"], name=name)
        return t(f"summer_pavilion.board.turn.{phase}", name=name)

    def _source_name(self, t: Translator, source: int) -> str:
        if source == 0:
            return t("summer_pavilion.source.centre")
        return t("summer_pavilion.source.factory", n=source)

    def _table_lines(self, t: Translator, view: View) -> list[str]:
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
            centre = tiles_counts(view["centre"], "×") or "—"
            if view["first_player_tile"] < 0:
                lines.append(
                    t("summer_pavilion.board.centre_first", tiles=centre, first=FIRST_TILE)
                )
            else:
                lines.append(t("summer_pavilion.board.centre", tiles=centre))
        supply = tiles_row(view["supply"]) or "—"
        lines.append(t("summer_pavilion.board.supply", tiles=supply))
        return lines

    def _player_lines(self, t: Translator, view: View, names: Names, seat: int) -> list[str]:
        player = view["players"][seat]
        over = view["phase"] == "over"
        mark = TURN_MARK if view["current"] == seat else ""
        parts = [
            f"{mark}<b>{names[seat]}</b> — " + t.plural("summer_pavilion.points", player["score"])
        ]
        if not over and view["first_player_tile"] == seat:
            parts.append(FIRST_TILE)
        if any(player["hand"]):
            parts.append(t("summer_pavilion.board.hand", tiles=tiles_counts(player["hand"])))
        if any(player["corners"]):
            parts.append(t("summer_pavilion.board.corners", tiles=tiles_counts(player["corners"])))
        if not over and player["passed"]:
            parts.append(t("summer_pavilion.board.passed"))
        board = player["board"]
        stars = [star_cells_public(view, board, star) for star in range(7)]
        return [" · ".join(parts), "    " + " ".join(stars[:4]), "    " + " ".join(stars[4:])]

    def _last_move(self, t: Translator, view: View, names: Names) -> str | None:
        """The latest take, placement, bonus tile or pass of this round."""
        for event in reversed(view["log"]):
            kind = event["type"]
            if kind in ("round", "final"):
                return None
            if kind not in ("take", "place", "bonus", "pass"):
                continue
            name = names[event["seat"]]
            if kind == "take":
                tiles = f"{square(event['colour'])}×{event['count']}"
                if event["wild"]:
                    tiles += f" + {square(view['wild'])}"
                text = t(
                    "summer_pavilion.last.take",
                    name=name,
                    tiles=tiles,
                    source=self._source_name(t, event["source"]),
                )
                if "first_player_tile" in event:
                    text += " " + t(
                        "summer_pavilion.last.first",
                        first=FIRST_TILE,
                        points=event["first_player_tile"],
                    )
                return text
            if kind == "place":
                return t(
                    "summer_pavilion.last.place",
                    name=name,
                    move=self._placement_text(view, event),
                )
            if kind == "bonus":
                return t("summer_pavilion.last.bonus", name=name, tile=square(event["colour"]))
            return t("summer_pavilion.last.pass", name=name, detail=self._pass_text(t, event))
        return None

    def _placement_text(self, view: View, event: dict) -> str:
        """ "🟥→🟥④ +3", with the structures completed: "🪟🎁"."""
        star, space = event["star"], event["space"]
        number = view["numbers"][star][space - 1]
        text = (
            f"{square(event['colour'])}→{star_icon(view, star)}{circled(number)} +{event['points']}"
        )
        if event.get("structures"):
            text += " " + "".join(STRUCTURE_EMOJI[kind] for kind, _ in event["structures"])
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
    def board(self, t: Translator, view: View, names: Names) -> Screen:
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
        last = None if view["phase"] == "over" else self._last_move(t, view, names)
        if last:
            lines += ["", last]
        return Screen("\n".join(lines))

    def private_button_label(self, t: Translator) -> str:
        return t("summer_pavilion.private_button")

    def announce(self, t: Translator, events: list[dict], view: View, names: Names) -> list[str]:
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

    def _round_summary(self, t: Translator, view: View, names: Names, round_no: int) -> str:
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
                moves[event["seat"]].append(self._placement_text(view, event))
            elif kind == "bonus":
                seat_moves = moves[event["seat"]]
                if seat_moves and "🎁" in seat_moves[-1]:
                    seat_moves[-1] += square(event["colour"])
                elif seat_moves:
                    seat_moves[-1] += "🎁" + square(event["colour"])
            elif kind == "pass":
                moves[event["seat"]].append(self._pass_text(t, event))
        lines.append("")
        for seat in range(n):
            done = ", ".join(moves[seat]) if moves[seat] else t("summer_pavilion.round.nothing")
            lines.append(f"<b>{names[seat]}</b>: {done}")
        scores = scores_after(log, end, n)
        totals = ", ".join(f"{names[seat]} {scores[seat]}" for seat in range(n))
        lines += ["", t("summer_pavilion.round.scores", scores=totals)]
        return "\n".join(lines)

    def final(self, t: Translator, view: View, result: Result, names: Names) -> str:
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
    def _own_lines(self, t: Translator, view: View, seat: int) -> list[str]:
        player = view["players"][seat]
        lines = [t("summer_pavilion.prompt.score", score=player["score"])]
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
        self, t: Translator, view: View, seat: int, legal: list[Action], draft: Any, names: Names
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
        lines.append("")
        lines += self._own_lines(t, view, seat)
        lines.append("")
        if not legal:
            if view["players"][seat]["passed"]:
                lines.append(t("summer_pavilion.prompt.passed"))
            lines.append(self._turn_line(t, view, names))
            if view["phase"] == "taking":
                lines += self._table_lines(t, view)
            return Screen("\n".join(lines))
        phase = view["phase"]
        if phase == "taking":
            rows = self._take_choices(t, view, legal, draft, lines)
        elif phase == "placing":
            rows = self._place_choices(t, view, seat, legal, draft, lines)
        elif phase == "bonus":
            rows = self._bonus_choices(t, view, legal, lines)
        else:
            rows = self._keep_choices(t, view, seat, legal, lines)
        return Screen("\n".join(lines), rows)

    # phase 1 ----------------------------------------------------------------------------
    @staticmethod
    def _take_source(draft: Any, legal: list[Action]) -> int | None:
        sources = {action[1] for action in legal if action[0] == TAKE}
        if isinstance(draft, dict) and draft.get("src") in sources:
            return draft["src"]
        return None

    def _take_choices(
        self, t: Translator, view: View, legal: list[Action], draft: Any, lines: list[str]
    ) -> list[list[Button]]:
        source = self._take_source(draft, legal)
        first_free = view["first_player_tile"] < 0
        if source is None:
            lines.append(t("summer_pavilion.prompt.take"))
            if first_free and any(view["centre"]):
                lines.append(t("summer_pavilion.prompt.take_first", first=FIRST_TILE))
            lines.append(t("summer_pavilion.board.supply", tiles=tiles_row(view["supply"]) or "—"))
            sources = sorted({action[1] for action in legal})
            factories = [
                Button(f"{circled(k)} {tiles_row(view['factories'][k - 1])}", draft=f"s{k}")
                for k in sources
                if k
            ]
            rows = [factories[i : i + 3] for i in range(0, len(factories), 3)]
            if 0 in sources:
                label = t(
                    "summer_pavilion.prompt.centre_button", tiles=tiles_counts(view["centre"], "×")
                )
                if first_free:
                    label += f" {FIRST_TILE}"
                rows.append([Button(label, draft="s0")])
            return rows
        tiles = view["centre"] if source == 0 else view["factories"][source - 1]
        lines.append(
            t(
                "summer_pavilion.prompt.take_colour",
                source=self._source_name(t, source),
                tiles=tiles_counts(tiles, "×"),
            )
        )
        if source == 0 and first_free:
            lines.append(t("summer_pavilion.prompt.take_first", first=FIRST_TILE))
        buttons = [
            Button(take_text(view, source, action[2]), action=action)
            for action in legal
            if action[1] == source
        ]
        rows = [buttons[i : i + 2] for i in range(0, len(buttons), 2)]
        rows.append([Button(t("summer_pavilion.prompt.back"), draft="b")])
        return rows

    # phase 2 ----------------------------------------------------------------------------
    @staticmethod
    def _place_selection(draft: Any, legal: list[Action]) -> tuple[int | None, ...]:
        """The selected star, space and colour, each kept only while it still leads to a
        legal placement; a colour with no alternative is selected already."""
        placements = [action for action in legal if action[0] == PLACE]
        star = space = colour = None
        if not isinstance(draft, dict):
            return None, None, None
        if any(a[1] == draft.get("s") for a in placements):
            star = draft["s"]
            if any(a[1] == star and a[2] == draft.get("p") for a in placements):
                space = draft["p"]
                colours = sorted({a[3] for a in placements if a[1] == star and a[2] == space})
                if draft.get("c") in colours:
                    colour = draft["c"]
                elif len(colours) == 1:
                    colour = colours[0]
        return star, space, colour

    def _place_choices(
        self,
        t: Translator,
        view: View,
        seat: int,
        legal: list[Action],
        draft: Any,
        lines: list[str],
    ) -> list[list[Button]]:
        placements = [action for action in legal if action[0] == PLACE]
        star, space, colour = self._place_selection(draft, legal)
        wild = view["wild"]
        numbers = view["numbers"]
        rows: list[list[Button]] = []
        back = Button(t("summer_pavilion.prompt.back"), draft="b")
        if not placements:
            lines.append(t("summer_pavilion.prompt.cannot_place"))
        elif star is None:
            lines.append(t("summer_pavilion.prompt.place"))
            stars = sorted({a[1] for a in placements})
            buttons = [Button(star_label(t, view, s), draft=f"t{s}") for s in stars]
            rows = [buttons[i : i + 2] for i in range(0, len(buttons), 2)]
        elif space is None:
            lines.append(t("summer_pavilion.prompt.space", star=star_label(t, view, star)))
            spaces = sorted({a[2] for a in placements if a[1] == star})
            buttons = []
            for p in spaces:
                options = [a for a in placements if a[1] == star and a[2] == p]
                points, bonus = preview(view, seat, star, p)
                gain = f"+{points}" + (f" 🎁{bonus}" if bonus else "")
                cost = numbers[star][p - 1]
                if len(options) == 1:
                    action = options[0]
                    label = t(
                        "summer_pavilion.prompt.space_pay",
                        space=p,
                        tiles=payment(action[3], cost, action[4], wild),
                        gain=gain,
                    )
                    buttons.append(Button(label, action=action))
                else:
                    label = t("summer_pavilion.prompt.space_button", space=p, cost=cost, gain=gain)
                    buttons.append(Button(label, draft=f"p{p}"))
            rows = [[button] for button in buttons]
            rows.append([back])
        else:
            cost = numbers[star][space - 1]
            where = t(
                "summer_pavilion.prompt.where",
                star=star_label(t, view, star),
                space=space,
                cost=cost,
            )
            options = [a for a in placements if a[1] == star and a[2] == space]
            if colour is None:
                lines.append(t("summer_pavilion.prompt.colour", where=where))
                buttons = []
                for c in sorted({a[3] for a in options}):
                    ways = [a for a in options if a[3] == c]
                    if len(ways) == 1:
                        label = payment(c, cost, ways[0][4], wild)
                        buttons.append(Button(label, action=ways[0]))
                    else:
                        buttons.append(Button(colour_name(t, c), draft=f"c{c}"))
                rows = [buttons[i : i + 2] for i in range(0, len(buttons), 2)]
            else:
                lines.append(t("summer_pavilion.prompt.wilds", where=where, wild=square(wild)))
                buttons = [
                    Button(payment(colour, cost, a[4], wild), action=a)
                    for a in options
                    if a[3] == colour
                ]
                rows = [buttons[i : i + 2] for i in range(0, len(buttons), 2)]
            rows.append([back])
        if star is None:
            lines.append(self._pass_hint(t, view, seat))
        rows.append([Button(t("summer_pavilion.prompt.pass_button"), action=(PASS,))])
        return rows

    def _pass_hint(self, t: Translator, view: View, seat: int) -> str:
        held = sum(view["players"][seat]["hand"])
        keep = min(held, CORNERS)
        return t("summer_pavilion.prompt.pass_hint", keep=keep)

    # bonus tiles ------------------------------------------------------------------------
    def _bonus_choices(
        self, t: Translator, view: View, legal: list[Action], lines: list[str]
    ) -> list[list[Button]]:
        lines.append(t.plural("summer_pavilion.prompt.bonus", view["bonus_due"]))
        lines.append(t("summer_pavilion.board.supply", tiles=tiles_row(view["supply"])))
        buttons = [
            Button(f"{colour_name(t, a[1])} ({view['supply'][a[1]]})", action=a)
            for a in legal
            if a[0] == BONUS
        ]
        return [buttons[i : i + 2] for i in range(0, len(buttons), 2)]

    # keeping tiles on the corners -------------------------------------------------------
    def _keep_choices(
        self, t: Translator, view: View, seat: int, legal: list[Action], lines: list[str]
    ) -> list[list[Button]]:
        player = view["players"][seat]
        kept = sum(player["corners"])
        held = sum(player["hand"])
        loss = min(held, player["score"])
        lines.append(t("summer_pavilion.prompt.keep", kept=kept, left=min(CORNERS - kept, held)))
        if view["round"] == view["rounds"]:
            lines.append(t("summer_pavilion.prompt.keep_last"))
        lines.append(
            t("summer_pavilion.prompt.discard", tiles=tiles_row(player["hand"]), points=loss)
        )
        buttons = [
            Button(
                t(
                    "summer_pavilion.prompt.keep_button",
                    tile=square(a[1]),
                    count=player["hand"][a[1]],
                ),
                action=a,
            )
            for a in legal
            if a[0] == KEEP
        ]
        rows = [buttons[i : i + 3] for i in range(0, len(buttons), 3)]
        rows.append(
            [
                Button(
                    t("summer_pavilion.prompt.done_button", count=held, points=loss), action=(DONE,)
                )
            ]
        )
        return rows

    # selection steps --------------------------------------------------------------------
    def draft(self, view: View, seat: int, legal: list[Action], draft: Any, step: str) -> DraftStep:
        if not legal or not step:
            raise BadDraft(step)
        phase = view["phase"]
        kind, number = step[0], step[1:]
        if kind == "b" and not number:
            return DraftStep(self._back(phase, draft, legal))
        if not (number.isascii() and number.isdigit()) or len(number) > 2:
            raise BadDraft(step)
        value = int(number)
        if phase == "taking" and kind == "s":
            if not any(a[1] == value for a in legal if a[0] == TAKE):
                raise BadDraft(step)
            return DraftStep({"src": value})
        if phase != "placing":
            raise BadDraft(step)
        star, space, _ = self._place_selection(draft, legal)
        placements = [a for a in legal if a[0] == PLACE]
        if kind == "t" and any(a[1] == value for a in placements):
            return DraftStep({"s": value})
        if kind == "p" and any(a[1] == star and a[2] == value for a in placements):
            return DraftStep({"s": star, "p": value})
        if kind == "c" and any(
            a[1] == star and a[2] == space and a[3] == value for a in placements
        ):
            return DraftStep({"s": star, "p": space, "c": value})
        raise BadDraft(step)

    def _back(self, phase: str, draft: Any, legal: list[Action]) -> dict | None:
        if phase == "taking":
            return None
        if phase != "placing":
            raise BadDraft("b")
        star, space, _ = self._place_selection(draft, legal)
        explicit = isinstance(draft, dict) and "c" in draft and space is not None
        if explicit:
            return {"s": star, "p": space}
        if space is not None:
            return {"s": star}
        return None

    def move_label(self, t: Translator, view: View, action: Action, seat: int) -> str:
        tag = action[0]
        if tag == TAKE:
            return t("summer_pavilion.played.take", tiles=take_text(view, action[1], action[2]))
        if tag == PLACE:
            _, star, space, colour, wilds = action
            cost = view["numbers"][star][space - 1]
            return t(
                "summer_pavilion.played.place",
                tile=square(colour),
                star=star_label(t, view, star),
                space=space,
                tiles=payment(colour, cost, wilds, view["wild"]),
            )
        if tag == PASS:
            return t("summer_pavilion.played.pass")
        if tag == BONUS:
            return t("summer_pavilion.played.bonus", tile=square(action[1]))
        if tag == KEEP:
            return t("summer_pavilion.played.keep", tile=square(action[1]))
        return t("summer_pavilion.played.done")


UI = SummerPavilionUI()
