"""A tournament's page in the table app (``?t=<id>``, ``GET /api/tournaments/<id>``): its
standings as the group's message ranks them, every round's tables opening live or as a
replay; for its entrants and its group's members only; the tournament message's link to
it through the private chat; and the page itself in a browser."""

from __future__ import annotations

from dataclasses import replace
from urllib.parse import quote

import pytest

from bot.presentation.i18n import translator
from bot.table.host import get_host
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, GROUP, MALLORY
from tests.bot.play5211 import choose, has_choice
from tests.bot.tournaments.test_in_a_group import (
    open_with,
    play_round,
    tournament_id,
    tournament_message,
)
from tests.bot.web.conftest import TableBot, header, launch_data, open_page
from tests.bot.web.table_checks import signed_links, targets, too_small

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])


async def running_swiss(bot: TableBot) -> int:
    """A Swiss of three 5211 players (a bye each round), its first round played."""
    driver = bot.driver
    await open_with(driver, ALICE, [ALICE, BOB, CAROL])
    await driver.press_label(ALICE, GROUP, "▶️ Start")
    tid = await tournament_id(driver)
    host = get_host(driver.app)
    for _ in range(400):  # round 1's table played to its end, and no further
        await host.tournaments.idle()
        if len((await host.storage.tournament(tid)).state.rounds) > 1:
            break
        waiting = [player for player in (ALICE, BOB, CAROL) if has_choice(driver, player)]
        assert waiting, "round 1 did not end"
        await choose(driver, waiting[0])
    await driver.settle()
    return tid


async def test_an_entrant_sees_standings_rounds_and_each_tables_match(table_bot):
    tid = await running_swiss(table_bot)
    stored = await get_host(table_bot.driver.app).storage.tournament(tid)
    async with table_bot.client() as client:
        answer = await client.get(f"/api/tournaments/{tid}", headers=header(BOB))
    assert answer.status_code == 200
    page = answer.json()
    assert page["title"] == "5211" and page["status"] == "running"
    assert page["round"] == 2 and page["rounds"] == 3 and page["format"] == "Swiss"
    # the standings as the group's message ranks them: everyone, ranked, Bob's row marked
    names = [row["name"] for row in page["standings"]]
    assert sorted(names) == ["Alice", "Bob", "Carol"]
    assert [row["me"] for row in page["standings"]] == [name == "Bob" for name in names]
    # its columns the message's: points, then the tie-breaks in the creator's order, named
    assert page["columns"] == ["Points", "Buchholz", "Sonneborn–Berger", "game points"]
    message = tournament_message(table_bot.driver).text
    assert "(points · Buchholz · Sonneborn–Berger · game points)" in message
    for row in page["standings"]:
        assert len(row["cells"]) == 4
        assert f"{row['rank']}. {row['name']} — {' · '.join(row['cells'])}" in message
    # round 1 done (its table replays), round 2 playing (its table opens live)
    first, second = page["played"]
    done, playing = first["tables"][0], second["tables"][0]
    assert done["done"] and done["match"] == stored.matches[(1, 0)]
    assert sorted(seat["place"] for seat in done["players"]) in ([1, 2], [1, 1])
    assert all(seat["points"] in ("1", "0", "½") for seat in done["players"])
    assert not done["live"] and playing["live"]
    assert not playing["done"] and playing["match"] == stored.matches[(2, 0)]
    assert all(seat["place"] is None for seat in playing["players"])
    assert len(first["byes"]) == 1 and first["byes"][0]["kind"] == "full"
    assert page["texts"]["replay"] == "▶️ Replay"
    # the rules the standings follow, as the group's message publishes them, in plain text
    assert page["notes"] == [
        "Points: a win 1, a draw ½, a bye 1.",
        "Ties: Buchholz, then Sonneborn–Berger, then game points.",
    ]
    assert all(note in message for note in page["notes"])


