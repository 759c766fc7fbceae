"""The hard level's tree search (``games.ai.ismcts``): it stops at its budget, by count or
by the clock; it shares one tree across imagined deals and searches the opponents' moves
too; and it plays what it found best. (It never sees hidden information and never writes
into a view: tests/games/ai/test_no_cheating.py and test_read_only.py cover every level.)"""

import random

import pytest

import games.ai
from games import get_engine
from games.ai import choose, game_ai, ismcts
from games.ai.ismcts import CLOCK_EVERY, Limit, Node, Stat, decided, grow, search
from games.ai.search import hard_choice
from games.arena import arena
from tests.games.ai.helpers import positions


def a_decision(game: str, players: int, every: int = 7):
    """A real decision of a seeded game with several legal moves: (view, seat, legal)."""
    engine = get_engine(game)
    for state in positions(game, players, {}, seed=3, every=every):
        for seat in sorted(engine.to_act(state)):
            legal = engine.legal_actions(state, seat)
            if len(legal) > 3:
                return engine.view(state, seat), seat, legal
    raise AssertionError("no decision with a choice")


@pytest.fixture
def iterations(monkeypatch):
    """Counts the search's iterations."""
    done = []
    iterate = ismcts.iterate

    def counted(*args):
        done.append(1)
        return iterate(*args)

    monkeypatch.setattr(ismcts, "iterate", counted)
    return done


def test_the_count_bounds_the_search(iterations):
    view, seat, legal = a_decision("azul", 2)
    action = search(game_ai("azul"), view, seat, legal, random.Random(1), Limit(40))
    assert action in legal
    assert 0 < len(iterations) <= 40


def test_the_clock_stops_the_search(iterations, monkeypatch):
    """A search of a million iterations with a clock that runs a second per reading stops
    at the first reading past its time."""
    ticks = iter(range(10**6))
    monkeypatch.setattr(ismcts.time, "perf_counter", lambda: float(next(ticks)))
    view, seat, legal = a_decision("azul", 3)
    search(game_ai("azul"), view, seat, legal, random.Random(1), Limit(10**6, seconds=0.5))
    assert len(iterations) == CLOCK_EVERY


def test_the_search_stops_once_the_leader_cannot_be_caught():
    root = Node()
    root.stats[0] = {(1,): Stat(0.0), (2,): Stat(0.0)}
    root.stats[0][(1,)].visits, root.stats[0][(2,)].visits = 10, 2
    assert decided(root, 0, remaining=7)
    assert not decided(root, 0, remaining=8)
    root.stats[0] = {(1,): root.stats[0][(1,)]}  # a single action searched is not decided
    assert not decided(root, 0, remaining=0)


def test_the_next_seat_searches_its_own_choices_in_its_own_tree():
    """Who's the Donkey?: the others' hands are imagined anew each iteration; the next
    seat's tree holds its own choices below the searching seat's move, several tried."""
    ai = game_ai("donkey")
    view, seat, _legal = a_decision("donkey", 4)
    roots = grow(ai, view, seat, _legal, random.Random(2), Limit(300))
    assert sum(stat.visits for stat in roots[seat].stats[seat].values()) > 0
    following = (seat + 1) % 4
    below = [child for child in roots[following].children.values() if following in child.stats]
    assert below
    assert max(len(child.stats[following]) for child in below) > 1
    assert all(seat not in child.stats for child in below)  # never our choices in its tree


def test_a_sultan_bids_card_is_hidden_from_the_other_seats_tree():
    """The others' trees see a bid's cushion only: every bid on one cushion, whatever the
    card, leads to the same node of theirs, so no choice of theirs depends on it."""
    engine, ai = get_engine("sultan"), game_ai("sultan")
    for state in positions("sultan", 3, {}, seed=3, every=1):
        (seat,) = engine.to_act(state)
        legal = engine.legal_actions(state, seat)
        if all(action[0] == 1 for action in legal) and len({a[1] for a in legal}) < len(legal):
            break  # bids, several cards on one cushion
    view = engine.view(state, seat)
    roots = grow(ai, view, seat, legal, random.Random(3), Limit(200))
    mine = list(roots[seat].children)
    theirs = list(roots[(seat + 1) % 3].children)
    assert all(len(own) == 1 and len(own[0]) == 3 for own, _ in mine)  # kind, cushion, card
    assert all(own == () for own, _ in theirs)  # not their move
    assert all("'value'" not in event for _, seen in theirs for event in seen)
    assert len(theirs) < len(mine)


