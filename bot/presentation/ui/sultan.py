"""Sultan screens: cushions and bids in the group, money cards and the screen in private.

Group board: round and circle, the start player, the drawn gems (while the start player
chooses the one going back) or the cushions with each gem's points and the names of who bid
on each (never the values), each player's gem count behind the screen and cards in hand,
whose move it is, and what every colour of gem is worth. One announcement per circle
reveals every cushion's bids in play order and its winner; after a round's last circle it
also says that the round is over and everyone's hand was refilled.

Private prompt: the player's money cards, the gems behind their screen with the points so
far, and their choice: the start player taps the gem that goes back to the bag (one press);
a bidder taps a cushion (each shows its gem's points) and a card (in any order, both are
``draft`` steps), then confirms.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.presentation.i18n import Translator
from bot.presentation.ui.base import BadDraft, Button, DraftStep, GameUI, Names, Screen, medal
from games.core import Action, Result
from games.sultan.engine import (
    BID_ACTIONS,
    ENGINE,
    GEM_NAMES,
    GEM_VALUES,
    ROUNDS,
    SETUPS,
    Bid,
    Return,
    SultanAction,
    SultanView,
    as_action,
    score_gems,
    win_reason,
)

GEM_EMOJI = ("⚪", "🔴", "🟡", "🟢", "🔵")


def gem_name(t: Translator, colour: int) -> str:
    """The gem's icon and name: 🔵 blue gem."""
    return f"{GEM_EMOJI[colour]} {t('sultan.gem.' + GEM_NAMES[colour])}"


def gem_worth(t: Translator, colour: int) -> str:
    """The gem with its points, where it is bid on: "🔵 blue gem · 5 points"."""
    return t.plural("sultan.gem.worth", GEM_VALUES[colour], gem=gem_name(t, colour))


def values_legend() -> str:
    """What every colour is worth: "⚪ 1 · 🔴 2 · 🟡 3 · 🟢 4 · 🔵 5"."""
    return " · ".join(
        f"{emoji} {value}" for emoji, value in zip(GEM_EMOJI, GEM_VALUES, strict=True)
    )


def gems_row(colours: list[int]) -> str:
    """Drawn gems or cushions as icons: "⚪ 🔴 🔵"."""
    return " ".join(GEM_EMOJI[colour] for colour in colours)


def screen_row(counts: list[int]) -> str:
    """Gems per colour: "⚪×3 🔴×1"."""
    return " ".join(f"{GEM_EMOJI[c]}×{count}" for c, count in enumerate(counts) if count)


def cards_row(cards: list[int]) -> str:
    return " · ".join(str(card) for card in cards) if cards else "—"


def bonus_table(num_players: int) -> str:
    table = SETUPS[num_players].bonus
    top = max(table)
    return ", ".join(
        f"{count}{'+' if count == top else ''} → {bonus}" for count, bonus in table.items()
    )


def returned_gem(view: SultanView) -> int | None:
    """The gem the start player sent back this circle (during the bidding)."""
    if view["phase"] != "bid":
        return None
    for event in reversed(view["log"]):
        if event["type"] == "gem_returned":
            return event["gem"]
    return None


def last_move(view: SultanView) -> dict | None:
    """The latest gem sent back or bid of the current circle (None once it was revealed)."""
    for event in reversed(view["log"]):
        if event["type"] in ("gem_returned", "bid"):
            return event
        if event["type"] in ("reveal", "gems_drawn", "round_start", "final_scoring"):
            return None
    return None


