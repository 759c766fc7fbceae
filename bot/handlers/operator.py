"""The operator's commands, for ``OWNER_IDS`` only and only in private: ``/status`` (what
the bot is doing) and ``/drain`` (no new games before an upgrade). Anyone else, or anywhere
else, gets the answer to an unknown command: they are not advertised."""

from __future__ import annotations

import html
import time

from babel.dates import format_timedelta
from telegram import Update

from bot.handlers.commands import unknown_command
from bot.handlers.common import is_private
from bot.operations.process_memory import whole_bot
from bot.operations.version import VERSION
from bot.presentation import tutorial
from bot.presentation.i18n import Translator
from bot.table.host import BotContext, Host

MEGABYTE = 1024 * 1024


def is_owner(update: Update, host: Host) -> bool:
    user = update.effective_user
    return (
        user is not None
        and user.id in host.settings.owner_ids
        and is_private(update.effective_chat)
    )


async def status_command(update: Update, context: BotContext) -> None:
    host = context.host
    if not is_owner(update, host):
        await unknown_command(update, context)
        return
    t = await host.languages.user_t(update.effective_user)
    await update.effective_message.reply_html(await status_text(host, t))


async def drain_command(update: Update, context: BotContext) -> None:
    """``/drain``: stop new lobbies and rematches (again: how many matches remain);
    ``/drain off``: welcome new games again."""
    host = context.host
    if not is_owner(update, host):
        await unknown_command(update, context)
        return
    t = await host.languages.user_t(update.effective_user)
    message = update.effective_message
    if context.args and context.args[0].lower() == "off":
        await host.draining.switch(False)
        await message.reply_text(t("drain.off"))
        return
    if not host.draining.on:
        await host.draining.switch(True)
    activity = await host.storage.activity(since=host.clock())
    running = sum(activity.playing.values())
    if running == 0:
        await message.reply_text(t("drain.done"))
        return
    await message.reply_text(
        t("drain.on", running=t.number(running), lobbies=t.number(activity.lobbies))
    )


async def status_text(host: Host, t: Translator) -> str:
    now = host.clock()
    activity = await host.storage.activity(since=now - now % 86400)  # since midnight, UTC
    playing = ", ".join(
        f"{html.escape(game)} {t.number(count)}" for game, count in sorted(activity.playing.items())
    )
    now = whole_bot()
    memory, processes = now.whole, now.processes
    text = t(
        "status.text",
        version=html.escape(VERSION),
        uptime=format_timedelta(time.monotonic() - host.started_at, locale=t.lang),
        backend=host.storage.backend,
        database=megabytes(t, await host.storage.database_size()),
        lock=lock_line(host, t),
        draining=t("status.yes") if host.draining.on else t("status.no"),
        playing=playing or t("status.none"),
        lobbies=t.number(activity.lobbies),
        groups=t.number(activity.groups_active),
        ai=t.number(host.ai_seats.thinking),
        hints=t.number(host.hints.asking),
        errors=t.number(host.errors.last_hour()),
        memory=megabytes(t, memory),
        processes=t.number(processes),
    )
    text += await workers_lines(host, t)
    return f"{text}\n\n{tutorial.status(t, await host.storage.tutorial_counts())}"


def lock_line(host: Host, t: Translator) -> str:
    if host.storage.shared is not None:  # several workers: none is taken
        return t("status.lock_shared")
    return t("status.lock_held") if host.storage.holds_lock else t("status.lock_lost")


async def workers_lines(host: Host, t: Translator) -> str:
    """Several workers: how many are heard from, this one, the leader, the shared inbox's
    updates not yet handled."""
    shared = host.storage.shared
    if shared is None:
        return ""
    workers = [worker for worker in await shared.workers() if worker.alive]
    leader = await shared.leader()
    return "\n" + t(
        "status.workers",
        count=t.number(len(workers)),
        name=html.escape(shared.name),
        leader=html.escape(leader) if leader else t("status.none"),
        waiting=t.number(await shared.waiting()),
    )


def megabytes(t: Translator, size: int) -> str:
    return t("status.megabytes", megabytes=t.number(size / MEGABYTE, 1))