async def test_a_member_of_the_group_sees_it_in_their_language(table_bot):
    tid = await running_swiss(table_bot)
    italian = replace(DAVE, language_code="it")
    async with table_bot.client() as client:
        answer = await client.get(f"/api/tournaments/{tid}", headers=header(italian))
    assert answer.status_code == 200  # Dave is in the group, not in the tournament
    page = answer.json()
    assert page["texts"]["standings"] == "Classifica"
    assert page["columns"] == ["Punti", "Buchholz", "Sonneborn–Berger", "punti di gioco"]
    assert not any(row["me"] for row in page["standings"])


async def test_a_stranger_and_an_unknown_tournament_get_the_same_answer(table_bot):
    """A stranger cannot tell a tournament that exists from one that does not: the same
    status, body and headers (but the date), so its ids cannot be enumerated."""
    tid = await running_swiss(table_bot)
    async with table_bot.client() as client:
        stranger = await client.get(f"/api/tournaments/{tid}", headers=header(MALLORY))
        unknown = await client.get(f"/api/tournaments/{tid + 99}", headers=header(MALLORY))
        unsigned = await client.get(f"/api/tournaments/{tid}")
    assert stranger.status_code == unknown.status_code == 404
    assert stranger.content == unknown.content
    assert stranger.json() == {
        "error": "no_tournament",
        "message": translator("en")("tournament.page.unseen"),
    }

    def headers(answer) -> dict:
        return {name: value for name, value in answer.headers.items() if name != "date"}

    assert headers(stranger) == headers(unknown)
    assert unsigned.status_code == 401


async def test_the_tournament_message_links_its_page_through_the_private_chat(table_bot):
    driver, api = table_bot.driver, table_bot.api
    tid = await running_swiss(table_bot)
    message = tournament_message(driver)
    link = f"https://t.me/{api.username}?start=p{tid}"
    assert link in message.html and "🏆 Tournament page" in message.text
    await driver.send(DAVE, DAVE.id, "/start")
    await driver.follow(DAVE, link)  # a member of the group
    assert api.last(DAVE.id).buttons() == [
        {"text": "🏆 Open the tournament", "web_app": {"url": f"{table_bot.url}/app/?t={tid}"}}
    ]
    await driver.send(MALLORY, MALLORY.id, "/start")
    await driver.follow(MALLORY, link)
    assert api.last(MALLORY.id).text == (
        "This tournament is for its players and the members of its group."
    )


async def test_the_page_shows_the_standings_and_opens_a_table(table_bot, chromium):
    tid = await running_swiss(table_bot)
    stored = await get_host(table_bot.driver.app).storage.tournament(tid)
    url = f"{table_bot.url}/app/?t={tid}#tgWebAppData={quote(launch_data(ALICE))}"
    page = await open_page(chromium, url)
    await page.locator("table.standings").wait_for()
    rows = await page.locator("table.standings tbody tr").all_inner_texts()
    assert len(rows) == 3 and any("Alice" in row for row in rows)
    # rank, player, points and the three tie-breaks in their order, each row filled
    heads = await page.locator("table.standings thead th").all_inner_texts()
    assert len(heads) == 6 and heads[2:4] == ["Points", "Buchholz"]
    assert heads[4] == "Sonneborn–Berger"
    assert await page.locator("table.standings tbody tr:first-child td").count() == 5
    notes = await page.locator(".tournament-note").all_inner_texts()
    assert notes[1] == "Ties: Buchholz, then Sonneborn–Berger, then game points."
    assert await page.locator("h2", has_text="Standings").count() == 1
    # the current round is open first; its table opens live, round 1's replays
    live = page.locator(f'a.table-link[data-match="{stored.matches[(2, 0)]}"]')
    assert await live.get_attribute("aria-label") == "🎲 Open the table: Table 1"
    assert (await live.get_attribute("href")).startswith(f"?m={stored.matches[(2, 0)]}")
    replay = page.locator(f'a.table-link[data-match="{stored.matches[(1, 0)]}"]')
    assert (await replay.get_attribute("href")).startswith(f"?r={stored.matches[(1, 0)]}")
    # no sideways scroll on a phone; every link and button a thumb's size; no link signed
    assert await page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    await page.set_viewport_size({"width": 360, "height": 740})
    assert too_small(await targets(page)) == []
    assert await signed_links(page) == []
    await live.click()
    await page.wait_for_url(f"**/app/?m={stored.matches[(2, 0)]}*")
    await page.locator(".seats").first.wait_for()  # the table drawn
    # the home links the tournament the player is in
    home = await open_page(chromium, table_bot.page_url(ALICE))
    link = home.locator(f"a.tournament-line[href='?t={tid}']")
    await link.wait_for()
    assert "🏆" in await link.inner_text()
    await link.click()
    await home.locator("table.standings").wait_for()
    assert page.errors == [] and home.errors == []