class UISultan(GameUI[SultanView]):
    engine = ENGINE

    # -- shared pieces ---------------------------------------------------------------------
    def _heading(self, t: Translator, view: SultanView) -> str:
        return t(
            "sultan.board.round",
            round=view["round"],
            rounds=view["rounds"],
            circle=view["circle"],
            circles=view["circles"],
        )

    def _cushion_lines(self, t: Translator, view: SultanView, names: Names) -> list[str]:
        bidders: list[list[int]] = [[] for _ in view["cushions"]]
        for seat, cushion in view["bids"]:
            bidders[cushion].append(seat)
        lines = []
        for cushion, colour in enumerate(view["cushions"]):
            who = names.join(bidders[cushion]) if bidders[cushion] else t("sultan.board.no_bids")
            lines.append(f"{cushion + 1}. {gem_worth(t, colour)} — {who}")
        return lines

    def _situation(self, t: Translator, view: SultanView, names: Names) -> list[str]:
        """The drawn gems or the cushions, and whose move it is."""
        lines: list[str] = []
        pending = view["pending"]
        if pending is None:  # the game is over
            return lines
        if view["phase"] == "return":
            lines.append(t("sultan.board.drawn", gems=gems_row(view["drawn"])))
            lines.append(t("sultan.board.choosing", name=names[pending["seat"]]))
        elif view["phase"] == "bid":
            lines.append(t("sultan.board.cushions"))
            lines += self._cushion_lines(t, view, names)
            back = returned_gem(view)
            if back is not None:
                lines.append(t("sultan.board.returned", gem=gem_name(t, back)))
            lines.append(t("sultan.board.bidding", name=names[pending["seat"]]))
        last = last_move(view)
        if last is not None:  # who did what: the group sees the cushion, never the card
            name = names[last["seat"]]
            if last["type"] == "gem_returned":
                lines.append(t("sultan.board.last_return", name=name, gem=gem_name(t, last["gem"])))
            else:
                colour = view["cushions"][last["cushion"]]
                gem = gem_name(t, colour)
                number = last["cushion"] + 1
                lines.append(t("sultan.board.last_bid", name=name, number=number, gem=gem))
        return lines

    # a circle's cushions are its own: its bids, revealed and announced at its end, are
    # not told again in the next one (their cushion numbers would name other gems)
    move_events = frozenset({"gem_returned", "bid"})
    story_breaks = frozenset({"gems_drawn"})

    def move_text(self, t: Translator, view: SultanView, event: dict) -> str:
        """ "🔴 ruby back to the bag", "a bid on cushion 2 (🟢 emerald)": never the card."""
        if event["type"] == "gem_returned":
            return t("sultan.move.return", gem=gem_name(t, event["gem"]))
        gem = gem_name(t, view["cushions"][event["cushion"]])
        return t("sultan.move.bid", number=event["cushion"] + 1, gem=gem)

    # -- group -----------------------------------------------------------------------------
    def board(self, t: Translator, view: SultanView, names: Names) -> Screen:
        n = view["num_players"]
        lines = [f"<b>{self.title(t)}</b>"]
        if view["over"]:
            lines.append(t("sultan.board.over"))
            lines.append("")
            for seat in range(n):
                lines.append(
                    t(
                        "sultan.board.final_line",
                        name=names[seat],
                        score=t.plural("sultan.points", view["scores"][seat]),
                        gems=screen_row(view["gems"][seat]) or "—",
                    )
                )
            return Screen("\n".join(lines))
        lines.append(self._heading(t, view))
        lines.append(t("sultan.board.start", name=names[view["start"]]))
        lines.append("")
        lines += self._situation(t, view, names)
        lines.append("")
        acting = view["pending"]["seat"] if view["pending"] else None
        for seat in range(n):
            mark = "👉 " if seat == acting else ""
            gems = t.plural("sultan.board.gems", view["gem_counts"][seat])
            cards = t.plural("sultan.board.cards", view["hand_sizes"][seat])
            lines.append(f"{mark}<b>{names[seat]}</b> — {gems} · {cards}")
        lines.append("")
        lines.append(t("sultan.board.values", values=values_legend()))
        lines.append(t.plural("sultan.board.bag", view["bag_size"]))
        if view["deck_size"]:
            lines.append(t.plural("sultan.board.deck", view["deck_size"]))
        return Screen("\n".join(lines))

    def private_button_label(self, t: Translator) -> str:
        return t("sultan.private_button")

    def announce(
        self, t: Translator, events: list[dict], view: SultanView, names: Names
    ) -> list[str]:
        messages: list[list[str]] = []
        circle: tuple[int, int] | None = None
        for event in events:
            if event["type"] == "reveal":
                key = (event["round"], event["circle"])
                if key != circle:
                    circle = key
                    title = t("sultan.reveal.title", round=key[0], circle=key[1])
                    messages.append([title])
                messages[-1].append(self._reveal_line(t, event, view, names))
            elif event["type"] == "round_start" and event["round"] > 1:
                lines = self._round_change(t, view, event["round"])
                if messages:
                    messages[-1] += ["", *lines]
                else:
                    messages.append(lines)
                circle = None
        return ["\n".join(lines) for lines in messages]

    @staticmethod
    def _round_change(t: Translator, view: SultanView, new_round: int) -> list[str]:
        """The end of a round and the refilled hands: every card in hand was played, so
        everyone takes a new hand from their own deck."""
        hand = SETUPS[view["num_players"]].hand_size
        return [
            t("sultan.reveal.round_over", round=new_round - 1, rounds=ROUNDS),
            t.plural("sultan.reveal.new_round", hand, round=new_round, rounds=ROUNDS),
        ]

    def _reveal_line(self, t: Translator, event: dict, view: SultanView, names: Names) -> str:
        gem = f"{event['cushion'] + 1}. {gem_worth(t, event['gem'])}"
        winner = event["winner"]
        if winner is None:
            return t("sultan.reveal.nobody", gem=gem)
        bids = ", ".join(f"{names[seat]} {value}" for seat, value in event["bids"])
        key = {
            "highest": "sultan.reveal.won",
            "tie_start": "sultan.reveal.won_tie_start",
            "tie_earlier": "sultan.reveal.won_tie_earlier",
        }[win_reason(event["bids"], view["num_players"])]
        return t(key, gem=gem, bids=bids, name=names[winner])

    def final(self, t: Translator, view: SultanView, result: Result, names: Names) -> str:
        winners = result.winners
        key = "sultan.final.winner" if len(winners) == 1 else "sultan.final.shared"
        lines = [t(key, names=names.join(winners)), ""]
        players = result.details["players"]
        order = sorted(range(len(names)), key=lambda seat: (result.ranks[seat], seat))
        for seat in order:
            line = players[seat]
            lines.append(
                f"{medal(result.ranks[seat])} "
                + t(
                    "sultan.final.line",
                    name=names[seat],
                    score=t.plural("sultan.points", result.scores[seat]),
                    gems=t.plural("sultan.board.gems", line["gem_count"]),
                )
            )
            parts = []
            for colour, count in enumerate(line["gems"]):
                if not count:
                    continue
                part = f"{GEM_EMOJI[colour]}×{count} = {line['gem_points_by_colour'][colour]}"
                if line["bonuses"][colour]:
                    part += f" +{line['bonuses'][colour]}"
                parts.append(part)
            if parts:
                lines.append("    " + " · ".join(parts))
            lines.append(
                "    "
                + t("sultan.final.sum", points=line["gem_points"], bonus=line["bonus_points"])
            )
        lines += ["", t("sultan.final.tiebreak")]
        return "\n".join(lines)

    # -- private ---------------------------------------------------------------------------
    def _own_lines(self, t: Translator, view: SultanView) -> list[str]:
        n = view["num_players"]
        lines = [t("sultan.prompt.hand", cards=cards_row(view["hand"]))]
        mine = view["my_gems"]
        if sum(mine):
            score = score_gems(mine, n)
            lines.append(
                t(
                    "sultan.prompt.screen",
                    gems=screen_row(mine),
                    score=t.plural("sultan.points", score["total"]),
                    points=score["gem_points"],
                    bonus=score["bonus_points"],
                )
            )
        else:
            lines.append(t("sultan.prompt.screen_empty"))
        return lines

    def _my_bids(self, t: Translator, view: SultanView) -> list[str]:
        return [
            t("sultan.prompt.my_bid", value=value, gem=gem_name(t, view["cushions"][cushion]))
            for cushion, value in view["my_bids"]
        ]

    def prompt(
        self,
        t: Translator,
        view: SultanView,
        seat: int,
        legal: Sequence[Action],
        draft: Any,
        names: Names,
    ) -> Screen:
        lines = [f"<b>{self.title(t)}</b>"]
        if view["over"]:
            lines.append(t("sultan.prompt.over"))
            return Screen("\n".join(lines))
        lines.append(self._heading(t, view))
        n = view["num_players"]
        if not legal:
            lines += self._situation(t, view, names)
            lines += self._my_bids(t, view)
            lines.append("")
            lines += self._own_lines(t, view)
            return Screen("\n".join(lines))
        rows: list[list[Button]] = []
        moves = [as_action(action) for action in legal]
        if view["phase"] == "return":
            keep = SETUPS[n].cushions
            lines.append(t.plural("sultan.prompt.return", keep, gems=gems_row(view["drawn"])))
            lines.append("")
            lines += self._own_lines(t, view)
            lines.append(t("sultan.prompt.bonus", table=bonus_table(n)))
            rows = [
                [Button(t("sultan.prompt.return_button", gem=gem_worth(t, move.gem)), action=move)]
                for move in moves
                if type(move) is Return
            ]
            return Screen("\n".join(lines), rows)
        cushion, value = self._selection(draft, moves)
        lines.append(t("sultan.board.cushions"))
        lines += self._cushion_lines(t, view, names)
        lines += self._my_bids(t, view)
        lines.append("")
        if view["bids_per_player"] > 1:
            key = "sultan.prompt.bid_second" if view["my_bids"] else "sultan.prompt.bid_first"
            lines.append(t(key))
        else:
            lines.append(t("sultan.prompt.bid"))
        lines.append("")
        lines += self._own_lines(t, view)
        lines.append(t("sultan.prompt.bonus", table=bonus_table(n)))
        bids = [move for move in moves if type(move) is Bid]
        cushions = sorted({bid.cushion for bid in bids})
        values = sorted({bid.value for bid in bids})
        # one cushion per row: its gem's name and points must stay readable on a phone
        rows += [
            [
                Button(
                    ("✅ " if c == cushion else "")
                    + f"{c + 1}. {gem_worth(t, view['cushions'][c])}",
                    draft=f"c{c}",
                )
            ]
            for c in cushions
        ]
        card_buttons = [
            Button(("✅ " if v == value else "") + f"💰{v}", draft=f"v{v}") for v in values
        ]
        per_row = 4 if len(card_buttons) > 5 else 5
        rows += [card_buttons[i : i + per_row] for i in range(0, len(card_buttons), per_row)]
        if cushion is not None and value is not None:
            gem = gem_name(t, view["cushions"][cushion])
            rows.append(
                [
                    Button(
                        t("sultan.prompt.confirm", value=value, gem=gem),
                        action=BID_ACTIONS[cushion][value],
                    )
                ]
            )
        return Screen("\n".join(lines), rows)

    @staticmethod
    def _selection(draft: Any, moves: list[SultanAction]) -> tuple[int | None, int | None]:
        """The selected cushion and card, each kept only if still a legal choice; a choice
        with a single option is made already."""
        bids = [move for move in moves if type(move) is Bid]
        cushions = sorted({bid.cushion for bid in bids})
        values = sorted({bid.value for bid in bids})
        cushion = value = None
        if isinstance(draft, dict):
            cushion = draft.get("c") if draft.get("c") in cushions else None
            value = draft.get("v") if draft.get("v") in values else None
        if cushion is None and len(cushions) == 1:
            cushion = cushions[0]
        if value is None and len(values) == 1:
            value = values[0]
        return cushion, value

    def draft(
        self, view: SultanView, seat: int, legal: Sequence[Action], draft: Any, step: str
    ) -> DraftStep:
        if not legal or view["phase"] != "bid" or len(step) < 2 or not step[1:].isdigit():
            raise BadDraft(step)
        kind, number = step[0], int(step[1:])
        moves = [as_action(action) for action in legal]
        bids = [move for move in moves if type(move) is Bid]
        cushion, value = self._selection(draft, moves)
        if kind == "c" and any(bid.cushion == number for bid in bids):
            cushion = None if cushion == number else number
        elif kind == "v" and any(bid.value == number for bid in bids):
            value = None if value == number else number
        else:
            raise BadDraft(step)
        return DraftStep({"c": cushion, "v": value})

    def move_label(
        self, t: Translator, view: SultanView, action: Action, seat: int, suggested: bool = False
    ) -> str:
        kind = "sultan.suggested" if suggested else "sultan.played"
        move = as_action(action)
        if isinstance(move, Return):
            return t(f"{kind}.return", gem=gem_name(t, move.gem))
        gem = gem_name(t, view["cushions"][move.cushion])
        return t(f"{kind}.bid", value=move.value, gem=gem)


UI = UISultan()
