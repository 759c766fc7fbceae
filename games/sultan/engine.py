"""The Sultan engine. Rules: ``docs/rules/sultan.md``.

Gems are colour indices 0..4 (white, red, yellow, green, blue), worth ``colour + 1``.
Money cards are their values (1..15; 1..12 twice with two players); each seat owns its
own cards, so a card is identified by its owner and its value.

Actions are named tuples of small ints, led by their kind: :class:`Return` ``(0, gem)``
and :class:`Bid` ``(1, cushion, value)``; :func:`as_action` names a plain tuple decoded
from a button.

A circle: the start player draws gems (phase ``return``) and chooses the one going back;
the rest are laid on the cushions, sorted by colour. Then the seats bid (phase ``bid``):
bid number ``i`` is made by seat ``(start + bid_order[i]) % n``: the clockwise order with
3–5 players, start/other/start/other with two. After the last bid every cushion is
revealed and resolved, the cards leave the game and the start player passes to the left.

State layout (flat lists of small ints: a move copies the few it changes):

* ``hands``, ``spent``: card counts, ``[seat * CARD_SLOTS + value]``. A seat's deck is the
  rest of its cards: neither in hand, nor bid this circle, nor spent. No deck order is
  stored at all: each round's hand is drawn at random from the deck, which is the same as
  drawing the top cards of a deck shuffled at the start, and leaves no order that anyone
  (the owner included) could learn.
* ``gems``: the gems behind each screen, ``[seat * NUM_COLOURS + colour]``.
* ``bag``: gems in the bag per colour; ``drawn``/``cushions``: gem colours.
* ``gem_rolls``: random numbers drawn at the start of a round for its gem draws, used
  from the end; part of the randomness like ``seed``, never in a view.
* ``bid_cushions``/``bid_values``: the bids of the current circle in play order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import compress
from operator import mul, sub
from typing import Any, Literal, NamedTuple, NotRequired, TypedDict, cast

from games.core import (
    NOBODY,
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
    parse_tagged,
    rank_by,
    sample,
)

GEM_NAMES = ("white", "red", "yellow", "green", "blue")
GEM_VALUES = (1, 2, 3, 4, 5)
GEMS_IN_BAG = (12, 11, 10, 9, 8)  # 50 gems
NUM_COLOURS = len(GEM_NAMES)
ROUNDS = 3
CARD_SLOTS = 16  # card values 1..15 index a seat's block of counts (slot 0 unused)
ROLL_BITS = 30  # a gem roll r picks gem r * bag_size >> ROLL_BITS of the bag


# -- actions -------------------------------------------------------------------------------
RETURN, BID = 0, 1  # the kind: an action's first number


class Return(NamedTuple):
    """The start player returns a drawn ``gem`` (its colour) to the bag."""

    kind: int  # RETURN
    gem: int


class Bid(NamedTuple):
    """The seat to bid puts its money card of ``value`` next to ``cushion``."""

    kind: int  # BID
    cushion: int
    value: int


SultanAction = Return | Bid
ACTION_KINDS = (Return, Bid)  # indexed by kind
# Every action exists once, made here: listing the legal moves only looks them up.
RETURN_ACTIONS = [Return(RETURN, colour) for colour in range(NUM_COLOURS)]
BID_ACTIONS = [[Bid(BID, cushion, value) for value in range(CARD_SLOTS)] for cushion in range(3)]


# Listing the legal moves looks them up: the same few hands and draws come back again and
# again, so the lists are made once (pure functions of what they are given, cached).
@cache  # sorted draws of up to four gems of five colours: at most 126
def return_choices(drawn: tuple[int, ...]) -> tuple[Return, ...]:
    """The start player's returns of these drawn gems: one per colour drawn, by colour."""
    return tuple(RETURN_ACTIONS[colour] for colour in sorted(set(drawn)))


@lru_cache(maxsize=8192)
def bid_choices(cushions: int, used: tuple[int, ...], held: tuple[int, ...]) -> tuple[Bid, ...]:
    """The bids of a seat holding ``held`` (its card counts by value) with ``cushions``
    cushions out, of which it bid on ``used`` already: by cushion, then by value."""
    values = list(compress(range(CARD_SLOTS), held))
    return tuple(
        BID_ACTIONS[cushion][value]
        for cushion in range(cushions)
        if cushion not in used
        for value in values
    )


