"""The Who's the Donkey? engine. Rules: ``docs/rules/donkey.md``.

Cards are values: ``0`` is the donkey, ``1``..``13`` the number cards, ``14`` a joker.
Equal cards are interchangeable, so every pile (hands, undealt cards, played cards) is a
count vector of length 15 indexed by card value.

Actions are named tuples of small ints, led by their kind: :class:`Pass` ``(0,)``,
:class:`Play` ``(1, value, size, jokers)``, :class:`LeadDonkey` ``(2,)``, :class:`Card`
``(3, card)``; :func:`as_action` names a plain tuple decoded from a button.

A follower who holds fewer cards than the round's count, or who faces jokers alone (14,
unbeatable), is passed for by the engine (``AUTO_PASS_FORCED``): both facts are public, so
nothing is revealed, and the table is not kept waiting for a forced pass.

The engine has no clock. A timed match (option ``time_limit_minutes``) runs until the host
calls :meth:`DonkeyEngine.time_up` when the time has elapsed: the hand in progress becomes
the last one (or, if nobody has played in it yet, the match ends at once and that fresh deal
is abandoned). ``TIMED_MATCH_MAX_HANDS`` is a safety stop for a forgotten timer.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import add, itemgetter, mul, sub
from typing import Any, Literal, NamedTuple, NotRequired, TypedDict, cast

from games.core import (
    ONLY_SEAT,
    Action,
    BaseState,
    Engine,
    GameOptions,
    IllegalAction,
    InvariantViolation,
    Result,
    below,
    draw_rng,
    own,
    parse_tagged,
    rank_by,
    shuffle,
)

DONKEY = 0
JOKER = 14
VALUES = range(1, 14)  # the number cards
NUMBER_COPIES = 8
JOKERS = 5
FULL_COUNTS = (1, *([NUMBER_COPIES] * 13), JOKERS)  # 110 cards by value: donkey, 1..13, jokers
DECK_SIZE = sum(FULL_COUNTS)
DECK_WITHOUT_DONKEY = tuple(card for card in range(1, 15) for _ in range(FULL_COUNTS[card]))
DONKEY_DEPTH = 39  # the donkey is inserted among the top 39 cards, so it is always dealt
# [decision — the rulebook's table is lost] cards dealt to each player by player count.
HAND_SIZES = {3: 13, 4: 13, 5: 13, 6: 13, 7: 13, 8: 13, 9: 12, 10: 11, 11: 10, 12: 9}
MIN_LEAD = 1  # [decision] a lead may be any number (>= 1) of equal cards
JOKERS_ALONE_VALUE = 14  # [decision] a play made only of jokers is worth 14
JOKER_IN_DONKEY_ROUND = 1  # a joker played in a donkey round is worth 1
DONKEY_WORTH = 0  # the donkey's value when led
PENALTY_JOKER = 14
PENALTY_DONKEY = 20
# Passes that only reveal public facts are made by the engine: a follower holding fewer
# cards than the round's count, or facing a play of jokers alone (14 cannot be beaten).
AUTO_PASS_FORCED = True
TIMED_MATCH_MAX_HANDS = 30  # safety stop of a timed match whose host never calls time_up

SLOTS = 15  # a count vector per pile, indexed by card value 0..14
K_PASS, K_SET, K_DONKEY, K_CARD = 0, 1, 2, 3  # the kind: an action's first number
# A row of ``state["plays"]``: [seat, kind, value, count, jokers] (a pass: [seat, 0, 0, 0, 0];
# the donkey led: [seat, 2, 0, 1, 0]; a card of a donkey round: [seat, 3, card, 1, joker?]).
P_SEAT, P_KIND, P_VALUE, P_COUNT, P_JOKERS = range(5)
PLAY_VALUE = itemgetter(P_VALUE)


# -- actions -------------------------------------------------------------------------------
class Pass(NamedTuple):
    """A follower in a normal round passes."""

    kind: int  # K_PASS


class Play(NamedTuple):
    """Play ``size`` cards of ``value`` of which ``jokers`` are jokers (``value`` 1..13 with
    at least one real card, or 14: jokers only, ``jokers == size``). A lead fixes the
    number of cards of the round; a follower plays as many of a strictly higher value."""

    kind: int  # K_SET
    value: int
    size: int  # the number of cards (not ``count``: a tuple has a method of that name)
    jokers: int


class LeadDonkey(NamedTuple):
    """The leader leads the donkey, alone (not in the round right after taking it)."""

    kind: int  # K_DONKEY


class Card(NamedTuple):
    """One card in a donkey round: 1..13, or 14 for a joker (worth 1 there)."""

    kind: int  # K_CARD
    card: int


DonkeyAction = Pass | Play | LeadDonkey | Card
ACTION_KINDS = (Pass, Play, LeadDonkey, Card)  # indexed by kind
PASS = Pass(K_PASS)
LEAD_DONKEY = LeadDonkey(K_DONKEY)
MAX_SET = NUMBER_COPIES + JOKERS  # the most cards one set can hold
# Every action exists once, made here: listing the legal moves only looks them up.
PLAYS = tuple(  # PLAYS[value][count][jokers]
    tuple(
        tuple(Play(K_SET, value, count, used) for used in range(JOKERS + 1))
        for count in range(MAX_SET + 1)
    )
    for value in range(SLOTS)
)
CARDS = tuple(Card(K_CARD, card) for card in range(SLOTS))
CARDS_HELD = CARDS[1:]  # the cards of a donkey round, 1..14, as a hand's counts ``[1:]`` list them
# SETS[count][value]: ``count`` real cards of ``value`` (1..13); SINGLES: one card of each
SETS = tuple(
    tuple(PLAYS[value][count][0] for value in range(JOKER)) for count in range(MAX_SET + 1)
)
SINGLES = SETS[1]


def follow_plays(value: int, count: int, real: int, jokers: int) -> tuple[Play, ...]:
    """The plays of ``count`` cards of ``value`` (1..13) by a seat holding ``real`` such
    cards and ``jokers``: every split into real cards (at least one) and jokers, sorted."""
    if not real or real + jokers < count:
        return ()
    return PLAYS[value][count][max(0, count - real) : min(jokers, count - 1) + 1]


def lead_plays(value: int, real: int, jokers: int) -> tuple[Play, ...]:
    """A leader's plays of ``value`` (1..13): :func:`follow_plays` of every count."""
    plays: list[Play] = []
    for count in range(MIN_LEAD, real + jokers + 1):
        plays += follow_plays(value, count, real, jokers)
    return tuple(plays)


