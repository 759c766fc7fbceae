"""The Application, wired in one place: settings → storage, messenger, handlers, start-up."""

from __future__ import annotations

import asyncio
import logging
from functools import partial

from telegram import BotCommand, Update
from telegram.ext import (
    Application,
    BaseRateLimiter,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    InlineQueryHandler,
    MessageHandler,
    filters,
)
from telegram.request import BaseRequest

# importing the handler modules binds their buttons (@button, @match_button) into BUTTONS
from bot.handlers import (  # noqa: F401
    commands,
    inline,
    learn,
    lobby,
    membership,
    operator,
    play,
    records,
    tournaments,
)
from bot.handlers.buttons import BUTTONS
from bot.handlers.errors import on_error
from bot.operations import backup
from bot.operations.database_check import check_storage
from bot.operations.draining import Draining
from bot.operations.inbox import Inbox
from bot.operations.outage_notice import OutageNotice
from bot.operations.update_log import LoggedApplication
from bot.operations.version import VERSION
from bot.presentation.i18n import LANGUAGES, translator
from bot.settings import Settings
from bot.storage import storage_for
from bot.table.ai_seats import AISeats
from bot.table.chat_lifecycle import ChatLifecycle
from bot.table.hints import Hints
from bot.table.host import HOST_KEY, BotContext, Host, get_host
from bot.table.languages import Languages
from bot.table.locks import MatchLocks
from bot.table.publishing.board_pictures import BoardPictures
from bot.table.publishing.publisher import Publisher
from bot.table.seasons import SeasonPodiums
from bot.table.timers import Timers
from bot.table.tournaments.service import Tournaments
from bot.telegram_api import callbacks
from bot.telegram_api.messenger import Messenger
from bot.telegram_api.rate_limit import TelegramLimits
from bot.web.api import TableApp
from bot.web.health import HealthCheck
from bot.web.limits import Budgets
from bot.web.live import LiveTables
from bot.web.server import Webhook, WebhookUpdater, WebServer
from bot.web.watchers import Watchers

log = logging.getLogger(__name__)

WEB_KEY = "web"  # bot_data: the health (and webhook) server, when one is configured
INBOX_KEY = "inbox"  # bot_data: each update handled once across workers (PostgreSQL)
BACKUP_CHECK_SECONDS = 3600  # how often the bot looks whether the daily backup is due

COMMANDS = (
    "new",
    "tournament",
    "board",
    "rules",
    "learn",
    "stats",
    "top",
    "history",
    "language",
    "pictures",
    "cancel",
    "forget",
    "help",
)


def build_application(
    settings: Settings,
    request: BaseRequest | None = None,
    get_updates_request: BaseRequest | None = None,
    rate_limiter: BaseRateLimiter | None = None,
) -> Application:
    """Build the bot. ``request`` replaces the HTTP layer — tests and evaluations plug a
    fake Bot API in here and drive the real bot without a network. With ``RATE_LIMIT`` on,
    calls are paced to Telegram's limits (``rate_limiter``: tests pass a faster clock's
    limits)."""
    builder = (
        Application.builder()
        .application_class(LoggedApplication)
        .token(settings.telegram_bot_token.get_secret_value())
        .context_types(ContextTypes(context=BotContext))
        .concurrent_updates(True)
        .post_init(_on_startup)
        .post_stop(_on_stop)
        .post_shutdown(_on_shutdown)
    )
    if request is not None:
        builder = builder.request(request).get_updates_request(get_updates_request or request)
    else:
        api = settings.telegram_api_url.rstrip("/")
        builder = builder.base_url(f"{api}/bot").base_file_url(f"{api}/file/bot")
    if settings.rate_limit:  # 429s are retried by the Messenger, not by the limiter
        pace = settings.telegram_calls_per_second
        builder = builder.rate_limiter(rate_limiter or TelegramLimits(overall_per_second=pace))
    application = builder.build()
    host = build_host(settings, application)
    application.bot_data[HOST_KEY] = host
    inbox = Inbox(host.storage)
    application.bot_data[INBOX_KEY] = inbox
    application.after_update = inbox.handled
    port = settings.web_port()
    if port is not None:  # a web server of the bot's own: health checks (and the webhook)
        webhook = None
        if settings.webhook_url:
            webhook = Webhook(
                settings.webhook_path(),
                settings.webhook_secret_token(),
                take=inbox.take,
                keep_for_others=settings.several_workers,
            )
        routes = table_app_routes(settings, host) if settings.web_app_url else []
        web = WebServer(
            HealthCheck(host.storage), port, webhook, routes, trust_proxy=settings.trust_proxy
        )
        application.bot_data[WEB_KEY] = web
        if webhook is not None:  # updates come through it: run_webhook's updater uses it
            application.updater = WebhookUpdater(application.bot, application.update_queue, web)
    _add_handlers(application)
    return application


