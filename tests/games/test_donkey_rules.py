"""Who's the Donkey? rules (docs/rules/donkey.md), the rulebook's worked examples and the
edge cases: the donkey lock, emptying a hand in a donkey round, timed matches, shared ties."""

import copy
import json
from collections import Counter

import pytest
from pydantic import ValidationError

from games.core import IllegalAction, InvariantViolation, clone_state
from games.donkey.engine import (
    DECK_SIZE,
    DONKEY_DEPTH,
    ENGINE,
    FULL_COUNTS,
    HAND_SIZES,
    SLOTS,
    TIMED_MATCH_MAX_HANDS,
    penalty,
)
from tests.games.donkey_helpers import (
    DONKEY,
    JOKER,
    LEAD_DONKEY,
    PASS,
    apply_all,
    card,
    events,
    hand,
    play,
    play_out,
    rigged,
)

# -- components and setup -----------------------------------------------------------------


def test_deck_has_104_number_cards_five_jokers_and_the_donkey():
    assert DECK_SIZE == 110
    assert FULL_COUNTS[DONKEY] == 1 and FULL_COUNTS[JOKER] == 5
    assert [FULL_COUNTS[value] for value in range(1, 14)] == [8] * 13


def test_hand_sizes_by_player_count_decision():
    assert {
        **{players: 13 for players in range(3, 9)},
        9: 12,
        10: 11,
        11: 10,
        12: 9,
    } == HAND_SIZES


@pytest.mark.parametrize("players", range(3, 13))
def test_deal_gives_every_player_the_same_hand_size_and_keeps_the_rest_undealt(players):
    state = ENGINE.new_game(players, seed=players)
    size = HAND_SIZES[players]
    public = ENGINE.view(state, None)
    assert public["hand_sizes"] == [size] * players
    assert sum(state["undealt"]) == 110 - players * size
    everything = Counter()
    for seat in range(players):
        everything.update(hand(state, seat))
    everything.update({value: n for value, n in enumerate(state["undealt"]) if n})
    assert everything == Counter({value: n for value, n in enumerate(FULL_COUNTS)})
    assert "undealt" not in public and "hand" not in public


def test_three_players_get_13_cards_and_twelve_players_get_9():
    assert ENGINE.view(ENGINE.new_game(3, seed=1), None)["hand_sizes"] == [13, 13, 13]
    twelve = ENGINE.new_game(12, seed=1)
    assert ENGINE.view(twelve, None)["hand_sizes"] == [9] * 12
    assert sum(twelve["undealt"]) == 2


@pytest.mark.parametrize("players", [3, 4, 12])
def test_the_donkey_is_always_dealt_and_its_holder_leads_first(players):
    holders = Counter()
    for seed in range(150):
        state = ENGINE.new_game(players, seed=seed)
        assert state["undealt"][DONKEY] == 0
        public = ENGINE.view(state, None)
        holder = public["donkey_holder"]
        assert hand(state, holder).count(DONKEY) == 1
        assert ENGINE.to_act(state) == {holder}
        assert public["leader"] == holder and public["pending"] == "lead"
        holders[holder] += 1
    # Dealt one card at a time, the top 39 cards spread over every seat.
    assert set(holders) == set(range(min(players, DONKEY_DEPTH)))


def test_with_three_players_a_donkey_placed_anywhere_would_often_be_undealt():
    # Only 39 of 110 cards are dealt with three players: the top-39 insertion is what keeps
    # the donkey in play (checked above); here: the deal really leaves 71 cards out.
    state = ENGINE.new_game(3, seed=5)
    assert sum(state["undealt"]) == 71 and DONKEY_DEPTH == 3 * 13


def test_options_defaults_and_choices():
    assert ENGINE.options().model_dump() == {"hands": 3, "time_limit_minutes": 0}
    assert ENGINE.options({"hands": 10, "time_limit_minutes": 60}).hands == 10
    with pytest.raises(ValidationError):
        ENGINE.options({"hands": 4})
    with pytest.raises(ValidationError):
        ENGINE.options({"time_limit_minutes": 45})
    with pytest.raises(ValueError):
        ENGINE.new_game(2)
    with pytest.raises(ValueError):
        ENGINE.new_game(13)


# -- a normal round -------------------------------------------------------------------------

