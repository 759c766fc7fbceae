"""Tournaments through the real Application and the fake Bot API: a lobby in a group, entries
by deep link, rounds of ordinary 5211 matches played from the private prompts, standings kept
in one message, pairings and the podium; no-shows, late entries, withdrawals, a restart."""

from __future__ import annotations

import pytest

from bot.table.host import get_host
from bot.testing.driver import Driver, FakeUser
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, GROUP, MALLORY, OTHER_GROUP, running_bot
from tests.bot.play5211 import choose, has_choice

T = "🏆"


def host(driver: Driver):
    return get_host(driver.app)


async def tournament_id(driver: Driver) -> int:
    found = await host(driver).storage.active_tournament(GROUP)
    assert found is not None
    return found


async def stored(driver: Driver):
    return await host(driver).storage.tournament(await tournament_id(driver))


def tournament_message(driver: Driver):
    """The tournament's one message in the group (the latest that shows its standings or
    its lobby)."""
    for message in reversed(driver.api.visible(GROUP)):
        if message.text.startswith(f"{T} Tournament:"):
            return message
    raise AssertionError("no tournament message")


def texts(driver: Driver, chat: int) -> list[str]:
    return [message.text for message in driver.api.visible(chat)]


async def open_with(driver: Driver, creator: FakeUser, players: list[FakeUser]) -> None:
    """The creator opens the lobby; the players (the creator among them, if listed) join by
    the deep link, which opens their private chat."""
    await driver.send(creator, GROUP, "/tournament 5211")
    for player in players:
        await driver.press_label(player, GROUP, "Join")


async def play_round(driver: Driver, players: list[FakeUser]) -> None:
    """Everyone with a choice chooses until no match of the round waits."""
    for _ in range(400):
        waiting = [player for player in players if has_choice(driver, player)]
        if not waiting:
            return
        for player in waiting:
            await choose(driver, player)
    raise AssertionError("the round did not end")


async def test_a_swiss_of_three_from_lobby_to_podium(driver: Driver, api):
    await open_with(driver, ALICE, [ALICE, BOB, CAROL])
    lobby = tournament_message(driver)
    assert "Swiss" in lobby.text and "Players (3)" in lobby.text
    assert all(name in lobby.text for name in ("Alice", "Bob", "Carol"))
    assert api.last(BOB.id).text.startswith("✅ You are in the 5211 tournament")
    # two rounds
    await driver.press_label(ALICE, GROUP, "Rounds: 3")  # 3 → 4 → … → 2
    for _ in range(4):
        await driver.press_label(ALICE, GROUP, "Rounds:")
    assert "Rounds: 2" in tournament_message(driver).text
    # a stranger cannot start it; its creator can
    assert await driver.press_label(MALLORY, GROUP, "▶️ Start") == (
        "Only its creator or an admin can do that."
    )
    assert await driver.press_label(ALICE, GROUP, "▶️ Start") == "The tournament has started!"
    pairings = [
        text for text in texts(driver, GROUP) if "Round 1 of 2" in text and "tables" in text
    ]
    assert len(pairings) == 1 and "Bye:" in pairings[0]
    state = (await stored(driver)).state
    assert len(state.rounds[0].tables) == 1 and len(state.rounds[0].byes) == 1
    # no board of the match in the group: only the tournament's messages
    assert not any("part 1 of" in text for text in texts(driver, GROUP))
    await play_round(driver, [ALICE, BOB, CAROL])
    assert any("Round 2 of 2" in text for text in texts(driver, GROUP))
    await play_round(driver, [ALICE, BOB, CAROL])
    podium = [text for text in texts(driver, GROUP) if "the tournament is over" in text]
    assert len(podium) == 1 and "🥇" in podium[0]
    message = tournament_message(driver)
    assert "Final standings" in message.text and "Buchholz" in message.text
    assert "Tournament page" not in message.text  # no table app: no page to link
    assert await host(driver).storage.active_tournament(GROUP) is None
    # its games count in the group's ratings like any rated match
    assert len(await host(driver).storage.leaderboard("5211", GROUP)) == 3


