"""The table app's API as a contract: the model of every request body and every answer.

The handlers read requests and send answers through these models (``bot.web.api``), and
the OpenAPI document (``bot.web.openapi``, ``GET /api/openapi.json``, kept in
``docs/openapi.json``) is made from them, so the document, the code and the fuzzer's checks
cannot disagree. A table's ``view`` is the engine's view of one seat: each game's own
shape, described here as an object; the fields every game's table carries are typed, and a
game's own extras (a card game's hand and choices, Sultan's cushions) are declared too."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from bot.web.practice import FRIEND_GAMES, LEVELS
from bot.web.tables import TABLE_GAMES

MOST_ACTION_NUMBERS = 8  # a move is a few small numbers

Number = int | float  # scores and seconds: an int stays an int in the JSON


def _whole(value: Any) -> Any:
    # JSON Schema's "integer" admits 5.0: so does the API (not 5.5, "5" or true)
    return int(value) if isinstance(value, float) and value.is_integer() else value


def whole(low: int, high: int) -> Any:
    """An integer in [low, high), JSON's 5.0 read as 5."""
    return Annotated[int, Field(strict=True, ge=low, lt=high), BeforeValidator(_whole)]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- requests -------------------------------------------------------------------------------
class MoveRequest(Model):
    """A move from the table, as a chat button carries it: the action's numbers (one of
    the table's ``legal``) and the seat's token for the decision it answers (the table's
    ``token``); a token of an older decision is stale."""

    model_config = ConfigDict(extra="forbid", strict=True)

    action: Annotated[
        list[whole(-(2**31), 2**31)], Field(min_length=1, max_length=MOST_ACTION_NUMBERS)
    ]
    token: whole(0, 2**63)


class LessonBegin(Model):
    """A lesson begun: where it was left (no ``step``), or again from step ``step`` (0: from
    the start; a step already reached: retried)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    step: whole(0, 99) | None = None


class LessonMove(Model):
    """A move at a lesson's step: the action's numbers (the step teaches one of them)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    action: Annotated[list[whole(0, 2**31)], Field(min_length=1, max_length=MOST_ACTION_NUMBERS)]


class PracticeRequest(Model):
    """A practice match against bots: one of the games the app draws, one of the bots'
    levels."""

    model_config = ConfigDict(extra="forbid", strict=True)

    game: Literal[TABLE_GAMES]  # type: ignore[valid-type]
    level: Literal[LEVELS]  # type: ignore[valid-type]


class FriendRequest(Model):
    """Play with a friend: one of the two-player games."""

    model_config = ConfigDict(extra="forbid", strict=True)

    game: Literal[FRIEND_GAMES]  # type: ignore[valid-type]


# -- answers --------------------------------------------------------------------------------
class Error(Model):
    """Any refusal: a key the page knows and a sentence for people (may be empty)."""

    error: str
    message: str


class Moved(Model):
    """A move taken: the match's version after it."""

    version: int


class Player(Model):
    name: str
    ai: str | None  # an AI seat's level; None: a person
    me: bool


class Look(Model):
    """A tile colour as the pictures draw it."""

    rgb: str
    symbol: str
    ink: str
    name: str


class Outcome(Model):
    scores: list[Number]
    ranks: list[int]
    lines: list[str]


class Card(Model):
    """A card of the hand as the page draws it: its value (``face``), 5211's colour
    (``suit``) and the words a screen reader says."""

    card: int
    face: str
    suit: int | None
    label: str


class Choice(Model):
    """A legal move as cards: what is sent back, the cards it plays, what onto, its words;
    in Sultan ``onto``, the spot of the table tapped for it (a cushion, or a gem)."""

    action: list[int]
    cards: list[int]
    target: str | None
    label: str
    onto: dict[str, int] | None = None


class Seat(Model):
    """A player around the drawn table: every game's seat has these; each game adds its own
    facts (hand size, gems, whether they act...)."""

    model_config = ConfigDict(extra="allow")

    seat: int
    name: str
    label: str


class LastMove(Model):
    """The last move, which the page highlights: its seat, and the centre's items it
    brought (each moves from that seat to the centre)."""

    seat: int | None
    keys: list[str]


class SummaryRow(Model):
    model_config = ConfigDict(extra="allow")

    seat: int | None
    name: str


class Summary(Model):
    """A round or hand just over: who took what, and the points."""

    id: str
    title: str
    rows: list[SummaryRow]
    short: bool = False


class Drawn(Model):
    """The table drawn: the seats for every game; a card game's centre (its own shape), what
    to do now, the last move and a summary (``bot.web.card_table``)."""

    seats: list[Seat] = []
    centre: dict[str, Any] | None = None
    now: str | None = None
    last: LastMove | None = None
    summary: Summary | None = None
    labels: dict[str, Any] | None = None  # a board's parts named for screen readers


class Table(Drawn):
    """One table as its asker sees it: a seat's view, or a watcher's public view."""

    model_config = ConfigDict(extra="forbid")

    match: int
    version: int
    game: str
    game_name: str = ""  # the game's name in the asker's words (the title is the chat's)
    status: str
    title: str
    seat: int | None
    token: int | None
    players: list[Player]
    view: dict[str, Any]
    legal: list[list[int]]
    to_act: list[int]
    time_left: dict[str, Number]
    story: list[str]
    result: Outcome | None
    rematch: bool = False  # the end screen offers Play again (the chat's rematch)
    looks: list[Look]
    texts: dict[str, str]
    heading: list[str]  # a tile game's heading (its picture's caption); a card game: none
    hand: list[Card] | None = None
    choices: list[Choice] | None = None