def parse_action(action: Sequence[int]) -> SultanAction | None:
    """The named action for a plain tuple of numbers (a button's data), or ``None`` when it
    is no action of this game: unknown kind, wrong length, not small non-negative ints."""
    if type(action) in ACTION_KINDS:  # made by the engine (its legal actions): named already
        return action  # type: ignore[return-value]
    return parse_tagged(action, ACTION_KINDS)  # type: ignore[return-value]


def as_action(action: Sequence[int]) -> SultanAction:
    """:func:`parse_action` for an action known to be well-formed (a legal one)."""
    if type(action) in ACTION_KINDS:
        return action  # type: ignore[return-value]
    named = parse_action(action)
    if named is None:
        raise IllegalAction(f"sultan: malformed action {tuple(action)}")
    return named


# -- [decisions] ------------------------------------------------------------------------
# The first start player is chosen at random (the rulebook: the youngest player).
FIRST_START_PLAYER: Literal["random"] = "random"
# How many gems each player holds behind the screen is public (which gems: private).
GEM_COUNTS_PUBLIC = True
# The start player passes to the left: the next seat number.
CLOCKWISE_STEP = 1
# Two players: the four bids of a circle alternate start, other, start, other (as offsets
# from the start player). With 3–5 players each seat bids once, clockwise from the start.
TWO_PLAYER_BID_ORDER = (0, 1, 0, 1)

# Set bonus per number of gems of one colour (one bonus per colour, not cumulative).
BONUS_3_TO_5_PLAYERS = {3: 2, 4: 5, 5: 10, 6: 20}  # 6 or more → 20
BONUS_2_PLAYERS = {4: 2, 5: 5, 6: 10, 7: 20}  # 7 or more → 20


class Setup:
    """The figures that depend on the number of players."""

    __slots__ = (
        "bid_indices",
        "bid_order",
        "bidders",
        "bids_per_player",
        "bonus",
        "bonus_by_count",
        "card_counts",
        "card_values",
        "circles",
        "cushions",
        "draw",
        "hand_size",
    )

    def __init__(self, num_players: int):
        two = num_players == 2
        # two players: two colour sets of 1..12 each; otherwise one set of 1..15
        self.card_values = sorted(list(range(1, 13)) * 2) if two else list(range(1, 16))
        self.card_counts = [self.card_values.count(value) for value in range(CARD_SLOTS)]
        self.hand_size = 8 if two else 5
        self.circles = 4 if two else 5
        self.bids_per_player = 2 if two else 1
        clockwise = tuple(i * CLOCKWISE_STEP % num_players for i in range(num_players))
        self.bid_order = TWO_PLAYER_BID_ORDER if two else clockwise  # offsets from start
        # bid_indices[offset][made]: positions of the bids by the seat ``offset`` places
        # after the start player, once ``made`` bids of the circle are down
        self.bid_indices = [
            [
                tuple(index for index in range(made) if self.bid_order[index] == offset)
                for made in range(len(self.bid_order) + 1)
            ]
            for offset in range(num_players)
        ]
        # bidders[start][made]: the seat of the next bid once ``made`` bids are down
        self.bidders = tuple(
            tuple((start + offset) % num_players for offset in self.bid_order)
            for start in range(num_players)
        )
        self.cushions = 2 if num_players == 3 else 3
        self.draw = self.cushions + 1
        self.bonus = table = BONUS_2_PLAYERS if two else BONUS_3_TO_5_PLAYERS
        # bonus_by_count[count]: the bonus for ``count`` gems of one colour, up to the top
        # of the table (more gems earn no more)
        self.bonus_by_count = tuple(table.get(count, 0) for count in range(max(table) + 1))


SETUPS = {n: Setup(n) for n in range(2, 6)}
# BID_EVENTS[seat][cushion]: the log event of a bid (its card stays hidden), made once and
# shared by every log (log entries are never changed once appended)
BID_EVENTS = tuple(
    tuple({"type": "bid", "seat": seat, "cushion": cushion} for cushion in range(len(BID_ACTIONS)))
    for seat in range(max(SETUPS))
)


def set_bonus(count: int, num_players: int) -> int:
    """The bonus for ``count`` gems of one colour."""
    by_count = SETUPS[num_players].bonus_by_count
    return by_count[min(count, len(by_count) - 1)]


