"""Sultan's tree search imagines the cards under the others' face-down bids by how likely a
good player would have made those bids (``games.sultan.bid_belief``): its deals show the
seat exactly its view, come nearer the real cards than deals at random, and hard-v1 and
the reference (the arena's yardsticks) keep the deals at random."""

from __future__ import annotations

import random
import statistics

import pytest

from games import get_engine
from games.ai import choose
from games.sultan.ai import AI, SultanAI
from games.sultan.bid_belief import likely_state, state_before_bid
from games.sultan.engine import bid_seats
from games.sultan.sampling import sample_state

ENGINE = get_engine("sultan")


def bids_of_normal_players(players: int, seed: int):
    """Every position of a game of normal players where the seat to bid has another's
    face-down bid before it: (real state, view, seat)."""
    state = ENGINE.new_game(players, {}, seed)
    rng = random.Random(seed)
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_act(state)
        view = ENGINE.view(state, seat)
        if any(bidder != seat for bidder, _ in view["bids"]):
            yield state, view, seat
        legal = ENGINE.legal_actions(state, seat)
        state = ENGINE.apply(state, seat, AI.normal(view, seat, legal, rng))


def a_likely_state(view, seat, seed):
    return likely_state(view, seat, random.Random(seed), AI.action_values, AI.playout_view)


@pytest.mark.parametrize("players", [2, 3])
def test_a_likely_deal_shows_the_seat_exactly_its_view(players):
    checked = 0
    for number, (_, view, seat) in enumerate(bids_of_normal_players(players, seed=3)):
        deal = a_likely_state(view, seat, number)
        ENGINE.check_invariants(deal)
        assert ENGINE.view(deal, seat) == view
        checked += 1
    assert checked > 20


def test_with_no_face_down_bid_of_another_the_deal_is_one_at_random():
    state = ENGINE.new_game(2, {}, 4)
    (seat,) = ENGINE.to_act(state)
    view = ENGINE.view(state, seat)
    assert a_likely_state(view, seat, 9) == sample_state(view, seat, random.Random(9))


def test_the_position_before_a_bid_is_the_one_its_bidder_saw():
    """Taking the later bids back gives the very state each bid was made in."""
    state = ENGINE.new_game(3, {}, 5)
    rng = random.Random(5)
    seen = []  # the states of this circle before each bid
    compared = 0
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_act(state)
        if state["phase"] == "bid":
            seen = seen[: len(state["bid_cushions"])]
            seen.append(state)
            for index, before in enumerate(seen[:-1]):
                assert state_before_bid(state, index) == before
                compared += 1
        legal = ENGINE.legal_actions(state, seat)
        state = ENGINE.apply(state, seat, AI.normal(ENGINE.view(state, seat), seat, legal, rng))
    assert compared == 3 * 5 * (0 + 1 + 2)  # rounds, circles, earlier bids of each circle


def test_the_cards_imagined_under_the_others_bids_come_nearer_the_real_ones():
    """Over the face-down bids of games of normal players, the likely deals put under each
    a card nearer the real one than deals at random do, and the very card more often."""
    likely_error, random_error, likely_hits, random_hits = [], [], [], []
    for seed in (1, 2):
        for number, (state, view, seat) in enumerate(bids_of_normal_players(2, seed)):
            for draw in range(6):
                likely = a_likely_state(view, seat, number * 10 + draw)
                anyhow = sample_state(view, seat, random.Random(number * 10 + draw))
                for index, bidder in enumerate(bid_seats(state)[: len(view["bids"])]):
                    if bidder == seat:
                        continue
                    real = state["bid_values"][index]
                    likely_error.append(abs(likely["bid_values"][index] - real))
                    random_error.append(abs(anyhow["bid_values"][index] - real))
                    likely_hits.append(likely["bid_values"][index] == real)
                    random_hits.append(anyhow["bid_values"][index] == real)
    assert len(likely_error) > 200
    assert statistics.mean(likely_error) < 0.8 * statistics.mean(random_error)
    assert statistics.mean(likely_hits) > 1.5 * statistics.mean(random_hits)


def test_only_the_tree_search_weighs_the_deals(monkeypatch):
    """hard-v1 and the reference keep deals at random; the tree search asks for likely ones."""
    calls = []
    weigh = SultanAI.search_sample

    def counted(self, *args):
        calls.append(1)
        return weigh(self, *args)

    monkeypatch.setattr(SultanAI, "search_sample", counted)
    state, view, seat = next(iter(bids_of_normal_players(2, seed=6)))
    legal = ENGINE.legal_actions(state, seat)
    choose("sultan", "hard-v1", view, seat, legal, 3)
    choose("sultan", "reference", view, seat, legal, 3)
    assert not calls
    choose("sultan", "hard", view, seat, legal, 3, iterations=40)
    assert calls


def test_the_normal_players_estimate_of_a_bid_reads_no_hand():
    """The belief works out each face-down bid's estimates once, for every card: that holds
    because the normal player values a bid from what is public, whatever it holds."""
    checked = 0
    for state, view, seat in bids_of_normal_players(2, seed=8):
        legal = ENGINE.legal_actions(state, seat)
        other_hand = {**view, "hand": sorted(view["hand"])[:1]}
        rng = random.Random(0)
        assert AI.action_values(other_hand, seat, legal, rng) == AI.action_values(
            view, seat, legal, rng
        )
        checked += 1
    assert checked > 20


def test_bids_as_unlikely_as_can_be_still_leave_a_deal(monkeypatch):
    """At a temperature near zero every bid but the normal player's best is next to
    impossible: the chances are reckoned in logarithms, so a deal is still drawn, and it
    still shows the seat its view."""
    monkeypatch.setattr("games.sultan.bid_belief.TEMPERATURE", 1e-9)
    drawn = 0
    for number, (_, view, seat) in enumerate(bids_of_normal_players(2, seed=9)):
        assert ENGINE.view(a_likely_state(view, seat, number), seat) == view
        drawn += 1
    assert drawn > 20
