"""The move log of a match: the readable file shows only what the group saw (a hidden card
or bid that was never revealed changes nothing in it), the JSON replays the match."""

from __future__ import annotations

import random

import pytest

from bot.presentation.i18n import LANGUAGES, translator
from bot.presentation.ui import get_ui
from bot.presentation.ui.base import Names
from bot.storage import Match, Seat
from bot.table.match_log import plain_text, readable_log, replay, replay_document
from games import get_engine
from games.core import encode_action


def played(game: str, players: int, seed: int, moves: int | None = None, choose=None, options=None):
    """A match of random legal moves (``choose(legal, rng)`` picks; stops after ``moves``
    moves, or at the end) as the host stores it: a Match and its moves table."""
    engine = get_engine(game)
    options = options or {}
    state = engine.new_game(players, options, seed=seed)
    rng = random.Random(seed)
    table = [(1, -1, "start")]
    while not engine.is_over(state) and (moves is None or len(table) - 1 < moves):
        seat = min(engine.to_act(state))
        legal = list(engine.legal_actions(state, seat))
        action = (choose or (lambda options, r: r.choice(options)))(legal, rng)
        state = engine.apply(state, seat, action)
        table.append((len(table) + 1, seat, encode_action(action)))
    seats = [Seat(n, 100 + n, f"Player{n}") for n in range(players)]
    match = Match(7, -1, 0, game, options, "finished", 100, state=state, seats=seats)
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


# A whole match of every game, in the reader's language: (game, options, players, seed, lang)
MATCHES = [
    ("azul", {}, 3, 11, "ru"),
    ("azul", {"wall": "grey"}, 2, 3, "en"),
    ("summer_pavilion", {}, 3, 11, "en"),
    ("summer_pavilion", {}, 2, 5, "it"),
    ("sultan", {}, 3, 11, "it"),
    ("5211", {}, 3, 11, "uk"),
    ("donkey", {}, 3, 11, "en"),
    ("donkey", {}, 4, 2, "ru"),
]
IDS = [f"{game}-{lang}-{players}p" for game, _, players, _, lang in MATCHES]


def whole_match(game, options, players, seed, lang):
    """A finished match of random moves, its log's lines, and what the group was told along
    the way: each news message and each move's words, as plain lines."""
    match, table = played(game, players, seed, options=options)
    assert get_engine(game).is_over(match.state)
    t = translator(lang)
    log = readable_log(t, match, table, "x").splitlines()
    engine, ui = get_engine(game), get_ui(game)
    names = Names.of([seat.name for seat in match.seats])
    state = engine.new_game(players, options, seed=seed)
    news, moves = [], []
    for _, seat, action in table[1:]:
        before = engine.view(state, None)
        state = engine.apply(state, seat, _decode(action))
        public = engine.view(state, None)
        events = public["log"][len(before["log"]) :]
        news += ui.announce(t, events, public, names)  # the group's messages
        moves += [ui.move_text(t, before, e) for e in events if e["type"] in ui.move_events]
    return t, log, news, [move for move in moves if move]


def numbered(log: list[str]) -> list[str]:
    """What each numbered move line says after "12. Name: "."""
    return [line.split(": ", 1)[1] for line in log if line.split(".", 1)[0].isdigit()]


@pytest.mark.parametrize(("game", "options", "players", "seed", "lang"), MATCHES, ids=IDS)
def test_no_public_move_reads_only_moved(game, options, players, seed, lang):
    """Every public move says what it was (the take, the placement, the pass, the bid, the
    cards played); 5211's choices, secret until the reveal, say only that they were made."""
    t, log, _, _ = whole_match(game, options, players, seed, lang)
    said = numbered(log)
    assert t("log.moved") not in said
    if game == "5211":
        assert set(said) == {t("5211.log.chosen")}
    else:
        assert all(text.strip() for text in said)


@pytest.mark.parametrize(("game", "options", "players", "seed", "lang"), MATCHES, ids=IDS)
def test_the_log_holds_the_groups_news_as_lines_of_their_own(game, options, players, seed, lang):
    """Each message the group got (a round's tiling or summary, a reveal, a hand's end)
    stands in the log in the same words, line by line, not on a player's move line; and
    every move the group saw on the board is told in the board's words."""
    _, log, news, moves = whole_match(game, options, players, seed, lang)
    assert (news and moves) or game == "5211"
    stripped = [line.strip() for line in log]
    for message in news:
        rows = [row.strip() for row in plain_text(message).splitlines() if row.strip()]
        start = stripped.index(rows[0])  # a line of its own: the title opens it
        assert not log[start].split(".", 1)[0].isdigit()
        assert stripped[start : start + len(rows)] == rows
    for move in moves:
        assert any(" ".join(plain_text(move).split()) in line for line in log), move


def test_summer_pavilion_placements_tell_their_wilds_and_passes_their_kept_tiles():
    """The issue's example log read "1. Bob: moved / 2. Carol: moved": now a placement
    names its star, space, colour and the wild tiles paid, and a pass its steps."""
    t = translator("en")
    _, log, _, _ = whole_match("summer_pavilion", {}, 3, 11, "en")
    said = numbered(log)
    assert any(t("summer_pavilion.move.paid", tiles="").strip() in text for text in said)
    assert t("summer_pavilion.log.passing") in said
    assert any(text.startswith("keeps ") for text in said)
    assert any("from the centre + first-player tile" in text for text in said)


def test_a_grey_wall_column_is_told():
    _, log, _, _ = whole_match("azul", {"wall": "grey"}, 2, 3, "en")
    assert any(" placed in column " in text for text in numbered(log))


def test_5211_cards_show_at_their_reveal():
    """A choice is secret until everyone chose; the reveal then shows everyone's cards."""
    t = translator("en")
    _, log, _, _ = whole_match("5211", {}, 3, 11, "en")
    title = t("5211.log.revealed", round=1, part=1)
    start = log.index(title)
    assert [line.split(":")[0].strip() for line in log[start + 1 : start + 4]] == [
        "Player0",
        "Player1",
        "Player2",
    ]