# Listing the legal moves looks them up by what the hand holds (a value has 8 cards, there
# are 5 jokers): FOLLOWS[count][value][real][jokers] and LEADS[value][real][jokers].
FOLLOWS = tuple(
    tuple(
        tuple(
            tuple(follow_plays(value, count, real, jokers) for jokers in range(JOKERS + 1))
            for real in range(NUMBER_COPIES + 1)
        )
        for value in range(JOKER)
    )
    for count in range(MAX_SET + 1)
)
LEADS = tuple(
    tuple(
        tuple(lead_plays(value, real, jokers) for jokers in range(JOKERS + 1))
        for real in range(NUMBER_COPIES + 1)
    )
    for value in range(JOKER)
)
# JOKER_LEADS[jokers]: a leader's plays of jokers alone, worth 14
JOKER_LEADS = tuple(
    tuple(PLAYS[JOKER][count][count] for count in range(MIN_LEAD, jokers + 1))
    for jokers in range(JOKERS + 1)
)


def parse_action(action: Sequence[int]) -> DonkeyAction | None:
    """The named action for a plain tuple of numbers (a button's data), or ``None`` when it
    is no action of this game: unknown kind, wrong length, not small non-negative ints."""
    if type(action) in ACTION_KINDS:  # made by the engine (its legal actions): named already
        return action  # type: ignore[return-value]
    return parse_tagged(action, ACTION_KINDS)  # type: ignore[return-value]


def as_action(action: Sequence[int]) -> DonkeyAction:
    """:func:`parse_action` for an action known to be well-formed (a legal one)."""
    if type(action) in ACTION_KINDS:
        return action  # type: ignore[return-value]
    named = parse_action(action)
    if named is None:
        raise IllegalAction(f"donkey: malformed action {tuple(action)}")
    return named


# -- state and view --------------------------------------------------------------------------
CardCounts = list[int]  # a pile of cards: how many of each value, indexed by value (15)


class DonkeyState(BaseState):
    hand_no: int  # the hand being played, from 1
    totals: list[int]  # [seat]: penalty points of the finished hands
    history: list[list[int]]  # [hand][seat]: the penalties of each finished hand
    last_hand: bool  # a timed match's time is up: this hand is the last
    over: bool
    hands: list[int]  # [seat * 15 + value]: the cards each seat holds
    undealt: CardCounts  # out of this hand, never seen
    played: CardCounts  # cards of finished normal rounds, face up, out of play
    round_no: int  # the round of the hand, from 1
    plays: list[list[int]]  # this round in turn order: [seat, kind, value, count, jokers]
    locked: bool  # the leader took the donkey last round and may not lead it now
    turn: int  # the seat to act


