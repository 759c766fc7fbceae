"""Move time limits: reminders, default moves, autopilot, restarts, and expiring lobbies."""

from __future__ import annotations

import asyncio
import time

from bot.table.deadlines import clock_mark, next_event, next_redraw
from bot.table.host import get_host
from tests.bot.conftest import ALICE, BOB, CAROL, GROUP, MALLORY, running_bot
from tests.bot.helpers import tick, use_clock
from tests.bot.play5211 import board, card_buttons, choose, has_choice, prompt, start_game


async def load(driver, match_id=1):
    return await get_host(driver.app).storage.load(match_id)


async def test_the_lobby_offers_time_limits_and_the_creator_picks_one(driver, api):
    await driver.send(ALICE, GROUP, "/new")
    await driver.press_label(ALICE, GROUP, "5211")
    assert await driver.press_label(ALICE, GROUP, "3 minutes per move") == "⏱ 10 minutes per move"
    assert await driver.press_label(ALICE, GROUP, "10 minutes") == "⏱ 1 hour per move"
    assert await driver.press_label(ALICE, GROUP, "1 hour") == "⏱ 24 hours per move"
    assert await driver.press_label(ALICE, GROUP, "24 hours") == "⏱ No time limit"
    assert await driver.press_label(ALICE, GROUP, "No time limit") == "⏱ 1 minute per move"
    assert "• ⏱ 1 minute per move" in api.last(GROUP).text


async def test_half_time_reminds_the_player_privately_and_the_deadline_plays_for_them(driver, api):
    clock = use_clock(driver)
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])  # 3 minutes per move by default
    await choose(driver, ALICE)
    match = await load(driver)
    assert match.seats[1].deadline == clock.now + 180
    assert match.seats[0].deadline is None  # Alice has chosen: nothing to wait for
    # the clock shows on the board and in Bob's prompt
    # (rounded down: never more than there is)
    assert board(driver, GROUP).text.endswith("⏱ Time left to move: over 2 minutes.")
    assert prompt(driver, BOB).text.endswith("⏱ You have over 2 minutes to move.")
    assert "⏱" not in prompt(driver, ALICE).text
    board_id = board(driver, GROUP).message_id

    clock.now += 89
    await tick(driver, clock)
    assert "Half of your time" not in prompt(driver, BOB).text
    group_sends = api.count("sendMessage")
    clock.now += 1
    await tick(driver, clock)
    # the reminder is Bob's prompt again, as a new message (it notifies); the old one went
    reminded = prompt(driver, BOB)
    assert reminded.text.endswith("⏰ Half of your time is gone: over 1 minute left to move.")
    assert card_buttons(reminded)
    assert [m.message_id for m in api.visible(BOB.id)][-2:] != [reminded.message_id] * 2
    assert sum(bool(card_buttons(m)) for m in api.visible(BOB.id)) == 1
    # the board shows the time left: edited in place, no message to the group
    assert board(driver, GROUP).message_id == board_id
    assert board(driver, GROUP).text.endswith("⏱ Time left to move: over 1 minute.")
    assert api.count("sendMessage") == group_sends + 1  # Bob's new prompt only
    clock.now += 30
    await tick(driver, clock)  # reminded once only
    assert sum("Half of your time" in m.text for m in api.visible(BOB.id)) == 1
    assert prompt(driver, BOB).text.endswith(
        "⏰ Half of your time is gone: over 30 seconds left to move."
    )

    clock.now += 60
    await tick(driver, clock)
    notice = [m for m in api.visible(GROUP) if "ran out of time" in m.text]
    assert [m.text for m in notice] == ["⏰ Bob ran out of time, so I made a move for them."]
    # the board stays where it was, showing the next part; the news went below it
    assert board(driver, GROUP).message_id == board_id
    assert "Round 1, part 2 of 3" in board(driver, GROUP).text
    assert notice[0].message_id > board_id
    assert has_choice(driver, BOB)  # his next decision is his own again
    storage = get_host(driver.app).storage
    assert await storage.automatic_moves(1) == 1
    assert (await load(driver)).seats[1].timeouts == 1


SECONDS = {"second": 1, "seconds": 1, "minute": 60, "minutes": 60, "hour": 3600, "hours": 3600}


def shown_left(text: str, line: str) -> tuple[str, int]:
    """The clock a message ends with, after ``line``: ("over" or "less than", seconds)."""
    words = text.rsplit(line, 1)[1].split()
    if words[0] == "less":
        return "less than", int(words[2]) * SECONDS[words[3].rstrip(".")]
    return words[0], int(words[1]) * SECONDS[words[2].rstrip(".")]