async def test_the_lobby_answers_strangers_stale_presses_and_leaving(driver: Driver, api):
    await open_with(driver, ALICE, [ALICE, BOB])
    lobby = tournament_message(driver)
    # a stranger may not change it or cancel it, and cannot leave what they are not in
    for label in ("Swiss", "Tables of", "✖️ Cancel"):
        assert await driver.press_label(MALLORY, GROUP, label, lobby.message_id) == (
            "Only its creator or an admin can do that."
        )
    assert await driver.press_label(MALLORY, GROUP, "Leave") == "You are not in this tournament."
    assert await driver.press_label(BOB, GROUP, "Leave") == "You are out of the tournament."
    assert "Players (1)" in tournament_message(driver).text
    # one player is no tournament
    answer = await driver.press_label(ALICE, GROUP, "▶️ Start")
    assert answer == "A tournament needs at least two players."
    await driver.press_label(BOB, GROUP, "Join")
    data = next(b["callback_data"] for b in lobby.buttons() if b["text"].endswith("Leave"))
    await driver.press_label(ALICE, GROUP, "▶️ Start")
    # the lobby's buttons after the start are stale
    assert await driver.press(BOB, GROUP, lobby.message_id, data) == (
        "This tournament is no longer open."
    )
    # a second /tournament shows the running one again, at the bottom
    await driver.send(CAROL, GROUP, "/tournament")
    assert api.visible(GROUP)[-1].text.startswith(f"{T} Tournament: 5211")
    assert "Round 1 of 3" in api.visible(GROUP)[-1].text
    # forged data from another chat changes nothing
    tid = await tournament_id(driver)
    assert await driver.press(ALICE, OTHER_GROUP, 1, f"tn:{tid}:0:start") == (
        "This button is not valid."
    )


async def test_the_games_own_options_are_chosen_in_the_lobby(driver: Driver, api):
    await open_with(driver, ALICE, [ALICE, BOB])
    assert "Length: one game" in tournament_message(driver).text
    await driver.press_label(ALICE, GROUP, "Length: one game")
    assert "Length: one game" not in tournament_message(driver).text
    tid = await tournament_id(driver)
    assert await driver.press(
        ALICE, GROUP, tournament_message(driver).message_id, f"tn:{tid}:0:o.nonsense"
    ) == ("This button is not valid.")
    await driver.press_label(ALICE, GROUP, "▶️ Start")
    stored_now = await stored(driver)
    match = await host(driver).storage.load(stored_now.matches[(1, 0)])
    assert match.options == stored_now.options and match.options["match_target"] == 50


async def test_options_cycle_to_round_robin_and_fill_with_bots(driver: Driver, api):
    await open_with(driver, ALICE, [ALICE])
    await driver.press_label(ALICE, GROUP, "Swiss")
    assert "Round robin" in tournament_message(driver).text
    await driver.press_label(ALICE, GROUP, "Tables of 2")  # 3 a table: back to Swiss
    text = tournament_message(driver).text
    assert "Tables of 3" in text and "Swiss" in text
    await driver.press_label(ALICE, GROUP, "Swiss")
    assert "Elimination" in tournament_message(driver).text
    await driver.press_label(ALICE, GROUP, "Fill with bots: off")
    assert "with bots, not rated" in tournament_message(driver).text
    await driver.press_label(BOB, GROUP, "Join")
    await driver.press_label(ALICE, GROUP, "▶️ Start")
    state = (await stored(driver)).state
    # two people and a bot make the one table of three: the final; the bot is no entrant
    assert [e.player for e in state.entrants] == [ALICE.id, BOB.id]
    assert len(state.rounds[0].tables) == 1 and len(state.rounds[0].tables[0].players) == 3
    assert sum(player < 0 for player in state.rounds[0].tables[0].players) == 1
    await play_round(driver, [ALICE, BOB])
    assert any("the tournament is over" in text for text in texts(driver, GROUP))