def score_gems(gems: list[int], num_players: int) -> dict:
    """The scoring breakdown of one player's gems (counts per colour)."""
    points = list(map(mul, gems, GEM_VALUES))
    by_count = SETUPS[num_players].bonus_by_count
    top = len(by_count) - 1
    bonuses = [by_count[min(count, top)] for count in gems]
    return {
        "gems": list(gems),
        "gem_count": sum(gems),
        "gem_points_by_colour": points,
        "gem_points": sum(points),
        "bonuses": bonuses,
        "bonus_points": sum(bonuses),
        "total": sum(points) + sum(bonuses),
    }


def cushion_winner(bids: list[list[int]], start: int, num_players: int) -> int | None:
    """The seat winning a cushion with these ``[seat, value]`` bids in play order; None
    without bids. Highest value wins; on equal values the earlier card wins, except with
    two players, where the start player of the circle wins."""
    winner = None
    best = -1
    for seat, value in bids:
        if value > best or (value == best and num_players == 2 and seat == start):
            winner, best = seat, value
    return winner


def win_reason(bids: list[list[int]], num_players: int) -> str:
    """Why the winner of a cushion with these ``[seat, value]`` bids won: ``"highest"``
    card, or on equal highest values ``"tie_start"`` (two players: the start player wins)
    or ``"tie_earlier"`` (the card played earlier wins)."""
    best = max(value for _, value in bids)
    if sum(value == best for _, value in bids) == 1:
        return "highest"
    return "tie_start" if num_players == 2 else "tie_earlier"


def bid_seats(state: SultanState) -> list[int]:
    """The seat of each bid made so far this circle, in play order."""
    n = state["num_players"]
    order = SETUPS[n].bid_order[: len(state["bid_cushions"])]
    return [(state["start"] + offset) % n for offset in order]


def public_bids(state: SultanState) -> list[list[int]]:
    """[seat, cushion] of each bid this circle: where a bid went is public at once, its
    value is not."""
    return [
        [seat, cushion]
        for seat, cushion in zip(bid_seats(state), state["bid_cushions"], strict=True)
    ]


def spent_cards(state: SultanState) -> list[list[int]]:
    """Each seat's revealed card values, sorted."""
    return [cards_of(state["spent"], seat) for seat in range(state["num_players"])]


def bid_indices(state: SultanState, seat: int) -> tuple[int, ...]:
    """The positions of ``seat``'s bids among this circle's bids."""
    n = state["num_players"]
    return SETUPS[n].bid_indices[(seat - state["start"]) % n][len(state["bid_cushions"])]


def next_bidder(state: SultanState) -> int:
    """The seat whose bid is next (during the bidding)."""
    return SETUPS[state["num_players"]].bidders[state["start"]][len(state["bid_cushions"])]


def cards_of(counts: list[int], seat: int) -> list[int]:
    """The sorted card values of ``seat`` in a flat count list (hands, spent)."""
    block = counts[seat * CARD_SLOTS : (seat + 1) * CARD_SLOTS]
    cards = list(compress(range(CARD_SLOTS), block))
    if len(cards) != sum(block):  # a value held twice (two players), or a corrupt count
        cards = [value for value, count in enumerate(block) for _ in range(count)]
    return cards


@lru_cache(maxsize=16384)
def unspent(num_players: int, spent: tuple[int, ...]) -> tuple[int, ...]:
    """The sorted values of a seat's cards that are not among ``spent`` (its counts by
    value): its deck at the start of a round (cached: there are a few thousand)."""
    return tuple(cards_of(list(map(sub, SETUPS[num_players].card_counts, spent)), 0))


def gems_of(gems: list[int], seat: int) -> list[int]:
    """Gem counts per colour behind ``seat``'s screen."""
    return gems[seat * NUM_COLOURS : (seat + 1) * NUM_COLOURS]


# -- state and view --------------------------------------------------------------------------
class SultanState(BaseState):
    phase: str  # return | bid | over
    round: int  # 1..ROUNDS
    circle: int  # 1..circles of a round
    start: int  # the start player of this circle
    bag: list[int]  # [colour]: gems in the bag
    gem_rolls: list[int]  # random numbers for this round's gem draws, used from the end: secret
    drawn: list[int]  # gem colours drawn this circle, before the start player returns one
    cushions: list[int]  # [cushion]: its gem colour during the bidding
    bid_cushions: list[int]  # bid i's cushion (public); bid i is by (start + bid_order[i]) % n
    bid_values: list[int]  # bid i's card value, secret until the reveal
    hands: list[int]  # [seat * CARD_SLOTS + value]: cards of that value in hand
    spent: list[int]  # [seat * CARD_SLOTS + value]: revealed cards, out of the game
    gems: list[int]  # [seat * NUM_COLOURS + colour]: gems behind the screen