async def test_the_clock_never_shows_more_time_than_is_left(driver, api):
    """Bob thinks for his whole 3 minutes: the board and his prompt are redrawn as the time
    left passes each mark (2 minutes, 90, 60, 30 seconds), when the timer job fires, and
    what they show is at every moment at most what is left — with a few edits."""
    clock = use_clock(driver)
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    await choose(driver, ALICE)
    host = get_host(driver.app)
    deadline = (await load(driver)).seats[1].deadline
    group_edits = api.count("editMessageText")
    seen = []
    while True:
        match = await load(driver)
        if match.seats[1].deadline != deadline:
            break  # the deadline came: the normal AI moved for Bob
        board_clock = shown_left(board(driver, GROUP).text, "Time left to move: ")
        prompt_text = prompt(driver, BOB).text
        prompt_clock = shown_left(prompt_text, "You have " if "You have" in prompt_text else ": ")
        assert board_clock == prompt_clock
        seen.append(board_clock)
        # the next redraw is when the timer job fires: until then the clock stays true
        when = next_event(match, host.timers.offer_after, now=clock.now)
        word, shown = board_clock
        if word == "over":
            assert shown < deadline - when + 1e-6 or when >= deadline
        else:
            assert when == deadline and shown >= deadline - clock.now
        clock.now = when
        await tick(driver, clock)
    assert seen == [
        ("over", 120),  # 3 minutes to go
        ("over", 90),  # at 2 minutes
        ("over", 60),  # at 90 seconds: the half-time reminder (a new prompt)
        ("over", 30),  # at 1 minute
        ("less than", 30),  # at 30 seconds
    ]
    # the group's board: edited at 2 minutes, 90, 60 and 30 seconds, then for the move
    assert api.count("editMessageText") - group_edits <= 4 + 2 * 4 + 1


def test_every_time_limit_redraws_its_clock_a_few_times_and_never_overstates():
    # redraws of a whole decision's clock (the half-time reminder is one of them)
    redraws = {60: 1, 120: 3, 180: 4, 600: 11, 3600: 21, 86400: 55}
    for limit, expected in redraws.items():
        lefts = [tenths / 10 for tenths in range(10 * limit + 1)]
        assert all(clock_mark(left) is None or clock_mark(left) < left for left in lefts)
        now, count = 0.0, 0
        while (when := next_redraw(limit, now)) is not None:
            # redrawn when the time left comes down to what it shows
            assert when > now and limit - when == clock_mark(limit - now)
            now, count = when, count + 1
        assert count == expected, limit
        assert limit - now <= 30  # then "less than 30 seconds" until the deadline


async def test_players_who_time_out_together_are_named_in_one_message(driver, api):
    clock = use_clock(driver)
    await start_game(driver, GROUP, ALICE, [ALICE, BOB, CAROL])
    before = len(api.visible(GROUP))
    clock.now += 181
    await tick(driver, clock)
    news = [m for m in api.visible(GROUP) if "ran out of time" in m.text]
    assert [m.text for m in news] == [
        "⏰ Alice, Bob, Carol ran out of time, so I made their moves."
    ]
    # the news is the only new message: the board was edited in place
    assert len(api.visible(GROUP)) == before + 1
    assert "Round 1, part 2 of 3" in board(driver, GROUP).text
    for player in (ALICE, BOB, CAROL):  # one live prompt each, with the new part's clock
        assert sum(bool(card_buttons(m)) for m in api.visible(player.id)) == 1
        assert prompt(driver, player).text.endswith("⏱ You have over 2 minutes to move.")


async def test_a_move_in_time_resets_the_count_of_timeouts(driver, api):
    clock = use_clock(driver)
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    await choose(driver, ALICE)
    clock.now += 181
    await tick(driver, clock)
    assert (await load(driver)).seats[1].timeouts == 1
    await choose(driver, ALICE)
    await choose(driver, BOB)
    assert (await load(driver)).seats[1].timeouts == 0


