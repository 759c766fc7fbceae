"""The table app as a thumb meets it, in a real headless Chromium at a phone's two common
widths (360 and 400 px), light and dark, in every game: the move's prompt and buttons in a
fixed status bar, so nothing on the table moves between the taps of one move; every target
of a move at least 44×44 CSS px (Apple's 44 pt, WCAG 2.5.5)."""

from __future__ import annotations

import random

import pytest

from bot.presentation.i18n import translator
from bot.web import cards
from games import get_engine
from games.ai import choose
from tests.bot import play_azul, play_summer_pavilion
from tests.bot.conftest import ALICE, BOB, CAROL
from tests.bot.helpers import current_match, play_by_data
from tests.bot.web.conftest import TableBot, open_page
from tests.bot.web.screenshots import CARD_START
from tests.bot.web.table_checks import TARGET, low_contrast, targets, too_small
from tests.bot.web.taps import PLACE, TAKE, tap, wait_for_version

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])

SCREENS = [(360, 740, "light"), (360, 740, "dark"), (400, 800, "light"), (400, 800, "dark")]

# Where everything on the table lies, in the page's coordinates (the status bar's in the
# screen's: it is fixed there); in document order; what was picked excepted (it rises)
PLACES = """() => Array.from(
  document.querySelectorAll('#table .tile, #table .space, #table .line, #table .floor, '
    + '#table .card, #table .cushion, #table .gem, #table [data-seat], #table .factory, '
    + '#table .status-bar .actions'),
  (e) => { const r = e.getBoundingClientRect();
           const [x, y] = e.closest('.status-bar') ? [0, 0] : [scrollX, scrollY];
           return { chosen: e.classList.contains('chosen'), what: e.className,
                    box: [r.x + x, r.y + y, r.width, r.height] }; })"""

# The colour of each kind of highlight shown (picked, a target, the latest move)
HIGHLIGHTS = """() => {
  const ring = (selector, property) => {
    const e = document.querySelector(selector);
    const style = e ? getComputedStyle(e)[property] : "";
    return (style.match(/rgba?\\([^)]*\\)/) || [null])[0];  // the colour alone
  };
  return {
    picked: ring('#table .chosen', 'outlineColor'),
    target: ring('#table .lit:not(.chosen)', 'outlineColor'),
    last: ring('#table .arrived, #table .card.last, #table .play-row.last, #table .bid.last',
               'boxShadow'),
  };
}"""
ONE_LINE_FACTS = """() => Array.from(document.querySelectorAll('.seat-facts')).every((e) =>
  e.scrollHeight <= 1.6 * parseFloat(getComputedStyle(e).lineHeight || 18)
  && e.scrollWidth <= e.clientWidth)"""
NO_LONE_FACTORY = """() => {
  const rows = new Map();
  for (const f of document.querySelectorAll('.sources .factory')) {
    const top = Math.round(f.getBoundingClientRect().top);
    rows.set(top, (rows.get(top) || 0) + 1);
  }
  return rows.size <= 1 || [...rows.values()].every((n) => n > 1);
}"""


async def first_of_two_taps(bot: TableBot, game: str):
    """A match a few moves in, the player to act, and the first tap of a move that needs
    two (its selector): tiles and then a line, a space or Take; cards and then their button
    or cushion."""
    engine = get_engine(game)
    if game in CARD_START:
        players = [ALICE, BOB, CAROL]
        await CARD_START[game](bot.driver, players)
        for number in range(3):
            match = await current_match(bot.driver)
            seat = min(engine.to_act(match.state))
            view, legal = engine.view(match.state, seat), engine.legal_actions(match.state, seat)
            await play_by_data(
                bot.driver, match, players[seat], choose(game, "normal", view, seat, legal, number)
            )
        match = await current_match(bot.driver)
        seat = min(engine.to_act(match.state))
        view, legal = engine.view(match.state, seat), engine.legal_actions(match.state, seat)
        t = translator("en")
        with_cards = [c for c in cards.choices(game, t, view, seat, legal) if c["cards"]]
        card = with_cards[0]["cards"][0]
        return match, players[seat], f".hand-fan .card.playable[data-card='{card}']"
    module = play_azul if game == "azul" else play_summer_pavilion
    players = [ALICE, BOB]
    await module.start_match(bot.driver, ALICE, players)
    rng = random.Random(5)
    wanted = TAKE if game == "azul" else PLACE
    for _ in range(60):
        match = await current_match(bot.driver)
        seat = min(engine.to_act(match.state))
        legal = engine.legal_actions(match.state, seat)
        if game == "azul" and len(legal[0]) == 3 and len(match.state["log"]) > 3:
            source, colour, _ = legal[0]
            return (
                match,
                players[seat],
                f".sources [data-source='{source}'][data-colour='{colour}']",
            )
        places = [a for a in legal if a[0] == wanted]
        if game == "summer_pavilion" and places:
            return match, players[seat], f"[data-seat='{seat}'] [data-hand='{places[0][3]}']"
        await module.play_move(bot.driver, players, rng)
    raise AssertionError("no move of two taps came")


@pytest.mark.parametrize("game", ["azul", "summer_pavilion", "5211", "sultan", "donkey"])
async def test_the_table_stays_put_between_a_moves_taps_and_every_target_fits_a_thumb(
    table_bot, chromium, game
):
    match, user, first = await first_of_two_taps(table_bot, game)
    await table_bot.driver.settle()
    match = await current_match(table_bot.driver)
    for width, height, scheme in SCREENS:
        page = await open_page(
            chromium, table_bot.page_url(user, match.id), width=width, color_scheme=scheme
        )
        await page.set_viewport_size({"width": width, "height": height})
        await wait_for_version(page, match.version)
        await page.evaluate("() => document.querySelector('.summary')?.click()")
        await page.wait_for_function("() => !document.querySelector('.summary')")
        bar = page.locator(".status-bar")
        assert "Your turn" in await bar.inner_text()
        assert await bar.evaluate("(e) => getComputedStyle(e).position") == "fixed"
        before = await page.evaluate(PLACES)
        offered = await targets(page)
        await tap(page, first)
        await page.locator("#table .chosen").first.wait_for()
        after = await page.evaluate(PLACES)
        assert len(after) == len(before)
        moved = [
            (was["what"], was["box"], now["box"])
            for was, now in zip(before, after, strict=True)
            if not now["chosen"] and was["box"] != now["box"]
        ]
        assert moved == [], f"{width} px {scheme}: moved under the thumb"
        offered += await targets(page)  # the move's own buttons, now offered
        assert too_small(offered) == [], f"{width} px {scheme}: targets under {TARGET} px"
        assert await page.evaluate("() => document.documentElement.scrollWidth") <= width
        # each seat's facts on one line; no factory alone on a row of its own
        assert await page.evaluate(ONE_LINE_FACTS), f"{width} px: a seat's facts wrap"
        assert await page.evaluate(NO_LONE_FACTORY), f"{width} px: a factory alone on its row"
        # one meaning per highlight: what was picked, where it may go, the latest move
        marks = await page.evaluate(HIGHLIGHTS)
        drawn = [colour for colour in marks.values() if colour]
        assert len(drawn) == len(set(drawn)), marks
        # every piece, number and control readable: 3:1 against what is behind it
        assert await low_contrast(page) == [], f"{width} px {scheme}: low contrast"
        assert page.errors == []
        await page.close()