class PlayView(TypedDict):
    seat: int
    kind: str  # pass, set, donkey or card
    value: int
    cards: list[int]  # the card values played (0 donkey, 14 joker)


class DonkeyView(TypedDict):
    """The public view; a seat's view adds its ``hand`` and nothing else."""

    game: str
    num_players: int
    options: dict[str, Any]
    hand_no: int
    hands_played: int
    last_hand: bool
    round_no: int
    leader: int  # who leads (led) this round
    turn: int | None  # None once the match is over
    pending: str | None  # lead, follow or donkey_card; None once over
    donkey_round: bool
    donkey_holder: int | None  # None while the donkey lies on the table
    donkey_locked: bool
    count: int  # cards per play in this normal round; 0 before the lead
    best_seat: int | None  # the highest play of this normal round so far
    best_value: int
    taker: list[int] | None  # a donkey round: [seat, worth] of who would take its cards now
    plays: list[PlayView]
    hand_sizes: list[int]  # [seat]
    played: CardCounts
    totals: list[int]
    history: list[list[int]]
    log: list[dict[str, Any]]
    over: bool
    hand: NotRequired[list[int]]  # a seat's own cards, sorted (not in the public view)


class DonkeyOptions(GameOptions):
    # Number of hands in the match (ignored by a timed match).
    hands: Literal[3, 5, 10, 1, 2] = 3
    # 0 = a match of ``hands`` hands; otherwise a timed match: the host calls
    # ``ENGINE.time_up(state)`` when these minutes have passed.
    time_limit_minutes: Literal[0, 15, 30, 60] = 0


def penalty(counts: list[int]) -> int:
    """Penalty points of cards left in a hand: face value, joker 14, donkey 20."""
    return sum(map(mul, counts, PENALTIES))


PENALTIES = (PENALTY_DONKEY, *VALUES, PENALTY_JOKER)  # the penalty of one card, by value


def cards_of(counts: list[int]) -> list[int]:
    """A count vector as a sorted list of card values (0 donkey, 14 joker)."""
    cards: list[int] = []
    for value, count in enumerate(counts):
        if count:
            cards += [value] * count
    return cards


def set_cards(value: int, count: int, jokers: int) -> list[int]:
    """The cards of a set play: the real cards then the jokers."""
    if value == JOKER:
        return [JOKER] * count
    return [value] * (count - jokers) + [JOKER] * jokers


# SET_CARDS[value][count][jokers]: :func:`set_cards` of every play, made once (a move copies
# its row into the log)
SET_CARDS = tuple(
    tuple(
        tuple(tuple(set_cards(value, count, used)) for used in range(JOKERS + 1))
        for count in range(MAX_SET + 1)
    )
    for value in range(SLOTS)
)


# PASS_EVENTS[forced][seat]: the log event of a pass, made once for every seat of the
# largest table and shared by every log (log entries are never changed once appended)
PASS_EVENTS = tuple(
    tuple({"type": "pass", "seat": seat, "forced": forced} for seat in range(max(HAND_SIZES)))
    for forced in (False, True)
)


def card_worth_in_donkey_round(card: int) -> int:
    if card == DONKEY:
        return DONKEY_WORTH
    return JOKER_IN_DONKEY_ROUND if card == JOKER else card


def donkey_round_taker(plays: list[list[int]]) -> tuple[int, int]:
    """Who takes the cards of a donkey round so far, and the worth of the card that takes
    them: the highest worth, the last of equal ones (the donkey led is worth 0)."""
    taker, top = plays[0][P_SEAT], DONKEY_WORTH
    for play in plays[1:]:
        worth = card_worth_in_donkey_round(play[P_VALUE])
        if worth >= top:  # with equal highest cards the last one takes
            taker, top = play[P_SEAT], worth
    return taker, top


def penalty_of_cards(cards: list[int]) -> int:
    """:func:`penalty` of a hand given as card values."""
    counts = [0] * SLOTS
    for card in cards:
        counts[card] += 1
    return penalty(counts)