async def test_after_two_timeouts_in_a_row_the_seat_is_on_autopilot_until_im_back(driver, api):
    clock = use_clock(driver)
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    for _ in range(2):
        await choose(driver, ALICE)
        clock.now += 181
        await tick(driver, clock)
    texts = [m.text for m in api.visible(GROUP)]
    assert any("Moves Bob missed in a row: 2." in text for text in texts)
    assert (await load(driver)).seats[1].autopilot
    # from now on Bob's moves are made at once, right after Alice's
    await choose(driver, ALICE)
    assert "Round 2, part 1 of 3" in board(driver, GROUP).text
    bob = prompt(driver, BOB)
    assert "You are on autopilot" in bob.text
    back = [b for b in bob.buttons() if b["text"] == "🙋 I'm back"]
    assert back
    moves_before = await get_host(driver.app).storage.automatic_moves(1)
    assert await driver.press(BOB, BOB.id, bob.message_id, back[0]["callback_data"]) == (
        "Welcome back!"
    )
    assert "👋 Bob is back." in [m.text for m in api.visible(GROUP)]
    assert not (await load(driver)).seats[1].autopilot
    # Bob had already moved (at once) in this part; the next decision is his own again
    await choose(driver, ALICE)
    assert "Round 2, part 2 of 3" in board(driver, GROUP).text
    assert "⏳ Alice" in board(driver, GROUP).text and "⏳ Bob" in board(driver, GROUP).text
    await choose(driver, ALICE)
    assert "⏳ Bob" in board(driver, GROUP).text
    assert await get_host(driver.app).storage.automatic_moves(1) == moves_before
    await choose(driver, BOB)
    assert "Round 2, part 3 of 3" in board(driver, GROUP).text


async def test_no_limit_means_nobody_is_hurried(driver, api):
    clock = use_clock(driver)
    await driver.send(ALICE, GROUP, "/new")
    await driver.press_label(ALICE, GROUP, "5211")
    for _ in range(4):  # 3 min → 10 min → 1 h → 24 h → none
        await driver.press_label(ALICE, GROUP, "per move")
    for player in (ALICE, BOB):
        await driver.press_label(player, GROUP, "Join")
    await driver.press_label(ALICE, GROUP, "Start")
    assert all(seat.deadline is None for seat in (await load(driver)).seats)
    clock.now += 10 * 86400
    await tick(driver, clock)
    assert await get_host(driver.app).storage.automatic_moves(1) == 0


async def test_deadlines_are_stored_and_one_that_passed_while_down_fires_after_start_up(
    api, database
):
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        await start_game(driver, GROUP, ALICE, [ALICE, BOB, CAROL])
        await choose(driver, ALICE)
        await choose(driver, BOB)
        deadline = (await load(driver)).seats[2].deadline
    # the bot is down past Carol's deadline
    async with running_bot(api, database) as driver:
        host = get_host(driver.app)
        host.clock = lambda: deadline + 5
        await host.timers.arm_all()
        await driver.app.job_queue.start()
        try:
            for _ in range(200):  # the overdue job runs at once
                if await host.storage.automatic_moves(1):
                    break
                await asyncio.sleep(0.01)
        finally:  # the job's end (on PostgreSQL its lock across workers let go) awaited
            await driver.app.job_queue.stop(wait=True)
        await driver.settle()
        assert await host.storage.automatic_moves(1) == 1
        assert "Round 1, part 2 of 3" in board(driver, GROUP).text
        assert any("Carol ran out of time" in m.text for m in api.visible(GROUP))


async def test_a_notice_committed_but_not_yet_sent_is_sent_after_a_restart(api, database):
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        await start_game(driver, GROUP, ALICE, [ALICE, BOB, CAROL])
        storage = get_host(driver.app).storage
        match = await load(driver)
        # committed with the match, as a timeout is; the process stops before drawing it
        await storage.save(match, notices=[("timer.timeout", {"user_id": BOB.id, "name": "Bob"})])
    assert not any("ran out of time" in m.text for m in api.visible(GROUP))
    async with running_bot(api, database) as driver:
        told = [m.text for m in api.visible(GROUP) if "ran out of time" in m.text]
        assert told == ["⏰ Bob ran out of time, so I made a move for them."]
        assert await get_host(driver.app).storage.unsent_notices(1) == []


async def test_abandoned_lobbies_expire_and_leave_no_buttons(driver, api):
    clock = use_clock(driver)
    await driver.send(ALICE, GROUP, "/new")
    await driver.press_label(ALICE, GROUP, "5211")
    lobby = api.last(GROUP)
    timers = get_host(driver.app).timers
    assert await timers.expire_lobbies(now=clock.now + 60) == []
    assert await timers.expire_lobbies(now=clock.now + 3 * 3600) == [1]
    expired = api.messages[GROUP][lobby.message_id]
    assert expired.text == "⌛ This lobby expired: nobody started it." and not expired.buttons()
    await driver.send(BOB, GROUP, "/new")
    assert api.last(GROUP).text == "Which game shall we play?"


