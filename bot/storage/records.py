"""Match records and ratings: what a match leaves behind once it ends, and how it moves the
players' ratings.

A match that ends — finished, stopped with ``/cancel``, or abandoned when the bot left its
group — gets one record (its game, options, group, times) and one row per seat (name, score,
rank). Only finished matches are rated, with OpenSkill's Plackett-Luce model: one rating per
player per game globally (scope 0) and one per group (scope = the group's chat id).

The rating rule for seats the bot played: a seat whose moves were mostly made for it (more
than half by timeout or autopilot) is *not counted*. The counted seats are rated among
themselves, as if the bot's seats were not there, so nobody gains by beating the bot. The
absent player of such a seat is rated as having come last in the whole match (so walking
away never dodges a loss, and the bot's play never lifts them). A match with fewer than two
counted seats changes no counted player's rating.

A player who used ``/forget`` while a match of theirs was running (their mark is in
``forgotten_players``) is recorded in it without name or id when it ends, and gets no rating
from it: their seat is still rated for the others, as a fresh player's. The mark goes with
the record, in the same transaction.

A match with an AI seat is practice and rates nobody (its AI seats are not counted either),
and so is any match played in a private chat (practice against AI seats): both are recorded,
never rated, so they never reach a leaderboard.

What is stored is the model's own values: μ, σ and the ordinal μ − 3σ (a cautious estimate
of skill, by which leaderboards are sorted). What players see is :func:`shown_rating`, the
ordinal on a chess-like scale: a newcomer (ordinal 0) starts at 1500, and it stays positive
in any real play. A rating of fewer than :data:`PROVISIONAL_GAMES` games is provisional.

The record, the ratings and the move that ends the match are committed in one transaction;
the record's primary key makes recording (and so rating) happen at most once per match.
Each backend runs the statements below in its own way (:meth:`Storage._write_record`); the
computation itself is :func:`new_ratings`, pure.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from openskill.models import PlackettLuce

from bot.storage.model import Match
from games import get_engine

GLOBAL = 0  # the scope of the global ratings (group chat ids are negative, never 0)
OUTCOMES = ("finished", "cancelled", "abandoned")
FORGOTTEN = "👤"  # the name left on past matches of a player who used /forget

MODEL = PlackettLuce()

# The shown scale: 1500 + 20 × ordinal, rounded. A newcomer's ordinal is 0 (μ = 25, σ = 25/3):
# 1500. One game moves a newcomer by tens of points (+50 to +70 for a win, −35 to −75 for a
# last place), a settled player by a few to twenty; 20 points per unit make a difference
# read roughly like a chess (Elo) one — 100 points, about two wins in three between settled
# players. Everyone's ordinal in a long random league stays above −25 (1000 shown); the
# floor of 0 is for a player who loses hundreds of games on purpose.
RATING_START = 1500
RATING_POINTS = 20  # shown points per unit of the ordinal
PROVISIONAL_GAMES = 10  # a rating of fewer rated games is still settling: marked "?"


@dataclass(frozen=True)
class PlayerRecord:
    seat: int
    user_id: int | None  # None: a player who used /forget before the match ended
    name: str
    score: int | None  # None: the match did not finish
    rank: int | None
    ai: bool = False  # an AI seat (its user_id is negative): never counted, never rated


@dataclass(frozen=True)
class MatchRecord:
    match_id: int
    chat_id: int
    game: str
    options: dict[str, Any]
    outcome: str
    ended_at: float
    started_at: float  # when the lobby opened; the first move's time where known
    players: list[PlayerRecord]
    details: dict[str, Any] = field(default_factory=dict)
    unrated: bool = False  # a table of a tournament filled with bots: it rates nobody
    season: int = 0  # the season it ended in (``bot.storage.seasons``); 0: none is rated


def build_record(match: Match, outcome: str, ended_at: float) -> MatchRecord:
    """The record of a match that has just ended (``match.state`` is its last state)."""
    if outcome not in OUTCOMES:
        raise ValueError(f"unknown outcome {outcome!r}")
    result = None
    if outcome == "finished":
        result = get_engine(match.game).result(match.state)
    players = [
        PlayerRecord(
            seat=seat.seat,
            user_id=seat.user_id,
            name=seat.name,
            score=result.scores[seat.seat] if result else None,
            rank=result.ranks[seat.seat] if result else None,
            ai=seat.is_ai,
        )
        for seat in match.seats
    ]
    return MatchRecord(
        match_id=match.id,
        chat_id=match.chat_id,
        game=match.game,
        options=dict(match.options),
        outcome=outcome,
        ended_at=ended_at,
        started_at=match.created_at,
        players=players,
        details=dict(result.details) if result else {},
    )


def anonymised(record: MatchRecord, forgotten: set[int]) -> MatchRecord:
    """The record without the names and ids of the ``forgotten`` players."""
    players = [
        replace(p, user_id=None, name=FORGOTTEN) if p.user_id in forgotten else p
        for p in record.players
    ]
    return replace(record, players=players)


def bot_played(moves: int, automatic: int) -> bool:
    """A seat the bot played: more than half of its moves were made for it."""
    return automatic * 2 > moves


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        return MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal()


def shown_rating(ordinal: float) -> int:
    """The rating players see for an ordinal: monotonic in it (a leaderboard reads in
    order), 1500 for a newcomer, never negative."""
    return max(0, round(RATING_START + RATING_POINTS * ordinal))


def provisional(rated_games: int) -> bool:
    return rated_games < PROVISIONAL_GAMES


def fresh() -> Rating:
    start = MODEL.rating()
    return Rating(start.mu, start.sigma, 0)


def _rate(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [
        Rating(team[0].mu, team[0].sigma, r.games + 1)
        for team, r in zip(rated, ratings, strict=True)
    ]


def new_ratings(
    players: Sequence[PlayerRecord], counted: Sequence[bool], current: dict[int, Rating]
) -> dict[int, Rating]:
    """The players' new ratings in one scope after a finished match, by user id (only those
    that change; a forgotten player, whose id is None, is rated as a fresh one and gets
    none). ``counted[i]``: ``players[i]`` played the seat themselves; ``current``: their
    ratings before the match (missing: a fresh rating)."""
    ratings = [(p.user_id is not None and current.get(p.user_id)) or fresh() for p in players]
    changed: dict[int, Rating] = {}
    humans = [i for i, c in enumerate(counted) if c]
    if len(humans) >= 2:
        rated = _rate([ratings[i] for i in humans], [players[i].rank for i in humans])
        for i, rating in zip(humans, rated, strict=True):
            if players[i].user_id is not None:
                changed[players[i].user_id] = rating
    last = max(p.rank for p in players) + 1
    all_ranks = [p.rank if c else last for p, c in zip(players, counted, strict=True)]
    absent = [i for i, c in enumerate(counted) if not c]
    if absent:
        rated = _rate(ratings, all_ranks)
        for i in absent:
            if players[i].user_id is not None:
                changed[players[i].user_id] = rated[i]
    return changed


# -- SQL, shared by both backends (``?`` placeholders) ------------------------------------
INSERT_RECORD = (
    "INSERT INTO match_records (match_id, chat_id, game, options, outcome, players, "
    "started_at, ended_at, details) VALUES (?, ?, ?, ?, ?, ?, "
    "COALESCE((SELECT MIN(at) FROM moves WHERE match_id = ?), ?), ?, ?) "
    "ON CONFLICT (match_id) DO NOTHING RETURNING match_id"
)
SEAT_MOVES = (
    "SELECT seat, COUNT(*) AS moves, SUM(CASE WHEN automatic THEN 1 ELSE 0 END) AS automatic "
    "FROM moves WHERE match_id = ? AND seat >= 0 GROUP BY seat"
)
INSERT_PLAYER = (
    "INSERT INTO match_players (match_id, seat, user_id, name, chat_id, game, outcome, "
    "score, rank, counted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
# the players who used /forget while the match ran: read and cleared as it is recorded
TAKE_FORGOTTEN = "DELETE FROM forgotten_players WHERE match_id = ? RETURNING user_id"
MARK_RATED = "UPDATE match_records SET rated = TRUE WHERE match_id = ?"
UPSERT_RATING = (
    "INSERT INTO ratings (scope, game, user_id, name, mu, sigma, ordinal, games) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scope, game, user_id) DO UPDATE SET "
    "name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, "
    "ordinal = excluded.ordinal, games = excluded.games"
)


# the season's ladder: a player's rating within the season it ended in
SEASON_RATINGS = (
    "SELECT user_id, mu, sigma, games FROM season_ratings "
    "WHERE season = ? AND scope = ? AND game = ? AND user_id IN ({marks})"
)
UPSERT_SEASON_RATING = (
    "INSERT INTO season_ratings (season, scope, game, user_id, name, mu, sigma, ordinal, games) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (season, scope, game, user_id) DO UPDATE "
    "SET name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, "
    "ordinal = excluded.ordinal, games = excluded.games"
)
KEEP = 0.5  # the share of the distance from a newcomer's μ a player keeps into a new season


def soft_reset(rating: Rating) -> Rating:
    """A rating carried into a new season: μ pulled halfway toward a newcomer's, σ raised
    halfway (in variance) back toward a newcomer's; no season games yet."""
    start = fresh()
    mu = start.mu + (rating.mu - start.mu) * KEEP
    sigma = math.sqrt((rating.sigma**2 + start.sigma**2) / 2)
    return Rating(mu, max(rating.sigma, min(start.sigma, sigma)), 0)


