"""A tile game's round as it was scored, for the table app: Azul's wall — each tile moved
onto it with its points, the floor's penalty, the end bonuses — and Summer Pavilion's
placements — each tile placed with its points, the tiles lost, the end bonuses. Read from
the match's log (what the engines wrote while scoring), shown from the round's end until the
next round's first move, and after the last round above the end screen.

Each row is one seat's; each item a placed tile (``colour``, ``points``, and where it lies)
or a figure (``kind``: floor, lost, first — the first-player tile's cost —, bonus;
``points``), in the order they were scored: the
page plays them one after another."""

from __future__ import annotations

from typing import Any

from bot.presentation.i18n import Translator
from bot.presentation.ui.base import Names
from bot.presentation.ui.summer_pavilion_pieces import star_name

Item = dict[str, Any]


def summary(game: str, t: Translator, view: dict, names: Names) -> Item | None:
    if game == "azul":
        return azul(t, view, names)
    if game == "summer_pavilion":
        return summer_pavilion(t, view, names)
    return None


def _rows(names: Names, scores: list[int]) -> list[Item]:
    return [
        {"seat": seat, "name": names[seat], "items": [], "total": scores[seat]}
        for seat in range(len(scores))
    ]


def _points(rows: list[Item], start: list[int]) -> None:
    """Each row's change over the round, as the card games' summaries write it."""
    for row in rows:
        change = row["total"] - start[row["seat"]]
        row["points"] = f"{'+' if change >= 0 else '−'}{abs(change)}"


def azul(t: Translator, view: dict, names: Names) -> Item | None:
    """The last wall tiling, until the next round's first draft."""
    log = view["log"]
    last = max((i for i, e in enumerate(log) if e["type"] == "wall_tiling"), default=None)
    if last is None or any(e["type"] == "draft" for e in log[last:]):
        return None
    round_no = log[last]["round"]
    rows = _rows(names, list(view["scores"]))
    start = [0] * len(rows)
    for entry in log:
        seat = entry.get("seat")
        if entry.get("round") != round_no and entry["type"] != "final_bonus":
            continue
        if entry["type"] == "tile_placed":
            if not rows[seat]["items"]:
                start[seat] = entry["score"] - entry["points"]
            rows[seat]["items"].append(
                {
                    "kind": "tile",
                    "colour": entry["colour"],
                    "row": entry["row"],
                    "column": entry["column"],
                    "points": entry["points"],
                }
            )
        elif entry["type"] == "wall_tiling":
            if not rows[seat]["items"]:
                start[seat] = entry["score_before_penalty"]
            penalty = entry["score_before_penalty"] - entry["score"]  # clamped at 0
            if penalty:
                rows[seat]["items"].append({"kind": "floor", "points": -penalty})
        elif entry["type"] == "final_bonus" and entry["bonus"]:
            rows[seat]["items"].append({"kind": "bonus", "points": entry["bonus"]})
    _points(rows, start)
    return {
        "id": f"azul.{round_no}",
        "title": t("table.azul.round_over", round=round_no),
        "rows": rows,
    }


def summer_pavilion(t: Translator, view: dict, names: Names) -> Item | None:
    """The last round's placements, from its end until the next round's first take; after
    the last round, with the end bonuses."""
    log = view["log"]
    placing = [i for i, e in enumerate(log) if e["type"] == "placing"]
    if not placing:
        return None
    begun = placing[-1]
    after = log[begun:]
    ended = next((i for i, e in enumerate(after) if e["type"] in ("round", "final")), None)
    if ended is None or any(e["type"] == "take" for e in after[ended:]):
        return None
    opened = max((i for i in range(begun) if log[i]["type"] == "round"), default=0)
    round_no = log[opened]["round"] if log[opened]["type"] == "round" else 1
    scores = list(view["scores"] if "scores" in view else [p["score"] for p in view["players"]])
    rows = _rows(names, scores)
    changes = [0] * len(rows)
    for entry in log[opened : begun + ended + 1]:
        seat = entry.get("seat")
        if entry["type"] == "take" and entry.get("first_player_tile"):
            lost = entry["first_player_tile"]  # the first-player tile's cost, when taken
            rows[seat]["items"].append({"kind": "first", "points": -lost})
            changes[seat] -= lost
        elif entry["type"] == "place":
            rows[seat]["items"].append(
                {
                    "kind": "tile",
                    "colour": entry["colour"],
                    "star": entry["star"],
                    "space": entry["space"],
                    "points": entry["points"],
                }
            )
            changes[seat] += entry["points"]
        elif entry["type"] == "pass" and entry.get("penalty"):
            rows[seat]["items"].append({"kind": "lost", "points": -entry["penalty"]})
            changes[seat] -= entry["penalty"]
        elif entry["type"] == "final":
            for figures in entry["players"]:
                number = figures["seat"]
                bonus = figures["score"] - figures["before"] + figures["corner_penalty"]
                if bonus:
                    rows[number]["items"].append({"kind": "bonus", "points": bonus})
                if figures["corner_penalty"]:
                    rows[number]["items"].append(
                        {"kind": "lost", "points": -figures["corner_penalty"]}
                    )
                changes[number] += figures["score"] - figures["before"]
    _points(rows, [row["total"] - change for row, change in zip(rows, changes, strict=True)])
    return {
        "id": f"summer_pavilion.{round_no}",
        "title": t("table.summer_pavilion.round_over", round=round_no),
        "rows": rows,
    }


def labels(game: str, t: Translator, view: dict) -> Item | None:
    """What a screen reader calls a board's parts the page cannot name from its words
    alone: Summer Pavilion's stars (by colour; in Variant 1 by number)."""
    if game != "summer_pavilion":
        return None
    return {"stars": [star_name(t, view, star) for star in range(len(view["star_colours"]))]}