async def test_a_late_join_a_withdrawal_and_a_cancel(driver: Driver, api):
    await open_with(driver, ALICE, [ALICE, BOB, CAROL])
    await driver.press_label(ALICE, GROUP, "▶️ Start")
    # Dave enters late, by the message's own button: half a point for round 1
    await driver.press_label(DAVE, GROUP, "Join late")
    assert "from the next round" in api.last(DAVE.id).text
    assert (await stored(driver)).state.entrant(DAVE.id).late_rounds == 1
    # Carol withdraws from her private chat
    await driver.send(CAROL, CAROL.id, "/tournament")
    await driver.press_label(CAROL, CAROL.id, "Withdraw from the 5211 tournament")
    assert "autopilot" in api.last(CAROL.id).text
    assert (await stored(driver)).state.entrant(CAROL.id).withdrawn_after == 1
    assert "<s>Carol</s> 🏳️" in tournament_message(driver).html  # struck out of the standings
    # only its creator or an admin cancels it, after a confirmation
    await driver.send(BOB, GROUP, "/tournament cancel")
    assert api.visible(GROUP)[-1].text == "Only its creator or an admin can do that."
    await driver.send(ALICE, GROUP, "/tournament cancel")
    await driver.press_label(ALICE, GROUP, "No, keep playing")
    assert api.visible(GROUP)[-1].text == "▶️ The tournament goes on."
    await driver.send(ALICE, GROUP, "/tournament cancel")
    await driver.press_label(ALICE, GROUP, "Yes, cancel it")
    assert api.visible(GROUP)[-1].text.startswith("✖️ The tournament was cancelled")
    assert await host(driver).storage.active_tournament(GROUP) is None
    # the running match stopped, its players told
    stopped = "⏹ 🏆 Tournament, round 1, table 1: the tournament was cancelled"
    for player in (ALICE, BOB):  # the two at the table of round 1
        assert any(m.text.startswith(stopped) for m in api.visible(player.id))


async def test_a_no_show_is_withdrawn_after_the_match(driver: Driver, api):
    await open_with(driver, ALICE, [ALICE, BOB])
    await driver.press_label(ALICE, GROUP, "▶️ Start")
    bot = host(driver)
    first = (await stored(driver)).matches[(1, 0)]
    now = bot.clock()
    # Bob never moves: his deadlines pass one after another; Alice plays every move
    for _ in range(300):
        if (await bot.storage.load(first)).status == "finished":
            break
        if has_choice(driver, ALICE):
            await choose(driver, ALICE)
        now += 200  # past the 3-minute clock
        bot.clock = lambda now=now: now
        await bot.timers.sweep(now)
        await driver.settle()
    assert any("missed their moves twice in a row" in text for text in texts(driver, GROUP))
    state = (await bot.storage.tournament(await last_tournament(driver))).state
    assert state.entrant(BOB.id).withdrawn_after == 1
    assert state.entrant(ALICE.id).withdrawn_after is None
    # alone in the field, Alice wins it: no round 2 against nobody
    assert len(state.rounds) == 1
    assert any("the tournament is over" in text for text in texts(driver, GROUP))


async def last_tournament(driver: Driver) -> int:
    rows = await host(driver).storage._rows("SELECT MAX(id) FROM tournaments")
    return rows[0][0]


async def test_leaving_the_group_or_blocking_the_bot_withdraws(driver: Driver, api):
    await open_with(driver, ALICE, [ALICE, BOB, CAROL])
    await driver.press_label(ALICE, GROUP, "▶️ Start")
    left = driver.message_update(BOB, GROUP, "")
    left["message"].pop("text", None)
    left["message"]["left_chat_member"] = BOB.as_dict()
    await driver.feed(left)
    await driver.feed(driver.membership_update(CAROL, CAROL.id, "member", "kicked"))
    state = (await stored(driver)).state
    assert state.entrant(BOB.id).withdrawn_after == 1
    assert state.entrant(CAROL.id).withdrawn_after == 1
    assert state.entrant(ALICE.id).withdrawn_after is None
    # Bob's game goes on with autopilot: Alice plays it to its end, and wins the tournament
    match = await host(driver).storage.load((await stored(driver)).matches[(1, 0)])
    assert match.seat_of(BOB.id).autopilot
    await play_round(driver, [ALICE])
    assert (await host(driver).storage.load(match.id)).status == "finished"
    assert not any("missed their moves" in text for text in texts(driver, GROUP))
    podium = [text for text in texts(driver, GROUP) if "the tournament is over" in text]
    assert len(podium) == 1