class Pending(TypedDict):
    kind: str  # return | bid
    seat: int


class SultanView(TypedDict):
    """The public view; a seat's view adds its hand, its gems and its bids of this circle."""

    game: str
    num_players: int
    options: dict[str, Any]
    phase: str
    pending: Pending | None  # who acts, doing what; None once over
    round: int
    rounds: int
    circle: int
    circles: int
    bids_per_player: int
    start: int
    bag_size: int
    drawn: list[int]
    cushions: list[int]
    bids: list[list[int]]  # this circle's bids in play order: [seat, cushion] (no values)
    hand_sizes: list[int]
    deck_size: int  # every seat's deck has this many cards
    spent: list[list[int]]  # [seat]: revealed card values
    log: list[dict[str, Any]]
    over: bool
    gem_counts: NotRequired[list[int]]  # [seat] (GEM_COUNTS_PUBLIC, or at the end)
    gems: NotRequired[list[list[int]]]  # [seat][colour]: at the end, the screens come down
    scores: NotRequired[list[int]]  # at the end
    hand: NotRequired[list[int]]  # a seat's own: its card values, sorted
    my_gems: NotRequired[list[int]]  # [colour]
    my_bids: NotRequired[list[list[int]]]  # this circle: [cushion, value]


class OptionsSultan(GameOptions):
    """Sultan has no options."""


