"""The engine contract shared by every game.

An engine is a set of pure functions over a plain-data state (OpenSpiel's ``State`` API and
boardgame.io's game objects are the models):

* ``new_game(num_players, options, seed)`` deals a fresh game;
* ``to_act(state)`` is the set of seats that may move now (several in simultaneous phases);
* ``legal_actions(state, seat)`` lists every legal move, sorted and unique;
* ``apply(state, seat, action)`` returns the next state and never mutates its argument;
  an illegal action raises :class:`IllegalAction` and changes nothing;
* ``view(state, seat)`` is what that seat (``None``: the public) may see — secrets never
  leave the engine any other way;
* ``result(state)`` gives scores and ranks once ``is_over(state)``.

Conventions that keep copying cheap: lists are homogeneous (a list of ints never holds a
list, a list of lists never holds an int), and ``state["log"]``, the public event log, is
append-only with entries that are never changed once appended. A move copies only what it
changes (copy-on-write, see :func:`own`): the state ``apply`` returns shares every other
list with the state it was given. States are values — never edit one in place; to rig a
position, edit a :func:`clone_state` copy (or a fresh ``new_game``).

Actions are tuples of small non-negative ints; :func:`encode_action` turns them into the
compact text that goes into Telegram callback data. Each engine names its kinds of action
with a ``NamedTuple`` per kind (OpenSpiel's games name their actions too): a named action is
still a tuple, equal to the plain tuple with the same numbers and encoded the same way, so
an action decoded from a button is a plain tuple, and the engine's ``as_action`` turns it
back into its named kind (:func:`parse_tagged` does it for actions led by a kind number).

States are JSON-compatible dicts (lists, ints, strings, bools, ``None``), described by a
``TypedDict`` in each engine module; randomness comes from the seed and a counter kept in
the state, so the same seed and the same actions always replay the same game.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Generic, TypedDict, TypeVar, cast

from pydantic import BaseModel, ConfigDict

State = dict[str, Any]  # any game's state, as the host stores it (JSON)
Action = tuple[int, ...]  # any game's action; each engine names its kinds (NamedTuple)
View = dict[str, Any]  # any game's view


class BaseState(TypedDict):
    """The keys of every game's state; each engine module declares its whole state as a
    ``TypedDict`` on top of this one (plain dicts at run time)."""

    game: str  # the game id
    num_players: int
    options: dict[str, Any]  # the game's options (its ``GameOptions``) as plain data
    seed: int
    rng_counter: int  # generators drawn from the seed so far (:func:`draw_rng`)
    log: list[dict[str, Any]]  # public events, append-only; an entry never changes


StateT = TypeVar("StateT", bound=Mapping[str, Any])
ViewT = TypeVar("ViewT", bound=Mapping[str, Any])


# ``to_act`` of a turn-based game: one seat (built once; frozensets never change).
ONLY_SEAT: tuple[frozenset[int], ...] = tuple(frozenset((seat,)) for seat in range(16))
NOBODY: frozenset[int] = frozenset()


class IllegalAction(ValueError):
    """An action that the rules do not allow in this state, or from this seat."""


class InvariantViolation(AssertionError):
    """An internal consistency check failed: a bug in an engine, never a player's mistake."""


class GameOptions(BaseModel):
    """Base for each game's options. Fields are ``bool`` or ``Literal`` so a lobby can offer
    every value on a button; the first value of a ``Literal`` is the default."""

    model_config = ConfigDict(frozen=True, extra="forbid")


@dataclass(frozen=True)
class Result:
    """Final standing: ``scores[seat]``, ``ranks[seat]`` (1 = winner; equal ranks are shared),
    and ``details`` — per-game extra figures (tie-break counts, bonuses) for the final board."""

    scores: list[int]
    ranks: list[int]
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> list[int]:
        return [seat for seat, rank in enumerate(self.ranks) if rank == 1]


def encode_action(action: Action) -> str:
    return ".".join(str(part) for part in action)


def decode_action(text: str) -> Action:
    """Parse :func:`encode_action` output; raises :class:`IllegalAction` on malformed text."""
    try:
        parts = tuple(int(part) for part in text.split("."))
    except ValueError:
        raise IllegalAction(f"malformed action {text!r}") from None
    if any(part < 0 for part in parts):
        raise IllegalAction(f"malformed action {text!r}")
    return parts


