"""Match records and ratings, on SQLite and on PostgreSQL: every ended match is recorded
once, finished ones are rated with OpenSkill (checked against the library itself), the
bot's seats inflate nobody, and a crash never leaves a finished match unrated or rated
twice."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from bot.storage import Seat, Storage, storage_for
from bot.storage.migrations.postgres import WORKERS_ONLY
from bot.storage.records import (
    GLOBAL,
    MatchRecord,
    PlayerRecord,
    Rating,
    counted_seats,
    fresh,
    new_ratings,
    provisional,
    rated,
    shown_rating,
)
from games import get_engine
from games.core import encode_action
from tests.bot.databases import (
    BEFORE_RECORDS,
    UNDO_INLINE_TABLES,
    UNDO_REVISIONS,
    UNDO_TOURNAMENTS,
    Look,
)

GROUP = -500


@pytest.fixture
async def storage(database):
    store = storage_for(database.url, database.path)
    await store.open()
    yield store
    await store.close()


@pytest.fixture
def look(database):
    looking = Look(database)
    yield looking
    looking.close()


async def play_match(
    storage: Storage,
    game: str = "5211",
    players: int = 3,
    seed: int = 1,
    chat: int = GROUP,
    bot_seats: frozenset[int] = frozenset(),
    finish: bool = True,
    users: list[int] | None = None,
    ai_seats: frozenset[int] = frozenset(),
):
    """A match played through the storage move by move with random legal moves (the moves
    of ``bot_seats`` saved as made for them; ``ai_seats`` are AI players, with negative
    user ids as the bot gives them); stops one move short unless ``finish``."""
    users = users or [-1 - seat if seat in ai_seats else 10 + seat for seat in range(players)]
    engine = get_engine(game)
    match = await storage.create_lobby(chat, 0, game, {}, users[0])
    match.seats = [
        Seat(seat, user, f"P{user}", ai="normal" if seat in ai_seats else None)
        for seat, user in enumerate(users)
    ]
    match.state = engine.new_game(players, {}, seed=seed)
    match.status = "playing"
    await storage.save(match, move=(-1, "start"))
    rng = random.Random(seed)
    while True:
        seat = min(engine.to_act(match.state))
        action = rng.choice(list(engine.legal_actions(match.state, seat)))
        after = engine.apply(match.state, seat, action)
        if engine.is_over(after) and not finish:
            return match
        match.state = after
        if engine.is_over(after):
            match.status = "finished"
        await storage.save(match, move=(seat, encode_action(action)), automatic=seat in bot_seats)
        if match.status == "finished":
            return match


def close(got: list[tuple], want: list[tuple]) -> bool:
    """Pairs of numbers equal to within rounding (floats through a database)."""
    flat = [x for pair in got for x in pair]
    return len(got) == len(want) and flat == pytest.approx([x for pair in want for x in pair])


def ratings(look: Look, scope: int, game: str = "5211") -> dict[int, tuple]:
    rows = look.rows(
        "SELECT user_id, mu, sigma, games FROM ratings WHERE scope = ? AND game = ?",
        (scope, game),
    )
    return {row[0]: (row[1], row[2], row[3]) for row in rows}


def expected(ranks: list[int], before: list[tuple[float, float]] | None = None) -> list[tuple]:
    model = PlackettLuce()
    teams = (
        [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
        if before
        else [[model.rating()] for _ in ranks]
    )
    return [(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=ranks)]


@pytest.mark.parametrize(
    "ranks",
    [[1, 2], [1, 1], [2, 1, 3, 3], [1, 1, 1, 4], [1, 2, 2, 4, 5, 5, 5, 8, 9, 10, 10, 12]],
    ids=["2", "2-tie", "4-tie", "4-three-tie", "12-ties"],
)
def test_ratings_are_openskills_plackett_luce(ranks):
    """2-, 4- and 12-player results with ties, from fresh and from earlier ratings."""
    players = [PlayerRecord(seat, 100 + seat, "", 0, rank) for seat, rank in enumerate(ranks)]
    everyone = [True] * len(ranks)
    first = new_ratings(players, everyone, {})
    want = expected(ranks)
    assert close([(first[p.user_id].mu, first[p.user_id].sigma) for p in players], want)
    assert all(first[p.user_id].games == 1 for p in players)
    again = new_ratings(players, everyone, first)
    want = expected(ranks, want)
    assert close([(again[p.user_id].mu, again[p.user_id].sigma) for p in players], want)
    assert all(again[p.user_id].games == 2 for p in players)
    best = min(players, key=lambda p: p.rank)
    worst = max(players, key=lambda p: p.rank)
    if best.rank != worst.rank:
        assert first[best.user_id].ordinal > first[worst.user_id].ordinal


def test_the_bots_seats_inflate_nobody():
    """Seat 2 was played by the bot and came first: the others are rated as if it were not
    there; its absent player is rated as last of all."""
    ranks = [2, 3, 1, 4]
    players = [PlayerRecord(seat, 100 + seat, "", 0, rank) for seat, rank in enumerate(ranks)]
    counted = [True, True, False, True]
    changed = new_ratings(players, counted, {})
    humans = expected([2, 3, 4])
    assert close([(changed[u].mu, changed[u].sigma) for u in (100, 101, 103)], humans)
    absent = expected([2, 3, 5, 4])[2]
    assert (changed[102].mu, changed[102].sigma) == pytest.approx(absent)
    assert changed[102].mu < 25  # it won, yet its player's rating went down
    alone = new_ratings(players[:2], [True, False], {})  # one player left: only the absent moves
    assert 100 not in alone and alone[101].mu < 25


async def test_a_finished_match_is_recorded_and_rated_globally_and_in_its_group(storage, look):
    match = await play_match(storage, players=3)
    record = look.rows(
        "SELECT game, outcome, rated, players, chat_id FROM match_records WHERE match_id = ?",
        (match.id,),
    )
    assert record == [("5211", "finished", True, 3, GROUP)]
    result = get_engine("5211").result(match.state)
    seats = look.rows(
        "SELECT seat, user_id, score, rank, counted FROM match_players WHERE match_id = ? "
        "ORDER BY seat",
        (match.id,),
    )
    assert [(r[0], r[1], r[2], r[3], bool(r[4])) for r in seats] == [
        (seat, 10 + seat, result.scores[seat], result.ranks[seat], True) for seat in range(3)
    ]
    want = expected(result.ranks)
    for scope in (GLOBAL, GROUP):
        got = ratings(look, scope)
        assert close([got[10 + seat][:2] for seat in range(3)], want)
        assert {got[user][2] for user in got} == {1}


async def test_group_ratings_are_the_groups_own(storage, look):
    await play_match(storage, players=2, seed=3, chat=GROUP)
    await play_match(storage, players=2, seed=4, chat=GROUP - 1)
    assert {row[2] for row in ratings(look, GLOBAL).values()} == {2}
    assert {row[2] for row in ratings(look, GROUP).values()} == {1}
    assert {row[2] for row in ratings(look, GROUP - 1).values()} == {1}


async def test_a_seat_the_bot_played_counts_for_nobody(storage, look):
    match = await play_match(storage, players=3, seed=2, bot_seats=frozenset({1}))
    result = get_engine("5211").result(match.state)
    counted = look.rows(
        "SELECT counted FROM match_players WHERE match_id = ? ORDER BY seat", (match.id,)
    )
    assert [bool(row[0]) for row in counted] == [True, False, True]
    got = ratings(look, GLOBAL)
    humans = expected([result.ranks[0], result.ranks[2]])
    assert close([got[10][:2], got[12][:2]], humans)
    last = max(result.ranks) + 1
    absent = expected([result.ranks[0], last, result.ranks[2]])[1]
    assert got[11][:2] == pytest.approx(absent)


def test_an_ai_seat_never_counts_even_when_it_made_its_own_moves():
    """AI seats make their own moves (none automatic), yet never count; a person's seat the
    bot mostly played does not count either."""
    players = [
        PlayerRecord(0, 10, "Ann", 5, 1),
        PlayerRecord(1, -1, "🤖 Normal Bot", 9, 2, ai=True),
        PlayerRecord(2, 12, "Cy", 3, 3),
    ]
    record = MatchRecord(1, GROUP, "5211", {}, "finished", 0.0, 0.0, players)
    moves = [(0, 10, 0), (1, 10, 0), (2, 10, 8)]  # seat, moves, made for it
    assert counted_seats(record, moves) == [True, False, False]
    assert not rated(record)
    humans_only = MatchRecord(1, GROUP, "5211", {}, "finished", 0.0, 0.0, [players[0], players[2]])
    assert rated(humans_only)


async def test_a_match_with_an_ai_seat_is_practice_and_rates_nobody(storage, look):
    """In a group with an AI seat, and in private (practice): recorded, never rated, on no
    leaderboard; the same people's match without bots is rated."""
    in_group = await play_match(storage, players=3, seed=2, ai_seats=frozenset({1}))
    practice = await play_match(storage, players=2, seed=3, chat=10, ai_seats=frozenset({1}))
    rows = look.rows("SELECT match_id, chat_id, outcome, rated FROM match_records ORDER BY 1")
    assert [(r[0], r[1], r[2], bool(r[3])) for r in rows] == [
        (in_group.id, GROUP, "finished", False),
        (practice.id, 10, "finished", False),
    ]
    counted = look.rows(
        "SELECT user_id, counted FROM match_players WHERE match_id = ? ORDER BY seat",
        (in_group.id,),
    )
    assert [(r[0], bool(r[1])) for r in counted] == [(10, True), (-2, False), (12, True)]
    assert look.rows("SELECT COUNT(*) FROM ratings")[0][0] == 0
    assert await storage.rated_games(["5211"], GROUP) == []
    assert await storage.rated_games(["5211"]) == []
    assert await storage.leaderboard("5211", GROUP) == []
    await play_match(storage, players=2, seed=4, users=[10, 12])
    assert set(ratings(look, GROUP)) == {10, 12}


