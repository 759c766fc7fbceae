"""The tournament's messages stay within Telegram's 4,096 characters for a big field."""

from __future__ import annotations

import re

from bot.presentation import tournaments as words
from bot.presentation.i18n import translator
from bot.storage.tournaments import StoredTournament
from bot.table.tournaments import screens
from bot.tournaments.entries import add_round
from bot.tournaments.model import Entrant, Rules, Tournament
from bot.tournaments.pairing import next_round

FIELD = 301  # 150 tables and a bye


def visible(html: str) -> str:
    """What Telegram counts against its 4,096 characters: the text without its tags."""
    return re.sub(r"<[^>]+>", "", html)


def big_tournament() -> StoredTournament:
    state = Tournament(
        Rules("swiss", 2, rounds=5), tuple(Entrant(p, p) for p in range(1, FIELD + 1))
    )
    state = add_round(state, next_round(state))
    return StoredTournament(
        id=1, chat_id=-1, thread_id=0, creator_id=1, game="5211", options={},
        turn_seconds=180, with_bots=False, starts_at=None, status="running", message_id=None,
        names={p: "A name as long as Telegram allows " * 4 + str(p) for p in range(1, FIELD + 1)},
        state=state, matches={},
    )  # fmt: skip


def test_a_big_rounds_messages_fit_in_one_message_each():
    stored = big_tournament()
    for lang in ("en", "ru", "uk", "it"):
        t = translator(lang)
        pairings = words.pairings_text(stored, t)
        assert len(visible(pairings)) < 4096
        assert t.plural("tournament.more_tables", 150 - words.PAIRED_TABLES) in pairings
        text, _ = screens.running_screen(stored, t, lambda match_id: None, "https://t.me/x")
        assert len(visible(text)) < 4096
        assert t.plural("tournament.more", FIELD - words.SHOWN_ROWS) in text