def parse_tagged(action: Sequence[object], kinds: Sequence[type[tuple]]) -> tuple | None:
    """The named form of a plain action whose first number is its kind: ``kinds[kind]``
    built from the same numbers; ``None`` when the action is not made of non-negative ints,
    its kind is unknown or its length does not fit that kind. An action that is already of
    one of ``kinds`` (made by the engine: its legal actions) is returned as it is."""
    if type(action) in kinds:
        return action  # type: ignore[return-value]
    if not action:
        return None
    for part in action:
        if type(part) is not int or part < 0:
            return None
    kind = cast(int, action[0])
    if kind >= len(kinds) or len(action) != len(kinds[kind]._fields):  # type: ignore[attr-defined]
        return None
    return kinds[kind]._make(action)  # type: ignore[attr-defined]


def rank_by(keys: list[tuple]) -> list[int]:
    """Competition ranking, highest key first: equal keys share a rank (1, 1, 3, ...)."""
    order = sorted(range(len(keys)), key=lambda seat: keys[seat], reverse=True)
    ranks = [0] * len(keys)
    for position, seat in enumerate(order):
        if position and keys[seat] == keys[order[position - 1]]:
            ranks[seat] = ranks[order[position - 1]]
        else:
            ranks[seat] = position + 1
    return ranks


def clone(value: Any) -> Any:
    """A deep copy of JSON-like data; many times faster than :func:`copy.deepcopy`.

    Lists are homogeneous by convention (a list of ints never holds a list), so a list
    whose first item is a scalar is copied with one slice.
    """
    if type(value) is list:
        if not value or type(value[0]) in _SCALARS:
            return value[:]
        return [clone(item) for item in value]
    if type(value) is dict:
        return {key: clone(item) for key, item in value.items()}
    return value


_SCALARS = (int, str, bool, float)  # not None: [None, [1, 2]] is a list of optional lists


def clone_state(state: StateT) -> StateT:
    """Copy a state for :meth:`Engine.apply`. The ``log`` of public events is append-only and
    its entries are never changed after they are appended, so they are shared, not copied."""
    copied = {}
    for key, value in state.items():
        kind = type(value)
        if kind is list:
            if key == "log" or not value or type(value[0]) in _SCALARS:
                copied[key] = value[:]  # flat lists (and the shared-entry log) in one slice
            else:
                copied[key] = [clone(item) for item in value]
        elif kind is dict:
            copied[key] = {k: clone(v) for k, v in value.items()}
        else:
            copied[key] = value
    return cast(StateT, copied)


# -- copy-on-write ------------------------------------------------------------------------
# A move starts from a shallow copy of the state it is given (``new = state.copy()``), so the
# two share every list; before changing a list in place it takes its own copy with ``own`` /
# ``own_item`` (a no-op when it already has one), or with ``detach`` all at once before a
# large change (the end of a round). A move thus copies what it changes, not the state.
# ``previous`` is the state the move was given; ``{}`` while dealing a new state (nothing
# is shared). A value counts as shared when it is the same object under the same key (and
# index) in ``previous``. The options never change, and the log's entries are never changed
# once appended, so they are never copied.


def own(state: Any, previous: Mapping[str, Any], key: str) -> Any:
    """``state[key]``, copied first if ``state`` still shares it with ``previous``: a list
    the move may change in place (its items, if lists, are still shared: see ``own_item``)."""
    value = state[key]
    if value is previous.get(key):
        value = state[key] = value.copy()
    return value


def own_item(state: Any, previous: Mapping[str, Any], key: str, index: int) -> Any:
    """``state[key][index]``, a list inside a list, made the move's own (with its list)."""
    items = own(state, previous, key)
    item = items[index]
    shared = previous.get(key)
    if shared is not None and index < len(shared) and item is shared[index]:
        item = items[index] = item.copy()
    return item