class EngineSultan(Engine[SultanState, SultanView]):
    id = "sultan"
    min_players = 2
    max_players = 5
    Options = OptionsSultan

    # -- setup ---------------------------------------------------------------------------
    def _setup(self, state: SultanState, options: GameOptions) -> None:
        n = state["num_players"]
        rng = draw_rng(state)
        start = below(rng, n) if FIRST_START_PLAYER == "random" else 0
        state.update(
            {
                "phase": "return",  # "return" | "bid" | "over"
                "round": 1,
                "circle": 1,
                "start": start,
                "bag": list(GEMS_IN_BAG),
                "gem_rolls": [],  # random numbers for this round's gem draws: secret, never shown
                "drawn": [],  # gems drawn this circle, before the start player returns one
                "cushions": [],  # the gem colour on each cushion during the bidding
                "bid_cushions": [],  # public; bid i is by seat (start + bid_order[i]) % n
                "bid_values": [],  # secret until the reveal
                "hands": [0] * (n * CARD_SLOTS),
                "spent": [0] * (n * CARD_SLOTS),  # revealed cards, out of the game
                "gems": [0] * (n * NUM_COLOURS),  # behind the screens
                "log": [{"type": "game_start", "start": start}],
            }
        )
        self._start_round(state, rng)

    def _start_round(self, state: SultanState, rng: random.Random | None = None) -> None:
        """Deal the round's hands and roll the dice for its gem draws (one generator per
        round: seeding a generator costs more than a whole circle of play)."""
        n = state["num_players"]
        setup = SETUPS[n]
        if rng is None:
            rng = draw_rng(state)
        hands, spent = state["hands"], state["spent"]
        for seat in range(n):  # each hand is empty and no card is bid: the deck is all unspent
            base = seat * CARD_SLOTS
            deck = unspent(n, tuple(spent[base : base + CARD_SLOTS]))
            for value in sample(rng, deck, setup.hand_size):
                hands[base + value] += 1
        rolls = [rng.getrandbits(ROLL_BITS) for _ in range(setup.circles * setup.draw)]
        state["gem_rolls"] = rolls
        state["log"].append({"type": "round_start", "round": state["round"]})
        self._draw_gems(state)

    def _draw_gems(self, state: SultanState) -> None:
        """Draw the circle's gems from the bag, one at a time, each uniformly at random."""
        bag = state["bag"]
        count = SETUPS[state["num_players"]].draw
        total = sum(bag)
        if total < count:
            raise InvariantViolation("sultan: the bag ran short of gems")
        rolls = state["gem_rolls"]
        drawn = []
        for _ in range(count):
            pick = rolls.pop() * total >> ROLL_BITS  # in 0..total-1, uniform within 2**-24
            colour = 0
            while pick >= bag[colour]:
                pick -= bag[colour]
                colour += 1
            bag[colour] -= 1
            total -= 1
            drawn.append(colour)
        drawn.sort()
        state["drawn"] = drawn
        state["phase"] = "return"
        state["log"].append(
            {
                "type": "gems_drawn",
                "round": state["round"],
                "circle": state["circle"],
                "start": state["start"],
                "gems": list(drawn),
            }
        )

    # -- play ----------------------------------------------------------------------------
    @staticmethod
    def deck(state: SultanState, seat: int) -> list[int]:
        """The sorted values of ``seat``'s deck: its cards not in hand, bid or spent."""
        n = state["num_players"]
        base = seat * CARD_SLOTS
        held = state["hands"][base : base + CARD_SLOTS]
        spent = state["spent"][base : base + CARD_SLOTS]
        counts = list(map(sub, map(sub, SETUPS[n].card_counts, held), spent))
        for index in bid_indices(state, seat):
            counts[state["bid_values"][index]] -= 1
        return cards_of(counts, 0)

    @staticmethod
    def deck_size(state: SultanState) -> int:
        """Cards left in each seat's deck: all draw the same number each round."""
        setup = SETUPS[state["num_players"]]
        dealt = ROUNDS if state["phase"] == "over" else state["round"]
        return len(setup.card_values) - dealt * setup.hand_size

    def to_act(self, state: SultanState) -> frozenset[int]:
        phase = state["phase"]
        if phase == "bid":
            return ONLY_SEAT[next_bidder(state)]
        if phase == "return":
            return ONLY_SEAT[state["start"]]
        return NOBODY

    @staticmethod
    def used_cushions(state: SultanState, seat: int) -> list[int]:
        """Cushions ``seat`` already bid on this circle (two players: no second card there)."""
        cushions = state["bid_cushions"]
        return [cushions[index] for index in bid_indices(state, seat)]

    def legal_actions(self, state: SultanState, seat: int) -> list[SultanAction]:
        phase = state["phase"]
        if phase != "bid":
            if phase != "return" or seat != state["start"]:
                return []
            return list(return_choices(tuple(state["drawn"])))
        if seat != next_bidder(state):
            return []
        base = seat * CARD_SLOTS
        held = tuple(state["hands"][base : base + CARD_SLOTS])  # its card counts by value
        if SETUPS[state["num_players"]].bids_per_player > 1:
            used = tuple(self.used_cushions(state, seat))
        else:
            used = ()
        return list(bid_choices(len(state["cushions"]), used, held))

    def is_legal(self, state: SultanState, seat: int, action: Action) -> bool:
        phase = state["phase"]
        move = action if type(action) in ACTION_KINDS else parse_action(action)
        if phase != "bid":
            if phase != "return" or type(move) is not Return:
                return False
            return seat == state["start"] and move.gem in state["drawn"]
        if type(move) is not Bid or seat != next_bidder(state):
            return False
        _, cushion, value = move
        if not (0 <= cushion < len(state["cushions"]) and 0 < value < CARD_SLOTS):
            return False
        if not state["hands"][seat * CARD_SLOTS + value]:
            return False
        if SETUPS[state["num_players"]].bids_per_player == 1:
            return True
        return cushion not in self.used_cushions(state, seat)

    # Moves never change a list of the state they are given: they copy what they change
    # into a shallow copy (copy-on-write), so a bid costs a hand and the bids, not the state.
    def _next_state(self, state: SultanState, seat: int, action: Action) -> SultanState:
        move = action if type(action) in ACTION_KINDS else as_action(action)
        new = state.copy()
        log = new["log"] = state["log"][:]
        if type(move) is Return:
            colour = move.gem
            cushions = state["drawn"][:]
            cushions.remove(colour)
            bag = new["bag"] = state["bag"][:]
            bag[colour] += 1
            new["cushions"] = cushions
            new["drawn"] = []
            new["phase"] = "bid"
            log.append(
                {"type": "gem_returned", "seat": seat, "gem": colour, "cushions": list(cushions)}
            )
            return new
        _, cushion, value = move  # a bid
        hands = new["hands"] = state["hands"][:]
        hands[seat * CARD_SLOTS + value] -= 1
        bids = new["bid_cushions"] = [*state["bid_cushions"], cushion]
        new["bid_values"] = [*state["bid_values"], value]
        log.append(BID_EVENTS[seat][cushion])
        n = state["num_players"]
        if len(bids) == n * SETUPS[n].bids_per_player:
            for key in ("bag", "gems", "spent", "gem_rolls"):  # what the reveal changes too
                new[key] = new[key][:]  # type: ignore[literal-required]
            self._reveal(new)
        return new

    def _reveal(self, state: SultanState) -> None:
        n = state["num_players"]
        start = state["start"]
        seats = SETUPS[n].bidders[start]  # every bid is down: the seat of each, in play order
        bag, gems, spent, log = state["bag"], state["gems"], state["spent"], state["log"]
        round_no, circle = state["round"], state["circle"]
        cushions = state["cushions"]
        on_cushion: list[list[list[int]]] = [[] for _ in cushions]  # [seat, value] in play order
        for seat, cushion, value in zip(
            seats, state["bid_cushions"], state["bid_values"], strict=True
        ):
            on_cushion[cushion].append([seat, value])
            spent[seat * CARD_SLOTS + value] += 1  # the cards leave the game
        for cushion, colour in enumerate(cushions):
            bids = on_cushion[cushion]
            winner = cushion_winner(bids, start, n)
            if winner is None:
                bag[colour] += 1
            else:
                gems[winner * NUM_COLOURS + colour] += 1
            log.append(
                {
                    "type": "reveal",
                    "round": round_no,
                    "circle": circle,
                    "cushion": cushion,
                    "gem": colour,
                    "bids": bids,
                    "winner": winner,
                    "returned": winner is None,
                }
            )
        state["bid_cushions"] = []
        state["bid_values"] = []
        state["cushions"] = []
        state["start"] = (start + CLOCKWISE_STEP) % n
        if state["circle"] < SETUPS[n].circles:
            state["circle"] += 1
            self._draw_gems(state)
        elif state["round"] < ROUNDS:
            state["round"] += 1
            state["circle"] = 1
            self._start_round(state)
        else:
            self._end_game(state)

    def _end_game(self, state: SultanState) -> None:
        state["phase"] = "over"
        result = self.result(state)
        state["log"].append(
            {"type": "final_scoring", "players": result.details["players"], "ranks": result.ranks}
        )

    # -- scores --------------------------------------------------------------------------
    def is_over(self, state: SultanState) -> bool:
        return state["phase"] == "over"

    def result(self, state: SultanState) -> Result:
        """Highest total wins; ties go to more gems; still tied, the rank is shared."""
        n = state["num_players"]
        breakdown = [score_gems(gems_of(state["gems"], seat), n) for seat in range(n)]
        scores = [line["total"] for line in breakdown]
        gem_counts = [line["gem_count"] for line in breakdown]
        return Result(
            scores=scores,
            ranks=rank_by(list(zip(scores, gem_counts, strict=True))),
            details={"gem_counts": gem_counts, "players": breakdown},
        )

    # -- information ---------------------------------------------------------------------
    def view(self, state: SultanState, seat: int | None) -> SultanView:
        n = state["num_players"]
        setup = SETUPS[n]
        phase = state["phase"]
        over = phase == "over"
        start = state["start"]
        pending: Pending | None
        if phase == "return":
            pending = {"kind": "return", "seat": start}
        elif phase == "bid":
            pending = {"kind": "bid", "seat": next_bidder(state)}
        else:
            pending = None
        view: SultanView = {
            "game": self.id,
            "num_players": n,
            "options": state["options"],
            "phase": phase,
            "pending": pending,
            "round": state["round"],
            "rounds": ROUNDS,
            "circle": state["circle"],
            "circles": setup.circles,
            "bids_per_player": setup.bids_per_player,
            "start": start,
            "bag_size": sum(state["bag"]),
            "drawn": state["drawn"],
            "cushions": state["cushions"],
            # which cushion each bid went to is public at once; the values are not
            "bids": public_bids(state),
            "hand_sizes": [
                sum(state["hands"][s * CARD_SLOTS : (s + 1) * CARD_SLOTS]) for s in range(n)
            ],
            "deck_size": self.deck_size(state),  # every seat's deck has this many cards
            "spent": spent_cards(state),
            "log": state["log"],
            "over": over,
        }
        if GEM_COUNTS_PUBLIC or over:
            view["gem_counts"] = [sum(gems_of(state["gems"], s)) for s in range(n)]
        if over:  # the screens come down for the final scoring
            view["gems"] = [gems_of(state["gems"], s) for s in range(n)]
            view["scores"] = self.result(state).scores
        if seat is not None:
            view["hand"] = cards_of(state["hands"], seat)
            view["my_gems"] = gems_of(state["gems"], seat)
            view["my_bids"] = [
                [state["bid_cushions"][index], state["bid_values"][index]]
                for index in bid_indices(state, seat)
            ]
        return view

    def default_action(self, state: SultanState, seat: int) -> SultanAction:
        """Return the cheapest drawn gem; bid the lowest card on the most valuable gem the
        seat has not bid on yet this circle (the first such cushion)."""
        actions = self.legal_actions(state, seat)
        if not actions:
            raise IllegalAction(f"sultan: seat {seat} has no move")
        if state["phase"] == "return":
            return actions[0]  # actions are sorted by colour: white, the cheapest, first
        used = self.used_cushions(state, seat)
        cushions = state["cushions"]
        free = [cushion for cushion in range(len(cushions)) if cushion not in used]
        best = max(free, key=lambda cushion: (cushions[cushion], -cushion))
        return BID_ACTIONS[best][cards_of(state["hands"], seat)[0]]

    # -- testing -------------------------------------------------------------------------
    def circles_done(self, state: SultanState) -> int:
        circles = SETUPS[state["num_players"]].circles
        done = (state["round"] - 1) * circles + state["circle"] - 1
        return done + 1 if state["phase"] == "over" else done

    def check_invariants(self, state: SultanState) -> None:
        n = state["num_players"]
        setup = SETUPS[n]
        phase = state["phase"]
        if phase not in ("return", "bid", "over"):
            raise InvariantViolation(f"sultan: unknown phase {phase!r}")
        if not (1 <= state["round"] <= ROUNDS and 1 <= state["circle"] <= setup.circles):
            raise InvariantViolation("sultan: round or circle out of range")
        done = self.circles_done(state)
        if state["start"] != (state["log"][0]["start"] + done * CLOCKWISE_STEP) % n:
            raise InvariantViolation("sultan: the start player did not pass clockwise")
        self._check_gems(state, done)
        self._check_phase(state)
        self._check_cards(state, done)

    def _check_gems(self, state: SultanState, done: int) -> None:
        """Bag + drawn + cushions + screens = the 50 gems, never a negative count."""
        n = state["num_players"]
        counts = list(state["bag"])
        for colour in state["drawn"] + state["cushions"]:
            counts[colour] += 1
        gems = state["gems"]
        if len(gems) != n * NUM_COLOURS or min(gems) < 0 or min(state["bag"]) < 0:
            raise InvariantViolation("sultan: malformed gem counts")
        for index, count in enumerate(gems):
            counts[index % NUM_COLOURS] += count
        if counts != list(GEMS_IN_BAG):
            raise InvariantViolation("sultan: the gems are not all accounted for")
        if sum(gems) > done * SETUPS[n].cushions:
            raise InvariantViolation("sultan: more gems won than were offered")

    def _check_phase(self, state: SultanState) -> None:
        n = state["num_players"]
        setup = SETUPS[n]
        phase = state["phase"]
        bids = state["bid_cushions"]
        if len(bids) != len(state["bid_values"]):
            raise InvariantViolation("sultan: bid cushions and values disagree")
        circles_left = 0 if phase == "over" else setup.circles - state["circle"]
        if len(state["gem_rolls"]) != circles_left * setup.draw:
            raise InvariantViolation("sultan: gem rolls do not match the circles left")
        if phase == "return":
            if len(state["drawn"]) != setup.draw or state["cushions"] or bids:
                raise InvariantViolation("sultan: malformed return phase")
        elif phase == "bid":
            if state["drawn"] or len(state["cushions"]) != setup.cushions:
                raise InvariantViolation("sultan: malformed bidding phase")
            if len(bids) >= n * setup.bids_per_player:
                raise InvariantViolation("sultan: a complete bidding was not revealed")
        elif state["drawn"] or state["cushions"] or bids:
            raise InvariantViolation("sultan: leftovers after the end")
        if any(not 0 <= cushion < setup.cushions for cushion in bids):
            raise InvariantViolation("sultan: a bid on a missing cushion")
        for seat in range(n):
            used = self.used_cushions(state, seat)
            if len(set(used)) != len(used):
                raise InvariantViolation(f"sultan: seat {seat} bid twice on one cushion")

    def _check_cards(self, state: SultanState, done: int) -> None:
        """Each seat's hand + unrevealed bids + spent cards are cards of its own set, never
        one twice (the deck is the rest, so every card is somewhere exactly once), and the
        counts match the circles played: every card is played exactly once per game."""
        n = state["num_players"]
        setup = SETUPS[n]
        over = state["phase"] == "over"
        if min(state["hands"]) < 0 or min(state["spent"]) < 0:
            raise InvariantViolation("sultan: a negative card count")
        for seat in range(n):
            hand = cards_of(state["hands"], seat)
            pending = [state["bid_values"][index] for index in bid_indices(state, seat)]
            spent = cards_of(state["spent"], seat)
            deck = self.deck(state, seat)
            if sorted(deck + hand + pending + spent) != setup.card_values:
                raise InvariantViolation(f"sultan: seat {seat} holds a card twice or not its own")
            if len(spent) != done * setup.bids_per_player:
                raise InvariantViolation(f"sultan: seat {seat} spent the wrong number of cards")
            if len(deck) != self.deck_size(state):
                raise InvariantViolation(f"sultan: seat {seat}'s deck has the wrong size")
            played = (
                setup.hand_size
                if over
                else (state["circle"] - 1) * setup.bids_per_player + len(pending)
            )
            if len(hand) != setup.hand_size - played:
                raise InvariantViolation(f"sultan: seat {seat} holds the wrong number of cards")

    def check_views(self, state: SultanState) -> None:
        """No view may depend on what it must not see.

        For each viewer (the public and every seat) the hidden information is rearranged
        consistently and the view must not change: every other seat's cards are reshuffled
        among its hand, its unrevealed bids and its deck (the high cards into the hand and
        the bids); while the screens are up, the other seats' screened gems are exchanged
        with the bag so that each screen holds the cheapest gems, its count unchanged.
        Decks keep no order in the state, so there is no order to leak.
        """
        n = state["num_players"]
        over = state["phase"] == "over"
        for keeper in [None, *range(n)]:
            other = cast(SultanState, dict(state))
            other["hands"] = list(state["hands"])
            other["bid_values"] = list(state["bid_values"])
            for seat in range(n):
                if seat != keeper:
                    self._reshuffle_cards(state, other, seat)
            if not over:
                self._swap_screened_gems(state, other, keeper)
            if self.view(other, keeper) != self.view(state, keeper):
                raise InvariantViolation(f"sultan: the view of seat {keeper} leaks a secret")

    def _reshuffle_cards(self, state: SultanState, other: SultanState, seat: int) -> None:
        base = seat * CARD_SLOTS
        indices = bid_indices(state, seat)
        pool = (
            cards_of(state["hands"], seat)
            + [state["bid_values"][index] for index in indices]
            + self.deck(state, seat)
        )
        pool.sort(reverse=True)
        hand_size = sum(state["hands"][base : base + CARD_SLOTS])
        for value in range(CARD_SLOTS):
            other["hands"][base + value] = 0
        for value in pool[:hand_size]:
            other["hands"][base + value] += 1
        for position, index in enumerate(indices):
            other["bid_values"][index] = pool[hand_size + position]

    @staticmethod
    def _swap_screened_gems(state: SultanState, other: SultanState, keeper: int | None) -> None:
        n = state["num_players"]
        pool = [colour for colour, count in enumerate(state["bag"]) for _ in range(count)]
        for seat in range(n):
            if seat != keeper:
                pool += [c for c, k in enumerate(gems_of(state["gems"], seat)) for _ in range(k)]
        pool.sort()
        gems = list(state["gems"])
        for seat in range(n):
            if seat == keeper:
                continue
            base = seat * NUM_COLOURS
            size = sum(gems[base : base + NUM_COLOURS])
            gems[base : base + NUM_COLOURS] = [0] * NUM_COLOURS
            for colour in pool[:size]:
                gems[base + colour] += 1
            del pool[:size]
        other["gems"] = gems
        other["bag"] = [pool.count(colour) for colour in range(NUM_COLOURS)]


ENGINE = EngineSultan()
