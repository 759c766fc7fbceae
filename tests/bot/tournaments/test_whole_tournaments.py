"""Whole tournaments a group plays, through the real Application and the fake Bot API, to
their podium: the lobby set up by its buttons, everyone joining by the deep link, every
table's match played move by move through the bot (each seat's first legal move), the
standings and the podium read as the group sees them."""

from __future__ import annotations

import threading
from collections import Counter

import pytest

from bot.table.host import get_host
from bot.testing.driver import Driver, FakeUser
from bot.tournaments.formats import FORMATS
from bot.tournaments.model import ByeKind
from games import get_engine
from tests.bot.conftest import GROUP

T = "🏆"


def people(count: int) -> list[FakeUser]:
    return [FakeUser(5000 + n, f"Player{n}") for n in range(1, count + 1)]


def tournament_message(driver: Driver):
    for message in reversed(driver.api.visible(GROUP)):
        if message.text.startswith(f"{T} Tournament:"):
            return message
    raise AssertionError("no tournament message")


async def set_up(driver: Driver, game: str, field: list[FakeUser], presses: list[str]) -> int:
    """The first person opens the lobby and presses its buttons; everyone joins by the link."""
    await driver.send(field[0], GROUP, f"/tournament {game}")
    host = get_host(driver.app)
    tournament_id = await host.storage.active_tournament(GROUP)
    for label in presses:
        await driver.press_label(field[0], GROUP, label)
    for person in field:
        await driver.send(person, person.id, f"/start t{tournament_id}")
    return tournament_id


async def play_to_the_podium(driver: Driver, tournament_id: int) -> None:
    """Every table's match played to its end, round after round, until the tournament ends
    (the humans' moves through the bot; AI seats play their own)."""
    host = get_host(driver.app)
    for _ in range(10_000):
        await host.tournaments.idle()
        await driver.settle()
        stored = await host.storage.tournament(tournament_id)
        if stored.status != "running":
            return
        engine = get_engine(stored.game)
        moved = False
        for match_id in sorted(stored.matches.values()):
            async with host.lock(match_id):
                match = await host.storage.load(match_id)
                if match is None or match.status != "playing":
                    continue
                humans = [s for s in engine.to_act(match.state) if not match.seats[s].is_ai]
                if not humans:
                    continue
                seat = min(humans)
                action = engine.legal_actions(match.state, seat)[0]
                await host.play(match, match.seats[seat], action)
                moved = True
        if not moved:
            await driver.settle()
    raise AssertionError("the tournament did not end")


def group_texts(driver: Driver) -> list[str]:
    return [message.text for message in driver.api.visible(GROUP)]


async def test_a_seven_player_sultan_swiss_at_tables_of_four_seats_everyone(driver: Driver):
    field = people(7)
    tid = await set_up(driver, "sultan", field, ["Tables of 2", "Tables of 3"])
    assert "Tables of 4" in tournament_message(driver).text
    await driver.press_label(field[0], GROUP, "▶️ Start")
    await play_to_the_podium(driver, tid)
    stored = await get_host(driver.app).storage.tournament(tid)
    assert stored.status == "finished" and len(stored.state.rounds) == 3
    for round_ in stored.state.rounds:
        # every round two tables, 4 + 3, and nobody sits out
        assert sorted(len(t.players) for t in round_.tables) == [3, 4] and not round_.byes
    # the winner of the 3-table earns what the winner of the 4-table earns
    first = stored.state.rounds[0]
    assert all(table.places.count(1) >= 1 for table in first.tables)
    message = tournament_message(driver).text
    assert "Final standings" in message and "Bye" not in message
    assert "12 for 1st and 0 for last at every table" in message  # the rule, published
    assert "Ties: Buchholz, then Sonneborn–Berger, then game points." in message
    podium = [text for text in group_texts(driver) if "the tournament is over" in text]
    assert len(podium) == 1 and "🥇" in podium[0]