ALEX, BARBARA, CHRIS, DANIEL, ERIC = range(5)


def test_rulebook_example_normal_round_daniel_leads_next():
    state = rigged(
        [
            [6, 6, 6, 2, 3],  # Alex
            [8, 8, JOKER, 4],  # Barbara
            [9, 9, 12, 13],  # Chris
            [10, 10, 10, 5],  # Daniel
            [DONKEY, 7, 7, 11],  # Eric
        ],
        turn=ALEX,
    )
    played_before = list(state["played"])
    start = len(state["log"])
    state = apply_all(
        state,
        [
            (ALEX, play(6, 3)),
            (BARBARA, play(8, 3, jokers=1)),
            (CHRIS, PASS),
            (DANIEL, play(10, 3)),
        ],
    )
    view = ENGINE.view(state, ERIC)
    assert view["pending"] == "follow" and view["count"] == 3
    assert view["best_seat"] == DANIEL and view["best_value"] == 10
    assert [play["seat"] for play in view["plays"]] == [ALEX, BARBARA, CHRIS, DANIEL]
    assert view["plays"][1]["cards"] == [8, 8, JOKER]
    state = ENGINE.apply(state, ERIC, PASS)
    public = ENGINE.view(state, None)
    assert ENGINE.to_act(state) == {DANIEL}
    assert public["leader"] == DANIEL and public["pending"] == "lead" and public["plays"] == []
    (won,) = events(state, "round_won", start)
    assert won["seat"] == DANIEL and won["value"] == 10 and won["count"] == 3
    assert not won["donkey"]
    # The played cards leave the game.
    assert [state["played"][v] - played_before[v] for v in (6, 8, 10, JOKER)] == [3, 2, 3, 1]
    assert sum(state["played"]) - sum(played_before) == 9
    assert public["hand_sizes"] == [2, 1, 4, 1, 4]
    assert [event["type"] for event in state["log"][start:]] == [
        "play",
        "play",
        "pass",
        "play",
        "pass",
        "round_won",
    ]


def test_a_joker_takes_the_value_of_the_cards_it_joins():
    state = rigged([[10, 10, JOKER, 2], [10, 10, 10, 11, 11, 11], [DONKEY, 3, 4, 5]], turn=0)
    state = ENGINE.apply(state, 0, play(10, 3, jokers=1))  # three 10s
    assert not ENGINE.is_legal(state, 1, play(10, 3))  # equal is not higher
    assert ENGINE.legal_actions(state, 1) == [PASS, play(11, 3)]


def test_a_lead_may_be_any_number_of_equal_cards_decision():
    state = rigged([[7, 7, 7, JOKER, JOKER, 1], [2, 3], [DONKEY, 4]], turn=0)
    actions = ENGINE.legal_actions(state, 0)
    assert play(7, 5, jokers=2) in actions  # five 7s
    assert play(7, 1) in actions and play(1, 1) in actions
    assert play(JOKER, 2, jokers=2) in actions  # jokers alone
    assert PASS not in actions  # the leader may not pass
    assert play(7, 6, jokers=3) not in actions  # only two jokers
    assert play(7, 3, jokers=3) not in actions  # a set of value 7 needs a real 7
    assert play(JOKER, 2, jokers=1) not in actions
    assert play(1, 2) not in actions  # only one 1
    assert LEAD_DONKEY not in actions  # seat 0 does not hold the donkey
    for bad in [PASS, play(7, 0), play(1, 2), (1, 15, 1, 0), (1, 7, 2), (2, 0), (9,)]:
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 0, bad)
    state = ENGINE.apply(state, 0, play(7, 5, jokers=2))
    # The others hold fewer than five cards: the engine passes for them (a public fact),
    # so the round is over at once and seat 0 leads again.
    assert events(state, "round_won")[-1]["count"] == 5
    assert ENGINE.to_act(state) == {0} and ENGINE.view(state, None)["pending"] == "lead"
    assert [event["forced"] for event in events(state, "pass")] == [True, True]