async def test_a_stale_card_button_from_before_a_timeout_is_refused(driver, api):
    clock = use_clock(driver)
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    old = prompt(driver, BOB)
    data = card_buttons(old)[0]["callback_data"]
    await choose(driver, ALICE)
    clock.now += 181
    await tick(driver, clock)
    assert await driver.press(BOB, BOB.id, old.message_id, data) == (
        "This button is no longer valid. Use the latest message."
    )


async def wait_for(condition, seconds: float = 5.0) -> bool:
    for _ in range(int(seconds / 0.02)):
        if await condition():
            return True
        await asyncio.sleep(0.02)
    return False


async def test_a_deadline_whose_job_fires_late_on_a_busy_loop_still_plays(driver, api):
    """The scheduler used to drop a job more than a second late ("missed"): the absent
    player's default move then never came."""
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    await choose(driver, ALICE)
    host = get_host(driver.app)
    match = await load(driver)
    match.seats[1].deadline = time.time() + 0.2  # Bob's deadline, on the real clock
    await host.storage.save(match)
    host.timers.arm(match)
    await driver.app.job_queue.start()
    try:
        time.sleep(1.8)  # the event loop is busy well past the deadline
        moved = await wait_for(lambda: host.storage.automatic_moves(1), seconds=3)
    finally:
        await driver.app.job_queue.stop(wait=False)
    await driver.settle()
    assert moved, "the late deadline was dropped"
    assert any("Bob ran out of time" in m.text for m in api.visible(GROUP))
    assert "Round 1, part 2 of 3" in board(driver, GROUP).text


async def test_the_sweep_plays_an_overdue_deadline_whose_job_was_lost(driver, api):
    clock = use_clock(driver)
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    await choose(driver, ALICE)
    host = get_host(driver.app)
    for job in driver.app.job_queue.get_jobs_by_name("timer-1"):
        job.schedule_removal()  # the timer job is gone, whatever the reason
    assert await host.timers.sweep(now=clock.now + 60) == []  # nothing due yet
    clock.now += 181
    assert await host.timers.sweep() == [1]
    await driver.settle()
    assert await host.storage.automatic_moves(1) == 1
    assert "Round 1, part 2 of 3" in board(driver, GROUP).text
    # start-up schedules the sweep every 30 seconds, late runs included
    (sweeper,) = driver.app.job_queue.get_jobs_by_name("deadline-sweep")
    assert sweeper.job.trigger.interval.total_seconds() == 30
    assert sweeper.job.misfire_grace_time is None


async def test_the_sweep_also_finds_reminders_offers_and_the_end_of_a_timed_match(api, database):
    async with running_bot(api, database, start_clock_after_minutes=10) as driver:
        driver.group(GROUP, "Game Night")
        clock = use_clock(driver)
        host = get_host(driver.app)
        await start_game(driver, GROUP, ALICE, [ALICE, BOB])  # 3 minutes per move
        await choose(driver, ALICE)
        assert await host.storage.due_matches(clock.now + 89, 600) == []
        assert await host.storage.due_matches(clock.now + 90, 600) == [1]  # half time
        match = await load(driver)
        match.turn_seconds = 0  # as if the lobby had no limit: the offer is what is due
        match.seats[1].deadline = None
        await host.storage.save(match)
        assert await host.storage.due_matches(clock.now + 599, 600) == []
        assert await host.storage.due_matches(clock.now + 600, 600) == [1]
        assert await host.storage.due_matches(clock.now + 600, 0) == []  # offers off
        match.ends_at = clock.now + 30
        await host.storage.save(match)
        assert await host.storage.due_matches(clock.now + 30, 0) == [1]


async def no_limit_game(driver, players):
    await driver.send(players[0], GROUP, "/new")
    await driver.press_label(players[0], GROUP, "5211")
    for _ in range(4):  # 3 min → 10 min → 1 h → 24 h → none
        await driver.press_label(players[0], GROUP, "per move")
    for player in players:
        await driver.press_label(player, GROUP, "Join")
    await driver.press_label(players[0], GROUP, "Start")


def clock_button(driver, group=GROUP):
    message, button = driver.find_button(group, "Start the clock")
    return message, button