class DonkeyEngine(Engine[DonkeyState, DonkeyView]):
    id = "donkey"
    min_players = 3
    max_players = 12
    Options = DonkeyOptions

    # -- setup ---------------------------------------------------------------------------
    def _setup(self, state: DonkeyState, options: GameOptions) -> None:
        n = state["num_players"]
        state.update(
            {
                "hand_no": 0,
                "totals": [0] * n,
                "history": [],  # the penalties of each finished hand
                "last_hand": False,
                "over": False,
                "log": [],
            }
        )
        self._deal(state)

    def _deal(self, state: DonkeyState) -> None:
        n = state["num_players"]
        size = HAND_SIZES[n]
        rng = draw_rng(state)
        deck = list(DECK_WITHOUT_DONKEY)
        shuffle(rng, deck)  # deck[0] is the top card
        deck.insert(below(rng, DONKEY_DEPTH), DONKEY)
        hands: list[int] = []
        undealt = list(FULL_COUNTS)
        for seat in range(n):  # one card at a time, clockwise from seat 0
            hand = [0] * SLOTS
            for card in deck[seat : n * size : n]:
                hand[card] += 1
            hands += hand
            undealt = list(map(sub, undealt, hand))
        state["hand_no"] += 1
        state.update(
            {
                "hands": hands,  # flat: seat s holds hands[s * 15 + value] cards of each value
                "undealt": undealt,  # out of this hand, never seen
                "played": [0] * SLOTS,  # cards of finished normal rounds, face up, out of play
                "round_no": 1,
                "plays": [],  # this round, in turn order: [seat, kind, value, count, jokers]
                "locked": False,  # the leader took the donkey last round and may not lead it now
            }
        )
        holder = donkey_holder(state)
        assert holder is not None, "the donkey is always dealt (DONKEY_DEPTH)"
        state["turn"] = holder
        state["log"].append(
            {
                "type": "hand_started",
                "hand_no": state["hand_no"],
                "hand_size": size,
                "donkey_holder": holder,
            }
        )

    # -- play ----------------------------------------------------------------------------
    # Moves never change a list of the state they are given (copy on write): a move starts
    # from a shallow copy with its own round of plays and log (every move adds to both) and
    # puts a new list in it for anything else it changes: a hand when cards leave it, the
    # played cards, totals and history at the end of a round or hand. ``previous`` is the
    # state the move was given (see :func:`games.core.own`).
    def _next_state(self, state: DonkeyState, seat: int, action: Action) -> DonkeyState:
        new = state.copy()
        plays = new["plays"] = state["plays"][:]
        log = new["log"] = state["log"][:]
        kind = action[0]  # a legal action: its numbers fit its kind (as_action names them)
        if kind == K_PASS:
            plays.append([seat, K_PASS, 0, 0, 0])
            log.append(PASS_EVENTS[False][seat])
        else:  # its cards leave the hand for the table
            base = seat * SLOTS
            hands = new["hands"] = state["hands"][:]
            event: dict[str, Any]
            # Move events are short (no hand or round number): a round_won event closes
            # each round.
            if kind == K_SET:
                _, value, count, used = action
                if value == JOKER:
                    hands[base + JOKER] -= count
                else:
                    hands[base + value] -= count - used
                    hands[base + JOKER] -= used
                plays.append([seat, K_SET, value, count, used])
                cards = list(SET_CARDS[value][count][used])
                event = {"type": "play", "seat": seat, "value": value, "cards": cards}
            elif kind == K_CARD:
                card = action[1]
                hands[base + card] -= 1
                plays.append([seat, K_CARD, card, 1, int(card == JOKER)])
                worth = card_worth_in_donkey_round(card)
                event = {"type": "donkey_card", "seat": seat, "card": card, "worth": worth}
            else:  # K_DONKEY: the donkey led
                hands[base + DONKEY] -= 1
                plays.append([seat, K_DONKEY, DONKEY, 1, 0])
                event = {"type": "donkey_led", "seat": seat}
            event["left"] = sum(hands[base : base + SLOTS])  # cards still in that hand
            log.append(event)
        # the turn passes clockwise, with the forced passes, and a full round closes
        n = state["num_players"]
        if len(plays) == n:
            self._end_round(new, state)
            return new
        turn = new["turn"] = (seat + 1) % n
        lead = plays[0]
        if not AUTO_PASS_FORCED or lead[P_KIND] == K_DONKEY:
            return new
        count = lead[P_COUNT]
        unbeatable = max(map(PLAY_VALUE, plays)) >= JOKERS_ALONE_VALUE
        if not unbeatable and count == 1:  # a seat yet to act this round holds a card: a
            return new  # round starts with no hand empty (check_invariants), none emptied
        hands = new["hands"]
        while unbeatable or sum(hands[turn * SLOTS : (turn + 1) * SLOTS]) < count:
            plays.append([turn, K_PASS, 0, 0, 0])
            log.append(PASS_EVENTS[True][turn])
            if len(plays) == n:
                self._end_round(new, state)
                return new
            turn = new["turn"] = (turn + 1) % n
        return new

    def to_act(self, state: DonkeyState) -> frozenset[int]:
        if state["over"]:
            return frozenset()
        return ONLY_SEAT[state["turn"]]

    def legal_actions(self, state: DonkeyState, seat: int) -> list[DonkeyAction]:
        if state["over"] or seat != state["turn"]:
            return []
        base = seat * SLOTS
        hand = state["hands"][base : base + SLOTS]
        jokers = hand[JOKER]
        plays = state["plays"]
        if not plays:  # the leader: any number of equal cards (by value, then count)
            actions: list[DonkeyAction] = []
            for value in compress(VALUES, hand[1:JOKER]):
                actions += LEADS[value][hand[value]][jokers]
            actions += JOKER_LEADS[jokers]
            if hand[DONKEY] and not state["locked"]:
                actions.append(LEAD_DONKEY)
            return actions
        lead = plays[0]
        if lead[P_KIND] == K_DONKEY:  # a donkey round: any one card
            return list(compress(CARDS_HELD, hand[1:]))
        # a follower: pass, or as many cards as the lead of a strictly higher value
        count = lead[P_COUNT]
        best = max(map(PLAY_VALUE, plays))
        higher = hand[best + 1 : JOKER]  # how many of each higher value the hand holds
        if count == 1:  # one card: one play per value held, jokers alone aside
            actions = [PASS, *compress(SINGLES[best + 1 :], higher)]
        elif not jokers:  # no jokers: one play per value held at least ``count`` times
            actions = [PASS, *compress(SETS[count][best + 1 :], map(count.__le__, higher))]
        else:  # every split into real cards and jokers
            follow = FOLLOWS[count]
            actions = [PASS]
            for value in compress(range(best + 1, JOKER), higher):
                actions += follow[value][hand[value]][jokers]
        if jokers >= count and best < JOKERS_ALONE_VALUE:
            actions.append(PLAYS[JOKER][count][count])
        return actions

    def is_legal(self, state: DonkeyState, seat: int, action: Action) -> bool:
        """Exactly ``action in legal_actions(state, seat)``, checked by kind without listing
        (tests/games compares the two over many random positions)."""
        if state["over"] or seat != state["turn"]:
            return False
        if type(action) in ACTION_KINDS:  # made by the engine (its legal actions)
            move = action
        else:  # a plain tuple from a button
            move = parse_tagged(action, ACTION_KINDS)
            if move is None:
                return False
        kind = move[0]
        base = seat * SLOTS
        hands = state["hands"]
        plays = state["plays"]
        if plays and plays[0][P_KIND] == K_DONKEY:
            return kind == K_CARD and 1 <= move[1] <= JOKER and hands[base + move[1]] > 0
        if kind == K_SET:
            _, value, count, used = move
            if plays and (count != plays[0][P_COUNT] or value <= max(map(PLAY_VALUE, plays))):
                return False
            if count < MIN_LEAD or hands[base + JOKER] < used:
                return False
            if value == JOKER:
                return used == count
            return 1 <= value <= 13 and used < count and hands[base + value] >= count - used
        if kind == K_PASS:
            return bool(plays)
        if kind == K_DONKEY:
            return not plays and hands[base + DONKEY] > 0 and not state["locked"]
        return False  # a card outside a donkey round

    def _end_round(self, state: DonkeyState, previous: DonkeyState) -> None:
        """Close a full round: the winner leads the next one, unless a hand is empty."""
        plays = state["plays"]
        if plays[0][P_KIND] == K_DONKEY:
            winner = self._end_donkey_round(state, previous)
        else:
            winner = self._end_normal_round(state)
        state["plays"] = []
        state["turn"] = winner
        state["round_no"] += 1
        hands = state["hands"]
        for play in plays:  # cards only leave a hand by being played: these may be empty
            base = play[P_SEAT] * SLOTS
            if play[P_KIND] != K_PASS and not any(hands[base : base + SLOTS]):
                self._end_hand(state)
                return

    @staticmethod
    def _end_normal_round(state: DonkeyState) -> int:
        """The cards of a normal round go out of play, face up; returns who won it."""
        played = state["played"] = state["played"][:]
        cards: list[int] = []  # as cards_of lists them: each play's value rises, jokers last
        jokers = 0
        best = state["plays"][0]
        for play in state["plays"]:
            if play[P_KIND] == K_SET:
                best = play
                _seat, _kind, value, count, used = play
                if value == JOKER:
                    jokers += count
                else:
                    played[value] += count - used
                    cards += [value] * (count - used)
                    jokers += used
        played[JOKER] += jokers
        cards += [JOKER] * jokers
        state["log"].append(
            {
                "type": "round_won",
                "hand_no": state["hand_no"],
                "round": state["round_no"],
                "donkey": False,
                "seat": best[P_SEAT],
                "value": best[P_VALUE],
                "count": best[P_COUNT],
                "cards": cards,
            }
        )
        state["locked"] = False
        return best[P_SEAT]

    @staticmethod
    def _end_donkey_round(state: DonkeyState, previous: DonkeyState) -> int:
        """The taker takes every card of a donkey round, the donkey included, and may not
        lead it next; returns the taker."""
        plays = state["plays"]
        table = table_counts(plays)
        taker, top = donkey_round_taker(plays)
        hands = own(state, previous, "hands")
        base = taker * SLOTS
        for value in range(SLOTS):
            hands[base + value] += table[value]
        state["log"].append(
            {
                "type": "round_won",
                "hand_no": state["hand_no"],
                "round": state["round_no"],
                "donkey": True,
                "seat": taker,
                "worth": top,
                "cards": cards_of(table),
            }
        )
        state["locked"] = True
        return taker

    def _end_hand(self, state: DonkeyState) -> None:
        n = state["num_players"]
        hands = [hand_of(state, seat) for seat in range(n)]
        penalties = [penalty(hand) for hand in hands]
        state["totals"] = list(map(add, state["totals"], penalties))  # new lists (copy on write)
        state["history"] = [*state["history"], penalties]
        state["log"].append(
            {
                "type": "hand_ended",
                "hand_no": state["hand_no"],
                "out": [seat for seat in range(n) if sum(hands[seat]) == 0],
                "left": [cards_of(hand) for hand in hands],
                "penalties": penalties,
                "totals": list(state["totals"]),
            }
        )
        options = state["options"]
        if options["time_limit_minutes"]:
            final = state["last_hand"] or state["hand_no"] >= TIMED_MATCH_MAX_HANDS
        else:
            final = state["last_hand"] or state["hand_no"] >= options["hands"]
        if final:
            self._end_match(state)
        else:
            self._deal(state)

    def _end_match(self, state: DonkeyState) -> None:
        state["over"] = True
        result = self.result(state)
        state["log"].append(
            {
                "type": "match_ended",
                "hands_played": len(state["history"]),
                "totals": list(state["totals"]),
                "ranks": result.ranks,
                "winners": result.winners,
            }
        )

    def match_seconds(self, state: DonkeyState) -> int | None:
        minutes = state["options"]["time_limit_minutes"]
        return minutes * 60 if minutes else None

    def time_up(self, state: DonkeyState) -> DonkeyState:
        """The host's call when a timed match's time has elapsed (the engine has no clock).

        Pure: returns a new state. The hand in progress becomes the last one; if nobody has
        played in it yet (it was just dealt after an earlier hand), the match ends at once and
        that deal is abandoned. Calling it again, or after the end, changes nothing.
        """
        new_state = state.copy()
        new_state["log"] = state["log"][:]  # the only list a call changes
        if state["over"] or state["last_hand"]:
            return new_state
        new_state["last_hand"] = True
        untouched = state["round_no"] == 1 and not state["plays"] and bool(state["history"])
        new_state["log"].append(
            {"type": "time_up", "hand_no": state["hand_no"], "ends_now": untouched}
        )
        if untouched:
            self._end_match(new_state)
        return new_state

    # -- scores --------------------------------------------------------------------------
    def is_over(self, state: DonkeyState) -> bool:
        return state["over"]

    def result(self, state: DonkeyState) -> Result:
        """Scores are penalty totals: the lowest total wins. [decision] Equal totals share a
        rank (competition ranking, no tie-break)."""
        totals = list(state["totals"])
        return Result(
            scores=totals,
            ranks=rank_by([(-total,) for total in totals]),
            details={
                "lower_is_better": True,
                "hands_played": len(state["history"]),
                "penalties_by_hand": [list(row) for row in state["history"]],
            },
        )

    # -- information ---------------------------------------------------------------------
    def view(self, state: DonkeyState, seat: int | None) -> DonkeyView:
        over = state["over"]
        plays = state["plays"]
        donkey_round = is_donkey_round(plays)
        best = None if donkey_round else best_play(plays)
        view: DonkeyView = {
            "game": self.id,
            "num_players": state["num_players"],
            "options": state["options"],
            "hand_no": state["hand_no"],
            "hands_played": len(state["history"]),
            "last_hand": state["last_hand"],
            "round_no": state["round_no"],
            "leader": round_leader(state),
            "turn": None if over else state["turn"],
            "pending": pending_move(state),
            "donkey_round": donkey_round,
            "donkey_holder": donkey_holder(state),
            "donkey_locked": state["locked"],
            "count": plays[0][P_COUNT] if plays and not donkey_round else 0,
            "best_seat": best[P_SEAT] if best else None,
            "best_value": best[P_VALUE] if best else 0,
            # a donkey round: who would take its cards now, and the worth of the card that takes
            "taker": list(donkey_round_taker(plays)) if donkey_round else None,
            "plays": public_plays(plays),
            "hand_sizes": hand_sizes(state),
            "played": state["played"],
            "totals": state["totals"],
            "history": state["history"],
            "log": state["log"],
            "over": over,
        }
        if seat is not None:
            view["hand"] = cards_of(hand_of(state, seat))
        return view

    def default_action(self, state: DonkeyState, seat: int) -> DonkeyAction:
        """Pass when allowed; in a donkey round the lowest-worth card (a joker, worth 1, before
        a 1); as a leader all real cards of the value held most often (lowest such value),
        never the donkey unless it is the only card."""
        if state["over"] or seat != state["turn"]:
            raise IllegalAction(f"donkey: seat {seat} has no move")
        hand = hand_of(state, seat)
        plays = state["plays"]
        if is_donkey_round(plays):
            if hand[JOKER]:
                return CARDS[JOKER]
            return CARDS[next(value for value in VALUES if hand[value])]
        if plays:
            return PASS
        best = max(VALUES, key=lambda value: (hand[value], -value))
        if hand[best]:
            return PLAYS[best][hand[best]][0]
        if hand[JOKER]:
            return PLAYS[JOKER][hand[JOKER]][hand[JOKER]]
        return LEAD_DONKEY

    # -- testing -------------------------------------------------------------------------
    def check_invariants(self, state: DonkeyState) -> None:
        n = state["num_players"]
        hands = state["hands"]
        plays = state["plays"]
        if len(hands) != n * SLOTS or len(state["undealt"]) != SLOTS:
            raise InvariantViolation("donkey: malformed hands")
        table = table_counts(plays)
        for value in range(SLOTS):
            total = (
                state["undealt"][value]
                + state["played"][value]
                + table[value]
                + sum(hands[value::SLOTS])
            )
            if total != FULL_COUNTS[value]:
                raise InvariantViolation(f"donkey: {total} cards of value {value}, not all 110")
        if min(hands) < 0 or min(state["undealt"]) < 0:
            raise InvariantViolation("donkey: a negative card count")
        if sum(state["undealt"]) != DECK_SIZE - n * HAND_SIZES[n]:
            raise InvariantViolation("donkey: wrong number of undealt cards")
        if state["undealt"][DONKEY]:
            raise InvariantViolation("donkey: the donkey was not dealt")
        history = state["history"]
        if [sum(row[seat] for row in history) for seat in range(n)] != state["totals"]:
            raise InvariantViolation("donkey: totals are not the sum of the hands' penalties")
        if state["over"]:
            return
        if len(history) != state["hand_no"] - 1:
            raise InvariantViolation("donkey: the hand number does not follow the history")
        leader = round_leader(state)
        if not 0 <= leader < n or len(plays) >= n:
            raise InvariantViolation("donkey: bad leader or too many plays in the round")
        if state["turn"] != (leader + len(plays)) % n:
            raise InvariantViolation("donkey: the turn is not clockwise from the leader")
        if any(play[P_SEAT] != (leader + index) % n for index, play in enumerate(plays)):
            raise InvariantViolation("donkey: plays are not in clockwise order")
        if not plays and 0 in hand_sizes(state):
            raise InvariantViolation("donkey: a round starts while a player has no cards")
        if state["locked"] and (not hands[leader * SLOTS + DONKEY] or state["round_no"] == 1):
            raise InvariantViolation("donkey: a locked leader without the donkey")
        if is_donkey_round(plays):
            if any(play[P_KIND] != K_CARD for play in plays[1:]):
                raise InvariantViolation("donkey: a donkey round must be the donkey then cards")
            return
        if plays and plays[0][P_KIND] != K_SET:
            raise InvariantViolation("donkey: a normal round must start with a lead")
        best = 0
        for _seat, kind, value, count, jokers in plays:
            if kind == K_SET:
                if value <= best or count != plays[0][P_COUNT]:
                    raise InvariantViolation("donkey: a play did not raise with the same count")
                if not (jokers == count if value == JOKER else 0 <= jokers < count):
                    raise InvariantViolation("donkey: a set with a wrong number of jokers")
                best = value
            elif kind != K_PASS:
                raise InvariantViolation("donkey: a donkey-round card in a normal round")

    def check_views(self, state: DonkeyState) -> None:
        """No view may depend on another seat's hand or on the undealt cards.

        1. The public view must not change when every hidden card (all hands without the
           donkey, which is public, and the undealt cards) is redistributed in reverse order,
           keeping every pile's size.
        2. Each seat's view must be exactly the public view plus that seat's own hand.

        Together: a seat's view depends only on public facts and its own cards.
        """
        n = state["num_players"]
        public = self.view(state, None)
        hands = state["hands"]
        hidden = cards_of(state["undealt"])
        sizes = [len(hidden)]
        for seat in range(n):
            cards = cards_of(hand_of(state, seat))
            if cards and cards[0] == DONKEY:
                cards = cards[1:]
            hidden += cards
            sizes.append(len(cards))
        shuffled = hidden[::-1]
        if shuffled != hidden:
            piles = []
            start = 0
            for size in sizes:
                pile = [0] * SLOTS
                for card in shuffled[start : start + size]:
                    pile[card] += 1
                piles.append(pile)
                start += size
            other_hands = []
            for seat, pile in enumerate(piles[1:]):
                pile[DONKEY] = hands[seat * SLOTS + DONKEY]
                other_hands += pile
            other = cast(DonkeyState, {**state, "hands": other_hands, "undealt": piles[0]})
            if self.view(other, None) != public:
                raise InvariantViolation("donkey: the public view shows hidden cards")
        for seat in range(n):
            own = self.view(state, seat)
            if own.pop("hand") != cards_of(hand_of(state, seat)) or own != public:
                raise InvariantViolation(f"donkey: the view of seat {seat} shows hidden cards")


