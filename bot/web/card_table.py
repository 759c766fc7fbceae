"""A card game drawn as a table, from the view the chat uses (nothing more): the seats
around it — each player's name, points (Sultan's gems), hand size, whether they act — the
centre of each game, one line saying what to do now, the last move (what the page
highlights and moves from its seat to the centre) and, just after a round or a hand ends,
its summary: who took what and the points.

Every centre item has a ``key`` the page follows from one version to the next (a new key is
a card or bid that has just arrived: it travels from the seat ``from``), and every seat,
card and cushion a ``label`` for screen readers, in the viewer's language."""

from __future__ import annotations

from typing import Any

from bot.presentation.i18n import Translator
from bot.presentation.ui import donkey as donkey_ui
from bot.presentation.ui import sultan as sultan_ui
from bot.presentation.ui.base import Names
from bot.web.cards import card
from games.g5211.engine import COLOURS as COLOURS_5211
from games.g5211.engine import (
    colour_counts,
    colour_limit,
    rooster_count,
    rooster_threshold,
)
from games.sultan.engine import GEM_NAMES, GEM_VALUES, score_gems

Item = dict[str, Any]
DONKEY_MOVES = ("play", "pass", "donkey_card", "donkey_led")


def seat_label(t: Translator, name: str, parts: list[str]) -> str:
    return t("table.seat", name=name, detail=", ".join(parts))


def drawn(
    game: str, t: Translator, view: dict, seat: int | None, names: Names, to_act: list[int],
    legal: bool,
) -> dict[str, Any]:  # fmt: skip
    """The table of a card game as ``seat`` (None: a watcher) sees it."""
    return DRAW[game](t, view, seat, names, to_act, legal)


def waiting_line(t: Translator, names: Names, to_act: list[int], seat: int | None) -> str:
    others = [other for other in to_act if other != seat]
    if not others:
        return ""
    return t("table.waiting", names=names.join(others))


# -- 5211 ------------------------------------------------------------------------------------
def _5211(t, view, seat, names, to_act, legal) -> dict[str, Any]:
    n = view["num_players"]
    seats = []
    for number in range(n):
        points = t.plural("table.points", view["points"][number])
        cards = t.plural("table.5211.cards", view["hand_sizes"][number])
        facts = [cards, points]
        if view["options"]["match_target"]:
            facts.append(t("table.match_total", total=view["match_points"][number]))
        seats.append(
            {
                "seat": number,
                "name": names[number],
                "cards": view["hand_sizes"][number],
                "points": view["points"][number],
                "ready": bool(view["ready"][number]) and not view["over"],
                "label": seat_label(t, names[number], facts),
            }
        )
    plays = []
    for number in range(n):
        shown = [card("5211", t, c) for c in view["table"][number]]
        for index, item in enumerate(shown):
            item["key"] = f"{view['game_no']}.{view['round']}.{number}.{index}"
        hidden = view["part_size"] if view["ready"][number] and not view["over"] else 0
        mine = view.get("chosen") if number == seat else None
        backs = []
        for index in range(hidden):
            back: Item = {
                "key": f"{view['game_no']}.{view['round']}.{view['part']}.{number}.b{index}"
            }
            if mine:  # the seat's own choice: face up to it alone, still face down on the table
                back.update(card("5211", t, mine[index]))
            backs.append(back)
        plays.append(
            {
                "seat": number,
                "cards": shown,
                "backs": backs,
                "label": t(
                    "table.5211.played",
                    name=names[number],
                    cards=", ".join(c["label"] for c in shown) or "—",
                    count=hidden,
                ),
            }
        )
    on_table = [c for cards in view["table"] for c in cards]
    counts = colour_counts(on_table)
    limit = colour_limit(n)
    roosters = rooster_count(on_table)
    threshold = rooster_threshold(n)
    colours = [
        {
            "colour": colour,
            "count": counts[colour],
            "limit": limit,
            "over": counts[colour] > limit,
            "label": t(
                "table.5211.colour", colour=t(f"5211.colour.{name}"), count=counts[colour],
                limit=limit,
            ),
        }
        for colour, name in enumerate(COLOURS_5211)
    ]  # fmt: skip
    centre = {
        "heading": ""
        if view["over"]
        else t("5211.board.round", round=view["round"], part=view["part"]),
        "plays": plays,
        "roosters": {
            "count": roosters,
            "threshold": threshold,
            "label": t("table.5211.roosters", count=roosters, threshold=threshold),
        },
        "colours": colours,
        "deck": t.plural("5211.board.deck", view["deck_size"]) if view["deck_size"] else "",
    }
    if legal:
        now = t.plural("table.5211.now", view["part_size"])
    else:
        now = waiting_line(t, names, to_act, seat)
    last = None
    revealed = next((e for e in reversed(view["log"]) if e["type"] == "revealed"), None)
    if revealed is not None and (revealed["game_no"], revealed["round"]) == (
        view["game_no"],
        view["round"],
    ):  # the cards just turned face up: each seat's latest
        keys = []
        for number, cards in enumerate(revealed["cards"]):
            keys += [
                c["key"] for c in plays[number]["cards"][len(plays[number]["cards"]) - len(cards) :]
            ]
        last = {"seat": None, "keys": keys}
    return {
        "seats": seats,
        "centre": centre,
        "now": now,
        "last": last,
        "summary": _5211_summary(t, view, names),
    }