class TableLine(Model):
    """One running table of the app's home."""

    match: int
    game: str
    title: str
    your_turn: bool
    to_act: list[str]
    time_left: Number | None


class FinishedPlayer(Model):
    name: str
    score: Number | None
    winner: bool


class FinishedLine(Model):
    """One finished match of the app's home."""

    match: int
    game: str
    ended_at: Number
    outcome: str
    players: list[FinishedPlayer]


class TournamentLine(Model):
    """A tournament the asker is in, for the home's link to its page."""

    tournament: int
    title: str
    status: str


class Tables(Model):
    """The app's home: the asker's running tables, their finished matches, the tournaments
    they are in, the words."""

    tables: list[TableLine]
    finished: list[FinishedLine]
    tournaments: list[TournamentLine] = []
    texts: dict[str, str]


class ReplaySummary(Model):
    """What a replay's page needs once."""

    match: int
    game: str
    game_name: str = ""
    title: str
    players: list[Player]
    steps: int
    result: Outcome | None
    looks: list[Look]
    texts: dict[str, str]


class ReplayStep(Drawn):
    """One step of a replay: the public view after it and its words."""

    step: int
    line: str
    others: list[str]
    news: list[str]
    view: dict[str, Any]
    heading: list[str]


class GameTitle(Model):
    game: str
    title: str


class LevelName(Model):
    level: str
    name: str


class LessonLine(Model):
    """A lesson on the home: its steps, the furthest the asker reached, finished or not."""

    game: str
    title: str
    steps: int
    reached: int
    done: bool


class PracticeChoices(Model):
    """The games a practice match may be of, the bots' levels, the games to play with a
    friend."""

    games: list[GameTitle]
    levels: list[LevelName]
    friend: list[GameTitle]


class Home(Model):
    """The app home's lessons, practice games and levels, and its words."""

    lessons: list[LessonLine]
    practice: PracticeChoices
    texts: dict[str, str]


class LessonStep(Model):
    """A lesson's words at a step: its caption, the move it teaches (the pieces the page
    lights), the hint; at the end what was learned and the rules."""

    game: str
    step: int
    steps: int
    caption: list[str] | None
    news: list[str] | None = None  # what the last move made happen (a round scored…)
    teach: list[int] | None
    hint: str | None
    learned: list[str] | None
    rules: list[str] | None
    texts: dict[str, str]


class LessonTable(Table):
    """A lesson's step drawn as a match's table, with the lesson's words."""

    lesson: LessonStep


class LessonAnswer(Model):
    """A move at a lesson's step: right (the next step's table), or why not."""

    right: bool
    said: str | None = None  # the answer to a right move (a move chosen alone, told back)
    table: LessonTable | None = None
    why: str | None = None


class Prepared(Model):
    """An invitation prepared for the asker to send (``savePreparedInlineMessage``)."""

    prepared: str


class Rematched(Model):
    """Play again: the rematch's lobby opened in the match's chat, said in the asker's
    words (the chat's own)."""

    message: str


class Launched(Model):
    """The match a ``startapp`` link opened, once the asker may see it."""

    match: int


class StandingRow(Model):
    """A row of a tournament's standings, as the group's message ranks it."""

    rank: int
    name: str
    # under the page's columns, as players write them (2½): points and the tie-breaks in
    # the creator's order, or an elimination's round reached, place at its table, outcome
    cells: list[str]
    withdrawn: bool
    me: bool


class TournamentSeat(Model):
    name: str
    place: int | None  # None while the table plays
    points: str | None  # the tournament points it gave
    me: bool


class TournamentTable(Model):
    """A round's table: its match (None where the app does not draw the game), opened live
    while it plays and as a replay once done."""

    number: int
    done: bool
    live: bool  # still played: opened live; else replayed
    match: int | None
    players: list[TournamentSeat]


class TournamentBye(Model):
    name: str
    kind: str  # full, half, advance


class TournamentRound(Model):
    number: int
    tables: list[TournamentTable]
    byes: list[TournamentBye]


class TournamentPage(Model):
    """A tournament's page: its rules and state, the standings, every round's tables."""

    id: int
    game: str
    title: str
    format: str
    rules: str
    status: str  # lobby, running, finished, cancelled
    status_text: str
    round: int  # rounds paired so far
    rounds: int  # planned
    columns: list[str]  # the standings' columns after rank and name, named
    standings: list[StandingRow]
    notes: list[str]  # the standings' rules: points, tie-breaks, the tables that had bots
    played: list[TournamentRound]
    texts: dict[str, str]


class Health(Model):
    serving: bool
    reason: str


class Alive(Model):
    alive: bool


REQUESTS: tuple[type[BaseModel], ...] = (
    MoveRequest,
    LessonBegin,
    LessonMove,
    PracticeRequest,
    FriendRequest,
)
ANSWERS: tuple[type[BaseModel], ...] = (
    Rematched,
    Error, Moved, Launched, Table, Tables, ReplaySummary, ReplayStep, Home, LessonTable,
    LessonAnswer, Prepared, TournamentPage, Health, Alive,
)  # fmt: skip