def table_app_routes(settings: Settings, host: Host) -> list[tuple]:
    """The table app: its open tables are told of every change and leave their players'
    chat prompts alone; its page and API go on the bot's web server."""
    budgets = Budgets()  # one table of what the app's users may spend (bot.web.limits)
    watchers = Watchers(host.messenger.is_member_for_app, budgets)
    live = LiveTables(
        settings.web_app_url,
        host.publisher.redraw_prompt,
        watchers,
        main_app=settings.web_app_main,
    )
    host.publisher.watch_tables(live)
    invite = partial(inline.prepare_invitation, host)  # the home's "Play with a friend"
    rematch = partial(lobby.rematch_from_app, host)  # the end screen's "Play again"
    token = settings.telegram_bot_token.get_secret_value()
    return TableApp(host, token, live, invite, budgets, rematch).routes()


def build_host(settings: Settings, application: Application) -> Host:
    """The bot's services, each given what it uses; each is built after everything it
    needs, so no module imports its way back up."""
    storage = storage_for(
        settings.postgres_url(), settings.database_path, settings.one_of_several()
    )
    storage.season_months = settings.season_months
    messenger = Messenger(application.bot, paid_broadcast=settings.paid_broadcast)
    languages = Languages(storage, settings.default_language)
    lock = MatchLocks(storage)
    publisher = Publisher(storage, messenger, languages, BoardPictures(storage))
    timers = Timers(settings, storage, languages, lock, publisher, application.job_queue)
    chats = ChatLifecycle(storage, messenger, languages, lock, publisher, timers)
    publisher.watch_chats(chats)  # drawing finds out when a group moved or dropped the bot
    ai_seats = AISeats(
        storage, lock, publisher, timers, settings.ai_workers, settings.ai_think_seconds
    )
    timers.ai_turns = ai_seats  # every change the timers see wakes the match's AI seats
    hints = Hints(settings.ai_workers)
    # a database outage is told to the groups with a running match, once, and its end too
    outage = OutageNotice(storage, messenger, settings.default_language)
    storage.on_outage = outage
    tournaments = Tournaments(settings, storage, messenger, languages, lock, publisher, timers)
    # a tournament's table ends as one event carrying the match's record
    storage.on_match_end = tournaments.match_ended
    return Host(
        settings,
        storage,
        messenger,
        languages,
        lock,
        publisher,
        timers,
        chats,
        ai_seats,
        hints,
        outage,
        Draining(storage),
        tournaments,
        SeasonPodiums(storage, messenger, languages, lambda: timers.clock()),
    )


MOVE_KINDS = (callbacks.Kind.ACTION, callbacks.Kind.DRAFT)


def _add_handlers(application: Application) -> None:
    private = filters.ChatType.PRIVATE
    add = application.add_handler
    # PTB asks each handler in turn; presses are most of the updates, moves most of those:
    # their handlers come first (each kind of update matches only its own handlers, and the
    # button kinds' patterns are disjoint, so the order changes nothing else)
    unbound = [kind.name for kind in callbacks.Kind if kind not in BUTTONS]
    if unbound:  # every kind of button the bot draws must have its handler
        raise RuntimeError(f"no handler for these buttons: {', '.join(unbound)}")
    for kind in sorted(BUTTONS, key=lambda kind: kind not in MOVE_KINDS):
        add(CallbackQueryHandler(BUTTONS[kind], pattern=callbacks.pattern(kind)))
    add(CallbackQueryHandler(commands.bad_callback))
    add(InlineQueryHandler(inline.inline_query))
    add(MessageHandler(filters.StatusUpdate.MIGRATE, membership.chat_migrated))
    add(ChatMemberHandler(membership.bot_membership, ChatMemberHandler.MY_CHAT_MEMBER))
    add(MessageHandler(filters.StatusUpdate.LEFT_CHAT_MEMBER, membership.member_left))
    add(ChatMemberHandler(membership.member_left, ChatMemberHandler.CHAT_MEMBER))
    add(CommandHandler("start", commands.start_command))
    add(CommandHandler("new", lobby.new_command))
    add(CommandHandler("tournament", tournaments.tournament_command))
    add(CommandHandler("help", commands.help_command))
    add(CommandHandler("rules", commands.rules_command))
    add(CommandHandler("learn", learn.learn_command))
    add(CommandHandler("language", commands.language_command))
    add(CommandHandler("pictures", commands.pictures_command))
    add(CommandHandler("cancel", commands.cancel_command))
    add(CommandHandler("board", commands.board_command))
    add(CommandHandler("stats", records.stats_command))
    add(CommandHandler("top", records.top_command))
    add(CommandHandler("history", records.history_command))
    add(CommandHandler("forget", records.forget_command))
    add(CommandHandler("status", operator.status_command))
    add(CommandHandler("drain", operator.drain_command))
    add(MessageHandler(filters.COMMAND, commands.unknown_command))
    add(MessageHandler(private & filters.TEXT & ~filters.COMMAND, commands.private_text))
    application.add_error_handler(on_error)