def test_followers_must_match_the_count_and_play_strictly_higher():
    state = rigged([[5, 5, 2], [5, 5, 6, 6, 9, JOKER], [DONKEY, 13, 13, 3]], turn=0)
    state = ENGINE.apply(state, 0, play(5, 2))
    assert ENGINE.legal_actions(state, 1) == [
        PASS,
        play(6, 2),
        play(6, 2, jokers=1),
        play(9, 2, jokers=1),
    ]
    assert not ENGINE.is_legal(state, 1, play(6, 1))  # wrong count
    assert not ENGINE.is_legal(state, 1, play(5, 2))  # not higher
    assert not ENGINE.is_legal(state, 1, LEAD_DONKEY)
    assert not ENGINE.is_legal(state, 2, play(13, 2))  # not seat 2's turn yet
    state = ENGINE.apply(state, 1, play(9, 2, jokers=1))
    assert ENGINE.legal_actions(state, 2) == [PASS, play(13, 2)]
    state = ENGINE.apply(state, 2, play(13, 2))
    # One lap only: the round is over and seat 2 leads; seat 0 (the leader) gets no 2nd turn.
    assert ENGINE.view(state, None)["leader"] == 2 and ENGINE.to_act(state) == {2}
    assert events(state, "round_won")[-1]["seat"] == 2


def test_a_player_who_passed_does_not_come_back_and_a_leader_everyone_passed_leads_again():
    state = rigged([[4, 8], [5, 9], [DONKEY, 6, 10]], turn=0)
    state = apply_all(state, [(0, play(4, 1)), (1, PASS), (2, play(6, 1))])
    assert ENGINE.to_act(state) == {2}  # new round; seat 1 never had another chance
    state = apply_all(state, [(2, play(10, 1)), (0, PASS), (1, PASS)])
    assert ENGINE.to_act(state) == {2} and ENGINE.view(state, None)["pending"] == "lead"


def test_jokers_alone_are_worth_14_and_cannot_be_beaten_decision():
    state = rigged([[JOKER, JOKER, 3], [13, 13, 1], [DONKEY, JOKER, JOKER, 2]], turn=1)
    state = ENGINE.apply(state, 1, play(13, 2))
    assert ENGINE.legal_actions(state, 2) == [PASS, play(JOKER, 2, jokers=2)]
    state = ENGINE.apply(state, 2, play(JOKER, 2, jokers=2))
    # Nothing beats 14: seat 0 is passed for automatically, and seat 2 won the round.
    assert ENGINE.to_act(state) == {2}
    assert events(state, "pass")[-1] == {"type": "pass", "seat": 0, "forced": True}
    assert events(state, "round_won")[-1]["value"] == 14


def test_a_player_with_fewer_cards_than_the_count_can_only_pass():
    state = rigged([[3, 3, 3, 1], [12, 12], [DONKEY, 4, 4, 4, 13, 13]], turn=0)
    state = ENGINE.apply(state, 0, play(3, 3))
    assert ENGINE.to_act(state) == {2}  # seat 1 (two cards) was passed for
    assert ENGINE.legal_actions(state, 1) == []
    assert events(state, "pass") == [{"type": "pass", "seat": 1, "forced": True}]


def test_a_follower_who_cannot_raise_still_chooses_to_pass():
    # Holding enough cards is public, being unable to raise is not: no automatic pass.
    state = rigged([[12, 2], [3, 4], [DONKEY, 5]], turn=0)
    state = ENGINE.apply(state, 0, play(12, 1))
    assert ENGINE.to_act(state) == {1} and ENGINE.legal_actions(state, 1) == [PASS]


# -- the donkey round -----------------------------------------------------------------------

D_DANIEL, D_BARBARA, D_CHRIS, D_ALEX, D_ERIC = range(5)  # the seat order of example 6.2


def example_donkey_round():
    state = rigged(
        [
            [DONKEY, 9, 10],  # Daniel
            [2, 5, 9],  # Barbara
            [1, 7],  # Chris
            [2, 4, 11],  # Alex
            [1, 3, 12, 13],  # Eric
        ],
        turn=D_DANIEL,
    )
    return apply_all(
        state,
        [
            (D_DANIEL, LEAD_DONKEY),
            (D_BARBARA, card(2)),
            (D_CHRIS, card(1)),
            (D_ALEX, card(2)),
            (D_ERIC, card(1)),
        ],
    )