async def test_a_silent_player_in_a_game_without_limit_can_be_given_a_clock(driver, api):
    clock = use_clock(driver)
    await no_limit_game(driver, [ALICE, BOB, CAROL])
    await choose(driver, ALICE)
    await choose(driver, CAROL)
    clock.now += 9 * 60
    await tick(driver, clock)
    assert not [b for b in board(driver, GROUP).buttons() if "Start the clock" in b["text"]]
    clock.now += 60
    await tick(driver, clock)
    # the offer goes right under the board, which stays where it was (in sight)
    board_before, offer = api.visible(GROUP)[-2:]
    assert board_before.message_id == board(driver, GROUP).message_id
    assert offer.text == (
        "⏳ Bob has not moved for 10 minutes. The other players can press “⏰ Start the clock” "
        "under the board: Bob then has 2 minutes to move."
    )
    message, button = clock_button(driver)
    assert message.message_id == board(driver, GROUP).message_id
    assert button["text"] == "⏰ Start the clock for Bob"
    data = button["callback_data"]
    # only the other players of the match may press it
    assert await driver.press(BOB, GROUP, message.message_id, data) == (
        "Only the other players can start your clock."
    )
    assert await driver.press(MALLORY, GROUP, message.message_id, data) == (
        "You are not playing in this game."
    )
    assert (await load(driver)).seats[1].deadline is None
    assert await driver.press(CAROL, GROUP, message.message_id, data) == "⏰ The clock is running."
    assert (await load(driver)).seats[1].deadline == clock.now + 120
    texts = [m.text for m in api.visible(GROUP)]
    assert "⏰ Carol started the clock: Bob has 2 minutes to move." in texts
    # Bob's prompt comes again (it notifies) and says so; his old prompt went
    assert prompt(driver, BOB).text.endswith(
        "⏰ The other players started your clock: you have over 90 seconds to move."
    )
    assert sum(bool(card_buttons(m)) for m in api.visible(BOB.id)) == 1
    assert board(driver, GROUP).text.endswith("⏱ Time left to move: over 90 seconds.")
    assert not [b for b in board(driver, GROUP).buttons() if "Start the clock" in b["text"]]
    assert await driver.press(ALICE, GROUP, message.message_id, data) == (
        "This button is no longer valid. Use the latest message."
    )
    # then the usual rules: the default move at the deadline, autopilot after two
    clock.now += 121
    await tick(driver, clock)
    assert any("Bob ran out of time" in m.text for m in api.visible(GROUP))
    assert "Round 1, part 2 of 3" in board(driver, GROUP).text
    assert (await load(driver)).seats[1].deadline is None  # no limit for his next decision
    await choose(driver, ALICE)
    await choose(driver, CAROL)
    clock.now += 10 * 60
    await tick(driver, clock)
    _, button = clock_button(driver)
    await driver.press(ALICE, GROUP, board(driver, GROUP).message_id, button["callback_data"])
    clock.now += 121
    await tick(driver, clock)
    assert any("Moves Bob missed in a row: 2." in m.text for m in api.visible(GROUP))
    assert (await load(driver)).seats[1].autopilot


async def test_a_move_withdraws_the_offer_to_start_the_clock(driver, api):
    clock = use_clock(driver)
    await no_limit_game(driver, [ALICE, BOB])
    await choose(driver, ALICE)
    clock.now += 10 * 60
    await tick(driver, clock)
    message, button = clock_button(driver)
    await choose(driver, BOB)
    assert not [b for b in board(driver, GROUP).buttons() if "Start the clock" in b["text"]]
    assert await driver.press(ALICE, GROUP, message.message_id, button["callback_data"]) == (
        "This button is no longer valid. Use the latest message."
    )
    assert all(seat.deadline is None for seat in (await load(driver)).seats)


async def test_a_game_with_a_time_limit_offers_no_clock(api, database):
    async with running_bot(api, database, start_clock_after_minutes=1) as driver:
        driver.group(GROUP, "Game Night")
        clock = use_clock(driver)
        await start_game(driver, GROUP, ALICE, [ALICE, BOB])  # 3 minutes per move
        await choose(driver, ALICE)
        clock.now += 170  # past the minute after which a game without limit offers it
        await tick(driver, clock)
        assert not [m for m in api.visible(GROUP) if "Start the clock" in m.text]
        assert not [b for b in board(driver, GROUP).buttons() if "Start the clock" in b["text"]]
        assert "Half of your time" in api.last(BOB.id).text  # the limit's own reminder
