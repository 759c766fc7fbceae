"""Who's the Donkey? screens: the round on one compact board in the group, the hand and a
two-step choice (value, then how many cards and jokers) in private.

Per-card messages would flood a group of up to 12 players, so the board carries the round
(one line per player: cards in hand, what they played) and the last few finished rounds of
the hand (who played what, read from the public log); the group only gets a message when
someone takes the donkey, when a hand ends (the penalty table) and when a timed match's
time is up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.presentation.i18n import Translator
from bot.presentation.ui.base import BadDraft, Button, DraftStep, GameUI, Names, Screen, medal
from games.core import Action, Result
from games.donkey.engine import (
    DONKEY,
    ENGINE,
    JOKER,
    LEAD_DONKEY,
    PASS,
    Card,
    DonkeyAction,
    DonkeyView,
    LeadDonkey,
    Pass,
    Play,
    PlayView,
    as_action,
    penalty_of_cards,
    set_cards,
)

DONKEY_ICON = "🫏"
JOKER_ICON = "🃏"
TURN_MARK = "👉 "
HISTORY_ROUNDS = 3  # finished rounds of the hand kept on the board
MOVE_EVENTS = ("play", "pass", "donkey_card", "donkey_led")


def card_text(card: int) -> str:
    if card == DONKEY:
        return DONKEY_ICON
    if card == JOKER:
        return JOKER_ICON
    return str(card)


def group_text(card: int, count: int) -> str:
    """``count`` equal cards: "5 5 5", or "5×4" from four on."""
    if count <= 0:
        return ""
    if count <= 3:
        return " ".join([card_text(card)] * count)
    return f"{card_text(card)}×{count}"


def cards_text(cards: list[int]) -> str:
    """Cards grouped by value in the given order of first appearance: "9 9 🃏"."""
    counts: dict[int, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return " ".join(group_text(card, count) for card, count in counts.items()) or "—"


def hand_text(hand: list[int]) -> str:
    """A sorted hand, one group per value: "🫏 · 1 · 3 3 · 5×4 · 🃏"."""
    counts: dict[int, int] = {}
    for card in sorted(hand):
        counts[card] = counts.get(card, 0) + 1
    return " · ".join(group_text(card, count) for card, count in counts.items()) or "—"


def play_text(play: Play) -> str:
    """A set play as its cards: "9 9 🃏"."""
    return cards_text(set_cards(play.value, play.size, play.jokers))


def chunk(buttons: list[Button], width: int) -> list[list[Button]]:
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


def row_width(buttons: list[Button]) -> int:
    longest = max((len(button.label) for button in buttons), default=0)
    if longest <= 5:  # "12 ×?", "6 6 🃏"
        return 5
    if longest <= 9:
        return 3
    return 2


class DonkeyUI(GameUI[DonkeyView]):
    engine = ENGINE

    # -- shared lines ----------------------------------------------------------------------
    def _header(self, t: Translator) -> str:
        return f"{DONKEY_ICON} <b>{self.title(t)}</b>"

    def _match_line(self, t: Translator, view: DonkeyView) -> str:
        options = view["options"]
        minutes = options["time_limit_minutes"]
        if view["over"]:
            return t.plural("donkey.board.over", view["hands_played"])
        if minutes:
            line = t.plural("donkey.board.timed", minutes, hand=view["hand_no"])
            if view["last_hand"]:
                line += " · " + t("donkey.board.last_hand")
            return line
        return t("donkey.board.hand", hand=view["hand_no"], hands=options["hands"])

    def _round_line(self, t: Translator, view: DonkeyView, names: Names) -> str:
        round_no = view["round_no"]
        leader = names[view["leader"]]
        if view["donkey_round"]:
            line = t("donkey.board.donkey_round", round=round_no, name=leader)
            taker = view["taker"]
            if taker and len(view["plays"]) > 1:  # someone answered the donkey
                seat, worth = taker
                line += "\n" + t("donkey.board.donkey_taker", name=names[seat], worth=worth)
            return line
        if not view["plays"]:
            line = t("donkey.board.round_lead", round=round_no, name=leader)
            if view["donkey_locked"]:
                line += "\n" + t("donkey.board.locked", name=leader)
            return line
        best = next(play for play in view["plays"] if play["seat"] == view["best_seat"])
        return t(
            "donkey.board.round_follow",
            round=round_no,
            leader=leader,
            led=t.plural("donkey.cards", view["count"]),
            cards=cards_text(best["cards"]),
            name=names[best["seat"]],
        )

    @staticmethod
    def _finished_rounds(view: DonkeyView) -> list[tuple[list[dict], dict]]:
        """The finished rounds of the current hand as (move events, ``round_won`` event),
        oldest first."""
        log = view["log"]
        begin = 0
        for index in range(len(log) - 1, -1, -1):
            if log[index]["type"] == "hand_started":
                begin = index + 1
                break
        rounds: list[tuple[list[dict], dict]] = []
        moves: list[dict] = []
        for event in log[begin:]:
            if event["type"] in MOVE_EVENTS:
                moves.append(event)
            elif event["type"] == "round_won":
                rounds.append((moves, event))
                moves = []
        return rounds

    def _history_lines(self, t: Translator, view: DonkeyView, names: Names) -> list[str]:
        """The last few finished rounds: who played what, the passes, who won."""
        rounds = self._finished_rounds(view)[-HISTORY_ROUNDS:]
        if not rounds:
            return []
        lines = [t("donkey.history.title")]
        for moves, won in rounds:
            lines.append("• " + self._history_round(t, moves, won, names))
        return lines

    def _history_round(self, t: Translator, moves: list[dict], won: dict, names: Names) -> str:
        shown: list[str] = []
        passed: list[int] = []
        winner = won["seat"]
        for event in moves:
            seat = event["seat"]
            if event["type"] == "pass":
                passed.append(seat)
                continue
            if event["type"] == "play":
                cards = cards_text(event["cards"])
            elif event["type"] == "donkey_card":
                cards = card_text(event["card"])
            else:  # donkey_led
                cards = DONKEY_ICON
            if seat == winner and event["type"] != "donkey_led":
                cards = f"<b>{cards}</b>"
            shown.append(f"{names[seat]} {cards}")
        if passed:
            shown.append(t("donkey.history.passes", names=names.join(passed)))
        plays = " · ".join(shown)
        if won["donkey"]:
            return t(
                "donkey.history.donkey_round",
                round=won["round"],
                plays=plays,
                name=names[winner],
                cards=t.plural("donkey.cards", len(won["cards"])),
            )
        return t("donkey.history.round", round=won["round"], plays=plays)

    def log_news(
        self, t: Translator, events: list[dict], view: DonkeyView, names: Names
    ) -> list[str]:
        """Each round won, as the board's last rounds showed it, with its winner; then the
        group's news."""
        news = []
        for event in events:
            if event["type"] == "round_won":
                text = self._history_round(t, self._round_moves(view, event), event, names)
                if not event["donkey"]:  # the board shows the winner's cards in bold
                    text += " → " + t("donkey.log.won", name=names[event["seat"]])
                news.append(text)
        return news + self.announce(t, events, view, names)

    @staticmethod
    def _round_moves(view: DonkeyView, won: dict) -> list[dict]:
        """The moves of the round that ``won`` (a ``round_won`` event of the log) ended."""
        log = view["log"]
        end = next(index for index, event in enumerate(log) if event is won)
        moves: list[dict] = []
        for event in reversed(log[:end]):
            if event["type"] in ("round_won", "hand_started"):
                break
            if event["type"] in MOVE_EVENTS:
                moves.append(event)
        return moves[::-1]

    def _donkey_line(self, t: Translator, view: DonkeyView, names: Names) -> str:
        holder = view["donkey_holder"]
        if holder is None:
            return t("donkey.board.donkey_on_table")
        return t("donkey.board.donkey_holder", name=names[holder])

    move_events = frozenset(MOVE_EVENTS)
    story_breaks = frozenset({"hand_started"})  # a new deal: the old hand's plays are over

    def move_text(self, t: Translator, view: DonkeyView, event: dict) -> str:
        """ "7♠ 7♥", "pass", or the donkey led."""
        kind = event["type"]
        if kind == "play":
            return cards_text(event["cards"])
        if kind == "donkey_card":
            return card_text(event["card"])
        if kind == "donkey_led":
            return DONKEY_ICON
        return t("donkey.board.passed")

    # -- group -----------------------------------------------------------------------------
    def board(self, t: Translator, view: DonkeyView, names: Names) -> Screen:
        n = view["num_players"]
        lines = [self._header(t), self._match_line(t, view)]
        if not view["over"]:
            lines += self._history_lines(t, view, names)
            lines.append(self._donkey_line(t, view, names))
            lines.append(self._round_line(t, view, names))
        lines.append("")
        plays = {play["seat"]: play for play in view["plays"]}
        scored = view["hands_played"] > 0
        for seat in range(n):
            mark = TURN_MARK if view["turn"] == seat else ""
            holder = view["donkey_holder"] == seat and not view["over"]
            donkey = f" {DONKEY_ICON}" if holder else ""
            parts = [f"{mark}<b>{names[seat]}</b>{donkey}"]
            if not view["over"]:
                parts.append(t.plural("donkey.cards", view["hand_sizes"][seat]))
            if scored:
                parts.append(t("donkey.board.total", total=view["totals"][seat]))
            line = " · ".join(parts)
            if seat in plays:
                line += " → " + self._play_text(t, plays[seat])
            lines.append(line)
        if scored:
            lines += ["", t("donkey.board.total_legend")]
        return Screen("\n".join(lines))

    def _play_text(self, t: Translator, play: PlayView) -> str:
        if play["kind"] == "pass":
            return t("donkey.board.passed")
        return f"<b>{cards_text(play['cards'])}</b>"

    def announce(
        self, t: Translator, events: list[dict], view: DonkeyView, names: Names
    ) -> list[str]:
        messages = []
        # a round won, the donkey round too, is news the board already shows (its last
        # rounds, who took what, where the donkey is): the group hears of hands and time
        for event in events:
            kind = event["type"]
            if kind == "hand_ended":
                messages.append(self._hand_message(t, event, view, names))
            elif kind == "time_up":
                key = (
                    "donkey.announce.time_up_now"
                    if event["ends_now"]
                    else "donkey.announce.time_up"
                )
                messages.append(t(key, hand=event["hand_no"]))
        return messages

    def _hand_message(self, t: Translator, event: dict, view: DonkeyView, names: Names) -> str:
        lines = [t("donkey.hand_ended.title", hand=event["hand_no"])]
        for seat in range(len(names)):
            left = event["left"][seat]
            if left:
                lines.append(
                    t(
                        "donkey.hand_ended.line",
                        name=names[seat],
                        penalty=event["penalties"][seat],
                        cards=hand_text(left),
                        total=event["totals"][seat],
                    )
                )
            else:
                lines.append(
                    t("donkey.hand_ended.out", name=names[seat], total=event["totals"][seat])
                )
        return "\n".join(lines)

    def final(self, t: Translator, view: DonkeyView, result: Result, names: Names) -> str:
        hands = result.details["penalties_by_hand"]
        lines = [
            t.plural("donkey.final.title", result.details["hands_played"]),
            t.plural("donkey.final.winners", len(result.winners), names=names.join(result.winners)),
            "",
        ]
        order = sorted(range(len(result.scores)), key=lambda seat: (result.ranks[seat], seat))
        for seat in order:
            line = f"{medal(result.ranks[seat])} <b>{names[seat]}</b> — " + t.plural(
                "donkey.points", result.scores[seat]
            )
            if len(hands) > 1:
                line += " (" + " + ".join(str(row[seat]) for row in hands) + ")"
            lines.append(line)
        lines += ["", t("donkey.final.lower_wins")]
        return "\n".join(lines)

    # -- private ---------------------------------------------------------------------------
    def prompt(
        self,
        t: Translator,
        view: DonkeyView,
        seat: int,
        legal: Sequence[Action],
        draft: Any,
        names: Names,
    ) -> Screen:
        hand = view["hand"]
        lines = [self._header(t), self._match_line(t, view)]
        if view["over"]:
            return Screen("\n".join(lines))
        lines.append(
            t(
                "donkey.prompt.hand",
                count=len(hand),
                cards=hand_text(hand),
                penalty=penalty_of_cards(hand),
            )
        )
        lines.append(self._round_line(t, view, names))
        if not legal:
            if view["turn"] is not None:
                lines.append(t("donkey.prompt.waiting", name=names[view["turn"]]))
            return Screen("\n".join(lines))
        moves = [as_action(action) for action in legal]
        if view["donkey_round"]:
            lines.append(t("donkey.prompt.donkey_card"))
            buttons = [
                Button(
                    card_text(move.card)
                    + (" " + t("donkey.button.joker_one") if move.card == JOKER else ""),
                    action=move,
                )
                for move in moves
                if type(move) is Card
            ]
            return Screen("\n".join(lines), chunk(buttons, 5))
        value = draft.get("v") if isinstance(draft, dict) else None
        options = self._options(moves, value) if isinstance(value, int) else []
        if len(options) > 1:
            lines.append(t("donkey.prompt.how_many", value=card_text(options[0].value)))
            return Screen("\n".join(lines), self._option_rows(t, options))
        if view["pending"] == "lead":
            lines.append(t("donkey.prompt.lead"))
            if view["donkey_locked"]:
                lines.append(t("donkey.prompt.locked"))
        else:
            lines.append(
                t.plural("donkey.prompt.follow", view["count"], value=card_text(view["best_value"]))
            )
        rows = self._value_rows(t, moves)
        asking = [button for row in rows for button in row if button.draft]
        if asking:  # say what the "×?" buttons do, with one of them as the example
            lines.append(t("donkey.prompt.how_many_hint", example=asking[0].label))
        return Screen("\n".join(lines), rows)

    @staticmethod
    def _options(moves: list[DonkeyAction], value: int) -> list[Play]:
        """The legal plays of ``value``: how many cards, and how many of them jokers."""
        return [move for move in moves if type(move) is Play and move.value == value]

    def _value_rows(self, t: Translator, moves: list[DonkeyAction]) -> list[list[Button]]:
        values = sorted({move.value for move in moves if type(move) is Play})
        buttons = []
        for value in values:
            options = self._options(moves, value)
            if len(options) == 1:
                buttons.append(Button(play_text(options[0]), action=options[0]))
            else:  # several ways to play this value: the next step asks how many
                label = t("donkey.button.how_many", value=card_text(value))
                buttons.append(Button(label, draft=f"v{value}"))
        rows = chunk(buttons, row_width(buttons)) if buttons else []
        extra = []
        if PASS in moves:
            extra.append(Button(t("donkey.button.pass"), action=PASS))
        if LEAD_DONKEY in moves:
            extra.append(Button(t("donkey.button.donkey"), action=LEAD_DONKEY))
        if extra:
            rows.append(extra)
        return rows

    def _option_rows(self, t: Translator, options: list[Play]) -> list[list[Button]]:
        by_count: dict[int, list[Button]] = {}
        for play in options:
            by_count.setdefault(play.size, []).append(Button(play_text(play), action=play))
        if all(len(row) == 1 for row in by_count.values()):
            flat = [row[0] for row in by_count.values()]
            rows = chunk(flat, row_width(flat))
        else:
            rows = []  # one row per count (split if long): 6 6 | 6 🃏, then 6 6 6 | 6 6 🃏 …
            for _count, row in sorted(by_count.items()):
                rows += chunk(row, row_width(row))
        rows.append([Button(t("donkey.button.back"), draft="b")])
        return rows

    def draft(
        self, view: DonkeyView, seat: int, legal: Sequence[Action], draft: Any, step: str
    ) -> DraftStep:
        if not legal:
            raise BadDraft(step)
        if step == "b":
            return DraftStep(None)
        if step.startswith("v") and step[1:].isdigit():
            options = self._options([as_action(action) for action in legal], int(step[1:]))
            if len(options) == 1:
                return DraftStep(None, action=options[0])
            if options:
                return DraftStep({"v": int(step[1:])})
        raise BadDraft(step)

    def move_label(
        self, t: Translator, view: DonkeyView, action: Action, seat: int, suggested: bool = False
    ) -> str:
        kind = "donkey.suggested" if suggested else "donkey.moved"
        match as_action(action):
            case Pass():
                return t(f"{kind}.pass")
            case LeadDonkey():
                return t(f"{kind}.donkey")
            case Card(card=card):
                return t(f"{kind}.play", cards=card_text(card))
            case Play() as play:
                return t(f"{kind}.play", cards=play_text(play))
        return t("play.move_done")


UI = DonkeyUI()