async def test_a_cancelled_match_is_recorded_but_never_rated(storage, look):
    match = await play_match(storage, players=3, finish=False)
    match.status = "cancelled"
    await storage.save(match)
    abandoned = await play_match(storage, players=2, seed=5, finish=False)
    abandoned.status = "cancelled"
    await storage.save(abandoned, ended="abandoned")
    lobby = await storage.create_lobby(GROUP, 7, "5211", {}, 10)  # never started: no record
    lobby.status = "cancelled"
    await storage.save(lobby)
    rows = look.rows("SELECT match_id, outcome, rated FROM match_records ORDER BY 1")
    assert [(r[0], r[1], bool(r[2])) for r in rows] == [
        (match.id, "cancelled", False),
        (abandoned.id, "abandoned", False),
    ]
    scores = look.rows("SELECT score, rank FROM match_players")
    assert len(scores) == 5 and all(tuple(row) == (None, None) for row in scores)
    assert look.rows("SELECT COUNT(*) FROM ratings")[0][0] == 0


async def test_saving_a_finished_match_again_rates_it_once(storage, look):
    match = await play_match(storage, players=2, seed=6)
    before = ratings(look, GLOBAL)
    await storage.save(match)  # e.g. a retried save after the finish
    assert ratings(look, GLOBAL) == before
    assert look.rows("SELECT COUNT(*) FROM match_records")[0][0] == 1