def _5211_summary(t: Translator, view: dict, names: Names) -> Item | None:
    """The round just scored, until anyone chooses in the next one."""
    log = view["log"]
    if any(view["ready"]) or any(view["table"]):
        return None
    scored = next((e for e in reversed(log) if e["type"] == "round_scored"), None)
    if scored is None:
        return None
    played: list[list[int]] = [[] for _ in names]
    for entry in log:
        same = entry.get("game_no") == scored["game_no"] and entry.get("round") == scored["round"]
        if entry["type"] == "revealed" and same:
            for number, cards in enumerate(entry["cards"]):
                played[number].extend(cards)
    rows = []
    for number in range(len(names)):
        taken = scored["scored"][number]
        rows.append(
            {
                "seat": number,
                "name": names[number],
                "cards": [{**card("5211", t, c), "taken": c in taken} for c in played[number]],
                "points": f"+{scored['points'][number]}",
                "total": scored["totals"][number],
            }
        )
    return {
        "id": f"5211.{scored['game_no']}.{scored['round']}",
        "title": t("table.5211.round_over", round=scored["round"]),
        "rows": rows,
    }


# -- Sultan ----------------------------------------------------------------------------------
def gem(t: Translator, colour: int) -> Item:
    return {
        "gem": colour,
        "name": GEM_NAMES[colour],
        "points": GEM_VALUES[colour],
        "label": sultan_ui.gem_worth(t, colour),
    }


