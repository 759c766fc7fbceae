"""Builders of exact Who's the Donkey? positions for the rules tests."""

from games.donkey.engine import (
    DECK_SIZE,
    ENGINE,
    FULL_COUNTS,
    HAND_SIZES,
    SLOTS,
    cards_of,
    hand_of,
)

DONKEY, JOKER = 0, 14
PASS = (0,)
LEAD_DONKEY = (2,)


def play(value: int, count: int, jokers: int = 0) -> tuple[int, ...]:
    """A set of ``count`` cards of ``value`` of which ``jokers`` are jokers."""
    return (1, value, count, jokers)


def card(value: int) -> tuple[int, int]:
    """One card in a donkey round."""
    return (3, value)


def rigged(hands, turn, *, locked=False, round_no=2, options=None, seed=0):
    """A game whose hands are exactly ``hands`` (lists of card values, 0 = donkey, 14 =
    joker), with ``turn`` to lead a fresh round. The remaining cards fill the undealt pile up
    to its usual size; the rest count as played in earlier rounds of the hand."""
    n = len(hands)
    state = ENGINE.new_game(n, options, seed=seed)
    pool = list(FULL_COUNTS)
    flat = []
    for cards in hands:
        counts = [0] * SLOTS
        for value in cards:
            counts[value] += 1
            pool[value] -= 1
        flat += counts
    assert min(pool) >= 0, "the test asks for more cards than exist"
    assert pool[DONKEY] == 0, "the donkey must be in a hand"
    undealt = [0] * SLOTS
    need = DECK_SIZE - n * HAND_SIZES[n]
    for value in range(1, SLOTS):
        take = min(pool[value], need)
        undealt[value] += take
        pool[value] -= take
        need -= take
    assert need == 0
    state.update(hands=flat, undealt=undealt, played=pool, turn=turn, plays=[], locked=locked)
    state["round_no"] = round_no
    ENGINE.check_invariants(state)
    return state


def apply_all(state, moves):
    """Apply ``(seat, action)`` moves in order, checking the invariants after each."""
    for seat, action in moves:
        state = ENGINE.apply(state, seat, action)
        ENGINE.check_invariants(state)
        ENGINE.check_views(state)
    return state


def hand(state, seat):
    return cards_of(hand_of(state, seat))


def events(state, kind, since=0):
    return [event for event in state["log"][since:] if event["type"] == kind]


def play_out(state, stop=lambda state: False):
    """Play default actions until the match ends or ``stop(state)`` holds."""
    while not ENGINE.is_over(state) and not stop(state):
        (seat,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, ENGINE.default_action(state, seat))
    return state
