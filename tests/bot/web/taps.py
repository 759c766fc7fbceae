"""Moves made by tapping the table app's page, as a player's finger would: the tiles, then
the line, space, column or button the move needs — only what the page offers."""

from __future__ import annotations

VERSION_SECONDS = 5.0  # how long a page may take to show a new version (live: well under 1 s)


async def shown_version(page) -> int:
    return int(await page.locator("#table").get_attribute("data-version") or 0)


async def wait_for_version(page, version: int, timeout: float = VERSION_SECONDS) -> None:
    """Until the page shows ``version`` or a later one — without a reload: told live."""
    await page.wait_for_function(
        "v => Number(document.querySelector('#table').dataset.version || 0) >= v",
        arg=version,
        timeout=timeout * 1000,
    )


async def tap(page, selector: str) -> None:
    await page.locator(selector).first.click()


async def tap_azul(page, seat: int, action: tuple) -> None:
    """A draft: the tiles of a colour in a source, then the line (the floor is line 5); on
    the grey wall, the column."""
    if len(action) == 1:
        await tap(page, f".status-bar [data-action='column'][data-column='{action[0]}']")
        return
    source, colour, line = action
    await tap(page, f".sources [data-source='{source}'][data-colour='{colour}']")
    await tap(page, f"[data-seat='{seat}'] [data-line='{line}'].lit")


TAKE, PLACE, PASS, BONUS, KEEP, DONE = range(6)


async def tap_summer_pavilion(page, seat: int, action: tuple) -> None:
    kind = action[0]
    mine = f"[data-seat='{seat}']"
    if kind == TAKE:
        _, source, colour = action
        await tap(page, f".sources [data-source='{source}'][data-colour='{colour}']")
        await tap(page, "[data-action='take']")
    elif kind == PLACE:
        _, star, space, colour, wilds = action
        await tap(page, f"{mine} [data-hand='{colour}']")
        await tap(page, f"{mine} .space.lit[data-star='{star}'][data-space='{space}']")
        payment = page.locator(f"[data-action='pay'][data-wilds='{wilds}']")
        if await payment.count():  # more than one way to pay: this one
            await payment.first.click()
    elif kind == PASS:
        await tap(page, "[data-action='pass']")
    elif kind == BONUS:
        await tap(page, f"[data-supply='{action[1]}']")
    elif kind == KEEP:
        await tap(page, f"{mine} [data-hand='{action[1]}']")
    else:
        await tap(page, "[data-action='done']")


async def tap_cards(page, cards: list[int], action: tuple) -> None:
    """A card game's move: its cards picked from the fan, then its button (onto its cushion,
    where the game asks); a move without cards is its button alone."""
    for card in cards:
        await tap(page, f".hand-fan .card.playable[data-card='{card}']:not(.chosen)")
    await tap(page, f"[data-move='{'.'.join(str(n) for n in action)}']")
