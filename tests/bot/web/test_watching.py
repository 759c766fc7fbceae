"""Watching, replays and "my tables" in the table app: a member of the group opens a running
match from its board and sees the public view only; a finished match replays step by step
from its stored moves, public all through; the app's home lists a player's running tables in
every chat and their finished matches."""

from __future__ import annotations

import pytest

from bot.table.host import get_host
from games import get_engine
from tests.bot import play5211, play_azul
from tests.bot.conftest import ALICE, BOB, CAROL, GROUP, MALLORY
from tests.bot.handlers.test_inline import PAIR, open_table, stand_in, started
from tests.bot.helpers import current_match
from tests.bot.web.conftest import TableBot, header

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])


async def running_5211(bot: TableBot):
    await play5211.start_game(bot.driver, GROUP, ALICE, [ALICE, BOB])
    await bot.driver.settle()
    return await current_match(bot.driver)


async def finished_5211(bot: TableBot):
    await play5211.start_game(bot.driver, GROUP, ALICE, [ALICE, BOB])
    await play5211.play_to_the_end(bot.driver, [ALICE, BOB])
    await bot.driver.settle()
    match = await current_match(bot.driver)
    assert match.status == "finished"
    return match


async def test_the_group_board_offers_the_table_to_watch_and_the_private_chat_opens_it(
    table_bot,
):
    driver, api = table_bot.driver, table_bot.api
    match = await running_5211(table_bot)
    board = next(m for m in reversed(api.visible(GROUP)) if m.from_bot and m.buttons())
    watch = next(b for b in board.buttons() if b.get("text") == "🎲 The table")
    assert watch["url"] == f"https://t.me/{api.username}?start=w{match.id}"
    await driver.send(CAROL, CAROL.id, "/start")
    await driver.follow(CAROL, watch["url"])  # Carol, in the group, watches
    answer = api.last(CAROL.id)
    assert answer.text.startswith("🎲 5211 · Game Night")
    assert answer.buttons() == [
        {"text": "🎲 Open the table", "web_app": {"url": f"{table_bot.url}/app/?m={match.id}"}}
    ]
    await driver.send(MALLORY, MALLORY.id, "/start")
    await driver.follow(MALLORY, watch["url"])  # Mallory is not in the group
    assert api.last(MALLORY.id).text == "This table is not yours: only its players can open it."


async def test_a_watcher_reads_the_public_view_hears_it_live_and_cannot_move(table_bot):
    match = await running_5211(table_bot)
    engine = get_engine("5211")
    async with table_bot.client() as client:
        table = (await client.get(f"/api/tables/{match.id}", headers=header(CAROL))).json()
        seat = min(engine.to_act(match.state))
        legal = engine.legal_actions(match.state, seat)
        body = {"action": list(legal[0]), "token": match.seats[seat].token}
        moved = await client.post(f"/api/tables/{match.id}/moves", json=body, headers=header(CAROL))
        live = await client.get(f"/api/tables/{match.id}/live", headers=header(MALLORY))
    public = {k: v for k, v in engine.view(match.state, None).items() if k != "log"}
    assert table["seat"] is None and table["token"] is None and table["legal"] == []
    assert table["view"] == public and "hand" not in table
    assert table["texts"]["watching"] == "👀 Watching: only the players move."
    assert "board" not in table  # the table is drawn, not the group board's text
    assert table["centre"]["heading"].startswith("Round 1")  # the drawn table's words
    assert [seat["cards"] for seat in table["seats"]] == public["hand_sizes"]
    assert moved.status_code == 403 and moved.json()["error"] == "not_your_table"
    assert live.status_code == 404  # Mallory, not in the group: as if there were no table
    assert (await current_match(table_bot.driver)).version == match.version


async def test_nobody_but_its_players_opens_a_table_in_an_inline_message(table_bot):
    driver = table_bot.driver
    for user in (ALICE, BOB):
        await started(driver, user)
    await open_table(driver, "azul", ALICE, [BOB])
    await driver.settle()
    match = await current_match(driver, stand_in(PAIR))
    async with table_bot.client() as client:
        carol = await client.get(f"/api/tables/{match.id}", headers=header(CAROL))
        bob = await client.get(f"/api/tables/{match.id}", headers=header(BOB))
    assert carol.status_code == 404 and bob.status_code == 200