def test_rulebook_example_donkey_round_alex_takes_all_five_cards():
    state = example_donkey_round()
    public = ENGINE.view(state, None)
    taken = events(state, "round_won")[-1]
    assert taken["donkey"] and taken["seat"] == D_ALEX and taken["worth"] == 2
    assert sorted(taken["cards"]) == [DONKEY, 1, 1, 2, 2]
    assert hand(state, D_ALEX) == [DONKEY, 1, 1, 2, 2, 4, 11]
    assert public["donkey_holder"] == D_ALEX and public["hand_sizes"] == [2, 2, 1, 7, 3]
    assert ENGINE.to_act(state) == {D_ALEX} and public["leader"] == D_ALEX


def test_donkey_round_moves_no_pass_any_value_one_card():
    state = rigged([[DONKEY, 9, 10], [2, 5, 9, JOKER], [1, 7]], turn=0)
    assert LEAD_DONKEY in ENGINE.legal_actions(state, 0)
    state = ENGINE.apply(state, 0, LEAD_DONKEY)
    public = ENGINE.view(state, None)
    assert public["donkey_round"] and public["pending"] == "donkey_card"
    assert public["donkey_holder"] is None  # on the table
    assert ENGINE.legal_actions(state, 1) == [card(2), card(5), card(9), card(JOKER)]
    for bad in [PASS, play(9, 1), card(3), card(0), (3,), LEAD_DONKEY]:
        assert not ENGINE.is_legal(state, 1, bad)
    assert events(state, "donkey_led") == [{"type": "donkey_led", "seat": 0, "left": 2}]


def test_in_a_donkey_round_a_joker_is_worth_1_and_the_last_of_the_highest_takes():
    state = rigged([[DONKEY, 9], [JOKER, 5], [1, 7], [JOKER, 8]], turn=0)
    state = apply_all(state, [(0, LEAD_DONKEY), (1, card(JOKER)), (2, card(1)), (3, card(JOKER))])
    taken = events(state, "round_won")[-1]
    assert taken["seat"] == 3 and taken["worth"] == 1
    assert events(state, "donkey_card")[0]["worth"] == 1
    # A real 2 beats a joker there.
    state = rigged([[DONKEY, 9], [2, 5], [JOKER, 7]], turn=0)
    state = apply_all(state, [(0, LEAD_DONKEY), (1, card(2)), (2, card(JOKER))])
    assert events(state, "round_won")[-1]["seat"] == 1


def test_only_the_leader_may_lead_the_donkey_and_only_alone():
    state = rigged([[5, 9], [DONKEY, 6, 10], [1, 7]], turn=0)
    state = ENGINE.apply(state, 0, play(5, 1))
    assert LEAD_DONKEY not in ENGINE.legal_actions(state, 1)  # a follower
    assert not any(action[1] == DONKEY for action in ENGINE.legal_actions(state, 1)[1:])
    state = apply_all(state, [(1, play(6, 1)), (2, PASS)])
    assert LEAD_DONKEY in ENGINE.legal_actions(state, 1)  # now the leader


def test_the_taker_may_not_lead_the_donkey_in_the_next_round():
    state = example_donkey_round()
    public = ENGINE.view(state, None)
    assert public["donkey_locked"]
    actions = ENGINE.legal_actions(state, D_ALEX)
    assert LEAD_DONKEY not in actions and play(11, 1) in actions
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, D_ALEX, LEAD_DONKEY)


def test_the_lock_ends_when_the_taker_wins_a_round_even_if_everyone_passed():
    state = example_donkey_round()
    state = apply_all(
        state,
        [(D_ALEX, play(11, 1)), (D_ERIC, PASS), (D_DANIEL, PASS), (D_BARBARA, PASS)],
    )
    # Chris holds one card and had to be asked (one card is enough to follow a single).
    state = ENGINE.apply(state, D_CHRIS, PASS)
    assert ENGINE.to_act(state) == {D_ALEX}
    assert not ENGINE.view(state, None)["donkey_locked"]
    assert LEAD_DONKEY in ENGINE.legal_actions(state, D_ALEX)


def test_the_lock_stays_with_the_donkey_until_its_holder_wins_a_round():
    state = example_donkey_round()
    state = apply_all(
        state,
        [
            (D_ALEX, play(4, 1)),
            (D_ERIC, play(13, 1)),
            (D_DANIEL, PASS),
            (D_BARBARA, PASS),
            (D_CHRIS, PASS),
        ],
    )
    assert ENGINE.to_act(state) == {D_ERIC} and not ENGINE.view(state, None)["donkey_locked"]
    state = apply_all(
        state,
        [
            (D_ERIC, play(3, 1)),
            (D_DANIEL, PASS),
            (D_BARBARA, PASS),
            (D_CHRIS, PASS),
            (D_ALEX, play(11, 1)),
        ],
    )
    assert ENGINE.to_act(state) == {D_ALEX}
    assert LEAD_DONKEY in ENGINE.legal_actions(state, D_ALEX)