async def test_a_failing_record_undoes_the_finishing_move(storage, look, monkeypatch):
    """The move that finishes a match, its record and the ratings commit together: if the
    rating fails, the match is still playing at its old version, and nothing is recorded."""
    match = await play_match(storage, players=2, seed=7, finish=False)
    version = match.version

    def broken(*args, **kwargs):
        raise RuntimeError("the rating failed")

    monkeypatch.setattr("bot.storage.records.rating_rows", broken)
    engine = get_engine("5211")
    seat = min(engine.to_act(match.state))
    action = engine.legal_actions(match.state, seat)[0]
    match.state = engine.apply(match.state, seat, action)
    assert engine.is_over(match.state)
    match.status = "finished"
    with pytest.raises(RuntimeError):
        await storage.save(match, move=(seat, encode_action(action)))
    assert look.rows("SELECT status, version FROM matches WHERE id = ?", (match.id,)) == [
        ("playing", version)
    ]
    assert look.rows("SELECT COUNT(*) FROM match_records")[0][0] == 0
    assert look.rows("SELECT COUNT(*) FROM ratings")[0][0] == 0
    assert look.rows("SELECT COUNT(*) FROM moves WHERE match_id = ?", (match.id,))[0][0] == (
        version
    )


async def test_matches_that_ended_before_records_are_recorded_at_start_up(database, look):
    """The migration: finished matches of an older database are recorded and rated from
    their stored state, in the order they ended; a started then cancelled one is recorded
    as cancelled; a cancelled lobby is not."""
    first = storage_for(database.url, database.path)
    await first.open()
    one = await play_match(first, players=2, seed=8)
    two = await play_match(first, players=2, seed=9)
    stopped = await play_match(first, players=2, seed=10, finish=False)
    stopped.status = "cancelled"
    await first.save(stopped)
    lobby = await first.create_lobby(GROUP, 3, "5211", {}, 10)
    lobby.status = "cancelled"
    await first.save(lobby)
    rated_then = ratings(look, GLOBAL)
    version = await first.schema_version()
    await first.close()
    # the database as the previous schema had it: no records, no ratings
    for table in (
        "ratings",
        "match_players",
        "match_records",
        "usernames",
        "forgotten_players",
        "bot_flags",
    ):
        look.run(f"DROP TABLE {table}")
    look.run("ALTER TABLE chats DROP COLUMN leaderboard")
    for statement in (*UNDO_TOURNAMENTS, *UNDO_INLINE_TABLES):  # nor the later migrations
        look.run(statement)
    if database.backend == "sqlite":
        look.run(f"PRAGMA user_version = {BEFORE_RECORDS}")
    else:
        for table in WORKERS_ONLY:  # PostgreSQL's own: the workers' coordination
            look.run(f"DROP TABLE {table}")
        for statement in UNDO_REVISIONS:
            look.run(statement)
        look.run("UPDATE schema_version SET version = 1")

    second = storage_for(database.url, database.path)
    await second.open()  # migrates, then records what ended before
    assert await second.schema_version() == version
    await second.close()
    rows = look.rows("SELECT match_id, outcome FROM match_records ORDER BY match_id")
    assert rows == [
        (one.id, "finished"),
        (two.id, "finished"),
        (stopped.id, "cancelled"),
    ]
    again = ratings(look, GLOBAL)
    assert again.keys() == rated_then.keys()
    for user in again:
        assert again[user] == pytest.approx(rated_then[user])
    third = storage_for(database.url, database.path)
    await third.open()
    assert await third.record_earlier_matches() == 0  # done once
    await third.close()


def test_rating_ordinal_is_openskills():
    rating = Rating(30.0, 5.0)
    assert rating.ordinal == pytest.approx(PlackettLuce().rating(mu=30.0, sigma=5.0).ordinal())


def test_the_shown_rating_starts_at_1500_and_keeps_the_order():
    """Players see 1500 + 20 × the ordinal: a newcomer 1500, monotonic in the ordinal (so
    a leaderboard sorted by the ordinal reads in order), never below 0."""
    assert shown_rating(fresh().ordinal) == 1500
    ordinals = [x / 4 for x in range(-400, 400)]
    shown = [shown_rating(x) for x in ordinals]
    assert shown == sorted(shown) and min(shown) == 0
    assert shown_rating(-2.76) == 1445 and shown_rating(3.3) == 1566
    assert [provisional(games) for games in (0, 1, 9, 10, 200)] == [True] * 3 + [False] * 2
