"""The table app as a screen reader and a keyboard meet it, in a real headless Chromium
(Playwright's accessibility snapshot, the tree a screen reader reads): every board is
labelled structure — Azul's pattern lines, wall rows and floor, Summer Pavilion's stars and
spaces, factories by number; the card games' centre names its cards, cushions, gems and
plays; a card that cannot be played is read as such; the seats say whose turn it is, which
is the reader's and who starts; the focus ring shows, and arrow keys move along a row."""

from __future__ import annotations

import re

import pytest

from bot.presentation.i18n import translator
from bot.presentation.ui.summer_pavilion_pieces import star_name
from games import get_engine
from tests.bot.conftest import ALICE, BOB, CAROL
from tests.bot.helpers import current_match
from tests.bot.web.conftest import open_page
from tests.bot.web.taps import wait_for_version
from tests.bot.web.test_table_layout import first_of_two_taps

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])
EN = translator("en")


async def opened(bot, chromium, game):
    match, user, first = await first_of_two_taps(bot, game)
    await bot.driver.settle()
    match = await current_match(bot.driver)
    page = await open_page(chromium, bot.page_url(user, match.id), width=360)
    await wait_for_version(page, match.version)
    await page.evaluate("() => document.querySelector('.summary')?.click()")
    return match, user, first, page


def named(tree: str, role: str, pattern: str) -> list[str]:
    """The names of the ``role`` nodes of an aria snapshot that match ``pattern``."""
    found = re.findall(rf"- '?{role} \"((?:[^\"\\\\]|\\\\.)*)\"", tree)
    return [name for name in found if re.fullmatch(pattern, name)]


async def test_azuls_boards_read_as_lines_wall_rows_floor_and_numbered_factories(
    table_bot, chromium
):
    match, user, first, page = await opened(table_bot, chromium, "azul")
    tree = await page.locator("main").aria_snapshot()
    n = len(get_engine("azul").view(match.state, None)["factories"])
    factories = named(tree, "group", r"Factory \d+")
    assert factories == [f"Factory {i}" for i in range(1, n + 1)]
    assert named(tree, "group", "Centre") == ["Centre"]
    mine = await page.locator(".board.mine").aria_snapshot()
    lines = named(mine, "group", r"Pattern line \d: .*")
    assert [line.split(":")[0] for line in lines] == [f"Pattern line {i}" for i in range(1, 6)]
    assert named(mine, "group", r"Wall, row \d") == [f"Wall, row {i}" for i in range(1, 6)]
    assert named(mine, "group", "Floor") == ["Floor"]
    # each wall space read: a tile by its colour, an empty one by the colour it takes
    assert len(named(mine, "img", r"(blue|yellow|red|black|white)(: empty)?")) >= 25
    # the seats: whose turn, which is the reader's
    seats = named(tree, "group", r".*")
    mine_seat = next(s for s in seats if s.startswith(user.first_name + ":"))
    assert mine_seat.endswith("Your turn, you")
    # the arrow keys move along a factory (or the centre), not out of it
    row = page.locator(".sources > :is(.factory, .centre):has(button.tile:nth-of-type(2))").first
    tiles = row.locator("button.tile")
    if await tiles.count() >= 2:
        await tiles.first.focus()
        await page.keyboard.press("ArrowRight")
        assert await page.evaluate(
            "(row) => row.contains(document.activeElement)"
            " && document.activeElement !== row.querySelector('button.tile')",
            await row.element_handle(),
        )
    # a tap: the pattern lines that may take the tiles are buttons, still named
    await page.click(first)
    tree = await page.locator(".board.mine").aria_snapshot()
    assert named(tree, "button", r"(Pattern line \d|Floor).*")
    assert page.errors == []