def season_ratings_query(count: int) -> str:
    return SEASON_RATINGS.format(marks=", ".join("?" * count))


def season_rating_rows(
    record: MatchRecord, scope: int, counted: Sequence[bool], all_time_rows, season_rows
) -> list[tuple]:
    """The :data:`UPSERT_SEASON_RATING` rows of one scope: each player's season rating before
    the match is their row this season, else their all-time one (before the match) softly
    reset, else a newcomer's; then rated as the all-time ones are."""
    current = {row[0]: Rating(row[1], row[2], row[3]) for row in season_rows}
    for row in all_time_rows:
        if row[0] not in current:
            current[row[0]] = soft_reset(Rating(row[1], row[2], row[3]))
    names = {p.user_id: p.name for p in record.players}
    changed = new_ratings(record.players, counted, current)
    return [
        (record.season, scope, record.game, user_id, names[user_id], r.mu, r.sigma, r.ordinal,
         r.games)
        for user_id, r in changed.items()
    ]  # fmt: skip


def forget_seats_query(count: int) -> str:
    """Their seats lose name and id too, as the seats of matches ended before /forget do."""
    marks = ", ".join("?" * count)
    return f"UPDATE seats SET user_id = 0, name = ? WHERE match_id = ? AND user_id IN ({marks})"


