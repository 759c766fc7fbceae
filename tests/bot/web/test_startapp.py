"""One tap from the group (``WEB_APP_MAIN``): the group board's "🎲 The table" is a
``t.me/<bot>?startapp=`` link that opens the bot's Main Mini App over the group; the match
comes from the signed launch data's ``start_param``. A player lands at their seat, a member
of the group watches, a stranger is refused; without the setting the link goes through the
private chat, as before."""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlsplit

import pytest

from bot.web import start_param
from bot.web.auth import check_init_data
from tests.bot.conftest import ALICE, BOB, CAROL, GROUP, MALLORY
from tests.bot.web.conftest import TOKEN, TableBot, launch_data, open_page
from tests.bot.web.taps import wait_for_version
from tests.bot.web.test_watching import running_5211

SQLITE = pytest.mark.parametrize("backend", ["sqlite"])


def table_button(bot: TableBot) -> dict:
    board = next(m for m in reversed(bot.api.visible(GROUP)) if m.from_bot and m.buttons())
    return next(b for b in board.buttons() if b.get("text") == "🎲 The table")


def launch(user, parameter: str | None) -> dict[str, str]:
    extra = {"start_param": parameter} if parameter is not None else {}
    return {"Authorization": f"tma {launch_data(user, **extra)}"}


def test_the_start_parameter_names_a_match_and_nothing_else():
    assert start_param.decode(start_param.encode(42)) == 42
    for other in (None, "", "m", "w42", "m42x", "m-1", "42", "m" + "9" * 19):
        assert start_param.decode(other) is None


def test_the_signed_launch_data_carries_the_start_parameter_and_nothing_unsigned_does():
    now = time.time()
    assert check_init_data(launch_data(ALICE, start_param="m7"), TOKEN, now).start_param == "m7"
    assert check_init_data(launch_data(ALICE), TOKEN, now).start_param is None


@SQLITE
async def test_the_group_board_links_the_main_app_and_it_opens_the_right_table(main_app_bot):
    bot = main_app_bot
    match = await running_5211(bot)
    watch = table_button(bot)
    link = urlsplit(watch["url"])
    assert f"{link.scheme}://{link.netloc}{link.path}" == f"https://t.me/{bot.api.username}"
    parameter = parse_qs(link.query)["startapp"][0]
    async with bot.client() as client:
        answers = {
            user.first_name: await client.get("/api/launch", headers=launch(user, parameter))
            for user in (ALICE, CAROL, MALLORY)
        }
        missing = await client.get("/api/launch", headers=launch(ALICE, None))
        other = await client.get("/api/launch", headers=launch(ALICE, "w1"))
        gone = await client.get("/api/launch", headers=launch(ALICE, "m999999"))
        forged = launch_data(ALICE, start_param=parameter).replace(parameter, f"m{match.id + 1}")
        unsigned = await client.get("/api/launch", headers={"Authorization": f"tma {forged}"})
    assert answers["Alice"].json() == {"match": match.id}  # a player
    assert answers["Carol"].json() == {"match": match.id}  # a member of the group
    assert answers["Mallory"].status_code == 404  # not in the group: as if not there
    assert answers["Mallory"].json()["error"] == "no_table"
    assert [missing.status_code, other.status_code, gone.status_code] == [404, 404, 404]
    assert unsigned.status_code == 401  # the parameter is signed with the rest


@SQLITE
async def test_without_the_setting_the_link_goes_through_the_private_chat(table_bot):
    match = await running_5211(table_bot)
    assert (
        table_button(table_bot)["url"] == f"https://t.me/{table_bot.api.username}?start=w{match.id}"
    )


@SQLITE
async def test_a_player_lands_at_their_seat_and_a_member_watches(main_app_bot, chromium):
    bot = main_app_bot
    match = await running_5211(bot)
    parameter = parse_qs(urlsplit(table_button(bot)["url"]).query)["startapp"][0]
    player = await open_page(chromium, bot.main_app_url(BOB, parameter))
    watcher = await open_page(chromium, bot.main_app_url(CAROL, parameter))
    stranger = await open_page(chromium, bot.main_app_url(MALLORY, parameter))
    for page in (player, watcher):
        await wait_for_version(page, match.version)
    assert await player.locator(".hand-fan .card").count() == 5  # Bob's own hand
    assert await player.locator(".seat.mine").get_attribute("data-seat") == "1"
    assert await watcher.locator(".hand-fan").count() == 0
    assert "Watching" in await watcher.inner_text("main")
    await stranger.locator("#status.problem").wait_for()
    assert "not open to you" in await stranger.inner_text("#status")
    assert await stranger.locator(".seat").count() == 0
    for page in (player, watcher, stranger):
        assert page.errors == []
