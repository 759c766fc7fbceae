"""The Azul Mini: Summer Pavilion engine. Rules: ``docs/rules/summer_pavilion.md``.

Colours are ints 0..5 in the order of :data:`COLOURS`; every pile of tiles (bag aside) is a
count vector of length 6 indexed by colour. A player board is a flat list of 42 ints, one per
space, ``star * 6 + (space - 1)``, holding the colour placed there or ``EMPTY``. Star 0 is the
centre star, stars 1..6 the outer stars clockwise from the left one (:data:`STAR_COLOURS`).
:class:`SummerPavilionState` and :class:`SummerPavilionView` declare every key.

Phases (``state["phase"]``): ``taking`` (phase 1), ``placing`` (phase 2), ``bonus`` (the
placing player chooses bonus tiles from the supply, one per action), ``keeping`` (a passing
player chooses the tiles kept on the corners, one per action), ``over``.

Actions are named tuples of small ints, led by their kind: :class:`Take` ``(0, source,
colour)``, :class:`Place` ``(1, star, space, colour, wilds)``, :class:`Pass` ``(2,)``,
:class:`Bonus` ``(3, colour)``, :class:`Keep` ``(4, colour)``, :class:`Done` ``(5,)``;
:func:`as_action` names a plain tuple decoded from a button.

There is no hidden information except the order of the bag; views show its size only.

Log events (``state["log"]``, public, never changed once appended):

* ``round`` — round, wild colour, start seat, tiles drawn for the factories;
* ``take`` — seat, source, colour, count, ``wild`` (0/1 extra wild tile); when the
  first-player tile is taken, ``first_player_tile`` = the points it cost;
* ``placing`` — phase 2 begins, ``first`` seat;
* ``place`` — seat, star, space, colour, wilds, points; when structures are completed,
  ``structures`` = ``[kind, outer star]`` pairs (kind 0 pillar, 1 statue, 2 window) and
  ``bonus`` = ``[tiles owed, tiles the supply can give]``;
* ``bonus`` — seat, colour of one bonus tile taken;
* ``supply_refilled`` / ``bag_refilled`` — tiles drawn into the supply / poured from the
  tower into the bag;
* ``pass`` — seat, ``kept`` and ``discarded`` (colours, one per tile), ``penalty``; or
  ``auto: True`` for a seat out of tiles;
* ``final`` — per seat: score ``before``, complete ``stars`` (``[star, points]``),
  ``numbers`` (``[number, points]``), ``corner_tiles``, ``corner_penalty``, ``score``; then
  the final ``scores`` and ``ranks``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from itertools import combinations_with_replacement, compress
from operator import add, itemgetter
from typing import Any, NamedTuple, NotRequired, TypedDict

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
    detach,
    draw_rng,
    own,
    own_item,
    parse_tagged,
    rank_by,
    shuffle,
)

COLOURS = ("purple", "green", "orange", "yellow", "blue", "red")
PURPLE, GREEN, ORANGE, YELLOW, BLUE, RED = range(6)
NUM_COLOURS = 6
TILES_PER_COLOUR = 22
TOTAL_TILES = NUM_COLOURS * TILES_PER_COLOUR  # 132
SUPPLY_SIZE = 10
FACTORY_SIZE = 4
FACTORIES = {2: 5, 3: 7, 4: 9}
START_SCORE = 5
ROUNDS = 6
CORNERS = 4  # tiles a passing player may keep for the next round
SCORE_FLOOR = 0  # [decision] losses (first-player tile, discards, corners) stop at 0

# Wild colour of rounds 1..6: the standard side of the supply board, and Variant 2's side
# ([decision]: the Mini rulebook does not print it).
WILD_ORDER = (PURPLE, GREEN, ORANGE, YELLOW, BLUE, RED)
VARIANT2_WILD_ORDER = (ORANGE, RED, BLUE, YELLOW, GREEN, PURPLE)

NUM_STARS = 7
CENTRE = 0  # the centre star (multicolour); outer stars 1..6 clockwise from the left one
FREE = -1  # a star without a fixed colour: the centre star, and every star in Variant 1
STAR_COLOURS = (FREE, PURPLE, ORANGE, RED, BLUE, YELLOW, GREEN)
VARIANT1_STAR_COLOURS = (FREE,) * 7
EMPTY = -1  # an empty board space
SPACES = NUM_STARS * 6
STAR_BASES = tuple(range(0, SPACES, 6))  # board index of space 1 of each star

# End bonus of a complete star by its colour; a multicolour star scores MULTICOLOUR_VALUE.
STAR_VALUES = {RED: 14, BLUE: 15, YELLOW: 16, ORANGE: 17, GREEN: 18, PURPLE: 20}
MULTICOLOUR_VALUE = 12
NUMBER_BONUSES = {1: 4, 2: 8, 3: 12, 4: 16}  # every space printed 1 / 2 / 3 / 4 covered

# Printed numbers, [star][space - 1]. Coloured side: space k shows k. Variant 1's side
# ([decision]: the full-size game's board): outer stars 3, 2, 1, 4, 5, 6, the centre all 3s.
STANDARD_NUMBERS = tuple((1, 2, 3, 4, 5, 6) for _ in range(NUM_STARS))
VARIANT1_OUTER_NUMBERS = (3, 2, 1, 4, 5, 6)
VARIANT1_CENTRE_NUMBER = 3
VARIANT1_NUMBERS = ((VARIANT1_CENTRE_NUMBER,) * 6,) + (VARIANT1_OUTER_NUMBERS,) * 6

# NUMBER_SPACES[variant1]: (number, bonus, the tiles on every space printed with it) for
# each number with an end bonus
NUMBER_SPACES = tuple(
    tuple(
        (
            number,
            value,
            itemgetter(
                *(
                    star * 6 + offset
                    for star in range(NUM_STARS)
                    for offset in range(6)
                    if numbers[star][offset] == number
                )
            ),
        )
        for number, value in NUMBER_BONUSES.items()
    )
    for numbers in (STANDARD_NUMBERS, VARIANT1_NUMBERS)
)

PILLAR, STATUE, WINDOW = range(3)
STRUCTURE_KINDS = ("pillar", "statue", "window")
STRUCTURE_BONUS = (1, 2, 3)  # bonus tiles for completing a pillar / statue / window


def space_index(star: int, space: int) -> int:
    """Index in a board list of ``space`` (1..6) of ``star`` (0..6)."""
    return star * 6 + space - 1


def next_star(star: int) -> int:
    return star % 6 + 1


def _structures() -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """The 18 structures as ``(kind, outer star, board indices)``; id = kind * 6 + star - 1."""
    found = []
    for kind in (PILLAR, STATUE, WINDOW):
        for star in range(1, 7):
            if kind == PILLAR:
                a = (star + 3) % 6 + 1
                spaces = [(star, 2), (star, 3), (CENTRE, a), (CENTRE, a % 6 + 1)]
            elif kind == STATUE:
                nxt = next_star(star)
                spaces = [(star, 1), (star, 2), (nxt, 3), (nxt, 4)]
            else:
                spaces = [(star, 5), (star, 6)]
            found.append((kind, star, tuple(space_index(s, p) for s, p in spaces)))
    return tuple(found)


STRUCTURES = _structures()
# For each board index, the ids of the structures it belongs to.
SPACE_STRUCTURES = tuple(
    tuple(sid for sid, (_, _, spaces) in enumerate(STRUCTURES) if index in spaces)
    for index in range(SPACES)
)

# STRUCTURE_TILES[id](board): the tiles on a structure's spaces, as a tuple.
STRUCTURE_TILES = tuple(itemgetter(*spaces) for _, _, spaces in STRUCTURES)

PHASES = ("taking", "placing", "bonus", "keeping", "over")

# -- actions -------------------------------------------------------------------------------
TAKE, PLACE, PASS, BONUS, KEEP, DONE = range(6)  # the kind: an action's first number


class Take(NamedTuple):
    """Phase 1: every tile of ``colour`` (not the wild colour) from ``source`` (0 = the
    centre, k = factory k), plus one wild tile if the source holds any; when the source
    holds only wild tiles, ``colour`` is the wild colour and one of them is taken."""

    kind: int  # TAKE
    source: int
    colour: int


class Place(NamedTuple):
    """Phase 2: ``colour`` on ``space`` (1..6) of ``star`` (0..6), paying the printed number
    of tiles: ``wilds`` wild tiles, the rest real tiles of ``colour`` (at least one;
    ``wilds`` is 0 when ``colour`` is the wild colour)."""

    kind: int  # PLACE
    star: int
    space: int
    colour: int
    wilds: int


class Pass(NamedTuple):
    """Phase 2: pass (then choose the corner tiles, unless the hand is empty)."""

    kind: int  # PASS


class Bonus(NamedTuple):
    """Take one bonus tile of ``colour`` from the supply."""

    kind: int  # BONUS
    colour: int


class Keep(NamedTuple):
    """After a pass: keep one tile of ``colour`` on a corner of the board."""

    kind: int  # KEEP
    colour: int


class Done(NamedTuple):
    """After a pass: keep no more; the remaining tiles go to the tower at −1 point each."""

    kind: int  # DONE


SummerPavilionAction = Take | Place | Pass | Bonus | Keep | Done
ACTION_KINDS = (Take, Place, Pass, Bonus, Keep, Done)  # indexed by kind

# Every action exists once, made here: listing the legal moves only looks them up.
MAX_SOURCES = max(FACTORIES.values()) + 1  # the centre and the factories
TAKES = tuple(tuple(Take(TAKE, src, c) for c in range(NUM_COLOURS)) for src in range(MAX_SOURCES))
# TAKES_BY_COLOURS[wild][source][colours]: the takes from a source holding tiles of these
# colours (a sorted tuple) in a round of that wild colour: every colour but the wild one,
# or the wild colour when it is all the source holds.
TAKES_BY_COLOURS = tuple(
    tuple(
        {
            colours: tuple(
                TAKES[source][colour] for colour in colours if colour != wild or colours == (wild,)
            )
            for colours in (
                tuple(c for c in range(NUM_COLOURS) if held >> c & 1)
                for held in range(1 << NUM_COLOURS)
            )
        }
        for source in range(MAX_SOURCES)
    )
    for wild in range(NUM_COLOURS)
)
# PLACES[star][space][colour][wilds]; space 0 does not exist and stays empty
PLACES = tuple(
    tuple(
        tuple(tuple(Place(PLACE, star, space, c, w) for w in range(6)) for c in range(NUM_COLOURS))
        if space
        else ()
        for space in range(7)
    )
    for star in range(NUM_STARS)
)


class _ColoursHeld(dict):
    """COLOURS_HELD[tuple(tiles)]: the colours a pile holds, as a sorted tuple. Every pile of
    at most 8 tiles (a factory's, and the centre's but for rare cases; 3,003 piles) is in the
    table; others are worked out."""

    def __missing__(self, tiles: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(compress(range(NUM_COLOURS), tiles))


def _piles(most: int) -> Iterator[tuple[int, ...]]:
    """Every pile of at most ``most`` tiles, as colour counts."""
    for size in range(most + 1):
        for tiles in combinations_with_replacement(range(NUM_COLOURS), size):
            yield tuple(map(tiles.count, range(NUM_COLOURS)))


COLOURS_HELD = _ColoursHeld(
    (tiles, tuple(compress(range(NUM_COLOURS), tiles))) for tiles in _piles(8)
)
PASS_ACTION = Pass(PASS)
BONUSES = tuple(Bonus(BONUS, colour) for colour in range(NUM_COLOURS))
KEEPS = tuple(Keep(KEEP, colour) for colour in range(NUM_COLOURS))
DONE_ACTION = Done(DONE)


def parse_action(action: Sequence[int]) -> SummerPavilionAction | None:
    """The named action for a plain tuple of numbers (a button's data), or ``None`` when it
    is no action of this game: unknown kind, wrong length, not small non-negative ints."""
    if type(action) in ACTION_KINDS:  # made by the engine (its legal actions): named already
        return action  # type: ignore[return-value]
    return parse_tagged(action, ACTION_KINDS)  # type: ignore[return-value]


def as_action(action: Sequence[int]) -> SummerPavilionAction:
    """:func:`parse_action` for an action known to be well-formed (a legal one)."""
    if type(action) in ACTION_KINDS:
        return action  # type: ignore[return-value]
    named = parse_action(action)
    if named is None:
        raise IllegalAction(f"summer_pavilion: malformed action {tuple(action)}")
    return named


# -- state and view --------------------------------------------------------------------------
ColourCounts = list[int]  # a pile of tiles: how many of each colour, indexed by colour (6)


class SummerPavilionState(BaseState):
    round: int  # 1..ROUNDS
    phase: str  # one of PHASES: taking, placing, bonus, keeping, over
    current: int  # the seat to act
    start_player: int  # the seat that starts phase 1 of this round
    first_player_tile: int  # -1: still in the centre; else the seat that took it
    bag: list[int]  # colours, one per tile, drawn from the end: its order is the only secret
    tower: ColourCounts  # discarded and paid tiles, poured into the bag when it is empty
    supply: ColourCounts  # at most SUPPLY_SIZE tiles for bonuses
    centre: ColourCounts  # the source 0 of a Take
    factories: list[ColourCounts]  # [k - 1]: factory k, the source k of a Take
    hands: list[ColourCounts]  # [seat]: the tiles next to the board
    corners: list[ColourCounts]  # [seat]: tiles kept on the corners by a pass
    boards: list[list[int]]  # [seat][star * 6 + space - 1]: the colour there, or EMPTY
    scores: list[int]  # [seat]
    passed: list[bool]  # [seat]: passed in this round's phase 2
    bonus_due: int  # bonus tiles still to take (phase "bonus")


class PlayerView(TypedDict):
    score: int
    hand: ColourCounts
    corners: ColourCounts
    board: list[list[int]]  # [star][space - 1]: the colour there, or EMPTY
    passed: bool


class SummerPavilionView(TypedDict):
    """Everything is public but the order of the bag; a seat's view adds only ``seat``."""

    game: str
    num_players: int
    options: dict[str, Any]
    round: int
    rounds: int
    wild: int  # the wild colour of this round
    next_wild: int | None  # of the next round; None in the last one
    wild_order: list[int]  # the wild colour of rounds 1..6
    phase: str
    current: int | None  # None once the game is over
    start_player: int
    first_player_tile: int  # -1: still in the centre
    bonus_due: int
    factories: list[ColourCounts]  # [k - 1]: factory k, the source k of a Take
    centre: ColourCounts  # the source 0 of a Take
    supply: ColourCounts
    bag_size: int
    tower: ColourCounts
    star_colours: list[int]  # [star]: its colour, FREE for the centre (every star: Variant 1)
    numbers: list[list[int]]  # [star][space - 1]: the printed number, the tiles it costs
    players: list[PlayerView]
    log: list[dict[str, Any]]
    seat: NotRequired[int]  # whose view it is (absent from the public view)


class SummerPavilionOptions(GameOptions):
    variant1: bool = False  # stars of no fixed colour, other printed numbers
    variant2: bool = False  # the other wild-colour order


def wild_order(options: dict) -> tuple[int, ...]:
    return VARIANT2_WILD_ORDER if options["variant2"] else WILD_ORDER


def round_wild(state: Mapping[str, Any]) -> int:
    """The wild colour of the state's round."""
    order = VARIANT2_WILD_ORDER if state["options"]["variant2"] else WILD_ORDER
    return order[state["round"] - 1]


def numbers_of(options: dict) -> tuple[tuple[int, ...], ...]:
    return VARIANT1_NUMBERS if options["variant1"] else STANDARD_NUMBERS


def star_accepts(board: list[int], star: int, colour: int, variant1: bool) -> bool:
    """May ``colour`` go on a (any) free space of ``star``, given the tiles already there?"""
    base = star * 6
    if not variant1:
        if star != CENTRE:
            return colour == STAR_COLOURS[star]
        return colour not in board[base : base + 6]
    placed = [tile for tile in board[base : base + 6] if tile != EMPTY]
    if len(placed) < 2:
        return True
    if placed[0] == placed[1]:  # a single-colour star (stars are never mixed otherwise)
        return colour == placed[0]
    return colour not in placed


MOST_TILES = 6  # the most a space costs
MOST_WILDS = MOST_TILES - 1  # a placement pays at least one real tile


# SPLITS[cost][have][wilds]: which of ``PLACES[star][space][colour]`` (indexed by the wild
# tiles used) pay ``cost`` with ``have`` real tiles (capped at MOST_TILES) and at most ``wilds``
# wild ones: at least one real tile, wild tiles for the rest. The wild colour itself pays on
# its own: it is looked up with ``wilds`` 0.
SPLITS = tuple(
    tuple(
        tuple(slice(max(0, cost - have), min(cost - 1, wilds) + 1) for wilds in range(6))
        for have in range(MOST_TILES + 1)
    )
    for cost in range(MOST_TILES + 1)
)


def star_placements(
    star: int,
    cells: Sequence[int],
    paying: Sequence[tuple[int, int, int]],
    printed: tuple[int, ...],
) -> list[Place]:
    """The placements on the empty spaces of ``star`` (its six ``cells``, costing the
    ``printed`` numbers), in order, by the colours that ``paying`` lists as ``(colour, tiles
    held capped at MOST_TILES, wild tiles that may help)`` (colours the star accepts)."""
    actions: list[Place] = []
    by_space = PLACES[star]
    for offset, cell in enumerate(cells):
        if cell == EMPTY:
            by_colour = by_space[offset + 1]
            splits = SPLITS[printed[offset]]
            for colour, have, wilds in paying:
                actions += by_colour[colour][splits[have][wilds]]
    return actions


# A turn lists the placements star by star, and an outer star's repeat from turn to turn (on
# the standard board they depend only on its own colour's tiles and the wild ones): cached.
# 4,096 entries (about 2.5 MB) answer about 97% of the calls in random play.
@lru_cache(maxsize=4096)
def outer_star_placements(
    star: int, cells: tuple[int, ...], have: int, wilds: int
) -> tuple[Place, ...]:
    """The placements on an outer ``star`` of the standard board with ``have`` tiles of its
    colour (capped at MOST_TILES) and ``wilds`` wild tiles that may help."""
    paying = ((STAR_COLOURS[star], have, wilds),)
    return tuple(star_placements(star, cells, paying, STANDARD_NUMBERS[star]))


# The outer stars of the standard board as (star, its colour, its first board index).
OUTER_STARS = tuple((star, STAR_COLOURS[star], star * 6) for star in range(1, NUM_STARS))


def tiles_of(counts: list[int]) -> list[int]:
    """The colours of a pile, one entry per tile, sorted."""
    return [colour for colour in range(NUM_COLOURS) for _ in range(counts[colour])]


def ring_points(board: list[int], index: int) -> int:
    """1 + the tiles of the same star connected to the (filled) space ``index``."""
    base = index - index % 6
    offset = index - base
    count = 1
    for step in range(1, 6):
        if board[base + (offset + step) % 6] == EMPTY:
            break
        count += 1
    if count < 6:
        for step in range(1, 6):
            if board[base + (offset - step) % 6] == EMPTY:
                break
            count += 1
    return count


def completed_structures(board: list[int], index: int) -> list[int]:
    """Ids of the structures completed by the tile just placed on ``index``."""
    return [sid for sid in SPACE_STRUCTURES[index] if EMPTY not in STRUCTURE_TILES[sid](board)]


def structure_bonus(structure_ids: list[int]) -> int:
    """Bonus tiles owed for completing these structures (pillar 1, statue 2, window 3)."""
    return sum(STRUCTURE_BONUS[STRUCTURES[sid][0]] for sid in structure_ids)


def placement_gain(board: list[int], star: int, space: int) -> tuple[int, int]:
    """Points and bonus tiles owed for a tile on the empty ``space`` of ``star`` (any colour:
    only which spaces are covered matters)."""
    trial = list(board)
    index = space_index(star, space)
    trial[index] = 0
    return ring_points(trial, index), structure_bonus(completed_structures(trial, index))


def take_counts(tiles: list[int], colour: int, wild: int) -> tuple[int, int]:
    """What taking ``colour`` from a source holding ``tiles`` gets, as (tiles of that colour,
    wild tiles): all of the colour plus one wild tile if there is any; the wild colour (taken
    only when the source holds nothing else) gives exactly one."""
    if colour == wild:
        return 1, 0
    return tiles[colour], int(tiles[wild] > 0)


def score_loss(tiles: int, score: int) -> int:
    """Points lost for ``tiles`` tiles at −1 each (first-player tile, discards, corners):
    [decision] a score stops at :data:`SCORE_FLOOR`."""
    return min(tiles, score - SCORE_FLOOR)


def keep_room(corners: list[int], hand: list[int]) -> int:
    """How many more tiles a passing player may keep on the corners."""
    return min(CORNERS - sum(corners), sum(hand))


def complete_star_value(board: list[int], star: int) -> int:
    """End bonus of ``star`` if all six spaces are covered, else 0."""
    tiles = board[star * 6 : star * 6 + 6]
    if EMPTY in tiles:
        return 0
    if len(set(tiles)) == 1:
        return STAR_VALUES[tiles[0]]
    return MULTICOLOUR_VALUE


# -- for the screens: what a choice would bring, read from a view ------------------------------
def placement_preview(
    view: SummerPavilionView, seat: int, star: int, space: int
) -> tuple[int, int]:
    """Points a tile on the empty ``space`` of ``star`` would score for ``seat``, and the
    bonus tiles the supply would give for it."""
    board = [tile for row in view["players"][seat]["board"] for tile in row]
    points, bonus = placement_gain(board, star, space)
    return points, min(bonus, sum(view["supply"]))


def scores_before(log: list[dict], end: int, num_players: int) -> list[int]:
    """Every seat's score after the events ``log[:end]``: the start score, the points of
    placements, the losses of the first-player tile and of passes (end scoring aside)."""
    scores = [START_SCORE] * num_players
    for event in log[:end]:
        kind = event["type"]
        if kind == "take" and "first_player_tile" in event:
            scores[event["seat"]] -= event["first_player_tile"]
        elif kind == "place":
            scores[event["seat"]] += event["points"]
        elif kind == "pass" and not event.get("auto"):
            scores[event["seat"]] -= event["penalty"]
    return scores


class SummerPavilionEngine(Engine[SummerPavilionState, SummerPavilionView]):
    id = "summer_pavilion"
    min_players = 2
    max_players = 4
    Options = SummerPavilionOptions

    # -- setup ---------------------------------------------------------------------------
    def _setup(self, state: SummerPavilionState, options: GameOptions) -> None:
        n = state["num_players"]
        rng = draw_rng(state)
        bag = [colour for colour in range(NUM_COLOURS) for _ in range(TILES_PER_COLOUR)]
        shuffle(rng, bag)
        start = below(rng, n)
        state.update(
            {
                "log": [],
                "round": 1,
                "phase": "taking",
                "current": start,
                "start_player": start,
                "first_player_tile": -1,  # -1: in the centre; else the seat that took it
                "bag": bag,  # drawn from the end; its order is the only secret
                "tower": [0] * NUM_COLOURS,
                "supply": [0] * NUM_COLOURS,
                "centre": [0] * NUM_COLOURS,
                "factories": [[0] * NUM_COLOURS for _ in range(FACTORIES[n])],
                "hands": [[0] * NUM_COLOURS for _ in range(n)],
                "corners": [[0] * NUM_COLOURS for _ in range(n)],
                "boards": [[EMPTY] * SPACES for _ in range(n)],
                "scores": [START_SCORE] * n,
                "passed": [False] * n,
                "bonus_due": 0,
            }
        )
        self._fill_supply(state, {}, log=False)
        self._start_round(state, {})

    # The moves below change ``state``, a shallow copy of ``previous`` (the state the move was
    # given, ``{}`` while dealing): each takes its own copy of a list before changing it
    # (copy-on-write, :func:`games.core.own`), so a move copies only what it changes.
    def _draw(
        self, state: SummerPavilionState, previous: Mapping[str, Any], wanted: int
    ) -> list[int]:
        """Up to ``wanted`` tiles from the bag, in the order drawn (one at a time from its end;
        the tower is poured in when it is empty); fewer only when both are empty."""
        drawn: list[int] = []
        while len(drawn) < wanted:
            bag = own(state, previous, "bag")
            if not bag:
                tower = state["tower"]
                if not any(tower):
                    break
                bag.extend(colour for colour in range(NUM_COLOURS) for _ in range(tower[colour]))
                shuffle(draw_rng(state), bag)
                own(state, previous, "log").append({"type": "bag_refilled", "tiles": len(bag)})
                state["tower"] = [0] * NUM_COLOURS
            take = min(wanted - len(drawn), len(bag))
            drawn += reversed(bag[-take:])
            del bag[-take:]
        return drawn

    def _fill_supply(
        self, state: SummerPavilionState, previous: Mapping[str, Any], log: bool = True
    ) -> None:
        drawn = self._draw(state, previous, SUPPLY_SIZE - sum(state["supply"]))
        if drawn:
            supply = own(state, previous, "supply")
            for colour in drawn:
                supply[colour] += 1
            if log:
                own(state, previous, "log").append({"type": "supply_refilled", "drawn": len(drawn)})

    def _start_round(self, state: SummerPavilionState, previous: Mapping[str, Any]) -> None:
        """Fill the factories and open phase 1 (or phase 2 straight away if none got a tile)."""
        factories = own(state, previous, "factories")
        tiles = self._draw(state, previous, FACTORY_SIZE * len(factories))
        drawn = len(tiles)
        for index, factory in enumerate(factories):  # each in turn, FACTORY_SIZE tiles each
            filled = list(factory)
            for colour in tiles[index * FACTORY_SIZE : (index + 1) * FACTORY_SIZE]:
                filled[colour] += 1
            factories[index] = filled
        own(state, previous, "log").append(
            {
                "type": "round",
                "round": state["round"],
                "wild": round_wild(state),
                "start": state["start_player"],
                "drawn": drawn,
            }
        )
        if drawn:
            state["phase"] = "taking"
            state["current"] = state["start_player"]
        else:  # [decision] not a single tile for the factories: straight to phase 2
            self._start_placing(state, previous)

    # -- queries -------------------------------------------------------------------------
    def wild(self, state: SummerPavilionState) -> int:
        return round_wild(state)

    def to_act(self, state: SummerPavilionState) -> frozenset[int]:
        if state["phase"] == "over":
            return frozenset()
        return ONLY_SEAT[state["current"]]

    def _source(self, state: SummerPavilionState, source: int) -> list[int]:
        return state["centre"] if source == 0 else state["factories"][source - 1]

    def legal_actions(self, state: SummerPavilionState, seat: int) -> list[SummerPavilionAction]:
        phase = state["phase"]
        if phase == "over" or seat != state["current"]:
            return []
        if phase == "taking":
            takes = TAKES_BY_COLOURS[round_wild(state)]
            actions: list[SummerPavilionAction] = list(
                takes[0][COLOURS_HELD[tuple(state["centre"])]]
            )
            for source, tiles in enumerate(state["factories"], 1):
                actions += takes[source][COLOURS_HELD[tuple(tiles)]]
            return actions
        if phase == "placing":
            actions = self._placements(state, seat)
            actions.append(PASS_ACTION)
            return actions
        if phase == "bonus":
            return list(compress(BONUSES, state["supply"]))
        # keeping: a tile of any colour held, or no more
        return [*compress(KEEPS, state["hands"][seat]), DONE_ACTION]

    def _placements(self, state: SummerPavilionState, seat: int) -> list[SummerPavilionAction]:
        hand = state["hands"][seat]
        board = state["boards"][seat]
        wild = round_wild(state)
        wilds = min(hand[wild], MOST_WILDS)  # more can never be used on one space
        if state["options"]["variant1"]:
            actions: list[SummerPavilionAction] = []
            for star, base in enumerate(STAR_BASES):
                # (colour, tiles held, wild tiles that may help) of each colour the star
                # accepts; the wild colour pays with its own tiles only
                paying = [
                    (colour, min(have, MOST_TILES), 0 if colour == wild else wilds)
                    for colour, have in enumerate(hand)
                    if have and star_accepts(board, star, colour, True)
                ]
                cells = board[base : base + 6]
                actions += star_placements(star, cells, paying, VARIANT1_NUMBERS[star])
            return actions
        centre = board[:6]  # the centre star takes each colour once
        paying = [
            (colour, min(have, MOST_TILES), 0 if colour == wild else wilds)
            for colour, have in enumerate(hand)
            if have and colour not in centre
        ]
        actions = (
            star_placements(CENTRE, centre, paying, STANDARD_NUMBERS[CENTRE]) if paying else []
        )
        for star, colour, base in OUTER_STARS:  # an outer star takes its own colour only
            have = hand[colour]
            if have:
                actions += outer_star_placements(
                    star,
                    tuple(board[base : base + 6]),
                    min(have, MOST_TILES),
                    0 if colour == wild else wilds,
                )
        return actions

    def is_legal(self, state: SummerPavilionState, seat: int, action: Action) -> bool:
        phase = state["phase"]
        if phase == "over" or seat != state["current"]:
            return False
        move = action if type(action) in ACTION_KINDS else parse_action(action)
        kind = type(move)
        if phase == "taking":
            if kind is not Take:
                return False
            _, source, colour = move  # type: ignore[misc]
            if source > len(state["factories"]) or colour >= NUM_COLOURS:
                return False
            tiles = state["factories"][source - 1] if source else state["centre"]
            if not tiles[colour]:
                return False
            wild = round_wild(state)
            return colour != wild or sum(tiles) == tiles[wild]  # wild only if alone
        if phase == "placing":
            if kind is Pass:
                return True
            if kind is not Place:
                return False
            _, star, space, colour, used = move  # type: ignore[misc]
            if star >= NUM_STARS or not 1 <= space <= 6 or colour >= NUM_COLOURS:
                return False
            board = state["boards"][seat]
            if board[star * 6 + space - 1] != EMPTY:
                return False
            variant1 = state["options"]["variant1"]
            if not star_accepts(board, star, colour, variant1):
                return False
            cost = (VARIANT1_NUMBERS if variant1 else STANDARD_NUMBERS)[star][space - 1]
            hand = state["hands"][seat]
            wild = round_wild(state)
            if colour == wild:
                return used == 0 and hand[colour] >= cost
            return used < cost and hand[colour] >= cost - used and hand[wild] >= used
        if phase == "bonus":
            return (
                type(move) is Bonus
                and move.colour < NUM_COLOURS
                and bool(state["supply"][move.colour])
            )
        # keeping
        if type(move) is Done:
            return True
        return (
            type(move) is Keep
            and move.colour < NUM_COLOURS
            and bool(state["hands"][seat][move.colour])
        )

    # -- play ----------------------------------------------------------------------------
    def _next_state(
        self, state: SummerPavilionState, seat: int, action: Action
    ) -> SummerPavilionState:
        move = action if type(action) in ACTION_KINDS else as_action(action)
        new = state.copy()
        kind = move[0]
        if kind == TAKE:
            self._take(new, state, seat, move[1], move[2])
        elif kind == PLACE:
            self._place(new, state, seat, move)  # type: ignore[arg-type]
        elif kind == PASS:
            own(new, state, "passed")[seat] = True
            if any(new["hands"][seat]):
                new["phase"] = "keeping"
            else:
                self._finish_pass(new, state, seat)
        elif kind == BONUS:
            colour = move[1]
            own(new, state, "supply")[colour] -= 1
            own_item(new, state, "hands", seat)[colour] += 1
            new["bonus_due"] -= 1
            own(new, state, "log").append({"type": "bonus", "seat": seat, "colour": colour})
            if not new["bonus_due"]:
                self._end_turn(new, state, seat)
        elif kind == KEEP:
            colour = move[1]
            hand = own_item(new, state, "hands", seat)
            hand[colour] -= 1
            corners = own_item(new, state, "corners", seat)
            corners[colour] += 1
            if sum(corners) >= CORNERS or not any(hand):
                self._finish_pass(new, state, seat)
        else:  # Done
            self._finish_pass(new, state, seat)
        return new

    def _take(
        self,
        state: SummerPavilionState,
        previous: Mapping[str, Any],
        seat: int,
        source: int,
        colour: int,
    ) -> None:
        wild = round_wild(state)
        tiles = state["factories"][source - 1] if source else state["centre"]
        # all of the colour and one wild tile if any; the wild colour alone: exactly one
        count, extra = (1, 0) if colour == wild else (tiles[colour], int(tiles[wild] > 0))
        # The move's first changes: what they touch is still shared with ``previous``, so
        # they copy it without asking ``own``.
        hands = state["hands"] = state["hands"].copy()
        hand = hands[seat] = hands[seat].copy()
        hand[colour] += count
        hand[wild] += extra
        left = list(tiles)  # new lists throughout: the old ones may be shared
        left[colour] -= count
        left[wild] -= extra
        if source:  # the rest of a factory goes to the centre
            factories = state["factories"] = state["factories"].copy()
            factories[source - 1] = [0] * NUM_COLOURS
            state["centre"] = list(map(add, state["centre"], left))
        else:
            state["centre"] = left
        event = {
            "type": "take",
            "seat": seat,
            "source": source,
            "colour": colour,
            "count": count,
            "wild": extra,
        }
        if source == 0 and state["first_player_tile"] < 0:
            state["first_player_tile"] = seat
            scores = own(state, previous, "scores")
            lost = score_loss(count + extra, scores[seat])
            scores[seat] -= lost
            event["first_player_tile"] = lost  # taken now; the points it cost
        state["log"] = [*state["log"], event]
        if any(state["centre"]) or any(map(any, state["factories"])):
            state["current"] = (seat + 1) % state["num_players"]
        else:
            self._start_placing(state, previous)

    def _start_placing(self, state: SummerPavilionState, previous: Mapping[str, Any]) -> None:
        holder = state["first_player_tile"]
        first = holder if holder >= 0 else state["start_player"]
        state["phase"] = "placing"
        own(state, previous, "log").append({"type": "placing", "first": first})
        self._seek_placer(state, previous, first)

    def _seek_placer(
        self, state: SummerPavilionState, previous: Mapping[str, Any], candidate: int
    ) -> None:
        """Give the turn to the first seat from ``candidate`` on that has not passed; seats
        without tiles pass automatically. Everybody passed: the round ends."""
        n = state["num_players"]
        passed, hands = state["passed"], state["hands"]
        for step in range(n):
            seat = (candidate + step) % n
            if passed[seat]:
                continue
            if any(hands[seat]):
                state["phase"] = "placing"
                state["current"] = seat
                return
            own(state, previous, "passed")[seat] = True
            self._log_pass(state, previous, seat, [0] * NUM_COLOURS, 0, auto=True)
        self._end_round(state, previous)

    def _place(
        self, state: SummerPavilionState, previous: Mapping[str, Any], seat: int, place: Place
    ) -> None:
        _, star, space, colour, used = place
        index = star * 6 + space - 1
        options = state["options"]
        cost = (VARIANT1_NUMBERS if options["variant1"] else STANDARD_NUMBERS)[star][space - 1]
        wild = round_wild(state)
        # The move's first changes: what they touch is still shared with ``previous``, so
        # they copy it without asking ``own``.
        hands = state["hands"] = state["hands"].copy()
        hand = hands[seat] = hands[seat].copy()
        real = cost - used
        hand[colour] -= real
        hand[wild] -= used
        tower = state["tower"] = state["tower"].copy()
        tower[colour] += real - 1
        tower[wild] += used
        boards = state["boards"] = state["boards"].copy()
        board = boards[seat] = boards[seat].copy()
        board[index] = colour
        points = ring_points(board, index)
        scores = state["scores"] = state["scores"].copy()
        scores[seat] += points
        done = completed_structures(board, index)
        bonus = structure_bonus(done) if done else 0
        due = min(bonus, sum(state["supply"]))  # [decision] a short supply gives what it has
        event = {
            "type": "place",
            "seat": seat,
            "star": star,
            "space": space,
            "colour": colour,
            "wilds": used,
            "points": points,
        }
        if done:  # [kind, outer star] of each structure completed; bonus tiles owed, taken
            event["structures"] = [list(STRUCTURES[sid][:2]) for sid in done]
            event["bonus"] = [bonus, due]
        state["log"] = [*state["log"], event]
        if due:
            state["phase"] = "bonus"
            state["bonus_due"] = due
        else:
            self._end_turn(state, previous, seat)

    def _end_turn(self, state: SummerPavilionState, previous: Mapping[str, Any], seat: int) -> None:
        """A phase 2 turn is over (a placement with its bonus tiles, or a pass): refill the
        supply before the next player acts ([decision] after every turn, passes included),
        then find the next player."""
        if sum(state["supply"]) < SUPPLY_SIZE:
            self._fill_supply(state, previous)
        self._seek_placer(state, previous, (seat + 1) % state["num_players"])

    def _finish_pass(
        self, state: SummerPavilionState, previous: Mapping[str, Any], seat: int
    ) -> None:
        hand = own_item(state, previous, "hands", seat)
        discarded = list(hand)
        tower = own(state, previous, "tower")
        for colour in range(NUM_COLOURS):
            tower[colour] += hand[colour]
            hand[colour] = 0
        scores = own(state, previous, "scores")
        penalty = score_loss(sum(discarded), scores[seat])
        scores[seat] -= penalty
        self._log_pass(state, previous, seat, discarded, penalty, auto=False)
        self._end_turn(state, previous, seat)

    def _log_pass(
        self,
        state: SummerPavilionState,
        previous: Mapping[str, Any],
        seat: int,
        discarded: list[int],
        penalty: int,
        auto: bool,
    ) -> None:
        log = own(state, previous, "log")
        if auto:  # no tiles left: nothing kept, nothing discarded
            log.append({"type": "pass", "seat": seat, "auto": True})
            return
        log.append(
            {
                "type": "pass",
                "seat": seat,
                "kept": tiles_of(state["corners"][seat]),  # colours, one per tile
                "discarded": tiles_of(discarded),
                "penalty": penalty,
            }
        )

    def _end_round(self, state: SummerPavilionState, previous: Mapping[str, Any]) -> None:
        n = state["num_players"]
        if state["round"] == ROUNDS:
            detach(state, previous)  # the game's end changes much: all of it in place
            self._end_game(state)
            return
        # Phase 3: all corner tiles come back next to the boards, the first-player tile goes
        # back to the centre and its holder starts the next round.
        hands, corners = own(state, previous, "hands"), own(state, previous, "corners")
        for seat in range(n):
            if any(corners[seat]):  # new lists: the old ones may be shared
                hands[seat] = list(map(add, hands[seat], corners[seat]))
                corners[seat] = [0] * NUM_COLOURS
        if state["first_player_tile"] >= 0:
            state["start_player"] = state["first_player_tile"]
        state["first_player_tile"] = -1
        state["passed"] = [False] * n
        state["round"] += 1
        self._start_round(state, previous)

    def _end_game(self, state: SummerPavilionState) -> None:
        breakdown = [self.final_breakdown(state, seat) for seat in range(state["num_players"])]
        for seat, figures in enumerate(breakdown):
            state["scores"][seat] = figures["score"]
        state["phase"] = "over"
        result = self.result(state)
        state["log"].append(
            {"type": "final", "players": breakdown, "scores": result.scores, "ranks": result.ranks}
        )

    def final_breakdown(self, state: SummerPavilionState, seat: int) -> dict:
        """End scoring of ``seat`` from the score before it (call once, at the end)."""
        board = state["boards"][seat]
        stars = [
            [star, complete_star_value(board, star)]
            for star in range(NUM_STARS)
            if complete_star_value(board, star)
        ]
        covered = [
            [number, value]
            for number, value, spaces in NUMBER_SPACES[state["options"]["variant1"]]
            if EMPTY not in spaces(board)
        ]
        before = state["scores"][seat]
        subtotal = before + sum(points for _, points in stars) + sum(v for _, v in covered)
        corner_tiles = sum(state["corners"][seat])
        penalty = score_loss(corner_tiles, subtotal)
        return {
            "seat": seat,
            "before": before,
            "stars": stars,
            "numbers": covered,
            "corner_tiles": corner_tiles,
            "corner_penalty": penalty,
            "score": subtotal - penalty,
        }

    # -- scores --------------------------------------------------------------------------
    def is_over(self, state: SummerPavilionState) -> bool:
        return state["phase"] == "over"

    def result(self, state: SummerPavilionState) -> Result:
        scores = list(state["scores"])
        placed = [sum(tile != EMPTY for tile in board) for board in state["boards"]]
        return Result(
            scores=scores,
            ranks=rank_by([(score,) for score in scores]),  # ties are shared
            details={"tiles_placed": placed},
        )

    # -- information ---------------------------------------------------------------------
    def view(self, state: SummerPavilionState, seat: int | None) -> SummerPavilionView:
        """Everything is public but the order of the bag. Lists are shared with the state:
        treat a view as read-only."""
        options = state["options"]
        order = wild_order(options)
        round_no = state["round"]
        boards = state["boards"]
        view: SummerPavilionView = {
            "game": self.id,
            "num_players": state["num_players"],
            "options": options,
            "round": round_no,
            "rounds": ROUNDS,
            "wild": order[round_no - 1],
            "next_wild": order[round_no] if round_no < ROUNDS else None,
            "wild_order": list(order),
            "phase": state["phase"],  # taking / placing / bonus / keeping / over
            "current": None if state["phase"] == "over" else state["current"],
            "start_player": state["start_player"],
            "first_player_tile": state["first_player_tile"],  # -1: still in the centre
            "bonus_due": state["bonus_due"],
            "factories": state["factories"],  # colour counts; source k + 1 in actions
            "centre": state["centre"],  # source 0 in actions
            "supply": state["supply"],
            "bag_size": len(state["bag"]),
            "tower": state["tower"],
            "star_colours": list(VARIANT1_STAR_COLOURS if options["variant1"] else STAR_COLOURS),
            "numbers": [list(row) for row in numbers_of(options)],  # [star][space - 1]
            "players": [
                {
                    "score": state["scores"][p],
                    "hand": state["hands"][p],
                    "corners": state["corners"][p],
                    "board": [boards[p][base : base + 6] for base in STAR_BASES],
                    "passed": state["passed"][p],
                }
                for p in range(state["num_players"])
            ],
            "log": state["log"],
        }
        if seat is not None:
            view["seat"] = seat  # the only difference: there is nothing private to show
        return view

    def default_action(self, state: SummerPavilionState, seat: int) -> SummerPavilionAction:
        phase = state["phase"]
        if phase == "over" or seat != state["current"]:
            raise IllegalAction(f"{self.id}: seat {seat} has no move")
        actions = self.legal_actions(state, seat)
        if phase == "taking":
            takes = [action for action in actions if type(action) is Take]
            return max(takes, key=lambda take: self._take_value(state, take))
        if phase == "placing":
            placements = [action for action in actions if type(action) is Place]
            if not placements:
                return PASS_ACTION
            return max(placements, key=lambda place: self._place_value(state, seat, place))
        if phase == "bonus":
            bonuses = [action for action in actions if type(action) is Bonus]
            return max(bonuses, key=lambda bonus: self._usefulness(state, seat, bonus.colour))
        # keeping: the tiles most useful next round (next round's wild colour first)
        keeps = [action for action in actions if type(action) is Keep]
        return max(keeps, key=lambda keep: self._keep_value(state, seat, keep.colour))

    def _take_value(self, state: SummerPavilionState, take: Take) -> tuple:
        tiles = self._source(state, take.source)
        taken = sum(take_counts(tiles, take.colour, round_wild(state)))
        penalty = taken if take.source == 0 and state["first_player_tile"] < 0 else 0
        return (2 * taken - penalty, -take.source)

    def _place_value(self, state: SummerPavilionState, seat: int, place: Place) -> tuple:
        points, bonus = placement_gain(state["boards"][seat], place.star, place.space)
        return (points + bonus, -place.wilds, -place.star, -place.space)

    def _usefulness(self, state: SummerPavilionState, seat: int, colour: int) -> tuple:
        """How useful one more tile of ``colour`` is: the wild colour of the round first, then
        colours that still have a free space on the board, the most held first."""
        board = state["boards"][seat]
        variant1 = state["options"]["variant1"]
        placeable = any(
            board[star * 6 + offset] == EMPTY and star_accepts(board, star, colour, variant1)
            for star in range(NUM_STARS)
            for offset in range(6)
        )
        return (colour == round_wild(state), placeable, state["hands"][seat][colour], -colour)

    def _keep_value(self, state: SummerPavilionState, seat: int, colour: int) -> tuple:
        order = wild_order(state["options"])
        next_wild = order[state["round"]] if state["round"] < ROUNDS else -1
        return (colour == next_wild, state["hands"][seat][colour], -colour)

    # -- testing -------------------------------------------------------------------------
    def check_invariants(self, state: SummerPavilionState) -> None:
        n = state["num_players"]
        phase = state["phase"]
        name = self.id
        if phase not in PHASES:
            raise InvariantViolation(f"{name}: unknown phase {phase!r}")
        piles = [state["tower"], state["supply"], state["centre"], *state["factories"]]
        piles += state["hands"] + state["corners"]
        if any(len(pile) != NUM_COLOURS or min(pile) < 0 for pile in piles):
            raise InvariantViolation(f"{name}: a malformed pile of tiles")
        bag, boards = state["bag"], state["boards"]
        totals = [
            sum(column) + bag.count(colour) + sum(board.count(colour) for board in boards)
            for colour, column in enumerate(zip(*piles, strict=True))
        ]
        if totals != [TILES_PER_COLOUR] * NUM_COLOURS:
            raise InvariantViolation(f"{name}: tiles not conserved: {totals}")
        if any(len(board) != SPACES or min(board) < EMPTY for board in boards):
            raise InvariantViolation(f"{name}: a malformed board")
        if len(state["factories"]) != FACTORIES[n]:
            raise InvariantViolation(f"{name}: wrong number of factories")
        if any(sum(factory) > FACTORY_SIZE for factory in state["factories"]):
            raise InvariantViolation(f"{name}: an overfull factory")
        if sum(state["supply"]) > SUPPLY_SIZE:
            raise InvariantViolation(f"{name}: an overfull supply")
        if min(state["scores"]) < SCORE_FLOOR:
            raise InvariantViolation(f"{name}: a negative score")
        if not 1 <= state["round"] <= ROUNDS:
            raise InvariantViolation(f"{name}: round {state['round']} out of range")
        if not -1 <= state["first_player_tile"] < n or not 0 <= state["current"] < n:
            raise InvariantViolation(f"{name}: seat out of range")
        variant1 = state["options"]["variant1"]
        for seat in range(n):
            corners = state["corners"][seat]
            if sum(corners) > CORNERS:
                raise InvariantViolation(f"{name}: seat {seat} keeps too many tiles")
            if phase != "over" and any(corners) and not state["passed"][seat]:
                raise InvariantViolation(f"{name}: corner tiles of a seat still playing")
            board = boards[seat]
            for star, base in enumerate(STAR_BASES):
                placed = [tile for tile in board[base : base + 6] if tile != EMPTY]
                distinct = len(set(placed))
                if variant1:
                    ok = distinct in (len(placed), 1)  # all different, or all one colour
                elif star == CENTRE:
                    ok = distinct == len(placed)
                else:
                    ok = placed.count(STAR_COLOURS[star]) == len(placed)
                if not ok:
                    raise InvariantViolation(f"{name}: star {star} of seat {seat} is ill-coloured")
        in_play = any(state["centre"]) or any(map(any, state["factories"]))
        if phase == "taking":
            if not in_play or any(state["passed"]):
                raise InvariantViolation(f"{name}: phase 1 with nothing to take")
        elif in_play:
            raise InvariantViolation(f"{name}: tiles left on the factories after phase 1")
        if (state["bonus_due"] > 0) != (phase == "bonus"):
            raise InvariantViolation(f"{name}: bonus tiles due outside the bonus step")
        if state["bonus_due"] > sum(state["supply"]):
            raise InvariantViolation(f"{name}: more bonus tiles due than the supply holds")
        current = state["current"]
        if phase in ("placing", "bonus") and state["passed"][current]:
            raise InvariantViolation(f"{name}: a passed seat is placing")
        if phase == "placing" and not any(state["hands"][current]):
            raise InvariantViolation(f"{name}: a seat without tiles is asked to place")
        if phase == "keeping" and not (state["passed"][current] and any(state["hands"][current])):
            raise InvariantViolation(f"{name}: keeping without passing or without tiles")
        if phase == "over" and (state["round"] != ROUNDS or any(map(any, state["hands"]))):
            raise InvariantViolation(f"{name}: the game ended early or with tiles in hand")

    def check_views(self, state: SummerPavilionState) -> None:
        """The only secret is the order of the bag: reordering it must change no view, and
        every seat's view equals the public one apart from its ``seat`` field."""
        public = self.view(state, None)
        bag = state["bag"]
        if len(set(bag)) > 1:
            reordered = bag[::-1] if bag[::-1] != bag else bag[1:] + bag[:1]
            if self.view({**state, "bag": reordered}, None) != public:
                raise InvariantViolation(f"{self.id}: the public view shows the bag order")
        for seat in range(state["num_players"]):
            seen = self.view(state, seat)
            if seen.pop("seat") != seat or seen != public:
                raise InvariantViolation(f"{self.id}: seat {seat} sees more than the public")


ENGINE = SummerPavilionEngine()