async def test_a_finished_match_replays_step_by_step_public_all_through(table_bot):
    match = await finished_5211(table_bot)
    engine = get_engine("5211")
    moves = await get_host(table_bot.driver.app).storage.moves(match.id)
    played = [(seat, action) for _, seat, action in moves if seat >= 0]
    async with table_bot.client() as client:
        summary = (await client.get(f"/api/replays/{match.id}", headers=header(CAROL))).json()
        assert summary["steps"] == len(played) + 1 and summary["result"]["scores"]
        state = engine.new_game(2, match.options, seed=match.state["seed"])
        for number in (0, 1, 2, len(played)):
            step = (
                await client.get(f"/api/replays/{match.id}/{number}", headers=header(ALICE))
            ).json()
            state = engine.new_game(2, match.options, seed=match.state["seed"])
            for seat, action in played[:number]:
                state = engine.apply(state, seat, tuple(int(n) for n in action.split(".")))
            public = {k: v for k, v in engine.view(state, None).items() if k != "log"}
            assert step["view"] == public and "hand" not in step["view"]  # what all saw
            assert step["step"] == number
        last = (
            await client.get(f"/api/replays/{match.id}/{len(played)}", headers=header(BOB))
        ).json()
        assert last["line"].startswith(f"{len(played)}. ")
        stranger = await client.get(f"/api/replays/{match.id}", headers=header(MALLORY))
        beyond = await client.get(
            f"/api/replays/{match.id}/{len(played) + 1}", headers=header(ALICE)
        )
    assert stranger.status_code == 404 and beyond.status_code == 404


async def test_a_running_match_does_not_replay(table_bot):
    match = await running_5211(table_bot)
    async with table_bot.client() as client:
        answer = await client.get(f"/api/replays/{match.id}", headers=header(ALICE))
    assert answer.status_code == 409


async def test_history_sends_the_replay_button_with_the_final_screen(table_bot):
    driver, api = table_bot.driver, table_bot.api
    match = await finished_5211(table_bot)
    await driver.send(CAROL, CAROL.id, "/start")
    await driver.send(CAROL, GROUP, "/history")
    await driver.press_label(CAROL, GROUP, f"#{match.id}")
    screen = next(m for m in reversed(api.visible(CAROL.id)) if m.buttons())
    assert screen.buttons() == [
        {"text": "▶️ Replay", "web_app": {"url": f"{table_bot.url}/app/?r={match.id}"}}
    ]


async def test_my_tables_lists_every_running_table_and_the_finished_matches(table_bot):
    finished = await finished_5211(table_bot)
    await play_azul.start_match(table_bot.driver, ALICE, [ALICE, BOB])
    await table_bot.driver.send(ALICE, ALICE.id, "/new sultan")  # practice, in private
    await table_bot.driver.press_label(ALICE, ALICE.id, "Start")
    await table_bot.driver.settle()
    async with table_bot.client() as client:
        home = (await client.get("/api/tables", headers=header(ALICE))).json()
    assert sorted(line["game"] for line in home["tables"]) == ["Azul", "Sultan"]
    (done,) = home["finished"]
    assert done["match"] == finished.id and done["game"] == "5211"
    assert {p["name"] for p in done["players"]} == {"Alice", "Bob"}
    assert any(p["winner"] for p in done["players"])


async def test_a_card_table_speaks_its_viewers_language(table_bot):
    from tests.bot.conftest import GIULIA, IVAN

    await play5211.start_game(table_bot.driver, GROUP, IVAN, [IVAN, GIULIA], lang="ru")
    await table_bot.driver.settle()
    match = await current_match(table_bot.driver)
    async with table_bot.client() as client:
        russian = (await client.get(f"/api/tables/{match.id}", headers=header(IVAN))).json()
        italian = (await client.get(f"/api/tables/{match.id}", headers=header(GIULIA))).json()
    assert russian["centre"]["heading"].startswith("Раунд 1")
    assert russian["texts"]["play"] == "Сыграть" and russian["now"].startswith("Выбери 2 карточки")
    assert (
        italian["centre"]["heading"].startswith("Round 1") and italian["texts"]["play"] == "Gioca"
    )
    assert italian["seats"][0]["label"].endswith("5 carte, 0 punti")