async def test_summer_pavilions_stars_and_spaces_are_named(table_bot, chromium):
    match, user, _, page = await opened(table_bot, chromium, "summer_pavilion")
    view = get_engine("summer_pavilion").view(match.state, None)
    mine = await page.locator(".board.mine").aria_snapshot()
    stars = named(mine, "group", r".*[Ss]tar.*")
    assert stars == [star_name(EN, view, star) for star in range(7)]
    spaces = named(mine, "img", r"Space \d: empty") + named(
        mine, "img", r"(purple|orange|red|blue|yellow|green)"
    )
    board = view["players"][match.seat_of(user.id).seat]["board"]
    placed = sum(tile >= 0 for spaces in board for tile in spaces)
    assert len(named(mine, "img", r"Space \d: empty")) == 42 - placed
    assert len(spaces) >= 42  # the covered ones by their tile's colour
    assert named(mine, "group", "At hand") == ["At hand"]
    assert page.errors == []


@pytest.mark.parametrize("game", ["5211", "sultan", "donkey"])
async def test_the_card_centre_reads_its_cards_cushions_gems_and_plays(table_bot, chromium, game):
    match, user, _, page = await opened(table_bot, chromium, game)
    felt = await page.locator(".felt").aria_snapshot()
    if game == "sultan":
        cushions = named(felt, "group", r"Cushion \d+: .*")
        assert len(cushions) == len(match.state["cushions"])
        assert all("gem" in cushion for cushion in cushions)
        assert named(felt, "img", r".*gem.*")  # each cushion's gem, by its name
    else:
        view = get_engine(game).view(match.state, None)
        rows = view["num_players"] if game == "5211" else len(view["plays"])
        assert len(named(felt, "group", r".+")) == rows  # each seat's cards, or each play
        played = (
            [c for cards in view["table"] for c in cards]
            if game == "5211"
            else [c for play in view["plays"] for c in play["cards"]]
        )
        assert len(named(felt, "img", r".+")) >= len(played)  # each card (or back) named
    if game != "donkey":  # what the table's marks mean, a tap away
        await page.click(".legend summary")
        legend = await page.locator(".legend").inner_text()
        if game == "5211":
            assert "Roosters on the table" in legend
        else:
            assert "🎯" in legend and "starts" in legend
    hand = await page.locator(".hand-fan").aria_snapshot()
    cards = named(hand, "button", r".+") + named(hand, "img", r".+")
    assert len(cards) == await page.locator(".hand-fan .card").count()  # none vanish
    dimmed = await page.locator(".hand-fan .card.dimmed").count()
    assert len(named(hand, "img", r".+, cannot be played now")) == dimmed
    # a player who waits: every card of their hand still read, as one not to play now
    other = next(u for u in (ALICE, BOB, CAROL) if u != user)
    waiting = await open_page(chromium, table_bot.page_url(other, match.id), width=360)
    await wait_for_version(waiting, match.version)
    if game != "5211":  # (5211's players choose at once: nobody waits)
        hand = await waiting.locator(".hand-fan").aria_snapshot()
        held = await waiting.locator(".hand-fan .card").count()
        assert held > 0 and len(named(hand, "img", r".+, cannot be played now")) == held
    assert page.errors == [] and waiting.errors == []


async def test_a_visible_focus_ring_and_arrow_keys_along_a_hand(table_bot, chromium):
    _, _, _, page = await opened(table_bot, chromium, "donkey")
    playable = page.locator(".hand-fan button.card")
    if await playable.count() < 2:
        pytest.skip("this deal leaves fewer than two playable cards")  # pragma: no cover
    await playable.first.focus()
    await page.keyboard.press("ArrowRight")  # the focus moves along the hand
    focused = await page.evaluate("() => document.activeElement.dataset.card")
    assert focused == await playable.nth(1).get_attribute("data-card")
    ring = await page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return [s.outlineStyle, parseFloat(s.outlineWidth)]; }"
    )
    assert ring[0] != "none" and ring[1] >= 3
    # picking it by keyboard keeps the focus on it across the drawing
    await page.keyboard.press("Enter")
    await page.locator(".hand-fan .chosen").wait_for()
    assert await page.evaluate("() => document.activeElement.dataset.card") == focused
    assert page.errors == []