def hand_of(state: DonkeyState, seat: int) -> list[int]:
    """A copy of one seat's hand as a count vector by value."""
    return state["hands"][seat * SLOTS : (seat + 1) * SLOTS]


def hand_sizes(state: DonkeyState) -> list[int]:
    hands = state["hands"]
    return [sum(hands[base : base + SLOTS]) for base in range(0, len(hands), SLOTS)]


def donkey_holder(state: DonkeyState) -> int | None:
    """The seat holding the donkey (public: it looks the same on both sides); None while it
    lies on the table in a donkey round."""
    hands = state["hands"]
    for seat in range(state["num_players"]):
        if hands[seat * SLOTS + DONKEY]:
            return seat
    return None


def round_leader(state: DonkeyState) -> int:
    plays = state["plays"]
    return plays[0][P_SEAT] if plays else state["turn"]


def pending_move(state: DonkeyState) -> str | None:
    """What the seat to move does: lead, follow or play a donkey card (None: game over)."""
    plays = state["plays"]
    if state["over"]:
        return None
    if is_donkey_round(plays):
        return "donkey_card"
    return "follow" if plays else "lead"


def public_plays(plays: list[list[int]]) -> list[dict]:
    """The round's plays as a view shows them."""
    return [
        {
            "seat": play[P_SEAT],
            "kind": ("pass", "set", "donkey", "card")[play[P_KIND]],
            "value": play[P_VALUE],
            "cards": play_cards(play),
        }
        for play in plays
    ]


def is_donkey_round(plays: list[list[int]]) -> bool:
    return bool(plays) and plays[0][P_KIND] == K_DONKEY


def best_play(plays: list[list[int]]) -> list[int] | None:
    """The highest play of a normal round so far; None before the lead. A pass is worth 0
    and each play beats the one before, so it is the play of the highest value."""
    return max(plays, key=PLAY_VALUE) if plays else None


def table_counts(plays: list[list[int]]) -> list[int]:
    """The cards lying on the table in the current round, by value."""
    table = [0] * 15
    for _seat, kind, value, count, jokers in plays:
        if kind == K_PASS:
            continue
        if kind == K_SET and value != JOKER:
            table[value] += count - jokers
            table[JOKER] += jokers
        else:
            table[value] += count
    return table


def play_cards(play: list[int]) -> list[int]:
    _seat, kind, value, count, jokers = play
    if kind == K_PASS:
        return []
    if kind == K_SET:
        return set_cards(value, count, jokers)
    return [value]


ENGINE = DonkeyEngine()