async def test_a_nine_player_donkey_elimination_at_tables_of_five(driver: Driver):
    field = people(9)
    presses = ["Tables of 3", "Tables of 4", "Swiss"]  # tables of 5, then elimination
    tid = await set_up(driver, "donkey", field, presses)
    lobby = tournament_message(driver).text
    assert "Tables of 5" in lobby and "Elimination" in lobby
    await driver.press_label(field[0], GROUP, "▶️ Start")
    stored = await get_host(driver.app).storage.tournament(tid)
    first = stored.state.rounds[0]
    # 9 at tables of 5: 5 + 4, nobody passes; the seeds (all newcomers: order of joining)
    # snake over the tables
    assert [len(t.players) for t in first.tables] == [5, 4] and not first.byes
    await play_to_the_podium(driver, tid)
    stored = await get_host(driver.app).storage.tournament(tid)
    assert stored.status == "finished"
    rounds = stored.state.rounds
    final = rounds[-1]
    assert len(final.tables) == 1 and not final.byes
    played_first = {p for table in rounds[0].tables for p in table.players}
    # no one reaches the final without playing
    assert set(final.tables[0].players) <= played_first
    assert not any(b.kind is ByeKind.ADVANCE for r in rounds for b in r.byes)
    message = tournament_message(driver).text
    assert "round reached · place at the table" in message
    assert "final: place 1, the winner" in message and "out" in message
    assert "Buchholz ·" not in message  # an elimination's own columns, not a Swiss's
    podium = [text for text in group_texts(driver) if "the tournament is over" in text]
    assert len(podium) == 1


async def test_four_players_with_bots_at_tables_of_three(driver: Driver):
    field = people(4)
    tid = await set_up(driver, "5211", field, ["Tables of 2", "Fill with bots: off"])
    await driver.press_label(field[0], GROUP, "▶️ Start")
    stored = await get_host(driver.app).storage.tournament(tid)
    # two tables of 3: two people and a bot each
    first = stored.state.rounds[0]
    assert [sum(p > 0 for p in t.players) for t in first.tables] == [2, 2]
    assert all(len(t.players) == 3 for t in first.tables)
    await play_to_the_podium(driver, tid)
    stored = await get_host(driver.app).storage.tournament(tid)
    assert stored.status == "finished"
    assert [e.player for e in stored.state.entrants] == [p.id for p in field]
    message = tournament_message(driver).text
    standings = message.split("Standings")[1].split("Points:")[0]
    assert "Bot" not in standings, "no bot in the standings"
    assert all(person.first_name in standings for person in field)
    assert "🤖 Bots sat at: round 1, table 1; round 1, table 2" in message
    (podium,) = [text for text in group_texts(driver) if "the tournament is over" in text]
    assert "Bot" not in podium and podium.count("— ") == 3
    assert await get_host(driver.app).storage.leaderboard("5211", GROUP) == []  # unrated


async def test_each_round_is_paired_once_and_never_on_the_event_loop(
    driver: Driver, monkeypatch: pytest.MonkeyPatch
):
    """The service asks ``is_over`` on the loop (it pairs nothing) and pairs in its pairing
    worker (a thread here, as ``AI_WORKERS=0`` runs it): each round's pairing runs once, and
    none on the loop's thread."""
    pairings: Counter[int] = Counter()
    on_the_loop: list[int] = []
    for tournament_format in FORMATS.values():
        pair = tournament_format.next_round

        def counted(tournament, pair=pair):
            number = len(tournament.rounds) + 1
            pairings[number] += 1
            if threading.current_thread() is threading.main_thread():
                on_the_loop.append(number)
            return pair(tournament)

        monkeypatch.setattr(tournament_format, "next_round", counted)
    field = people(7)
    tid = await set_up(driver, "sultan", field, ["Tables of 2", "Tables of 3"])
    await driver.press_label(field[0], GROUP, "▶️ Start")
    await play_to_the_podium(driver, tid)
    stored = await get_host(driver.app).storage.tournament(tid)
    assert stored.status == "finished" and len(stored.state.rounds) == 3
    # rounds 1–3 paired once each; after the third, is_over ends it without a fourth pairing
    assert pairings == Counter({1: 1, 2: 1, 3: 1})
    assert on_the_loop == []