async def _on_startup(application: Application) -> None:
    host = get_host(application)
    logging.getLogger().addHandler(host.errors)
    log.info(
        "tablebot %s starting: %s, %s",
        VERSION,
        host.storage.describe(),
        "webhook" if host.settings.webhook_url else "long polling",
    )
    web = application.bot_data.get(WEB_KEY)
    if web is not None:  # before the lock: a waiting instance answers health checks (503)
        web.start()
    # `python -m bot` checked this already; here for every other way of starting the bot
    await check_storage(host.storage)
    # one instance at a time: during a deploy the new one waits here for the old one to stop
    await host.storage.open()
    host.storage.on_lock_lost = lambda: stop_serving(application)
    limits = application.bot.rate_limiter
    if isinstance(limits, TelegramLimits):  # several workers: one budget for all of them
        limits.share(host.storage.shared)
    # the updates of workers gone before handling them (PostgreSQL), handled here
    application.bot_data[INBOX_KEY].start(application.bot, application.update_queue)
    host.publisher.take_handed_over()  # (several workers) what it draws as a chat's writer
    tables = host.publisher.tables
    if host.storage.shared is not None and isinstance(tables, LiveTables):
        # pages hear every worker's moves, and read them here afresh
        await tables.hear_workers(host.storage.shared, host.storage.forget_older)
    await host.draining.load()
    if host.draining.on:
        log.warning("draining (an operator's /drain): no new games until /drain off")
    _schedule_backups(application, host)
    for lang in LANGUAGES:
        t = translator(lang)
        await application.bot.set_my_commands(
            [BotCommand(name, t(f"command.{name}")) for name in COMMANDS],
            language_code=None if lang == "en" else lang,
        )
    log_inline_mode(application)
    await restore_matches(host)


def log_inline_mode(application: Application) -> None:
    """One line on whether Telegram sends this bot inline queries: matches in any chat need
    inline mode, which only @BotFather switches on."""
    if application.bot.supports_inline_queries:
        log.info("inline mode is on: '@%s' in any chat offers a game", application.bot.username)
    else:
        log.warning(
            "inline mode is off: players cannot start a game in a chat without the bot; "
            "switch it on with @BotFather: /setinline"
        )


LOCK_LOST = "lock_lost"  # bot_data: this instance stopped because another took the lock


def stop_serving(application: Application) -> None:
    """Another instance holds the database now: stop polling, finish what is in flight,
    and (``python -m bot``) exit non-zero so the platform starts this one again, waiting."""
    application.bot_data[LOCK_LOST] = True
    application.stop_running()


async def restore_matches(host: Host) -> None:
    """Bring back every unfinished match: its state is in the database; its deadlines are
    re-armed (overdue ones fire at once), an AI seat whose turn a restart interrupted plays
    it, and its messages are redrawn where a restart interrupted them — drawing skips
    whatever is already up to date."""
    for status in ("playing", "finished"):
        for match_id in await host.storage.match_ids(status):
            match = await host.storage.load(match_id)
            if match is not None and (status == "playing" or match.published < match.version):
                host.publisher.request(match)
    await host.tournaments.restore()  # (before any deadline fires: which tables rate)
    await host.timers.arm_all()
    host.timers.start_sweeper()
    host.timers.start_lobby_sweeper()
    host.seasons.start(host.timers.job_queue)  # a season's podium, once, soon after it ends


async def _on_stop(application: Application) -> None:
    # updates in flight have been handled; AI decisions still being computed are dropped
    # (the next start computes them again, the same); let the messages go out before closing,
    # within Publisher.finish's bound (a PaaS kills a process about 30 s after SIGTERM)
    host = get_host(application)
    await application.bot_data[INBOX_KEY].stop()
    await asyncio.gather(host.ai_seats.stop(), host.hints.close(), host.tournaments.close())
    await host.publisher.finish()
    await host.outage.idle()


async def _on_shutdown(application: Application) -> None:
    host = get_host(application)
    await host.storage.close()
    web = application.bot_data.get(WEB_KEY)
    if web is not None:
        await web.stop()
    logging.getLogger().removeHandler(host.errors)


def _schedule_backups(application: Application, host: Host) -> None:
    """``BACKUP_DIR`` on SQLite: the daily backup, looked for hourly (a restart does not
    take an extra one; see :func:`bot.operations.backup.backup_if_due`)."""
    folder = host.settings.backup_dir
    if folder is None or host.storage.backend != "sqlite" or application.job_queue is None:
        return
    copy = partial(
        backup.backup_if_due, host.settings.database_path, folder, host.settings.backup_keep
    )

    async def backup_job(context: BotContext) -> None:
        try:
            await asyncio.to_thread(copy)
        except Exception:
            log.exception("the daily backup to %s failed", folder)

    application.job_queue.run_repeating(
        backup_job, interval=BACKUP_CHECK_SECONDS, first=1, name="daily backup"
    )


# messages (with the service messages of a supergroup upgrade and of a member leaving),
# presses, the bot's own membership (removed from a group), others' (a member removed, where
# the bot is an admin), and inline queries
ALLOWED_UPDATES = [
    Update.MESSAGE,
    Update.CALLBACK_QUERY,
    Update.MY_CHAT_MEMBER,
    Update.CHAT_MEMBER,  # a member left (sent only where the bot is an admin)
    Update.INLINE_QUERY,  # inline mode: "@bot" in any chat (chosen results are not needed)
]
