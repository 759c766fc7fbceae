"""The freshness check of several workers (issue 57): PostgreSQL counts the writes to a match's
rows and seats (its ``revision``, kept by triggers), so a worker whose cached copy is at the
revision the database holds keeps it — one small read — and one whose copy another worker
has overtaken reads the match again, whichever of the match's rows that worker wrote."""

from __future__ import annotations

import pytest

from bot.storage import Seat, Storage
from bot.storage.postgres import PostgresStorage
from tests.bot.databases import Database

pytestmark = pytest.mark.parametrize("backend", ["postgres"])


@pytest.fixture
async def two(database: Database):
    """Two workers' storages on one database."""
    first, second = (PostgresStorage(database.url, instance_lock=False) for _ in range(2))
    await first.open()
    await second.open()
    yield first, second
    await first.close()
    await second.close()


async def playing(storage: Storage) -> int:
    match = await storage.create_lobby(-1, 0, "5211", {}, 7)
    match.seats = [Seat(0, 7, "Ann"), Seat(1, 8, "Ben")]
    match.state = {"anything": [1], "log": [{"type": "a"}]}
    match.status = "playing"
    await storage.save(match, move=(-1, "start"))
    return match.id


async def revision(storage: Storage, match_id: int) -> int:
    rows = await storage._rows("SELECT revision FROM matches WHERE id = ?", (match_id,))
    return rows[0][0]


async def check(storage: Storage, match_id: int) -> int:
    """Round trips the freshness check and the load after it took."""
    before = storage.stats.round_trips
    await storage.forget_if_changed(match_id)
    await storage.load(match_id)
    return storage.stats.round_trips - before


async def test_every_write_to_a_match_s_rows_moves_its_revision_on(two):
    first, _ = two
    match_id = await playing(first)
    seen = [await revision(first, match_id)]
    match = await first.load(match_id)
    match.state = {"anything": [2], "log": [{"type": "a"}, {"type": "b"}]}
    await first.save(match, move=(0, "x"))  # the play
    seen.append(await revision(first, match_id))
    match = await first.load(match_id)
    match.board_message_id = 41
    await first.save_display(match)  # what the group shows
    seen.append(await revision(first, match_id))
    match.seats[1].prompt_token = 5
    await first.save_seat_display(match_id, match.seats[1])  # what a private chat shows
    seen.append(await revision(first, match_id))
    # a write no code of the storage's knows of (an operator's, a future one's): the trigger
    await first._write("UPDATE seats SET name = ? WHERE match_id = ? AND seat = 0", ("A", match_id))
    seen.append(await revision(first, match_id))
    # each write one step: a save of the row and its seats in one transaction counts once
    assert seen == list(range(seen[0], seen[0] + 5))


async def test_a_worker_keeps_the_copy_it_wrote_itself_with_one_small_read(two):
    first, _ = two
    match_id = await playing(first)
    assert await check(first, match_id) > 1  # a copy never read: its revision is learnt
    assert await check(first, match_id) == 1  # the revision only, not the match's 5
    match = await first.load(match_id)
    match.state = {"anything": [2], "log": [{"type": "a"}, {"type": "b"}]}
    await first.save(match, move=(0, "x"))
    assert await check(first, match_id) == 1
    match = await first.load(match_id)
    match.board_message_id = 42
    await first.save_display(match)
    match.seats[0].prompt_token = 6
    await first.save_seat_display(match_id, match.seats[0])
    assert await check(first, match_id) == 1
    assert (await first.load(match_id)).seats[0].prompt_token == 6


@pytest.mark.parametrize("write", ["play", "group", "private chat"])
async def test_a_copy_another_worker_has_overtaken_is_read_again(two, write):
    first, second = two
    match_id = await playing(first)
    await first.load(match_id)
    theirs = await second.load(match_id)
    if write == "play":
        theirs.state = {"anything": [3], "log": [{"type": "a"}, {"type": "c"}]}
        await second.save(theirs, move=(1, "y"))
    elif write == "group":
        theirs.board_message_id = 77
        await second.save_display(theirs)
    else:
        theirs.seats[1].prompt_token = 9
        await second.save_seat_display(match_id, theirs.seats[1])
    assert await check(first, match_id) > 1  # read again
    mine = await first.load(match_id)
    assert (mine.version, mine.board_message_id, mine.seats[1].prompt_token) == (
        theirs.version,
        theirs.board_message_id,
        theirs.seats[1].prompt_token,
    )


async def test_a_write_of_ours_after_another_worker_s_does_not_hide_theirs(two):
    """Their display save, then our play save from our older copy: our save's revision is
    two steps on from our copy's, so the copy is read again and shows their message."""
    first, second = two
    match_id = await playing(first)
    mine = await first.load(match_id)
    theirs = await second.load(match_id)
    theirs.board_message_id = 91
    await second.save_display(theirs)
    mine.state = {"anything": [4], "log": [{"type": "a"}, {"type": "d"}]}
    await first.save(mine, move=(0, "z"))
    assert await check(first, match_id) > 1
    assert (await first.load(match_id)).board_message_id == 91
