"""Seasons of the ratings: which season a moment is in, the soft reset, and a rollover kept
in the database beside the all-time ratings (SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from bot.storage import storage_for
from bot.storage.records import GLOBAL, Rating, fresh, new_ratings, soft_reset
from bot.storage.seasons import previous_season, season_of, season_start
from tests.bot.storage.test_records import play_match

GROUP = -500
SUMMER = datetime(2026, 8, 15, 12, tzinfo=UTC).timestamp()  # July–September 2026
AUTUMN = datetime(2026, 10, 2, 9, tzinfo=UTC).timestamp()  # October–December 2026


def test_calendar_quarters_and_other_lengths():
    assert season_start(season_of(SUMMER, 3)) == datetime(2026, 7, 1, tzinfo=UTC)
    assert season_start(season_of(AUTUMN, 3)) == datetime(2026, 10, 1, tzinfo=UTC)
    assert season_start(season_of(SUMMER, 1)) == datetime(2026, 8, 1, tzinfo=UTC)
    assert season_start(season_of(SUMMER, 12)) == datetime(2026, 1, 1, tzinfo=UTC)
    assert season_start(season_of(SUMMER, 6)) == datetime(2026, 7, 1, tzinfo=UTC)
    assert previous_season(season_of(AUTUMN, 3), 3) == season_of(SUMMER, 3)
    january = datetime(2027, 1, 1, tzinfo=UTC).timestamp()
    assert season_start(previous_season(season_of(january, 3), 3)) == datetime(
        2026, 10, 1, tzinfo=UTC
    )


def test_a_soft_reset_pulls_halfway_to_a_newcomer_and_raises_the_uncertainty():
    start = fresh()
    strong = Rating(start.mu + 10, 2.0, 40)
    reset = soft_reset(strong)
    assert reset.mu == pytest.approx(start.mu + 5)  # halfway back
    assert 2.0 < reset.sigma < start.sigma  # more uncertain, not a newcomer's
    assert reset.games == 0
    weak = soft_reset(Rating(start.mu - 6, 3.0, 12))
    assert weak.mu == pytest.approx(start.mu - 3)
    assert soft_reset(start) == Rating(start.mu, start.sigma, 0)  # a newcomer stays one


async def test_a_season_rollover_starts_from_the_soft_reset(database, monkeypatch):
    storage = storage_for(database.url, database.path)
    await storage.open()
    users = [10, 11, 12]
    at(monkeypatch, SUMMER)
    for seed in (1, 2, 3):
        await play_match(storage, players=3, seed=seed, users=users)
    summer = season_of(SUMMER, 3)
    autumn = season_of(AUTUMN, 3)
    # the first season of all: the season's ladder is the all-time one
    all_time = {s.user_id: s for s in await storage.leaderboard("5211", GROUP)}
    in_summer = {s.user_id: s for s in await storage.season_leaderboard("5211", summer, GROUP)}
    assert {u: (s.rating, s.games) for u, s in in_summer.items()} == {
        u: (s.rating, s.games) for u, s in all_time.items()
    }
    assert await storage.season_leaderboard("5211", autumn, GROUP) == []
    before = await ratings(storage, GROUP)
    at(monkeypatch, AUTUMN)
    match = await play_match(storage, players=3, seed=4, users=users)
    # by hand: each autumn rating is the all-time one before the match, softly reset, then
    # rated by this match's places; the all-time ones move from where they were
    record_ranks = [seat_rank(match, seat) for seat in range(3)]
    players = [_Player(user, rank) for user, rank in zip(users, record_ranks, strict=True)]
    start = {user: soft_reset(before[user]) for user in users}
    expected = new_ratings(players, [True] * 3, start)
    in_autumn = {s.user_id: s for s in await storage.season_leaderboard("5211", autumn, GROUP)}
    for user in users:
        assert in_autumn[user].rating == pytest.approx(expected[user].ordinal)
        assert in_autumn[user].games == 1
    after = await ratings(storage, GROUP)
    assert after == new_ratings(players, [True] * 3, before)
    assert all(after[user].games == 4 for user in users)
    # the summer's ladder stays as it ended; the global scope has seasons too
    assert len(await storage.season_leaderboard("5211", summer, GROUP)) == 3
    assert len(await storage.season_leaderboard("5211", autumn, GLOBAL)) == 3
    assert await storage.season_groups(summer) == [GROUP]
    assert await storage.claim_season_podium(GROUP, summer)
    assert not await storage.claim_season_podium(GROUP, summer)  # once
    await storage.close()


def at(monkeypatch, moment: float) -> None:
    """The storage's saves happen at ``moment`` (only its own clock: the rest of the process,
    the database driver included, keeps the real one)."""
    monkeypatch.setattr("bot.storage.contract.time", SimpleNamespace(time=lambda: moment))


class _Player:
    """A player as :func:`new_ratings` reads one."""

    def __init__(self, user_id: int, rank: int) -> None:
        self.user_id, self.rank = user_id, rank


def seat_rank(match, seat: int) -> int:
    from games import get_engine

    return get_engine(match.game).result(match.state).ranks[seat]


async def ratings(storage, scope: int) -> dict[int, Rating]:
    rows = await storage._rows(
        "SELECT user_id, mu, sigma, games FROM ratings WHERE scope = ? AND game = '5211'",
        (scope,),
    )
    return {row[0]: Rating(row[1], row[2], row[3]) for row in rows}