def test_the_player_dealt_the_donkey_may_lead_it_in_the_very_first_round():
    state = ENGINE.new_game(4, seed=11)
    holder = ENGINE.view(state, None)["donkey_holder"]
    assert LEAD_DONKEY in ENGINE.legal_actions(state, holder)
    assert not ENGINE.view(state, None)["donkey_locked"]


# -- end of a hand and scoring --------------------------------------------------------------


def test_penalties_face_value_joker_14_donkey_20():
    counts = [0] * SLOTS
    for value in [DONKEY, JOKER, 13, 1, 1]:
        counts[value] += 1
    assert penalty(counts) == 20 + 14 + 13 + 2


def test_the_hand_ends_at_the_end_of_the_round_in_which_someone_runs_out():
    state = rigged(
        [[7, 7], [9, 9, 12, JOKER], [DONKEY, 13, 3, 3], [1, 1, 2]], turn=0, options={"hands": 3}
    )
    state = ENGINE.apply(state, 0, play(7, 2))  # seat 0 is out of cards
    assert ENGINE.to_act(state) == {1} and state["hand_no"] == 1  # the round goes on
    start = len(state["log"])
    state = apply_all(state, [(1, play(9, 2)), (2, PASS), (3, PASS)])
    (ended,) = events(state, "hand_ended", start)
    assert ended["out"] == [0]
    assert ended["left"] == [[], [12, JOKER], [DONKEY, 3, 3, 13], [1, 1, 2]]
    assert ended["penalties"] == [0, 26, 39, 4] == ended["totals"]
    assert state["totals"] == [0, 26, 39, 4] and state["history"] == [[0, 26, 39, 4]]
    # The next hand is dealt at once and led by the new donkey holder.
    public = ENGINE.view(state, None)
    assert public["hand_no"] == 2 and public["hands_played"] == 1
    assert public["hand_sizes"] == [13] * 4 and public["round_no"] == 1
    assert ENGINE.to_act(state) == {public["donkey_holder"]}
    assert events(state, "hand_started")[-1]["hand_no"] == 2


def test_several_players_running_out_in_one_round_all_score_zero():
    state = rigged([[5], [8], [DONKEY, 2, 2]], turn=0, options={"hands": 1})
    state = apply_all(state, [(0, play(5, 1)), (1, play(8, 1)), (2, PASS)])
    (ended,) = events(state, "hand_ended")
    assert ended["out"] == [0, 1] and ended["penalties"] == [0, 0, 24]
    assert ENGINE.is_over(state)


def test_emptying_a_hand_in_a_donkey_round_but_taking_the_cards_goes_on():
    state = rigged([[DONKEY, 3, 4], [1, 6], [13]], turn=0, options={"hands": 1})
    state = apply_all(state, [(0, LEAD_DONKEY), (1, card(1)), (2, card(13))])
    # Seat 2 played its last card but takes the round: it holds cards again.
    assert not events(state, "hand_ended")
    assert hand(state, 2) == [DONKEY, 1, 13] and ENGINE.to_act(state) == {2}
    assert not ENGINE.is_over(state)


def test_emptying_a_hand_in_a_donkey_round_without_taking_ends_the_hand():
    state = rigged([[DONKEY, 3, 4], [6], [13, 2]], turn=0, options={"hands": 1})
    state = apply_all(state, [(0, LEAD_DONKEY), (1, card(6)), (2, card(13))])
    (ended,) = events(state, "hand_ended")
    assert ended["out"] == [1]
    assert ended["penalties"] == [7, 0, 20 + 6 + 13 + 2]
    assert ENGINE.is_over(state)