async def test_a_finished_tournament_table_offers_no_rematch(table_bot):
    """The chat offers no rematch of a tournament's table (the tournament pairs the next):
    nor does the app's end screen, and its route refuses one."""
    tid = await running_swiss(table_bot)
    stored = await get_host(table_bot.driver.app).storage.tournament(tid)
    match = await get_host(table_bot.driver.app).storage.load(stored.matches[(1, 0)])
    player = next(u for u in (ALICE, BOB, CAROL) if match.seat_of(u.id) is not None)
    async with table_bot.client() as client:
        table = await client.get(f"/api/tables/{match.id}", headers=header(player))
        again = await client.post(f"/api/tables/{match.id}/rematch", headers=header(player))
    assert table.json()["status"] == "finished" and table.json()["rematch"] is False
    assert again.status_code == 409


async def test_with_the_main_app_the_link_opens_the_page_over_the_group(main_app_bot, chromium):
    bot = main_app_bot
    tid = await running_swiss(bot)
    link = f"https://t.me/{bot.api.username}?startapp=t{tid}"
    assert link in tournament_message(bot.driver).html
    page = await open_page(chromium, bot.main_app_url(CAROL, f"t{tid}"))
    await page.locator("table.standings").wait_for()
    assert await page.locator("table.standings tbody tr").count() == 3
    # a stranger who follows it is refused by the tournament's own route
    stranger = await open_page(chromium, bot.main_app_url(MALLORY, f"t{tid}"))
    status = stranger.locator("#status")
    await status.filter(has_text="members of its group").wait_for()
    assert await stranger.locator("table.standings").count() == 0
    assert page.errors == [] and stranger.errors == []


async def test_a_cancelled_tournament_keeps_its_page_and_its_tables_replay(table_bot):
    tid = await running_swiss(table_bot)
    host = get_host(table_bot.driver.app)
    stopped = (await host.storage.tournament(tid)).matches[(2, 0)]
    assert await host.tournaments.cancel(tid)
    await host.tournaments.idle()
    async with table_bot.client() as client:
        page = (await client.get(f"/api/tournaments/{tid}", headers=header(ALICE))).json()
        replay = await client.get(f"/api/replays/{stopped}", headers=header(ALICE))
    assert page["status"] == "cancelled" and page["status_text"] == "Cancelled"
    table = page["played"][1]["tables"][0]
    assert table["match"] == stopped and not table["done"] and not table["live"]
    assert replay.status_code == 200  # the page's link to it (?r=) opens


