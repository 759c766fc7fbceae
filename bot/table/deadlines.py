"""When a running match next needs attention, as pure functions of the stored match: a
seat's deadline, its half-time reminder, and the offer to start an absent player's clock.
``bot.table.timers`` acts on them; the publisher asks whether a "Start the clock" button belongs on
the board. (``Storage.due_matches`` asks the same in SQL.)"""

from __future__ import annotations

from bot.storage import Match, Seat


def clock_offer_due(match: Match, seat: Seat, offer_after: float) -> float | None:
    """When the others may be offered to start this seat's clock (None: not in play).
    ``offer_after``: seconds without a move before the offer (0: never)."""
    if (
        match.turn_seconds
        or match.practice  # nobody else at the table to start it
        or not offer_after
        or seat.deadline is not None
        or seat.clock_offered
        or seat.waiting_since is None
    ):
        return None
    return seat.waiting_since + offer_after


# The time left to move is shown rounded down, as "over <mark>": the largest mark below the
# time really left, so it never says more than there is. The board and the prompt are
# redrawn as the time left passes each mark (a few edits, only while a player is thinking):
# whole hours above 2 hours, 5 minutes above 10 minutes, whole minutes above 2 minutes,
# then 90, 60 and 30 seconds; under the last, "less than 30 seconds".
LAST_MARK = 30
MARK_STEPS = ((2 * 3600, 3600), (10 * 60, 5 * 60), (2 * 60, 60), (LAST_MARK, 30))


def clock_mark(left: float) -> int | None:
    """The time a clock with ``left`` seconds to go shows: the largest mark below it (None:
    ``LAST_MARK`` or less — "less than 30 seconds"). ``left`` is rounded to the second
    first (a drawing follows the move by a moment, a job may fire a moment early): the mark
    is below the whole second, so still below the time really left."""
    below = round(left) - 1
    for above, step in MARK_STEPS:
        if below >= above:
            return below // step * step
    return None


def next_redraw(deadline: float, now: float) -> float | None:
    """When a clock shown at ``now`` next passes a mark and must be redrawn (None: it
    shows "less than 30 seconds" until the deadline)."""
    mark = clock_mark(deadline - now)
    return None if mark is None else deadline - mark


def next_event(match: Match, offer_after: float, now: float | None = None) -> float | None:
    """When this match next needs attention: a deadline, a half-time reminder, an offer to
    start an absent player's clock, or (given ``now``) a shown clock passing a mark."""
    if match.status != "playing":
        return None
    times = [match.ends_at] if match.ends_at is not None else []
    for seat in match.seats:
        offer = clock_offer_due(match, seat, offer_after)
        if offer is not None:
            times.append(offer)
        if seat.deadline is None:
            continue
        times.append(seat.deadline)
        if now is not None and not seat.autopilot:
            redraw = next_redraw(seat.deadline, now)
            if redraw is not None:
                times.append(redraw)
        if match.turn_seconds and not seat.reminded and not seat.autopilot:
            times.append(seat.deadline - match.turn_seconds / 2)
    return min(times, default=None)


def may_start_clock(match: Match, seat: Seat) -> bool:
    """The offer to start this seat's clock stands: no time limit, no deadline yet, and the
    offer was made."""
    return (
        match.status == "playing"
        and not match.turn_seconds
        and seat.clock_offered
        and seat.deadline is None
        and seat.waiting_since is not None
    )
