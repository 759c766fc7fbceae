"""When a running match next needs attention, as pure functions of the stored match: a
seat's deadline, its half-time reminder, and the offer to start an absent player's clock.
``bot.timers`` acts on them; the publisher asks whether a "Start the clock" button belongs on
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


def next_event(match: Match, offer_after: float) -> float | None:
    """When this match next needs attention: a deadline, a half-time reminder, or an offer to
    start an absent player's clock."""
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
