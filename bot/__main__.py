"""``python -m bot``: long polling, or a webhook server on $PORT when WEBHOOK_URL is set.

Settings and the database are checked before anything starts: a problem ends the process
with one line on stderr (what is wrong, where, what to do) and exit status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from telegram.error import InvalidToken, NetworkError, TimedOut

from bot.app import ALLOWED_UPDATES, LOCK_LOST, build_application
from bot.operations import error_reports, log_format
from bot.operations.allocator import limit_arenas
from bot.operations.database_check import DatabaseProblem, check_database, check_postgres
from bot.operations.version import VERSION
from bot.settings import Settings, SettingsError, load_settings


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the bot; its settings come from .env and the environment.",
    )
    parser.add_argument("--version", action="version", version=f"tablebot {VERSION}")
    parser.parse_args(argv or [])  # main() from a test: no arguments
    limit_arenas()  # before any thread starts (bot.operations.allocator says why)
    try:
        settings = load_settings()
        if settings.postgres_url():
            asyncio.run(check_postgres(settings.postgres_url()))
        else:
            check_database(settings.database_path)
    except (SettingsError, DatabaseProblem) as problem:
        sys.exit(f"tablebot: {problem}")
    log_format.configure(settings.log_level, settings.log_format)
    for handler in logging.getLogger().handlers:
        handler.addFilter(_without_rejected_token)
    if settings.sentry_dsn is not None:  # else the SDK is not even imported
        error_reports.start(
            settings.sentry_dsn.get_secret_value(), settings.telegram_bot_token.get_secret_value()
        )
    application = build_application(settings)
    try:
        if settings.webhook_url:
            path = settings.webhook_path()  # the bot's id: public, so the secret guards it
            application.run_webhook(
                listen="0.0.0.0",
                port=settings.port,
                url_path=path,
                webhook_url=f"{settings.webhook_url}/{path}",
                # always a secret: requests without it are refused with 403
                secret_token=settings.webhook_secret_token(),
                allowed_updates=ALLOWED_UPDATES,
            )
        else:
            application.run_polling(allowed_updates=ALLOWED_UPDATES)
    except InvalidToken:
        sys.exit(
            f"tablebot: Telegram rejected TELEGRAM_BOT_TOKEN (Bot API at {_api(settings)}): copy "
            "the token again from @BotFather into .env or the environment"
        )
    except NetworkError as error:  # before serving: nothing was read or written yet
        sys.exit(f"tablebot: {_unreachable(settings, error)}")
    if application.bot_data.get(LOCK_LOST):
        sys.exit(
            "tablebot: another instance took over the database while this one served (it "
            "lost its lock in a database restart, or its lock file was deleted): stopped, "
            "so that one instance serves; started again, this one waits for the lock"
        )


def _api(settings: Settings) -> str:
    return settings.telegram_api_url.rstrip("/")


def _unreachable(settings: Settings, error: NetworkError) -> str:
    """Telegram could not be reached at start-up, in one line: where, why, what to check."""
    what = "did not answer in time" if isinstance(error, TimedOut) else "could not be reached"
    why = str(error).removeprefix("httpx.")
    return (
        f"Telegram's Bot API at {_api(settings)} {what} ({why}): check this machine's "
        "internet connection (DNS, firewall, proxy) and TELEGRAM_API_URL, then start again"
    )


def _without_rejected_token(record: logging.LogRecord) -> bool:
    """PTB reports a rejected token with a traceback that prints the token itself, and an
    unreachable Telegram at start-up with a traceback 200 lines long; main() says each in
    one line instead. Network errors while serving are logged as they come."""
    error = record.exc_info[1] if record.exc_info else None
    if isinstance(error, InvalidToken):
        return False
    return not (isinstance(error, NetworkError) and "Bootstrap" in record.getMessage())


if __name__ == "__main__":
    main(sys.argv[1:])