def _sultan(t, view, seat, names, to_act, legal) -> dict[str, Any]:
    n = view["num_players"]
    over = view["over"]
    acting = view["pending"]["seat"] if view["pending"] else None
    seats = []
    for number in range(n):
        gems = view["gem_counts"][number]
        facts = [
            t.plural("table.sultan.cards", view["hand_sizes"][number]),
            t.plural("table.sultan.gems", gems),
        ]
        points = None
        if over:
            points = view["scores"][number]
        elif number == seat:  # behind one's own screen: one's points so far
            points = score_gems(view["my_gems"], n)["total"]
        if points is not None:
            facts.append(t.plural("table.points", points))
        seats.append(
            {
                "seat": number,
                "name": names[number],
                "cards": view["hand_sizes"][number],
                "gems": gems,
                "points": points,
                "start": number == view["start"] and not over,
                "label": seat_label(t, names[number], facts),
            }
        )
    mine = list(view.get("my_bids", []))
    bids: list[list[Item]] = [[] for _ in view["cushions"]]
    for index, (bidder, cushion) in enumerate(view["bids"]):
        bid: Item = {"key": f"{view['round']}.{view['circle']}.bid{index}", "seat": bidder}
        if bidder == seat and mine:
            bid["value"] = mine.pop(0)[1]  # one's own bid: its card face up to oneself
        bid["label"] = t("table.sultan.bid", name=names[bidder])
        bids[cushion].append(bid)
    cushions = [
        {
            **gem(t, colour),
            "number": number + 1,
            "key": f"{view['round']}.{view['circle']}.cushion{number}",
            "bids": bids[number],
            "label": t(
                "table.sultan.cushion",
                number=number + 1,
                gem=sultan_ui.gem_worth(t, colour),
                names=names.join([b["seat"] for b in bids[number]])
                if bids[number]
                else t("sultan.board.no_bids"),
            ),
        }
        for number, colour in enumerate(view["cushions"])
    ]
    drawn_gems = []
    if view["phase"] == "return":
        for index, colour in enumerate(view["drawn"]):
            drawn_gems.append({**gem(t, colour), "key": f"drawn{index}.{colour}"})
    back = sultan_ui.returned_gem(view)
    centre = {
        "heading": "" if over else sultan_ui.UI._heading(t, view),
        "phase": view["phase"],
        "drawn": drawn_gems,
        "cushions": cushions,
        "returned": gem(t, back) if back is not None else None,
        "bag": t.plural("table.sultan.bag", view["bag_size"]),
        "deck": t.plural("table.sultan.deck", view["deck_size"]) if view["deck_size"] else "",
    }
    if legal:
        now = t("table.sultan.return") if view["phase"] == "return" else t("table.sultan.now")
    else:
        now = waiting_line(t, names, [acting] if acting is not None else [], seat)
    last = None
    move = sultan_ui.last_move(view)
    if move is not None:
        keys = []
        if move["type"] == "bid" and view["bids"]:
            keys = [f"{view['round']}.{view['circle']}.bid{len(view['bids']) - 1}"]
        last = {"seat": move["seat"], "keys": keys}
    return {
        "seats": seats,
        "centre": centre,
        "now": now,
        "last": last,
        "summary": _sultan_summary(t, view, names),
    }


def _sultan_summary(t: Translator, view: dict, names: Names) -> Item | None:
    """The cushions just revealed, until the next gem goes back or bid is made."""
    reveals: list[dict] = []
    for event in reversed(view["log"]):
        if event["type"] in ("bid", "gem_returned"):
            break
        if event["type"] == "reveal":
            reveals.append(event)
    if not reveals:
        return None
    reveals.reverse()
    rows = []
    for event in reveals:
        winner = event["winner"]
        rows.append(
            {
                "seat": winner,
                "name": f"{event['cushion'] + 1}. {sultan_ui.gem_worth(t, event['gem'])}",
                "gem": gem(t, event["gem"]),
                "cards": [
                    {**card("sultan", t, value), "by": names[bidder], "taken": bidder == winner}
                    for bidder, value in event["bids"]
                ],
                "points": names[winner] if winner is not None else t("table.sultan.nobody"),
            }
        )
    first = reveals[0]
    return {
        "id": f"sultan.{first['round']}.{first['circle']}",
        "title": t("table.sultan.revealed", round=first["round"], circle=first["circle"]),
        "rows": rows,
    }


