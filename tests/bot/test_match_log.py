"""The move log of a match: the readable file shows only what the group saw (a hidden card
or bid that was never revealed changes nothing in it), the JSON replays the match."""

from __future__ import annotations

import random

import pytest

from bot.i18n import LANGUAGES, translator
from bot.match_log import readable_log, replay, replay_document
from bot.storage import Match, Seat
from games import get_engine
from games.core import encode_action


def played(game: str, players: int, seed: int, moves: int | None = None, choose=None):
    """A match of random legal moves (``choose(legal, rng)`` picks; stops after ``moves``
    moves, or at the end) as the host stores it: a Match and its moves table."""
    engine = get_engine(game)
    state = engine.new_game(players, {}, seed=seed)
    rng = random.Random(seed)
    table = [(1, -1, "start")]
    while not engine.is_over(state) and (moves is None or len(table) - 1 < moves):
        seat = min(engine.to_act(state))
        legal = list(engine.legal_actions(state, seat))
        action = (choose or (lambda options, r: r.choice(options)))(legal, rng)
        state = engine.apply(state, seat, action)
        table.append((len(table) + 1, seat, encode_action(action)))
    seats = [Seat(n, 100 + n, f"Player{n}") for n in range(players)]
    match = Match(7, -1, 0, game, {}, "finished", 100, state=state, seats=seats)
    return match, table


@pytest.mark.parametrize("game", ["5211", "sultan", "donkey", "azul", "summer_pavilion"])
def test_the_json_replays_the_match_to_its_last_state(game):
    match, table = played(game, 3, seed=11)
    assert get_engine(game).is_over(match.state)
    assert replay(replay_document(match, table)) == match.state


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_line_per_move_in_the_readers_language_then_the_result(lang):
    match, table = played("5211", 3, seed=5)
    text = readable_log(translator(lang), match, table, "5211 #7")
    lines = text.splitlines()
    moves = [line for line in lines if line.split(".", 1)[0].isdigit()]
    assert len(moves) == len(table) - 1
    assert [int(line.split(".", 1)[0]) for line in moves] == list(range(1, len(table)))
    assert all("<" not in line for line in lines)  # plain text, no HTML
    assert translator(lang)("log.players", names="Player0, Player1, Player2") in lines
    final = get_engine("5211").result(match.state)
    winner = f"Player{final.ranks.index(1)}"
    assert winner in "\n".join(lines[lines.index("", 3) :])  # the standings at the end


def secret_moves_leave_no_trace(game: str, players: int, seed: int, is_secret, limit: int):
    """For every move of a match (up to ``limit``) that ``is_secret(engine, state, seat,
    action, after)``: cut the match right after it, and check that the same match with
    another choice there (one ``is_secret`` too) reads the same. Returns how many moves
    were checked."""
    engine = get_engine(game)
    full, table = played(game, players, seed)
    t = translator("en")
    state = engine.new_game(players, {}, seed=seed)
    checked = 0
    for cut in range(1, min(limit, len(table) - 1) + 1):
        _, seat, action = table[cut]
        after = engine.apply(state, seat, _decode(action))
        if is_secret(engine, state, seat, _decode(action), after):
            others = [
                a for a in engine.legal_actions(state, seat)
                if encode_action(a) != action and is_secret(engine, state, seat, a, None)
            ]  # fmt: skip
            if others:
                moves = table[: cut + 1]
                changed = [*moves[:-1], (moves[-1][0], seat, encode_action(others[-1]))]
                log = readable_log(t, full, moves, "x")
                assert log == readable_log(t, full, changed, "x"), f"move {cut} leaks"
                checked += 1
        state = after
    return checked


def _decode(text: str) -> tuple:
    return tuple(int(part) for part in text.split("."))


def test_a_5211_log_shows_no_card_that_was_not_revealed():
    """5211: the cards a player chooses are secret until everyone has chosen. Every choice
    that did not complete a part (so was not revealed yet) logs the same line whatever the
    cards — in a whole match, to its end."""

    def unrevealed(engine, state, seat, action, after):
        return len(engine.to_act(state)) > 1  # others still to choose: not revealed yet

    assert secret_moves_leave_no_trace("5211", 3, seed=4, is_secret=unrevealed, limit=500) >= 5


def test_a_sultan_log_shows_no_bid_that_was_not_revealed():
    """Sultan: which cushion a card goes on is public, its value secret until the circle's
    reveal. A bid that did not end its circle logs the same whatever card was bid on that
    cushion."""
    from games.sultan.engine import BID

    def hidden_bid(engine, state, seat, action, after):
        # the circle's last bid is revealed at once, with the others
        return action[0] == BID and engine.view(after, None)["phase"] == "bid"

    engine = get_engine("sultan")
    full, table = played("sultan", 3, seed=2)
    t = translator("en")
    state = engine.new_game(3, {}, seed=2)
    checked = 0
    for cut in range(1, 60):
        _, seat, action = table[cut]
        move = _decode(action)
        after = engine.apply(state, seat, move)
        if hidden_bid(engine, state, seat, move, after):
            others = [
                a for a in engine.legal_actions(state, seat)
                if a[0] == BID and a[1] == move[1] and encode_action(a) != action
            ]  # fmt: skip
            if others:
                moves = table[: cut + 1]
                changed = [*moves[:-1], (moves[-1][0], seat, encode_action(others[0]))]
                assert readable_log(t, full, moves, "x") == readable_log(t, full, changed, "x")
                checked += 1
        state = after
    assert checked >= 5
