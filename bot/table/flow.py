"""A match's transitions on the host side: start, move, finish — each one committed once.

Tokens: every seat has a ``token``, the match version at which that seat's legal choices
last changed. Its buttons carry the token (an AI seat's decision seed is drawn from it); a
press with an older token is stale. In a simultaneous phase one player's move does not
change another's choices, so the other players' buttons stay valid while everyone chooses
at their own pace.

Deadlines: when a seat gets a new decision and the match has a move time limit, its
deadline is set (an absolute time, stored with the match); on autopilot it is "now". Without
a limit the decision's start is kept, so the others can be offered to start its clock.
"""

from __future__ import annotations

import hashlib
import secrets

from bot.storage import Match, Storage
from games import get_engine
from games.core import Action, encode_action


def choices_fingerprint(actions: list[Action]) -> str:
    return hashlib.blake2s(repr(actions).encode(), digest_size=8).hexdigest()


def refresh_tokens(match: Match, next_version: int, now: float, mover: int | None = None) -> None:
    """Give a new token (and a new deadline) to every seat whose choices changed, and always
    to the seat that just moved: its next decision is a new one even if the choices look
    the same."""
    engine = get_engine(match.game)
    for seat in match.seats:
        actions = engine.legal_actions(match.state, seat.seat)
        fingerprint = choices_fingerprint(actions)
        if fingerprint != seat.prompt_sig or seat.seat == mover:
            seat.prompt_sig = fingerprint
            seat.token = next_version
            seat.draft = None
            seat.reminded = False
            seat.clock_offered = False
            # an AI seat is played by ``bot.table.ai_seats`` at once: no clock, nobody waits
            seat.waiting_since = now if actions and not seat.is_ai else None
            if not actions or seat.is_ai:
                seat.deadline = None
            elif seat.autopilot:
                seat.deadline = now
            else:
                seat.deadline = now + match.turn_seconds if match.turn_seconds else None


async def start_match(storage: Storage, match: Match, now: float) -> None:
    """Deal the game for the seated players and commit it."""
    engine = get_engine(match.game)
    match.state = engine.new_game(len(match.seats), match.options, seed=secrets.randbits(48))
    match.status = "playing"
    seconds = engine.match_seconds(match.state)
    match.ends_at = now + seconds if seconds else None
    refresh_tokens(match, match.version + 1, now)
    await storage.save(match, move=(-1, "start"))


async def commit_move(
    storage: Storage,
    match: Match,
    seat: int,
    action: Action,
    now: float,
    automatic: bool = False,
    notices: list[tuple[str, dict]] = (),
) -> None:
    """Apply a legal move and commit it (raises ``IllegalAction`` before touching anything).
    A move the player made themselves ends their run of timeouts."""
    engine = get_engine(match.game)
    match.state = engine.apply(match.state, seat, action)
    if not automatic:
        match.seats[seat].timeouts = 0
    match.last_mover = None if automatic else seat
    if engine.is_over(match.state):
        match.status = "finished"
    refresh_tokens(match, match.version + 1, now, mover=seat)
    await storage.save(
        match, move=(seat, encode_action(action)), automatic=automatic, notices=notices
    )


def move_refusal(match: Match, user_id: int, token: int, action: Action) -> str | None:
    """Why a player's move may not be made now — the rules every window's move follows (a
    chat button's checks, ``bot.handlers.play``; the table app's): the message key that says
    so, or None. The token is the one the player's screen was drawn with: a move for an
    older decision, or the same decision made twice, is stale."""
    if match.status == "lobby" or match.state is None:
        return "play.no_match"
    if match.status != "playing":
        return "play.match_over"
    seat = match.seat_of(user_id)
    if seat is None:
        return "play.not_your_match"
    if seat.token != token:
        return "play.stale"
    engine = get_engine(match.game)
    if not engine.is_legal(match.state, seat.seat, tuple(action)):
        return (
            "play.not_your_turn" if seat.seat not in engine.to_act(match.state) else "play.illegal"
        )
    return None


async def end_match_time(storage: Storage, match: Match, now: float) -> None:
    """A timed match's time has run out: tell the engine, and commit what it decides."""
    engine = get_engine(match.game)
    match.state = engine.time_up(match.state)
    match.ends_at = None
    if engine.is_over(match.state):
        match.status = "finished"
    refresh_tokens(match, match.version + 1, now)
    await storage.save(match, move=(-1, "time_up"), automatic=True)
