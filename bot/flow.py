"""A match's transitions on the host side: start, move, finish — each one committed once.

Tokens: every seat has a ``token``, the match version at which that seat's legal choices
last changed. Its buttons carry the token; a press with an older token is stale. In a
simultaneous phase one player's move does not change another's choices, so the other
players' buttons stay valid while everyone chooses at their own pace.
"""

from __future__ import annotations

import hashlib
import secrets

from bot.storage import Match, Storage
from games import get_engine
from games.core import Action, encode_action


def choices_fingerprint(actions: list[Action]) -> str:
    return hashlib.blake2s(repr(actions).encode(), digest_size=8).hexdigest()


def refresh_tokens(match: Match, next_version: int, mover: int | None = None) -> set[int]:
    """Give a new token to every seat whose choices changed, and always to the seat that just
    moved (its next decision is a new one even if the choices look the same); returns the
    seats that now have a new decision to make (their prompt is sent as a new, notifying
    message)."""
    engine = get_engine(match.game)
    fresh = set()
    for seat in match.seats:
        actions = engine.legal_actions(match.state, seat.seat)
        fingerprint = choices_fingerprint(actions)
        if fingerprint != seat.prompt_sig or seat.seat == mover:
            seat.prompt_sig = fingerprint
            seat.token = next_version
            seat.draft = None
            if actions:
                fresh.add(seat.seat)
    return fresh


async def start_match(storage: Storage, match: Match) -> set[int]:
    """Deal the game for the seated players and commit it; returns the seats to prompt."""
    engine = get_engine(match.game)
    match.state = engine.new_game(len(match.seats), match.options, seed=secrets.randbits(48))
    match.status = "playing"
    fresh = refresh_tokens(match, match.version + 1)
    await storage.save(match, move=(-1, "start"))
    return fresh


async def commit_move(storage: Storage, match: Match, seat: int, action: Action) -> set[int]:
    """Apply a legal move and commit it (raises ``IllegalAction`` before touching anything)."""
    engine = get_engine(match.game)
    match.state = engine.apply(match.state, seat, action)
    if engine.is_over(match.state):
        match.status = "finished"
    fresh = refresh_tokens(match, match.version + 1, mover=seat)
    await storage.save(match, move=(seat, encode_action(action)))
    return fresh
