"""A season's end told in each group once: the podium of every game rated there that season.

Looked for at start-up and every hour: the first look after a season ends claims each
group's podium in the database (``season_podiums``), so a restart or a second look never
tells it twice.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable

from babel.dates import format_date
from telegram.ext import CallbackContext, JobQueue

from bot.presentation.i18n import Translator
from bot.presentation.ui import get_ui
from bot.presentation.ui.base import medal
from bot.storage import Storage
from bot.storage.seasons import previous_season, season_start
from bot.table.languages import Languages
from bot.telegram_api.messenger import Messenger, Unreachable

log = logging.getLogger(__name__)

LOOK_SECONDS = 3600
FIRST_LOOK_SECONDS = 30  # after start-up's own work (and the daily backup's first look)
PODIUM = 3


def season_words(t: Translator, season: int, months: int) -> str:
    """A season as its months: "October – December 2026", "March 2026", "2026"."""
    first = season_start(season)
    if months == 12:
        return str(first.year)
    if months == 1:
        return format_date(first, "LLLL y", locale=t.lang)
    last = season_start(season + months - 1)
    start = format_date(first, "LLLL", locale=t.lang)
    return f"{start} – {format_date(last, 'LLLL y', locale=t.lang)}"


class SeasonPodiums:
    def __init__(
        self,
        storage: Storage,
        messenger: Messenger,
        languages: Languages,
        clock: Callable[[], float],
    ) -> None:
        self.storage = storage
        self.messenger = messenger
        self.languages = languages
        self.clock = clock

    async def tell_ended(self, now: float | None = None) -> list[int]:
        """Each group's podium of the season before this one, once; the groups told."""
        months = self.storage.season_months
        ended = previous_season(self.storage.season_now(now or self.clock()), months)
        told = []
        for group in await self.storage.season_groups(ended):
            if not await self.storage.leaderboard_on(group):
                continue
            if not await self.storage.claim_season_podium(group, ended):
                continue
            t = await self.languages.chat_t(group)
            lines = [t("season.podium_head", season=season_words(t, ended, months))]
            for game in await self.storage.season_games(ended, group):
                board = await self.storage.season_leaderboard(game, ended, group)
                places = ", ".join(
                    f"{medal(place)} {html.escape(standing.name)} {standing.shown}"
                    for place, standing in enumerate(board[:PODIUM], start=1)
                )
                lines.append(f"<b>{html.escape(get_ui(game).title(t))}</b>: {places}")
            lines += ["", t("season.new_season")]
            try:
                await self.messenger.send(group, "\n".join(lines))
            except Unreachable:
                log.info("season podium: the bot left group %s", group)
                continue
            told.append(group)
        return told

    def start(self, job_queue: JobQueue | None) -> None:
        if job_queue is not None:
            job_queue.run_repeating(
                self._on_job, LOOK_SECONDS, first=FIRST_LOOK_SECONDS, name="season-podiums"
            )

    async def _on_job(self, context: CallbackContext) -> None:
        if self.storage.leads():  # a singleton: on several workers, the leader's
            await self.tell_ended()