@pytest.mark.parametrize(("game", "players"), [("azul", 2), ("5211", 3)])
def test_the_most_visited_move_is_played_then_the_best_mean(game, players):
    ai = game_ai(game)
    view, seat, legal = a_decision(game, players)
    table = grow(ai, view, seat, legal, random.Random(4), Limit(200))[seat].stats[seat]

    def rank(action):
        stat = table[action]
        return (stat.visits, stat.total / stat.visits if stat.visits else 0.0)

    assert search(ai, view, seat, legal, random.Random(4), Limit(200)) == max(table, key=rank)


def test_where_luck_is_large_the_best_moves_are_compared_on_the_same_deals():
    """5211 (``paired_root``): the normal player's best moves each get every imagined deal,
    so their visits are equal; the others are not searched at the root."""
    ai = game_ai("5211")
    view, seat, legal = a_decision("5211", 3)
    assert len(legal) > ai.budget.candidates
    table = grow(ai, view, seat, legal, random.Random(6), Limit(120))[seat].stats[seat]
    visits = [stat.visits for stat in table.values() if stat.visits]
    assert len(visits) == ai.budget.candidates
    assert len(set(visits)) == 1 and visits[0] == 120 // ai.budget.candidates


def test_hard_v1_is_still_the_flat_search_for_the_arena():
    view, seat, legal = a_decision("azul", 2)
    expected = hard_choice(game_ai("azul"), view, seat, legal, random.Random(9))
    assert choose("azul", "hard-v1", view, seat, legal, 9) == expected


@pytest.mark.soak
@pytest.mark.parametrize("game", ["azul", "sultan"])
def test_the_tree_search_beats_the_flat_search_it_replaced(game):
    """A short arena at a small budget: the new hard wins more than hard-v1 on the same
    deals (docs/ai.md has the longer runs)."""
    report = arena(game, ["hard", "hard-v1"], 20, seed=5, jobs=2, iterations=300)
    levels = report["levels"]
    assert levels["hard"]["win_rate"] > levels["hard-v1"]["win_rate"], levels


def test_the_others_explore_by_their_own_multiple_of_the_bonus(monkeypatch):
    """``opponent_exploration`` scales the bonus of every seat but the searching one: the
    larger it is, the more the next seat's visits in its own tree spread over the moves the
    normal player considers, instead of settling on its preferred one."""
    ai = game_ai("azul")
    assert ismcts.exploration(ai, 0, 0) == ai.exploration
    assert ismcts.exploration(ai, 0, 1) == ai.exploration * ai.opponent_exploration
    view, seat, legal = a_decision("azul", 2)

    def share_of_preferred(multiple: float) -> float:
        monkeypatch.setattr(ai, "opponent_exploration", multiple)
        roots = grow(ai, view, seat, legal, random.Random(1), Limit(300))
        preferred = total = 0
        for child in roots[1 - seat].children.values():
            for table in child.stats.values():
                top = max(table.values(), key=lambda stat: stat.estimate)
                preferred += top.visits
                total += sum(stat.visits for stat in table.values())
        return preferred / total

    assert share_of_preferred(0.01) > share_of_preferred(100.0) + 0.3


@pytest.mark.parametrize("players", [2, 3])
def test_hard_in_5211_plays_hard_v1s_flat_search_and_no_tree(players, monkeypatch):
    """In 5211 the tree search only matched hard-v1, at about 7× its CPU (docs/ai.md): the
    hard level plays hard-v1's move there, and never starts a tree search."""

    def no_tree(*args, **kwargs):
        raise AssertionError("5211's hard level started a tree search")

    monkeypatch.setattr("games.ai.search", no_tree)
    engine = get_engine("5211")
    decided = 0
    for number, state in enumerate(positions("5211", players, {}, seed=4, every=5)):
        for seat in sorted(engine.to_act(state)):
            view, legal = engine.view(state, seat), engine.legal_actions(state, seat)
            hard = choose("5211", "hard", view, seat, legal, number, seconds=1.0)
            assert hard == choose("5211", "hard-v1", view, seat, legal, number)
            decided += len(legal) > 1
    assert decided >= 5


def test_the_other_games_hard_level_is_the_tree_search(monkeypatch):
    searched = []
    real = games.ai.search

    def noted(*args, **kwargs):
        searched.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr("games.ai.search", noted)
    for game, players in (("azul", 2), ("sultan", 3), ("donkey", 3), ("summer_pavilion", 2)):
        view, seat, legal = a_decision(game, players)
        choose(game, "hard", view, seat, legal, 1, iterations=20)
        assert searched and searched[-1] is game_ai(game), game