def test_leading_the_donkey_as_the_last_card_empties_the_hand():
    state = rigged([[DONKEY], [6, 1], [13, 2]], turn=0, options={"hands": 1})
    assert ENGINE.legal_actions(state, 0) == [LEAD_DONKEY]
    assert ENGINE.default_action(state, 0) == LEAD_DONKEY
    state = apply_all(state, [(0, LEAD_DONKEY), (1, card(1)), (2, card(2))])
    (ended,) = events(state, "hand_ended")
    assert ended["out"] == [0] and ended["penalties"] == [0, 6, 20 + 1 + 2 + 13]


def test_a_match_of_n_hands_ends_after_the_nth_hand():
    for hands in (1, 3, 5):
        state = play_out(ENGINE.new_game(4, {"hands": hands}, seed=hands))
        assert ENGINE.is_over(state) and len(state["history"]) == hands
        assert len(events(state, "hand_ended")) == hands
        assert [sum(col) for col in zip(*state["history"], strict=True)] == state["totals"]
        (ended,) = events(state, "match_ended")
        assert ended["hands_played"] == hands and ended["totals"] == state["totals"]
        assert ENGINE.to_act(state) == frozenset() and ENGINE.legal_actions(state, 0) == []


def test_lowest_total_wins_and_a_tie_is_shared_decision():
    state = rigged([[5], [8], [DONKEY, 2, 2], [JOKER, 1]], turn=0, options={"hands": 1})
    state = apply_all(state, [(0, play(5, 1)), (1, play(8, 1)), (2, PASS), (3, PASS)])
    result = ENGINE.result(state)
    assert result.scores == [0, 0, 24, 15]
    assert result.ranks == [1, 1, 4, 3] and result.winners == [0, 1]
    assert result.details["lower_is_better"] and result.details["hands_played"] == 1
    assert events(state, "match_ended")[0]["winners"] == [0, 1]


def test_totals_add_up_over_hands_and_rank_the_whole_match():
    state = ENGINE.new_game(3, {"hands": 3}, seed=4)
    state["totals"] = [10, 3, 10]
    state["history"] = [[10, 3, 10]]
    state["hand_no"] = 2
    state = play_out(state)
    result = ENGINE.result(state)
    assert len(state["history"]) == 3
    assert result.scores == [sum(row[seat] for row in state["history"]) for seat in range(3)]
    best = min(result.scores)
    assert result.winners == [seat for seat in range(3) if result.scores[seat] == best]
    assert result.details["penalties_by_hand"][0] == [10, 3, 10]


# -- timed matches --------------------------------------------------------------------------


def test_a_timed_match_ignores_the_hand_count_until_the_time_is_up():
    state = ENGINE.new_game(4, {"hands": 1, "time_limit_minutes": 30}, seed=8)
    state = play_out(state, stop=lambda s: s["hand_no"] == 3 and s["round_no"] == 3)
    assert not ENGINE.is_over(state) and len(state["history"]) == 2
    before = clone_state(state)
    timed = ENGINE.time_up(state)
    assert state == before  # pure
    assert timed["last_hand"] and ENGINE.view(timed, None)["last_hand"]
    assert events(timed, "time_up") == [{"type": "time_up", "hand_no": 3, "ends_now": False}]
    assert ENGINE.time_up(timed)["log"] == timed["log"]  # a second call changes nothing
    finished = play_out(timed)
    assert len(finished["history"]) == 3  # the hand in progress was finished, then the end
    assert events(finished, "match_ended")[0]["hands_played"] == 3


def test_time_up_before_anyone_played_in_a_new_hand_ends_the_match_at_once():
    state = ENGINE.new_game(3, {"time_limit_minutes": 15}, seed=2)
    state = play_out(state, stop=lambda s: s["hand_no"] == 2)
    assert state["round_no"] == 1 and not state["plays"]
    timed = ENGINE.time_up(state)
    assert ENGINE.is_over(timed) and ENGINE.to_act(timed) == frozenset()
    assert events(timed, "time_up")[-1]["ends_now"]
    assert ENGINE.result(timed).details["hands_played"] == 1
    assert ENGINE.result(timed).scores == state["history"][0]
    ENGINE.check_invariants(timed)
    ENGINE.check_views(timed)
    assert ENGINE.time_up(timed)["log"] == timed["log"]


def test_time_up_in_the_first_hand_lets_that_hand_be_played():
    state = ENGINE.new_game(3, {"time_limit_minutes": 60}, seed=3)
    timed = ENGINE.time_up(state)
    assert not ENGINE.is_over(timed) and timed["last_hand"]
    assert len(play_out(timed)["history"]) == 1