def rated_users(record: MatchRecord) -> list[int]:
    return [p.user_id for p in record.players if p.user_id is not None]


def ratings_query(count: int) -> str:
    marks = ", ".join("?" * count)
    return (
        "SELECT user_id, mu, sigma, games FROM ratings "
        f"WHERE scope = ? AND game = ? AND user_id IN ({marks})"
    )


def record_args(record: MatchRecord, dumps) -> tuple:
    return (
        record.match_id,
        record.chat_id,
        record.game,
        dumps(record.options),
        record.outcome,
        len(record.players),
        record.match_id,
        record.started_at,
        record.ended_at,
        dumps(record.details),
    )


def counted_seats(record: MatchRecord, seat_moves: Iterable) -> list[bool]:
    """Which seats count for the ratings, from the rows of :data:`SEAT_MOVES`: a person's
    seat they mostly played themselves (an AI seat never counts)."""
    by_seat = {row[0]: (row[1], row[2] or 0) for row in seat_moves}
    return [not p.ai and not bot_played(*by_seat.get(p.seat, (0, 0))) for p in record.players]


def player_rows(record: MatchRecord, counted: Sequence[bool]) -> list[tuple]:
    return [
        (record.match_id, p.seat, p.user_id, p.name, record.chat_id, record.game,
         record.outcome, p.score, p.rank, c)
        for p, c in zip(record.players, counted, strict=True)
    ]  # fmt: skip


def scopes(record: MatchRecord) -> tuple[int, ...]:
    return (GLOBAL, record.chat_id)


