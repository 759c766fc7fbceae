"""Two and three workers on one PostgreSQL behind a router that spreads the webhook's
deliveries over them and redelivers some (issue 57): whole matches of every game end
correctly, no move applied twice or lost, every match's log in the order its moves were
accepted (the checks: :class:`tests.bot.routing.RoutedDriver`)."""

from __future__ import annotations

import pytest

from bot.testing.fake_telegram import FakeTelegram
from tests.bot.databases import Database
from tests.bot.helpers import current_match
from tests.bot.routing import routed_workers
from tests.bot.whole_games import play_whole_game

pytestmark = pytest.mark.parametrize("backend", ["postgres"])

# the tile games with text boards (/pictures): the pictures are not what is tested here
GAMES = ["5211", "sultan", "donkey", "azul_text", "summer_pavilion_text"]


@pytest.mark.parametrize("count", [2, 3])
@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_match_through_a_router_over_workers_ends_with_each_press_applied_once(
    game: str, count: int, api: FakeTelegram, database: Database
):
    async with routed_workers(api, database, count, seed=GAMES.index(game) * 10 + count) as driver:
        await play_whole_game(game, driver)
        match = await current_match(driver)
        assert match.status == "finished"
        driver.check_the_end()
        # a whole match, its presses spread over every worker, many of them sent twice
        assert driver.presses_applied >= 10
        assert driver.sent_twice >= len(driver.routed) / 5
        assert set(driver.served_by) == set(range(count))