async def test_a_restart_in_the_middle_of_a_round_loses_nothing(api, database):
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        await open_with(driver, ALICE, [ALICE, BOB, CAROL, DAVE])
        await driver.press_label(ALICE, GROUP, "▶️ Start")
        before = await stored(driver)
        # one table ends before the restart, the other goes on after it
        first = before.state.rounds[0].tables[0].players
        players = [p for p in (ALICE, BOB, CAROL, DAVE) if p.id in first]
        await play_round(driver, players)
    async with running_bot(api, database) as driver:
        after = await stored(driver)
        assert after.state.rounds[0].tables[0].finished
        assert after.matches == before.matches  # no table opened twice
        await play_round(driver, [ALICE, BOB, CAROL, DAVE])
        assert any("the tournament is over" in text for text in texts(driver, GROUP))
        done = await driver.app.bot_data["host"].storage.tournament(before.id)
        assert done.status == "finished" and len(done.state.rounds) == 3


async def test_a_tournament_with_bots_rates_nobody(driver: Driver, api):
    await open_with(driver, ALICE, [ALICE, BOB, CAROL])
    await driver.press_label(ALICE, GROUP, "Fill with bots: off")
    await driver.press_label(ALICE, GROUP, "Rounds: 3")  # 4
    for _ in range(4):
        await driver.press_label(ALICE, GROUP, "Rounds:")  # 5, 6, 7, 2
    await driver.press_label(ALICE, GROUP, "▶️ Start")
    state = (await stored(driver)).state
    # three people and a bot: two tables, no bye
    assert len(state.rounds[0].tables) == 2 and not state.rounds[0].byes
    await play_round(driver, [ALICE, BOB, CAROL])
    assert any("the tournament is over" in text for text in texts(driver, GROUP))
    assert await host(driver).storage.leaderboard("5211", GROUP) == []


async def test_a_timed_start_and_one_short_of_players(driver: Driver, api):
    bot = host(driver)
    await open_with(driver, ALICE, [ALICE, BOB])
    await driver.press_label(ALICE, GROUP, "Start time: by hand")  # in 15 minutes
    assert "It starts in 15 minutes" in tournament_message(driver).text
    now = bot.clock()
    await bot.tournaments.start_due(now + 60)  # not yet
    assert (await stored(driver)).status == "lobby"
    await bot.tournaments.start_due(now + 15 * 60 + 1)
    await driver.settle()
    assert (await stored(driver)).status == "running"
    assert any("Round 1 of 3" in text for text in texts(driver, GROUP))


async def test_a_timed_start_without_enough_players_cancels_it(driver: Driver, api):
    bot = host(driver)
    await open_with(driver, ALICE, [ALICE])
    await driver.press_label(ALICE, GROUP, "Start time: by hand")
    tid = await tournament_id(driver)
    await bot.tournaments.start_due(bot.clock() + 15 * 60 + 1)
    await driver.settle()
    assert (await bot.storage.tournament(tid)).status == "cancelled"
    assert any(
        text == "The tournament did not start at its time: A tournament needs at least two players."
        for text in texts(driver, GROUP)
    )


async def test_a_round_robin_of_three_through_the_bot(driver: Driver, api):
    await open_with(driver, ALICE, [ALICE, BOB, CAROL])
    await driver.press_label(ALICE, GROUP, "Swiss")
    await driver.press_label(ALICE, GROUP, "▶️ Start")
    await play_round(driver, [ALICE, BOB, CAROL])
    done = await bot_tournament(driver)
    assert done.status == "finished" and len(done.state.rounds) == 3
    met = {frozenset(t.players) for r in done.state.rounds for t in r.tables}
    assert met == {frozenset((a.id, b.id)) for a, b in ((ALICE, BOB), (ALICE, CAROL), (BOB, CAROL))}


async def bot_tournament(driver: Driver):
    return await host(driver).storage.tournament(await last_tournament(driver))