def detach(state: Any, previous: Mapping[str, Any]) -> None:
    """Give ``state`` its own copy of every list (and dict) it still shares with
    ``previous``, lists of lists item by item, so that the rest of the move may change
    anything in place."""
    for key, value in state.items():
        if key == "log":
            if value is previous.get(key):
                state[key] = value[:]
        elif type(value) is list:
            shared = previous.get(key)
            if value is shared:
                state[key] = clone(value)
            elif shared and value and type(value[0]) not in _SCALARS:
                for index in range(min(len(value), len(shared))):
                    item = value[index]
                    if item is shared[index] and type(item) in _CONTAINERS:
                        value[index] = clone(item)
        elif type(value) is dict and key != "options" and value is previous.get(key):
            state[key] = clone(value)


_CONTAINERS = (list, dict)


def draw_rng(state: BaseState) -> random.Random:
    """A generator derived from the state's seed and counter; advances the counter.

    Keeping only ``seed`` and ``rng_counter`` in the state (never a Random object) keeps the
    state plain JSON and makes every game replayable from its seed.
    """
    rng = random.Random(f"{state['seed']}:{state['rng_counter']}")
    state["rng_counter"] += 1
    return rng


# Engines draw thousands of numbers a second, and ``random.Random``'s Python-level methods
# cost more than the draws: these two give exactly what ``randrange(n)`` and ``shuffle``
# give (CPython's rejection sampling on ``getrandbits``, which tests/games checks), at about
# half the cost, so games replay the same whichever is used.
def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n > 0``: a uniform draw from ``range(n)``."""
    bits = n.bit_length()
    draw = rng.getrandbits(bits)
    while draw >= n:
        draw = rng.getrandbits(bits)
    return draw


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)``: the same permutation, in place (Fisher-Yates from the end)."""
    getrandbits = rng.getrandbits
    for last, bits in _shuffle_steps(len(items)):
        pick = getrandbits(bits)  # a draw from range(last + 1), as ``below`` makes it
        while pick > last:
            pick = getrandbits(bits)
        items[last], items[pick] = items[pick], items[last]


def sample(rng: random.Random, population: Sequence[Any], k: int) -> list[Any]:
    """``rng.sample(population, k)``: the same picks, in the same order, as CPython 3.11
    makes them for ``k`` up to 21 (every draw here): from a pool when the population is
    small next to ``k``, else by drawing positions until an unpicked one comes up."""
    n = len(population)
    if k > 21 or not 0 <= k <= n:
        return rng.sample(population, k)
    getrandbits = rng.getrandbits
    picks = []
    if n > (21 if k <= 5 else 85):  # CPython's set size for such a ``k``
        bits = n.bit_length()
        taken: set[int] = set()
        for _ in range(k):
            pick = getrandbits(bits)  # a draw from range(n), as ``below`` makes it
            while pick >= n or pick in taken:
                pick = getrandbits(bits)
            taken.add(pick)
            picks.append(population[pick])
        return picks
    pool = list(population)
    for left in range(n, n - k, -1):
        bits = left.bit_length()
        pick = getrandbits(bits)  # a draw from range(left), as ``below`` makes it
        while pick >= left:
            pick = getrandbits(bits)
        picks.append(pool[pick])
        pool[pick] = pool[left - 1]  # the last unpicked item fills the gap
    return picks


@lru_cache(maxsize=64)
def _shuffle_steps(size: int) -> tuple[tuple[int, int], ...]:
    """The positions a shuffle of ``size`` items fills, last first, each with the bits of
    its draw (the decks and bags of the games come in a few sizes)."""
    return tuple((last, (last + 1).bit_length()) for last in range(size - 1, 0, -1))


