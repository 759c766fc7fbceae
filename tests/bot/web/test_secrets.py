"""Hidden information never leaves its seat through the table app: over seeded whole games of
5211, Sultan and Who's the Donkey? played through the app's API, at every step every table
served to a seat is that seat's own view (the engine's, the chat's), its hand and moves its
own; a member of the group watching gets the public view and nothing of anyone's hand; a
stranger gets nothing."""

from __future__ import annotations

import json

import httpx
import pytest

from bot.presentation.i18n import translator
from bot.presentation.ui.base import Names
from bot.web import card_table
from games import get_engine
from games.ai import choose
from tests.bot import play5211, play_donkey, play_sultan
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, GROUP, MALLORY
from tests.bot.helpers import current_match
from tests.bot.web.conftest import TableBot, header

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])
PLAYERS = [ALICE, BOB, DAVE]  # Carol watches; Mallory is not in the group


async def start(bot: TableBot, game: str):
    if game == "5211":
        await play5211.start_game(bot.driver, GROUP, ALICE, PLAYERS)
    elif game == "sultan":
        await play_sultan.start_game(bot.driver, GROUP, ALICE, PLAYERS)
    else:
        await play_donkey.start_match(bot.driver, ALICE, PLAYERS, hands=1)
    await bot.driver.settle()
    return await current_match(bot.driver)


def as_json(value):
    return json.loads(json.dumps(value))


def secrets_of(game: str, state: dict, seat: int) -> set[str]:
    """What only ``seat`` may see, as it would appear in a served table: its view's keys
    whose values the public view does not have."""
    engine = get_engine(game)
    mine, public = engine.view(state, seat), engine.view(state, None)
    return {key for key, value in mine.items() if key != "seat" and public.get(key) != value}


def hidden_of_others(game: str, table: dict, seat: int) -> None:
    """The drawn table shows a seat's own face-down cards face up to it alone: 5211's chosen
    cards, Sultan's bids; the others' stay backs."""
    centre = table["centre"]
    if game == "5211":
        for play in centre["plays"]:
            faces = [back for back in play["backs"] if "card" in back]
            assert not faces or play["seat"] == seat
    elif game == "sultan":
        for cushion in centre["cushions"]:
            for bid in cushion["bids"]:
                assert "value" not in bid or bid["seat"] == seat


async def check_every_table(client: httpx.AsyncClient, match, game: str) -> None:
    engine = get_engine(game)
    public = as_json({k: v for k, v in engine.view(match.state, None).items() if k != "log"})
    for seat, user in enumerate(PLAYERS):
        table = (await client.get(f"/api/tables/{match.id}", headers=header(user))).json()
        own = {k: v for k, v in engine.view(match.state, seat).items() if k != "log"}
        assert table["view"] == as_json(own)  # exactly the seat's view: nothing more
        assert [card["card"] for card in table["hand"]] == sorted(own["hand"])
        legal = [list(a) for a in engine.legal_actions(match.state, seat)]
        assert sorted(c["action"] for c in table["choices"]) == sorted(legal)
        hidden_of_others(game, table, seat)
        for other in range(len(PLAYERS)):  # no other seat's secret is anywhere in it
            if other == seat:
                continue
            other_view = engine.view(match.state, other)
            for key in secrets_of(game, match.state, other):
                if key in table["view"]:
                    assert table["view"][key] != as_json(other_view[key]) or (
                        as_json(own.get(key)) == as_json(other_view[key])
                    ), (seat, other, key)
    watching = (await client.get(f"/api/tables/{match.id}", headers=header(CAROL))).json()
    assert watching["view"] == public and watching["seat"] is None
    # the drawn table a watcher gets: made of the public view alone
    names = Names.of([seat.name for seat in match.seats])
    to_act = sorted(engine.to_act(match.state))
    public_view = engine.view(match.state, None)
    drawn = as_json(
        card_table.drawn(game, translator("en"), public_view, None, names, to_act, False)
    )
    assert {key: watching[key] for key in drawn} == drawn
    assert "hand" not in watching and "choices" not in watching and watching["legal"] == []
    assert "hand" not in watching["view"]
    stranger = await client.get(f"/api/tables/{match.id}", headers=header(MALLORY))
    assert stranger.status_code == 404 and "view" not in stranger.text  # as if not there


@pytest.mark.parametrize("game", ["5211", "sultan", "donkey"])
async def test_every_table_served_at_every_step_holds_only_what_its_viewer_may_see(
    table_bot, unpaced, game
):
    match = await start(table_bot, game)
    engine = get_engine(game)
    steps = 0
    async with table_bot.client() as client:
        while match.status == "playing":
            await check_every_table(client, match, game)
            seat = min(engine.to_act(match.state))
            view, legal = engine.view(match.state, seat), engine.legal_actions(match.state, seat)
            action = choose(game, "normal", view, seat, legal, steps)
            body = {"action": list(action), "token": match.seats[seat].token}
            answer = await client.post(
                f"/api/tables/{match.id}/moves", json=body, headers=header(PLAYERS[seat])
            )
            assert answer.status_code == 200, answer.text
            # the watcher may not move, whatever it sends
            refused = await client.post(
                f"/api/tables/{match.id}/moves", json=body, headers=header(CAROL)
            )
            assert refused.status_code == 403
            await table_bot.driver.settle()
            match = await current_match(table_bot.driver)
            steps += 1
            assert steps < 500
    assert steps > 10
