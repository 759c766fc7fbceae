"""A tile game's round as it was scored, in the table app: Azul's wall tiling and Summer
Pavilion's placements — each tile with its points, the floor's (the tiles lost's) penalty,
the end bonuses — from the match's log, checked against the engine's own figures; on the
page, each item appears in turn (at once under reduced motion) until a tap."""

from __future__ import annotations

import random

import pytest

from bot.presentation.i18n import translator
from bot.presentation.ui.base import Names
from bot.web import tile_table
from games.azul.engine import COLOURS
from games.summer_pavilion.engine import START_SCORE
from tests.bot import play_azul, play_summer_pavilion
from tests.bot.conftest import ALICE, BOB
from tests.bot.helpers import current_match
from tests.bot.web.conftest import open_page
from tests.bot.web.taps import wait_for_version

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])
PLAYERS = [ALICE, BOB]
NAMES = Names.of(["Alice", "Bob"])
EN = translator("en")


def tiled(state: dict) -> bool:
    return any(e["type"] == "wall_tiling" for e in state["log"])


def placed_round(state: dict) -> bool:
    """Summer Pavilion's first round over: its placements done, the next round dealt."""
    return sum(e["type"] == "round" for e in state["log"]) >= 2


def check_sums(summary: dict, before: list[int]) -> None:
    """Each row's items add up to its change over the round, and it says so."""
    for row in summary["rows"]:
        change = sum(item["points"] for item in row["items"])
        assert row["total"] - before[row["seat"]] == change
        assert row["points"] == (f"+{change}" if change >= 0 else f"−{-change}")


async def test_azuls_wall_tiling_is_each_tile_with_its_points_then_the_floor(driver):
    await play_azul.start_match(driver, ALICE, PLAYERS)
    await play_azul.play_until(driver, PLAYERS, tiled, seed=4)
    match = await current_match(driver)
    log = match.state["log"]
    summary = tile_table.summary("azul", EN, {**match.state, "log": log}, NAMES)
    assert summary["title"] == "Round 1: the wall"
    for row in summary["rows"]:
        seat = row["seat"]
        placed = [e for e in log if e["type"] == "tile_placed" and e["seat"] == seat]
        tiles = [i for i in row["items"] if i["kind"] == "tile"]
        assert [(t["row"], t["column"], t["points"]) for t in tiles] == [
            (e["row"], e["column"], e["points"]) for e in placed
        ]
        tiling = next(e for e in log if e["type"] == "wall_tiling" and e["seat"] == seat)
        floor = [i["points"] for i in row["items"] if i["kind"] == "floor"]
        lost = tiling["score_before_penalty"] - tiling["score"]
        assert floor == ([-lost] if lost else [])
        assert row["total"] == match.state["scores"][seat]
    check_sums(summary, [0, 0])
    # the next round's first draft: the summary is gone
    await play_azul.play_move(driver, PLAYERS, random.Random(1))
    match = await current_match(driver)
    assert tile_table.summary("azul", EN, match.state, NAMES) is None


async def test_summer_pavilions_round_is_each_tile_placed_with_its_points(driver):
    await play_summer_pavilion.start_match(driver, ALICE, PLAYERS)
    await play_summer_pavilion.play_until(driver, PLAYERS, placed_round, seed=2)
    match = await current_match(driver)
    view = match.state
    summary = tile_table.summary("summer_pavilion", EN, view, NAMES)
    assert summary["title"] == "Round 1: the tiles placed"
    log = view["log"]
    for row in summary["rows"]:
        places = [e for e in log if e["type"] == "place" and e["seat"] == row["seat"]]
        tiles = [i for i in row["items"] if i["kind"] == "tile"]
        assert [(t["star"], t["space"], t["points"]) for t in tiles] == [
            (e["star"], e["space"], e["points"]) for e in places
        ]
        assert row["total"] == view["scores"][row["seat"]]
    check_sums(summary, [START_SCORE] * 2)  # the first round: from the start's points


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
async def test_the_page_plays_the_round_scoring_then_a_tap_lets_it_go(table_bot, chromium, motion):
    driver = table_bot.driver
    await play_azul.start_match(driver, ALICE, PLAYERS)
    await play_azul.play_until(driver, PLAYERS, tiled, seed=4)
    await driver.settle()
    match = await current_match(driver)
    page = await open_page(
        chromium, table_bot.page_url(ALICE, match.id), width=360, reduced_motion=motion
    )
    await wait_for_version(page, match.version)
    box = page.locator(".tile-summary")
    assert await box.locator("h2").inner_text() == "Round 1: the wall"
    placed = [e for e in match.state["log"] if e["type"] == "tile_placed" and e["seat"] == 0]
    alice = box.locator(".summary-row[data-row='0']")
    labels = [
        await s.get_attribute("aria-label")
        for s in await alice.locator(".scored[role='img']").all()
    ]
    assert len(labels) == len(placed)
    for label, event in zip(labels, placed, strict=True):
        colour = EN(f"azul.colour.{COLOURS[event['colour']]}")
        assert label == f"{colour} +{event['points']}"
    running = await page.evaluate(
        "() => document.getAnimations()"
        ".filter((a) => a.effect.target.closest('.tile-summary')).length"
    )
    if motion == "reduce":
        assert running == 0  # all of it at once
    else:
        assert running >= len(placed)  # each tile in turn, and its +n
    # on Alice's wall, each tile the round scored carries its +n
    wall = page.locator(".board[data-seat='0'] .wall-row .tile.just-scored")
    gains = [await g.inner_text() for g in await wall.locator(".float-gain").all()]
    assert sorted(gains) == sorted(f"+{e['points']}" for e in placed)
    assert "Tap to go on" in await box.inner_text()
    await box.click()
    await box.wait_for(state="detached")
    assert await page.locator(".float-gain").count() == 0  # gone with the summary
    assert page.errors == []
