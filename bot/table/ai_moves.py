"""What an AI seat (or an absent player's seat) is given to decide, as pure functions of the
stored match: exactly that seat's view and legal actions, and a seed derived from the match
and the decision, so a restart replays the same move.

``bot.table.ai_seats`` runs these decisions in worker processes; the timers use
:func:`normal_move` for timeouts and autopilot (the normal level takes about a millisecond).
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from bot.presentation.i18n import Translator
from bot.storage import Match, Seat
from games import get_engine
from games.ai import choose, game_ai
from games.core import Action

log = logging.getLogger(__name__)

# the levels offered in a lobby ("random" is the arena's baseline, not a player)
LOBBY_LEVELS = ("easy", "normal", "hard")
NORMAL = "normal"
HARD = "hard"
# A hard seat thinks for its time, but never past this many times the game's iterations
# (about a second on a 2-core machine): a fast machine plays the same strength sooner.
MOST_ITERATIONS = 4


def decision_seed(match: Match, seat: Seat) -> int:
    """The same number for the same decision: the match, the seat, and the version at which
    the seat's decision began (its token — in a simultaneous phase the others' moves leave
    it alone)."""
    raw = f"{match.id}:{seat.seat}:{seat.token}".encode()
    return int.from_bytes(hashlib.blake2s(raw, digest_size=6).digest(), "big")


def decision_args(
    match: Match, seat: Seat, level: str, seconds: float | None = None
) -> tuple[Any, ...] | None:
    """The arguments of :func:`games.ai.choose` for this seat now (None: nothing to decide).
    Plain data: cheap to hand to a worker process. ``seconds``: the hard level's thinking
    time (``AI_THINK_SECONDS``); it stops sooner at :data:`MOST_ITERATIONS` times the
    game's iterations, where a fast machine gets there first."""
    engine = get_engine(match.game)
    legal = engine.legal_actions(match.state, seat.seat)
    if not legal:
        return None
    view = engine.view(match.state, seat.seat)
    args = (match.game, level, view, seat.seat, legal, decision_seed(match, seat))
    if level == HARD and seconds is not None:
        return (*args, game_ai(match.game).iterations * MOST_ITERATIONS, seconds)
    return args


def normal_move(match: Match, seat: Seat) -> Action:
    """The normal AI's move for an absent player (a timeout, autopilot); the engine's
    cheapest default move if the AI fails."""
    engine = get_engine(match.game)
    args = decision_args(match, seat, NORMAL)
    if args is not None:
        try:
            return tuple(choose(*args))
        except Exception:
            log.exception("match %s: the AI failed for seat %s", match.id, seat.seat)
    return engine.default_action(match.state, seat.seat)


def ai_name(t: Translator, level: str) -> str:
    """An AI seat's name: "🤖 Normal Bot"."""
    return t(f"ai.name.{level}")


def next_ai_user_id(match: Match) -> int:
    """A user id for a new AI seat: negative (no Telegram user has one) and unused in the
    match."""
    return min([0] + [seat.user_id for seat in match.seats if seat.is_ai]) - 1
