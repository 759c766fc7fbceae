"""The tutorials' counts, on SQLite and PostgreSQL: how many reached each step, no user."""

from __future__ import annotations

import pytest

from bot.presentation.tutorial import Progress
from bot.storage import storage_for


@pytest.fixture
async def storage(database):
    store = storage_for(database.url, database.path)
    await store.open()
    yield store
    await store.close()


async def test_each_step_reached_is_counted_and_nothing_names_a_learner(storage, database):
    assert await storage.tutorial_counts() == {}
    for learner, steps in ((1, 2), (2, 1), (3, 0)):  # three learners, as far as step 3, 2, 1
        await storage.save_lesson(learner, "azul", [[0, 1, 1]] * steps)
    await storage.save_lesson(4, "sultan", [])
    assert await storage.tutorial_counts() == {"azul": {0: 3, 1: 2, 2: 1}, "sultan": {0: 1}}
    columns = await storage._rows("SELECT * FROM tutorial_steps WHERE game = 'sultan'")
    assert [tuple(row) for row in columns] == [("sultan", 0, 1)]  # game, step, count: no user


def test_progress_finds_the_completion_and_the_step_where_most_leave():
    progress = Progress.of({0: 10, 1: 9, 2: 4, 3: 3, 4: 3}, steps=4)
    assert (progress.started, progress.finished, progress.most_leave_at) == (10, 3, 2)
    everyone = Progress.of({0: 2, 1: 2, 2: 2}, steps=2)
    assert (everyone.finished, everyone.most_leave_at) == (2, None)
    assert Progress.of({}, steps=3) == Progress(0, 0, None)


async def test_a_learners_place_is_kept_and_each_step_counted_once(storage):
    """A learner's moves are kept per game; restarting, stepping back and finishing again
    count nothing more; another learner counts again; /forget takes the places away."""
    assert await storage.lesson_path(1, "azul") is None
    await storage.save_lesson(1, "azul", [])
    await storage.save_lesson(1, "azul", [[0, 1, 1], [2, 4, 2]])
    assert await storage.lesson_path(1, "azul") == [[0, 1, 1], [2, 4, 2]]
    await storage.save_lesson(1, "azul", [[0, 1, 1]])  # a step back
    await storage.save_lesson(1, "azul", [])  # from the start
    await storage.save_lesson(1, "azul", [[0, 1, 1], [2, 4, 2], [5, 0, 3]])
    assert await storage.tutorial_counts() == {"azul": {0: 1, 1: 1, 2: 1, 3: 1}}
    assert await storage.lessons_reached(1) == {"azul": 3}
    await storage.save_lesson(2, "azul", [[0, 1, 1]])
    await storage.save_lesson(1, "sultan", [])
    assert await storage.tutorial_counts() == {"azul": {0: 2, 1: 2, 2: 1, 3: 1}, "sultan": {0: 1}}
    await storage.forget(1)
    assert await storage.lesson_path(1, "azul") is None and await storage.lessons_reached(1) == {}
    assert await storage.lesson_path(2, "azul") == [[0, 1, 1]]