def rating_rows(
    record: MatchRecord, scope: int, counted: Sequence[bool], current_rows: Iterable
) -> list[tuple]:
    """The :data:`UPSERT_RATING` rows of one scope, from the current ratings' rows."""
    current = {row[0]: Rating(row[1], row[2], row[3]) for row in current_rows}
    names = {p.user_id: p.name for p in record.players}
    changed = new_ratings(record.players, counted, current)
    return [
        (scope, record.game, user_id, names[user_id], r.mu, r.sigma, r.ordinal, r.games)
        for user_id, r in changed.items()
    ]


def rated(record: MatchRecord) -> bool:
    """Whether the record is rated at all: a finished match of two or more people in a
    group, with no AI seat (a match with one is practice, as is any match in private), and
    not of a tournament with bots."""
    return (
        not record.unrated
        and record.outcome == "finished"
        and len(record.players) >= 2
        and not any(p.ai for p in record.players)
        and record.chat_id < 0  # a group's; a user's private chat id is positive
    )


def write_record(db, record: MatchRecord, dumps) -> bool:
    """Record (and rate) an ended match on an SQLite connection, inside the caller's
    transaction; False if it was recorded before."""
    if db.execute(INSERT_RECORD, record_args(record, dumps)).fetchone() is None:
        return False
    forgotten = {row[0] for row in db.execute(TAKE_FORGOTTEN, (record.match_id,))}
    if forgotten:
        record = anonymised(record, forgotten)
        db.execute(forget_seats_query(len(forgotten)), (FORGOTTEN, record.match_id, *forgotten))
    counted = counted_seats(record, db.execute(SEAT_MOVES, (record.match_id,)).fetchall())
    db.executemany(INSERT_PLAYER, player_rows(record, counted))
    if rated(record):
        users = rated_users(record)
        for scope in scopes(record):
            current = (
                db.execute(ratings_query(len(users)), (scope, record.game, *users)).fetchall()
                if users
                else []
            )
            db.executemany(UPSERT_RATING, rating_rows(record, scope, counted, current))
            if record.season:
                season = db.execute(
                    season_ratings_query(len(users)), (record.season, scope, record.game, *users)
                ).fetchall() if users else []  # fmt: skip
                rows = season_rating_rows(record, scope, counted, current, season)
                db.executemany(UPSERT_SEASON_RATING, rows)
        db.execute(MARK_RATED, (record.match_id,))
    return True


async def write_record_async(connection, numbered, record: MatchRecord, dumps) -> tuple[bool, int]:
    """The same on an asyncpg connection, inside the caller's transaction (``numbered``
    turns ``?`` into ``$n``): whether it recorded, and the round trips it made."""
    inserted = await connection.fetch(numbered(INSERT_RECORD), *record_args(record, dumps))
    if not inserted:
        return False, 1
    trips = 4  # the record, the forgotten, the seats' moves, the players
    forgotten = {
        row[0] for row in await connection.fetch(numbered(TAKE_FORGOTTEN), record.match_id)
    }
    if forgotten:
        record = anonymised(record, forgotten)
        await connection.execute(
            numbered(forget_seats_query(len(forgotten))), FORGOTTEN, record.match_id, *forgotten
        )
        trips += 1
    seat_moves = await connection.fetch(numbered(SEAT_MOVES), record.match_id)
    counted = counted_seats(record, seat_moves)
    await connection.executemany(numbered(INSERT_PLAYER), player_rows(record, counted))
    if rated(record):
        users = rated_users(record)
        for scope in scopes(record):
            current = (
                await connection.fetch(
                    numbered(ratings_query(len(users))), scope, record.game, *users
                )
                if users
                else []
            )
            rows = rating_rows(record, scope, counted, current)
            await connection.executemany(numbered(UPSERT_RATING), rows)
            trips += 2
            if record.season:
                query = numbered(season_ratings_query(len(users)))
                season = (
                    await connection.fetch(query, record.season, scope, record.game, *users)
                    if users
                    else []
                )
                rows = season_rating_rows(record, scope, counted, current, season)
                await connection.executemany(numbered(UPSERT_SEASON_RATING), rows)
                trips += 2
        await connection.execute(numbered(MARK_RATED), record.match_id)
        trips += 1
    return True, trips
