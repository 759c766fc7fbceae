"""5211 screens: the table in the group, the hand with toggling cards in private."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.presentation.i18n import Translator
from bot.presentation.ui.base import BadDraft, Button, DraftStep, GameUI, Names, Screen, standings
from games.core import Action, Result
from games.g5211.engine import (
    COLOURS,
    ENGINE,
    View5211,
    as_action,
    colour_counts,
    colour_limit,
    colour_of,
    is_rooster,
    rooster_count,
    rooster_threshold,
    value_of,
)

# blue, yellow, orange, green, turquoise: each its own shape too (a circle, a star, a
# diamond, a square, a heart), so that no card is told by its colour alone
COLOUR_EMOJI = ("🔵", "⭐", "🔶", "🟩", "🩵")


def card_text(card: int) -> str:
    return COLOUR_EMOJI[colour_of(card)] + ("🐓" if is_rooster(card) else str(value_of(card)))


def cards_text(cards: list[int]) -> str:
    return " ".join(card_text(card) for card in cards) if cards else "—"


def colour_name(t: Translator, colour: int) -> str:
    return f"{COLOUR_EMOJI[colour]} {t('5211.colour.' + COLOURS[colour])}"


class UI5211(GameUI[View5211]):
    engine = ENGINE

    # -- group -----------------------------------------------------------------------------
    def board_may_wait(self, view: View5211) -> bool:
        """A part's cards chosen by some, not yet by all: only their ✔ would change."""
        ready = view["ready"]
        return not view["over"] and any(ready) and not all(ready)

    def board(self, t: Translator, view: View5211, names: Names) -> Screen:
        n = view["num_players"]
        lines = [f"<b>{self.title(t)}</b>"]
        if view["options"]["match_target"]:
            target = view["options"]["match_target"]
            lines.append(t.plural("5211.board.match", target, game_no=view["game_no"]))
        if view["over"]:
            lines.append(t("5211.board.over"))
        else:
            lines.append(
                t("5211.board.round", round=view["round"], part=view["part"])
                + " · "
                + t.plural("5211.board.choose", view["part_size"])
            )
            if view["final_round"]:
                lines.append(t("5211.board.last_round"))
            else:
                lines.append(t.plural("5211.board.deck", view["deck_size"]))
        lines.append("")
        for seat in range(n):
            mark = "" if view["over"] else ("✅ " if view["ready"][seat] else "⏳ ")
            points = t.plural("5211.points", view["points"][seat])
            if view["options"]["match_target"]:
                points += " · " + t("5211.board.match_total", total=view["match_points"][seat])
            lines.append(f"{mark}<b>{names[seat]}</b> — {points}")
            if view["table"][seat]:
                lines.append("    " + cards_text(view["table"][seat]))
        table = [card for cards in view["table"] for card in cards]
        if table:
            counts = colour_counts(table)
            colours = "  ".join(f"{COLOUR_EMOJI[c]}×{counts[c]}" for c in sorted(counts))
            lines += [
                "",
                t(
                    "5211.board.table_summary",
                    roosters=rooster_count(table),
                    threshold=rooster_threshold(n),
                    max=colour_limit(n),
                    colours=colours,
                ),
            ]
        return Screen("\n".join(lines))

    def announce(
        self, t: Translator, events: list[dict], view: View5211, names: Names
    ) -> list[str]:
        messages = []
        for event in events:
            if event["type"] == "round_scored":
                messages.append(self._round_message(t, event, view, names))
            elif event["type"] == "game_ended" and view["options"]["match_target"]:
                lines = [t("5211.game_ended", game_no=event["game_no"])]
                for seat in range(len(names)):
                    lines.append(
                        t(
                            "5211.game_ended.line",
                            name=names[seat],
                            points=event["points"][seat],
                            total=event["match_points"][seat],
                            target=view["options"]["match_target"],
                        )
                    )
                messages.append("\n".join(lines))
        return messages

    def log_step(self, t: Translator, view: View5211, action: Action, seat: int) -> str | None:
        return t("5211.log.chosen")  # face down: the log shows them at the reveal

    def log_news(
        self, t: Translator, events: list[dict], view: View5211, names: Names
    ) -> list[str]:
        """The cards turned face up (the board showed them), then the group's news."""
        news = []
        for event in events:
            if event["type"] == "revealed":
                title = t("5211.log.revealed", round=event["round"], part=event["part"])
                cards = [f"{names[seat]}: {cards_text(c)}" for seat, c in enumerate(event["cards"])]
                news.append("\n".join([title, *cards]))
        return news + self.announce(t, events, view, names)

    def _round_message(self, t: Translator, event: dict, view: View5211, names: Names) -> str:
        n = len(names)
        played: list[list[int]] = [[] for _ in range(n)]
        for entry in view["log"]:
            same_round = (
                entry.get("game_no") == event["game_no"] and entry.get("round") == event["round"]
            )
            if entry["type"] == "revealed" and same_round:
                for seat, cards in enumerate(entry["cards"]):
                    played[seat].extend(cards)
        counts = colour_counts([card for cards in played for card in cards])
        lines = [t("5211.round.title", round=event["round"])]
        lines += [f"{names[seat]}: {cards_text(played[seat])}" for seat in range(n)]
        lines.append("")
        threshold = rooster_threshold(n)
        roosters = event["roosters"]
        if event["mode"] == "roosters":
            lines.append(t.plural("5211.round.roosters", roosters, threshold=threshold))
        else:
            lines.append(t.plural("5211.round.few_roosters", roosters, threshold=threshold))
            for colour in event["over_limit"]:
                lines.append(
                    t.plural(
                        "5211.round.over_limit",
                        counts[colour],
                        colour=colour_name(t, colour),
                        max=colour_limit(n),
                    )
                )
            for group in event["tied"]:
                lines.append(
                    t.plural(
                        "5211.round.tied",
                        counts[group[0]],
                        colours=", ".join(colour_name(t, colour) for colour in group),
                    )
                )
            if event["mode"] == "colour":
                lines.append(
                    t.plural(
                        "5211.round.majority",
                        counts[event["colour"]],
                        colour=colour_name(t, event["colour"]),
                    )
                )
            else:
                lines.append(t("5211.round.nobody"))
        scorers = [seat for seat in range(n) if event["scored"][seat]]
        for seat in scorers:
            lines.append(
                t(
                    "5211.round.scored",
                    name=names[seat],
                    points=event["points"][seat],
                    cards=cards_text(event["scored"][seat]),
                )
            )
        totals = ", ".join(f"{names[seat]} {event['totals'][seat]}" for seat in range(n))
        lines.append(t("5211.round.totals", totals=totals))
        return "\n".join(lines)

    def final(self, t: Translator, view: View5211, result: Result, names: Names) -> str:
        key = "5211.final.match" if view["options"]["match_target"] else "5211.final.game"
        header = t(key, names=names.join(result.winners))
        cards = [t.plural("5211.cards", count) for count in result.details["cards"]]
        table = standings(t, result, names, "5211.final.line", "5211.points", cards=cards)
        return f"{header}\n\n{table}\n\n{t('5211.final.tiebreak')}"

    # -- private ---------------------------------------------------------------------------
    def prompt(
        self,
        t: Translator,
        view: View5211,
        seat: int,
        legal: Sequence[Action],
        draft: Any,
        names: Names,
    ) -> Screen:
        hand = view["hand"]
        lines = [f"<b>{self.title(t)}</b>"]
        if view["over"]:
            lines.append(t("5211.prompt.over"))
            return Screen("\n".join(lines))
        lines.append(t("5211.board.round", round=view["round"], part=view["part"]))
        if not legal:
            waiting = [other for other in range(len(names)) if not view["ready"][other]]
            lines.append(t("5211.prompt.chosen", cards=cards_text(view["chosen"] or [])))
            lines.append(t("5211.prompt.waiting", names=names.join(waiting)))
            if hand:
                lines.append(t("5211.prompt.hand", cards=cards_text(hand)))
            return Screen("\n".join(lines))
        size = view["part_size"]
        selected = self._selection(draft, hand)
        lines.append(t.plural("5211.prompt.choose", size))
        lines.append(t("5211.prompt.hand", cards=cards_text(hand)))
        card_buttons = [
            Button(("✅ " if index in selected else "") + card_text(card), draft=f"t{index}")
            for index, card in enumerate(hand)
        ]
        rows = [card_buttons[:3], card_buttons[3:]] if len(card_buttons) > 3 else [card_buttons]
        rows = [row for row in rows if row]
        lines.append(t("5211.prompt.selected", count=len(selected), size=size))
        if len(selected) == size:
            cards = tuple(sorted(hand[index] for index in selected))
            rows.append(
                [Button(t("5211.prompt.confirm", cards=cards_text(list(cards))), action=cards)]
            )
        return Screen("\n".join(lines), rows)

    def draft(
        self, view: View5211, seat: int, legal: Sequence[Action], draft: Any, step: str
    ) -> DraftStep:
        hand = view["hand"]
        if not legal or not step.startswith("t") or not step[1:].isdigit():
            raise BadDraft(step)
        index = int(step[1:])
        if index >= len(hand):
            raise BadDraft(step)
        selected = self._selection(draft, hand)
        if index in selected:
            selected.remove(index)
        else:
            selected.append(index)
            if len(selected) > view["part_size"]:
                selected.pop(0)  # tapping another card replaces the oldest selection
        return DraftStep({"selected": selected})

    @staticmethod
    def _selection(draft: Any, hand: list[int]) -> list[int]:
        if not isinstance(draft, dict):
            return []
        return [i for i in draft.get("selected", []) if isinstance(i, int) and 0 <= i < len(hand)]

    def move_label(
        self, t: Translator, view: View5211, action: Action, seat: int, suggested: bool = False
    ) -> str:
        key = "5211.suggested.play" if suggested else "5211.prompt.played"
        return t(key, cards=cards_text(list(as_action(action))))


UI = UI5211()
