"""The normal players' judgement in positions where the right move is plain, and the
easy level's mistakes."""

import random

from games import get_engine
from games.ai import choose
from games.g5211.ai import Tally, total_lead
from games.g5211.engine import FULL_DECK, score_round
from tests.games.ai.helpers import positions
from tests.games.donkey_helpers import apply_all, card, rigged


def normal(game, state, seat, seed=1):
    engine = get_engine(game)
    return choose(
        game, "normal", engine.view(state, seat), seat, engine.legal_actions(state, seat), seed
    )


def test_azul_normal_fills_a_line_exactly_rather_than_drop_tiles_on_the_floor():
    engine = get_engine("azul")
    state = engine.new_game(2, {}, 3)
    factories = []
    for index in range(5):  # two tiles each of two colours on every factory
        counts = [0] * 5
        counts[index % 5] = counts[(index + 2) % 5] = 2
        factories += counts
    state["factories"] = factories
    state["bag"] = [20 - sum(factories[colour::5]) for colour in range(5)]  # tiles conserved
    engine.check_invariants(state)
    source, colour, line = normal("azul", state, state["turn"])
    assert line == 1  # the only line that two tiles fill exactly: nothing on the floor
    assert source < 5 and factories[source * 5 + colour] == 2


def test_donkey_normal_leads_the_donkey_whenever_it_may():
    state = rigged([[0, 3, 3, 9], [2, 5, 7, 11], [4, 6, 8, 12]], turn=0)
    assert normal("donkey", state, 0) == (2,)


def test_donkey_normal_sheds_its_dearest_safe_card_in_a_donkey_round():
    state = rigged([[0, 3], [9, 4], [5, 6], [3, 7, 8, 12, 14]], turn=0)
    state = apply_all(state, [(0, (2,)), (1, card(9)), (2, card(5))])
    # last to play under a 9: a joker is worth 1 here and sheds 14 points
    assert normal("donkey", state, 3) == card(14)
    state = rigged([[0, 3], [9, 4], [5, 6], [3, 7, 8, 12]], turn=0)
    state = apply_all(state, [(0, (2,)), (1, card(9)), (2, card(5))])
    assert normal("donkey", state, 3) == card(8)  # the dearest card below the 9


def test_sultan_normal_fights_for_the_dearest_gem_with_a_good_card():
    engine = get_engine("sultan")
    state = engine.new_game(2, {}, 5)
    start = state["start"]
    state = engine.apply(state, start, engine.legal_actions(state, start)[0])
    returned = list(state["cushions"])
    state["bag"] = [
        count + returned.count(colour) - [0, 0, 4].count(colour)
        for colour, count in enumerate(state["bag"])
    ]
    state["cushions"] = [0, 0, 4]  # white, white, blue
    engine.check_invariants(state)
    _, cushion, value = normal("sultan", state, start)
    hand = engine.view(state, start)["hand"]
    assert cushion == 2 and value > min(hand)


def test_summer_pavilion_normal_keeps_the_next_rounds_wild_tiles():
    engine = get_engine("summer_pavilion")
    for state in positions("summer_pavilion", 2, {}, seed=9, every=1):
        seat = state["current"]
        view = engine.view(state, seat)
        hand = view["players"][seat]["hand"]
        wild = view["next_wild"]
        if view["phase"] == "keeping" and wild is not None and hand[wild] and sum(hand) > 1:
            assert normal("summer_pavilion", state, seat) == (4, wild)
            return
    raise AssertionError("no keeping step with next round's wild colour in hand")


def test_the_5211_round_tally_scores_as_the_rules_do():
    rng = random.Random(1)
    for _ in range(3000):
        players = rng.randint(2, 5)
        cards = rng.sample(FULL_DECK, 4 * players)
        table = [cards[i * 4 : i * 4 + rng.randint(0, 4)] for i in range(players)]
        seat = rng.randrange(players)
        points = score_round(table, players)["points"]
        want = points[seat] - (sum(points) - points[seat]) / (players - 1)
        others = Tally([c for other, on in enumerate(table) if other != seat for c in on])
        assert total_lead([others], [Tally(table[seat])], players) == want


def test_easy_mostly_plays_the_normal_move_and_sometimes_blunders():
    engine = get_engine("azul")
    same = differ = 0
    for number, state in enumerate(positions("azul", 2, {}, seed=4, every=1)):
        seat = state["turn"]
        view = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        if len(legal) < 5:
            continue
        easy = choose("azul", "easy", view, seat, legal, number)
        if easy == choose("azul", "normal", view, seat, legal, number):
            same += 1
        else:
            differ += 1
    assert same > differ > 0