class Engine(abc.ABC, Generic[StateT, ViewT]):
    """One game's rules over its state type ``StateT`` and view type ``ViewT`` (``TypedDict``
    declared in the engine's module). Subclasses implement the abstract methods; :meth:`apply`
    checks legality, then leaves the move to ``_next_state``."""

    id: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[GameOptions]]

    # -- setup ---------------------------------------------------------------------------
    def options(self, raw: dict[str, Any] | GameOptions | None = None) -> GameOptions:
        if isinstance(raw, GameOptions):
            return raw
        return self.Options.model_validate(raw or {})

    def new_game(self, num_players: int, options: Any = None, seed: int = 0) -> StateT:
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(
                f"{self.id} needs {self.min_players}-{self.max_players} players, not {num_players}"
            )
        opts = self.options(options)
        state: State = {
            "game": self.id,
            "num_players": num_players,
            "options": opts.model_dump(),
            "seed": seed,
            "rng_counter": 0,
        }
        self._setup(cast(StateT, state), opts)
        return cast(StateT, state)

    @abc.abstractmethod
    def _setup(self, state: StateT, options: GameOptions) -> None:
        """Fill in a new state (deal, shuffle) in place."""

    # -- play ----------------------------------------------------------------------------
    @abc.abstractmethod
    def to_act(self, state: StateT) -> frozenset[int]:
        """Seats that may move now; empty when the game is over."""

    @abc.abstractmethod
    def legal_actions(self, state: StateT, seat: int) -> Sequence[Action]:
        """Every legal action of ``seat`` (empty if it may not move), sorted and unique."""

    def is_legal(self, state: StateT, seat: int, action: Action) -> bool:
        return tuple(action) in self.legal_actions(state, seat)

    def apply(self, state: StateT, seat: int, action: Action) -> StateT:
        """The state after ``seat`` plays ``action``; ``state`` itself is never changed (the
        new state shares what the move left alone with it)."""
        if not isinstance(action, tuple):  # a list from JSON; a named action stays named
            action = tuple(action)
        if not self.is_legal(state, seat, action):
            raise IllegalAction(f"{self.id}: seat {seat} may not play {action} now")
        return self._next_state(state, seat, action)

    @abc.abstractmethod
    def _next_state(self, state: StateT, seat: int, action: Action) -> StateT:
        """The state after an action already known to be legal, leaving ``state`` as it is:
        either a whole :func:`clone_state` copy changed in place, or (cheaper) a shallow
        copy in which the move copies only what it changes (see :func:`own`)."""

    @abc.abstractmethod
    def is_over(self, state: StateT) -> bool: ...

    @abc.abstractmethod
    def result(self, state: StateT) -> Result:
        """Scores and ranks; only meaningful once :meth:`is_over`."""

    # -- information ---------------------------------------------------------------------
    @abc.abstractmethod
    def view(self, state: StateT, seat: int | None) -> ViewT:
        """What ``seat`` may see (``None``: what everyone may see). JSON-compatible."""

    def match_seconds(self, state: StateT) -> int | None:
        """For a match played for a set time (an option of some games): its length in
        seconds. The engine has no clock: the host calls :meth:`time_up` when it is over."""
        return None

    def time_up(self, state: StateT) -> StateT:
        """The state after a timed match's time has run out (pure). Games without a time
        option never get this call; by default nothing changes."""
        return clone_state(state)

    def default_action(self, state: StateT, seat: int) -> Action:
        """A sensible move for an absent player (timeouts, autopilot). Games override this
        with something better than the first legal action where that matters."""
        actions = self.legal_actions(state, seat)
        if not actions:
            raise IllegalAction(f"{self.id}: seat {seat} has no move")
        return actions[0]

    # -- testing -------------------------------------------------------------------------
    @abc.abstractmethod
    def check_invariants(self, state: StateT) -> None:
        """Raise :class:`InvariantViolation` if the state is inconsistent (conservation of
        cards / tiles / gems, sizes, ranges). Used by the simulator and the tests."""

    def check_views(self, state: StateT) -> None:
        """Raise :class:`InvariantViolation` if a view shows another seat's secret.

        The default implementation uses :meth:`secrets`: no seat's secret values may appear
        in the public view or in any other seat's view."""
        for owner, secret_paths in enumerate(self.secrets(state)):
            for viewer in [None, *range(state["num_players"])]:
                if viewer == owner:
                    continue
                shown = self.view(state, viewer)
                for path in secret_paths:
                    if _has_path(shown, path):
                        raise InvariantViolation(
                            f"{self.id}: view of {viewer} shows seat {owner}'s secret {path}"
                        )

    def secrets(self, state: StateT) -> list[list[tuple]]:
        """For each seat, the view paths that only that seat may see (e.g.
        ``("players", 2, "hand")``). Used by :meth:`check_views`; games with no secrets
        return empty lists."""
        return [[] for _ in range(state["num_players"])]


def _has_path(data: Any, path: Iterable) -> bool:
    node = data
    for key in path:
        in_dict = isinstance(node, dict) and key in node
        in_list = isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node)
        if not (in_dict or in_list):
            return False
        node = node[key]
    return node is not None