async def test_a_restart_between_pairing_and_opening_the_tables(api, database, monkeypatch):
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        await open_with(driver, ALICE, [ALICE, BOB, CAROL, DAVE])

        async def crash(self, stored):  # the process dies right after the round was written
            raise SystemExit("killed")

        monkeypatch.setattr(type(host(driver).tournaments), "_open_tables", crash)
        with pytest.raises(SystemExit):
            await host(driver).tournaments.start(await tournament_id(driver))
        paired = await stored(driver)
        assert len(paired.state.rounds) == 1 and paired.matches == {}
        monkeypatch.undo()
    async with running_bot(api, database) as driver:
        reopened = await stored(driver)
        # the same round, not paired again; each table opened once
        assert reopened.state.rounds == paired.state.rounds
        assert sorted(reopened.matches) == [(1, 0), (1, 1)]
        assert len(set(reopened.matches.values())) == 2
        # the round's pairings message, which the crash kept from going out, goes out once
        pairings = [text for text in texts(driver, GROUP) if "Round 1 of 3: the tables" in text]
        assert len(pairings) == 1
        await play_round(driver, [ALICE, BOB, CAROL, DAVE])
        done = await host(driver).storage.tournament(paired.id)
        assert done.status == "finished"


async def test_a_tournament_beside_a_running_match_gets_an_answer(driver: Driver, api):
    from tests.bot.play5211 import start_game

    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    before = len(api.visible(GROUP))
    await driver.send(CAROL, GROUP, "/tournament 5211")
    assert len(api.visible(GROUP)) > before, "an answer in the group"
    lobby = tournament_message(driver)
    assert "Players" in lobby.text


async def test_only_the_groups_members_join_by_the_link(driver: Driver, api):
    await open_with(driver, ALICE, [ALICE])
    api.outsiders[GROUP].add(MALLORY.id)
    await driver.press_label(MALLORY, GROUP, "Join")
    assert api.last(MALLORY.id).text == (
        "Only members of the group this tournament is played in can join it."
    )
    assert MALLORY.id not in (await stored(driver)).names
    await driver.press_label(BOB, GROUP, "Join")
    assert BOB.id in (await stored(driver)).names


async def test_a_timed_start_is_scheduled_for_its_time_and_starts_then(driver: Driver, api):
    """The real scheduler: a job at the lobby's start time (never dropped for firing late),
    which starts it when it fires."""
    import asyncio
    import time

    bot = host(driver)
    await open_with(driver, ALICE, [ALICE, BOB])
    await driver.press_label(ALICE, GROUP, "Start time: by hand")  # in 15 minutes
    tid = await tournament_id(driver)
    job_queue = driver.app.job_queue
    (job,) = job_queue.get_jobs_by_name(f"tournament-start-{tid}")
    assert abs(job.job.trigger.run_date.timestamp() - (time.time() + 15 * 60)) < 5
    assert job.job.misfire_grace_time is None  # a late loop runs it late, never skips it
    # started for real: the job fires at its time and the tournament starts
    await bot.storage.set_tournament_setup(
        tid, (await stored(driver)).state.rules, 180, False, bot.clock() + 0.3
    )
    bot.tournaments._start_at(tid, bot.clock() + 0.3)
    await job_queue.start()
    try:
        for _ in range(50):
            await asyncio.sleep(0.1)
            if any("Round 1 of 3" in text for text in texts(driver, GROUP)):
                break
        await driver.settle()
    finally:
        await job_queue.stop(wait=False)
    assert (await stored(driver)).status == "running"
    assert any("Round 1 of 3" in text for text in texts(driver, GROUP))


async def test_the_creator_picks_the_tie_breaks_order_and_the_standings_name_it(
    driver: Driver, api
):
    await open_with(driver, ALICE, [ALICE, BOB])
    assert "Ties: Buchholz → Sonneborn–Berger → game points" in str(
        tournament_message(driver).buttons()
    )
    await driver.press_label(ALICE, GROUP, "Ties:")
    assert "Ties: Sonneborn–Berger → Buchholz → game points" in str(
        tournament_message(driver).buttons()
    )
    assert await driver.press_label(MALLORY, GROUP, "Ties:") == (
        "Only its creator or an admin can do that."
    )
    await driver.press_label(ALICE, GROUP, "▶️ Start")
    text = tournament_message(driver).text
    assert "(points · Sonneborn–Berger · Buchholz · game points)" in text
    assert "Ties: Sonneborn–Berger, then Buchholz, then game points." in text