async def test_a_round_robin_shows_its_own_tie_breaks_order(table_bot):
    """A round robin breaks ties by Sonneborn–Berger first: the page's columns follow."""
    driver = table_bot.driver
    await open_with(driver, ALICE, [ALICE, BOB, CAROL])
    await driver.press_label(ALICE, GROUP, "Swiss")  # → round robin
    await driver.press_label(ALICE, GROUP, "▶️ Start")
    tid = await tournament_id(driver)
    await play_round(driver, [ALICE, BOB, CAROL])
    await get_host(driver.app).tournaments.idle()
    await driver.settle()
    async with table_bot.client() as client:
        page = (await client.get(f"/api/tournaments/{tid}", headers=header(CAROL))).json()
    assert page["format"] == "Round robin" and page["status"] == "finished"
    assert page["columns"] == ["Points", "Sonneborn–Berger", "Buchholz", "game points"]
    message = tournament_message(driver).text
    assert "(points · Sonneborn–Berger · Buchholz · game points)" in message
    assert [row["rank"] for row in page["standings"]] == sorted(
        row["rank"] for row in page["standings"]
    )
    for row in page["standings"]:
        assert f"{row['rank']}. {row['name']} — {' · '.join(row['cells'])}" in message
    assert page["notes"][1] == "Ties: Sonneborn–Berger, then Buchholz, then game points."


async def elimination_with_a_bot(bot: TableBot) -> int:
    """Alice and Bob with a bot at one table of three: an elimination's final."""
    driver = bot.driver
    await open_with(driver, ALICE, [ALICE])
    await driver.press_label(ALICE, GROUP, "Swiss")  # → round robin
    await driver.press_label(ALICE, GROUP, "Tables of 2")  # tables of 3: back to Swiss
    await driver.press_label(ALICE, GROUP, "Swiss")  # → elimination
    await driver.press_label(ALICE, GROUP, "Fill with bots: off")
    await driver.press_label(BOB, GROUP, "Join")
    await driver.press_label(ALICE, GROUP, "▶️ Start")
    return await tournament_id(driver)


async def test_an_elimination_shows_its_own_columns_and_no_bot(table_bot):
    driver = table_bot.driver
    tid = await elimination_with_a_bot(table_bot)

    async def page_of(user) -> dict:
        async with table_bot.client() as client:
            return (await client.get(f"/api/tournaments/{tid}", headers=header(user))).json()

    page = await page_of(ALICE)
    assert page["format"].startswith("Elimination")
    assert page["columns"] == ["Round reached", "Place at the table", "Goes on or out"]
    # the bot took a seat at the table, but is no entrant: no row of its own
    assert sorted(row["name"] for row in page["standings"]) == ["Alice", "Bob"]
    assert any(seat["name"].startswith("🤖") for seat in page["played"][0]["tables"][0]["players"])
    assert [row["cells"] for row in page["standings"]] == [["1", "–", "playing"]] * 2
    assert page["notes"][-1] == (
        "🤖 Bots sat at: round 1, table 1. They fill seats and rank nowhere."
    )
    assert page["notes"][0].startswith("The top 1 of each table goes on")
    await play_round(driver, [ALICE, BOB])
    await get_host(driver.app).tournaments.idle()
    await driver.settle()
    page = await page_of(BOB)
    assert page["status"] == "finished"
    first, second = page["standings"]
    stored = await get_host(driver.app).storage.tournament(tid)
    places = dict(zip(stored.state.rounds[0].tables[0].players,
                      stored.state.rounds[0].tables[0].places, strict=True))  # fmt: skip
    humans = sorted((place, player) for player, place in places.items() if player > 0)
    # the message's words, apart: the final's places at the table, the winner named
    for row, (place, _) in zip((first, second), humans, strict=True):
        assert row["cells"][:2] == ["1", str(place)]
    assert first["cells"][2] in ("the winner 🏆", "final")
    assert second["cells"][2] == "final"
    message = tournament_message(driver).text
    assert "(round reached · place at the table)" in message
    # in each language, the catalogue's words
    russian = replace(CAROL, language_code="ru")
    async with table_bot.client() as client:
        ru = (await client.get(f"/api/tournaments/{tid}", headers=header(russian))).json()
    assert ru["columns"] == ["Последний тур", "Место за столом", "Итог"]
    assert ru["standings"][1]["cells"][2] == "финал"
