"""The end of a game, read as a player reads it: the final message says who won, with every
player's final score, and each of its lines is true where it stands — no line points at
something "below" or "above" (the last round's news comes under the result in a group, and
in an inline message above or below it as the message is a photo or text). In all five
games, all four languages, in a group and in an inline message, and on every player's final
private screen."""

from __future__ import annotations

import pytest

from bot.presentation.i18n import LANGUAGES
from bot.storage import Match
from bot.table.place import inline_chat_id
from bot.testing.driver import Driver, FakeUser
from bot.testing.fake_telegram import FakeTelegram, StoredMessage, plain
from games import GAME_MODULES, get_engine
from tests.bot.conftest import GROUP
from tests.bot.helpers import current_match
from tests.bot.whole_games import PAIR, play_whole_game, play_whole_inline_game

# words that send a reader up or down the message, in each language
POINTING = {
    "en": ("below", "above"),
    "ru": ("ниже", "выше"),
    "uk": ("нижче", "вище"),
    "it": ("sotto", "sopra"),
}
SEED = 20240611


@pytest.fixture
def seeded(monkeypatch):
    monkeypatch.setattr("bot.table.flow.secrets.randbits", lambda bits: SEED)


def points_elsewhere(text: str, lang: str) -> list[str]:
    """The lines of ``text`` that send the reader up or down."""
    return [
        line for line in text.split("\n") if any(word in line.lower() for word in POINTING[lang])
    ]


def assert_reads_true(text: str, match: Match, players: list[FakeUser], lang: str) -> None:
    """Who won, every player's final score on their line, and no line pointing away."""
    result = get_engine(match.game).result(match.state)
    lines = text.split("\n")
    winners = {players[seat].first_name for seat in result.winners}
    # the winners are named before anyone else's score: in the message's opening lines
    opening = "\n".join(lines[:3])
    assert all(name in opening for name in winners), text
    for seat, player in enumerate(players):
        score = str(result.scores[seat])
        assert any(player.first_name in line and score in line for line in lines), (
            player.first_name,
            score,
            text,
        )
    assert points_elsewhere(text, lang) == [], text


def final_screens(api: FakeTelegram, players: list[FakeUser]) -> list[StoredMessage]:
    return [[m for m in api.visible(p.id) if m.from_bot][-1] for p in players]


@pytest.mark.parametrize("backend", ["sqlite"])
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", list(GAME_MODULES))
async def test_a_groups_final_message_is_true_line_by_line(
    game, lang, driver: Driver, api: FakeTelegram, seeded, text_boards
):
    players = await play_whole_game(game, driver, lang=lang)
    match = await current_match(driver)
    final = [m for m in api.visible(GROUP) if m.from_bot][-1]
    assert final.buttons(), "the final result carries the rematch button"
    assert_reads_true(plain(final.text), match, players, lang)
    for screen in final_screens(api, players):  # the players speak English
        assert points_elsewhere(plain(screen.text), "en") == [], screen.text


@pytest.mark.parametrize("backend", ["sqlite"])
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", list(GAME_MODULES))
async def test_an_inline_messages_final_screen_is_true_line_by_line(
    game, lang, driver: Driver, api: FakeTelegram, seeded
):
    players, inline_id = await play_whole_inline_game(game, driver, lang=lang)
    match = await current_match(driver, inline_chat_id(Driver.chat_instance(PAIR)))
    final = api.inline_messages[inline_id]
    assert_reads_true(plain(final.text), match, players, lang)
    for screen in final_screens(api, players):
        assert points_elsewhere(plain(screen.text), "en") == [], screen.text