# -- Who's the Donkey? -----------------------------------------------------------------------
def _donkey(t, view, seat, names, to_act, legal) -> dict[str, Any]:
    n = view["num_players"]
    over = view["over"]
    scored = view["hands_played"] > 0
    seats = []
    for number in range(n):
        facts = [t.plural("table.donkey.cards", view["hand_sizes"][number])]
        if scored:
            facts.append(t.plural("table.penalty", view["totals"][number]))
        holder = view["donkey_holder"] == number and not over
        if holder:
            facts.append(t("table.donkey.holder"))
        seats.append(
            {
                "seat": number,
                "name": names[number],
                "cards": view["hand_sizes"][number],
                "points": view["totals"][number] if scored else None,
                "donkey": holder,
                "label": seat_label(t, names[number], facts),
            }
        )
    plays = []
    for index, play in enumerate(view["plays"]):
        shown = [card("donkey", t, c) for c in play["cards"]]
        words = (
            t("donkey.board.passed")
            if play["kind"] == "pass"
            else ", ".join(c["label"] for c in shown)
        )
        plays.append(
            {
                "key": f"{view['hand_no']}.{view['round_no']}.{index}",
                "seat": play["seat"],
                "pass": play["kind"] == "pass",
                "cards": shown,
                "best": play["seat"] == view["best_seat"] and play["kind"] != "pass",
                "label": t("table.donkey.play", name=names[play["seat"]], move=words),
            }
        )
    holder = view["donkey_holder"]
    centre = {
        "heading": ""
        if over
        else t("table.donkey.heading", hand=view["hand_no"], round=view["round_no"]),
        "plays": plays,
        "donkey_round": view["donkey_round"],
        "donkey": donkey_ui.UI._donkey_line(t, view, names) if not over else "",
        "donkey_holder": None if over else holder,
    }
    if legal:
        pending = view["pending"]
        if pending == "lead":
            now = t("table.donkey.lead")
        elif pending == "donkey_card":
            now = t("table.donkey.donkey_card")
        else:
            now = t.plural("table.donkey.follow", view["count"], value=view["best_value"])
    else:
        now = waiting_line(t, names, to_act, seat)
    last = None
    if plays:
        last = {"seat": plays[-1]["seat"], "keys": [plays[-1]["key"]]}
    return {
        "seats": seats,
        "centre": centre,
        "now": now,
        "last": last,
        "summary": _donkey_summary(t, view, names),
    }


def _donkey_summary(t: Translator, view: dict, names: Names) -> Item | None:
    """The round just won (who played what, who took it) or the hand just ended (the
    penalty points), until the next card is played."""
    ended: list[dict] = []
    for event in reversed(view["log"]):
        if event["type"] in DONKEY_MOVES:
            break
        if event["type"] in ("round_won", "hand_ended"):
            ended.append(event)
    hand = next((e for e in ended if e["type"] == "hand_ended"), None)
    if hand is not None:
        rows = [
            {
                "seat": number,
                "name": names[number],
                "cards": [card("donkey", t, c) for c in hand["left"][number]],
                "points": f"+{hand['penalties'][number]}",
                "total": hand["totals"][number],
            }
            for number in range(len(names))
        ]
        return {
            "id": f"donkey.hand{hand['hand_no']}",
            "title": t("table.donkey.hand_over", hand=hand["hand_no"]),
            "rows": rows,
        }
    won = next((e for e in ended if e["type"] == "round_won"), None)
    if won is None:
        return None
    rows = []
    for event in donkey_ui.UI._round_moves(view, won):
        if event["type"] == "play":
            cards = event["cards"]
        elif event["type"] == "donkey_card":
            cards = [event["card"]]
        elif event["type"] == "donkey_led":
            cards = [0]
        else:
            cards = []
        rows.append(
            {
                "seat": event["seat"],
                "name": names[event["seat"]],
                "cards": [card("donkey", t, c) for c in cards],
                "points": "" if cards else t("donkey.board.passed"),
                "taken": event["seat"] == won["seat"],
            }
        )
    return {
        "id": f"donkey.{won['hand_no']}.{won['round']}",
        "title": t("table.donkey.round_won", name=names[won["seat"]], round=won["round"]),
        "rows": rows,
        "short": True,  # a trick: it goes by quicker than a hand's end
    }


DRAW = {"5211": _5211, "sultan": _sultan, "donkey": _donkey}


# -- the tile games: the same seat header ----------------------------------------------------
def tile_seats(game: str, t: Translator, view: dict, names: Names) -> list[Item]:
    """Each player of a tile game with their score, for the seat header all games share."""
    azul = game == "azul"
    scores = view["scores"] if azul else [player["score"] for player in view["players"]]
    return [
        {
            "seat": number,
            "name": names[number],
            "points": score,
            "label": seat_label(t, names[number], [t.plural("table.points", score)]),
        }
        for number, score in enumerate(scores)
    ]