def test_a_timed_match_stops_at_the_safety_cap_if_time_up_never_comes():
    state = play_out(ENGINE.new_game(3, {"time_limit_minutes": 15}, seed=6))
    assert len(state["history"]) == TIMED_MATCH_MAX_HANDS


# -- views, defaults, purity ----------------------------------------------------------------


def test_views_show_hand_sizes_and_the_donkey_holder_but_only_the_own_hand():
    state = rigged([[DONKEY, 3, 4], [6, 6, 8], [13, 2]], turn=1)
    public = ENGINE.view(state, None)
    assert public["hand_sizes"] == [3, 3, 2] and public["donkey_holder"] == 0
    assert "hand" not in public and "hands" not in public and "undealt" not in public
    assert public["turn"] == 1 and public["leader"] == 1 and public["totals"] == [0, 0, 0]
    assert ENGINE.view(state, 1)["hand"] == [6, 6, 8]
    assert ENGINE.view(state, 0)["hand"] == [DONKEY, 3, 4]
    ENGINE.check_views(state)


def test_check_views_catches_a_leaking_view(monkeypatch):
    state = rigged([[DONKEY, 3, 4], [6, 6, 8], [13, 2]], turn=1)
    original = ENGINE.view

    def leaky(state, seat):
        view = original(state, seat)
        view["peek"] = hand(state, 2)
        return view

    monkeypatch.setattr(ENGINE, "view", leaky)
    with pytest.raises(InvariantViolation):
        ENGINE.check_views(state)


def test_check_invariants_catches_a_lost_card():
    state = rigged([[DONKEY, 3, 4], [6, 6, 8], [13, 2]], turn=1)
    state["hands"][SLOTS + 6] -= 1
    with pytest.raises(InvariantViolation):
        ENGINE.check_invariants(state)


def test_default_actions():
    state = rigged([[3, 3, 9, 9, 2, DONKEY, JOKER], [1, 5, JOKER], [4, 4, 4, 13]], turn=0)
    assert ENGINE.default_action(state, 0) == play(3, 2)  # most copies, lowest value
    state = ENGINE.apply(state, 0, play(3, 2))
    assert ENGINE.default_action(state, 1) == PASS
    state = rigged([[JOKER, JOKER, DONKEY], [1, 5], [4, 13]], turn=0)
    assert ENGINE.default_action(state, 0) == play(JOKER, 2, jokers=2)  # never the donkey
    state = rigged([[DONKEY, 9], [5, JOKER, 1], [4, 13]], turn=0)
    state = ENGINE.apply(state, 0, LEAD_DONKEY)
    assert ENGINE.default_action(state, 1) == card(JOKER)  # worth 1, sheds 14 points
    state = ENGINE.apply(state, 1, card(5))
    assert ENGINE.default_action(state, 2) == card(4)
    with pytest.raises(IllegalAction):
        ENGINE.default_action(state, 0)


def test_illegal_moves_raise_and_change_nothing():
    state = rigged([[DONKEY, 3, 4], [6, 6, 8], [13, 2]], turn=0)
    snapshot = clone_state(state)
    for seat, action in [(1, play(6, 2)), (0, PASS), (0, card(3)), (3, play(3, 1)), (0, ())]:
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, seat, action)
    assert state == snapshot


def test_apply_is_pure_and_gives_what_a_move_on_a_whole_copy_gives():
    """A move shares with the state it was given the lists it leaves alone (copy on write):
    no move, tried or played, ever changes a state that was passed through (checked on JSON
    snapshots at the end of the match, log entries included), and every legal move gives
    the same next state whether it is played on the state or on a deep copy of it."""
    state = ENGINE.new_game(5, seed=9)
    passed = []
    while not ENGINE.is_over(state):
        passed.append((state, json.dumps(state, sort_keys=True)))
        (seat,) = ENGINE.to_act(state)
        actions = ENGINE.legal_actions(state, seat)
        for action in actions:
            assert ENGINE.apply(state, seat, action) == ENGINE.apply(
                copy.deepcopy(state), seat, action
            )
        state = ENGINE.apply(state, seat, actions[-1])
    assert len(passed) > 60
    for earlier, snapshot in passed:
        assert json.dumps(earlier, sort_keys=True) == snapshot
