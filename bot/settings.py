"""Settings from the environment and ``.env``, validated once at start-up."""

from __future__ import annotations

import hashlib
import hmac
import re
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.storage import is_postgres_url

Language = Literal["en", "ru", "uk", "it"]

# A token from @BotFather: the bot's numeric id, a colon, then letters, digits, _ and -.
TOKEN_SHAPE = re.compile(r"[0-9]{1,20}:[A-Za-z0-9_-]{1,200}")
EXAMPLE_TOKEN = "123456789:replace-with-your-token"  # the placeholder in .env.example
# What Telegram accepts as a webhook's secret_token.
SECRET_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,256}")
WHERE = "in .env (as in .env.example) or in the environment"
# No token and no .env: the same line as ./start gives before it installs anything.
NO_DOTENV = (
    "TELEGRAM_BOT_TOKEN is not set and there is no .env: run `cp .env.example .env`, then put "
    "your token from @BotFather after TELEGRAM_BOT_TOKEN= in .env"
)
# Telegram's pace for a bot without paid broadcasts: about 30 messages a second in all, and
# up to 1,000 with them (each message above 30 a second costs 0.1 Telegram Stars).
FREE_CALLS_PER_SECOND = 30
LOOPBACK = ("127.0.0.1", "localhost")
PAID_CALLS_PER_SECOND = 1000
# Move time limits offered in the lobby, in seconds; 0 = no limit.
TURN_PRESETS = (60, 180, 600, 3600, 86400, 0)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    telegram_bot_token: SecretStr = Field(description="The token from @BotFather.")
    database_path: Path = Field(
        Path("data/bot.sqlite3"), description="SQLite file; put it on a persistent volume."
    )
    database_url: SecretStr | None = Field(
        None,
        description="A PostgreSQL address (postgres:// or postgresql://); when set, the bot "
        "keeps everything there instead of the SQLite file.",
    )
    default_language: Language = Field(
        "en", description="For users and groups whose Telegram language is not supported."
    )
    webhook_url: str | None = Field(
        None, description="Public HTTPS base URL; when set, serve a webhook instead of polling."
    )
    several_workers: bool = Field(
        False,
        description="Serve beside other workers on the same PostgreSQL (python -m bot started "
        "N times with the same settings); needs DATABASE_URL and WEBHOOK_URL. Off: one "
        "process serves, a second one waits for it.",
    )
    webhook_secret: SecretStr | None = Field(
        None,
        description="Secret token Telegram sends with each webhook request; empty: one is "
        "derived from the bot token.",
    )
    port: int = Field(
        8080,
        description="Port of the bot's web server in webhook mode or with WEB_APP_URL (PaaS "
        "platforms set PORT).",
    )
    web_app_url: str | None = Field(
        None,
        description="The table app: the public https address at which this bot's web server "
        "is reached (on a PaaS, the app's own URL); unset, no app. http:// only on "
        "127.0.0.1 or localhost, for local testing.",
    )
    trust_proxy: bool = Field(
        False,
        description="The bot's port is reached only through a proxy (a PaaS router, a "
        "reverse proxy on the same machine) that sets X-Forwarded-For: the client address "
        "is read from it. false: the address is the connection's (a port open to anyone, "
        "where the header could be made up).",
    )
    web_app_main: bool = Field(
        False,
        description="The table app is the bot's Main Mini App (set in BotFather): the group "
        "board's table button opens it in the group with one tap (t.me/<bot>?startapp=...).",
    )
    telegram_api_url: str = Field(
        "https://api.telegram.org",
        description="Bot API server (a self-hosted one, or a fake one for offline testing).",
    )
    rate_limit: bool = Field(True, description="Throttle outgoing calls to Telegram's limits.")
    telegram_calls_per_second: float = Field(
        FREE_CALLS_PER_SECOND,
        gt=0,
        le=PAID_CALLS_PER_SECOND,
        description="Calls to Telegram a second in all (sends, edits, deletes); above 30 "
        "only with PAID_BROADCAST.",
    )
    paid_broadcast: bool = Field(
        False,
        description="Send with allow_paid_broadcast: Telegram takes up to 1,000 messages a "
        "second and charges 0.1 Stars from the bot's balance for each above 30 a second "
        "(enable Paid Broadcasts in @BotFather first).",
    )
    default_turn_seconds: int = Field(
        180, description="The lobby's preset move time limit in seconds (0 = none)."
    )
    autopilot_after: int = Field(
        2, ge=1, description="Timeouts in a row after which a seat plays on autopilot."
    )
    season_months: int = Field(
        3,
        description="The ratings' seasons, in months: 3 (calendar quarters), or 1, 2, 4, 6, 12.",
    )
    lobby_ttl_minutes: int = Field(
        120, ge=1, description="A lobby nobody touches for this long is closed."
    )
    start_clock_after_minutes: int = Field(
        10,
        ge=0,
        description="In a match without a move time limit, after this many minutes without "
        "a move the other players may start the absent player's clock (0 = never).",
    )
    start_clock_seconds: int = Field(
        120, ge=10, description="The time a started clock gives the absent player."
    )
    ai_workers: int = Field(
        2,
        ge=0,
        le=32,
        description="Worker processes that compute AI seats' moves (0: a thread of the bot's "
        "own process); practice hints get one more, started at the first hint. Each holds "
        "about 37 MB: 0 fits the whole bot in a 256 MB instance.",
    )
    ai_think_seconds: float = Field(
        1.0,
        gt=0,
        le=10,
        description="How long a 🤖 Hard seat thinks per decision (wall clock, in its worker "
        "process; the bot answers presses meanwhile). A fast machine stops sooner, at 4× "
        "the game's iterations; with more bots deciding at once than AI_WORKERS, each "
        "thinks a share of it, never under a quarter.",
    )
    log_level: str = Field("INFO")
    log_format: Literal["text", "json"] = Field(
        "text",
        description="text: one readable line per record; json: one JSON object per line "
        "(time, level, logger, message, and match, chat, latency where known) for a "
        "platform's log search.",
    )
    # comma-separated in the environment ("123,456"), not JSON: NoDecode keeps pydantic-settings
    # from reading it as JSON first
    owner_ids: Annotated[frozenset[int], NoDecode] = Field(
        frozenset(),
        description="Telegram user ids of the bot's operators: only they get /status and "
        "/drain, in a private chat.",
    )
    health_port: int | None = Field(
        None,
        ge=1,
        le=65535,
        description="Polling mode: serve GET /healthz on this port for a platform that probes "
        "workers (in webhook mode the health check is on PORT).",
    )
    backup_dir: Path | None = Field(
        None,
        description="SQLite: a daily backup of the database is written to this folder "
        "(empty: no automatic backups).",
    )
    backup_keep: int = Field(7, ge=1, description="How many daily backups BACKUP_DIR keeps.")
    sentry_dsn: SecretStr | None = Field(
        None,
        description="Report errors to Sentry (needs `pip install '.[sentry]'`); empty: "
        "nothing is loaded.",
    )

    @field_validator("owner_ids", mode="before")
    @classmethod
    def _ids(cls, value: object) -> object:
        if isinstance(value, str):
            parts = [part.strip() for part in value.replace(" ", ",").split(",")]
            if not all(part.lstrip("-").isdigit() for part in parts if part):
                raise ValueError("must be Telegram user ids separated by commas, e.g. 12345,67890")
            return frozenset(int(part) for part in parts if part)
        return value

    @field_validator("health_port", "sentry_dsn", "backup_dir", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("telegram_bot_token")
    @classmethod
    def _a_token(cls, token: SecretStr) -> SecretStr:
        value = token.get_secret_value().strip()
        if value == EXAMPLE_TOKEN:
            raise ValueError(
                "is still the example value from .env.example: replace it with your bot's "
                "token from @BotFather, in .env or in the environment"
            )
        if not TOKEN_SHAPE.fullmatch(value):
            raise ValueError(
                "does not look like a bot token (digits, a colon, then letters, digits, _ "
                "and -): copy it again from @BotFather into .env or the environment"
            )
        return SecretStr(value)

    @field_validator("database_url")
    @classmethod
    def _a_postgres_url(cls, url: SecretStr | None) -> SecretStr | None:
        if url is None or not url.get_secret_value().strip():
            return None  # SQLite, at DATABASE_PATH
        value = url.get_secret_value().strip()
        if not is_postgres_url(value):
            raise ValueError(
                "must be a PostgreSQL address (postgres://user:password@host:5432/database); "
                "leave it empty to use the SQLite file at DATABASE_PATH"
            )
        return SecretStr(value)

    def postgres_url(self) -> str | None:
        """The PostgreSQL address, or None for SQLite."""
        return self.database_url.get_secret_value() if self.database_url else None

    @field_validator("webhook_secret")
    @classmethod
    def _a_secret(cls, secret: SecretStr | None) -> SecretStr | None:
        if secret is None or not secret.get_secret_value():
            return None  # derived from the token: see webhook_secret_token()
        if not SECRET_SHAPE.fullmatch(secret.get_secret_value()):
            raise ValueError("must be 1 to 256 characters: letters A-Z a-z, digits, _ and -")
        return secret

    def webhook_secret_token(self) -> str:
        """The secret Telegram must send with every webhook request: WEBHOOK_SECRET, or one
        derived from the bot token (stable across restarts, unknown to anyone without the
        token), so a webhook never accepts unsigned updates."""
        if self.webhook_secret is not None:
            return self.webhook_secret.get_secret_value()
        token = self.telegram_bot_token.get_secret_value().encode()
        return hmac.new(token, b"tablebot webhook secret", hashlib.sha256).hexdigest()

    def one_of_several(self) -> bool:
        """Whether this process serves beside others (``python -m bot`` started N times with
        the same settings): ``SEVERAL_WORKERS``, on PostgreSQL in webhook mode (checked at
        start-up). Off by default: a lone worker pays nothing for what several share."""
        return self.several_workers

    def webhook_path(self) -> str:
        """The webhook's path: the bot's id (public: the secret token guards it)."""
        return self.telegram_bot_token.get_secret_value().split(":")[0]

    @field_validator("season_months")
    @classmethod
    def _a_season(cls, months: int) -> int:
        if months not in (1, 2, 3, 4, 6, 12):
            raise ValueError("SEASON_MONTHS must be 1, 2, 3, 4, 6 or 12 (a season divides a year)")
        return months

    @field_validator("default_turn_seconds")
    @classmethod
    def _a_preset(cls, seconds: int) -> int:
        if seconds not in TURN_PRESETS:
            raise ValueError(f"DEFAULT_TURN_SECONDS must be one of {TURN_PRESETS}")
        return seconds

    @model_validator(mode="after")
    def _several_workers_share_postgres(self) -> Settings:
        if self.several_workers and not (self.webhook_url and is_postgres_url(self.postgres_url())):
            raise ValueError(
                "SEVERAL_WORKERS=true needs DATABASE_URL (PostgreSQL) and WEBHOOK_URL: an "
                "SQLite file, or long polling (Telegram's getUpdates has one consumer), is "
                "served by one process"
            )
        return self

    @model_validator(mode="after")
    def _paid_pace(self) -> Settings:
        if self.telegram_calls_per_second > FREE_CALLS_PER_SECOND and not self.paid_broadcast:
            raise ValueError(
                f"TELEGRAM_CALLS_PER_SECOND above {FREE_CALLS_PER_SECOND} needs "
                "PAID_BROADCAST=true (Telegram refuses more from a bot that does not pay)"
            )
        return self

    @field_validator("web_app_url")
    @classmethod
    def _a_web_app_url(cls, url: str | None) -> str | None:
        if url is None or not url.strip():
            return None
        url = url.strip().rstrip("/")
        parts = urlsplit(url)
        if parts.scheme == "https" and parts.hostname:
            return url
        if parts.scheme == "http" and parts.hostname in LOOPBACK:
            return url  # a local test: Telegram's clients open https addresses only
        raise ValueError(
            "WEB_APP_URL must be an https:// address (http:// only on 127.0.0.1 or localhost)"
        )

    def web_port(self) -> int | None:
        """The port of the bot's own web server, if it runs one: PORT in webhook mode and
        with the table app (a polling bot's HEALTH_PORT where set), HEALTH_PORT for a
        polling bot's health checks alone."""
        if self.webhook_url:
            return self.port
        if self.web_app_url:
            return self.health_port or self.port
        return self.health_port

    @field_validator("webhook_url")
    @classmethod
    def _https_only(cls, url: str | None) -> str | None:
        if url in (None, ""):
            return None
        if not url.startswith("https://"):
            raise ValueError("WEBHOOK_URL must start with https://")
        return url.rstrip("/")


class SettingsError(Exception):
    """Settings that cannot work, explained in one line for the person deploying the bot."""


def load_settings(**overrides) -> Settings:
    """Settings from the environment and ``.env``; a problem becomes one clear line."""
    try:
        return Settings(**overrides)
    except ValidationError as error:
        raise SettingsError("; ".join(_explain(problem) for problem in error.errors())) from None


def _explain(problem: dict) -> str:
    name = str(problem["loc"][0]).upper() if problem["loc"] else "settings"
    if problem["type"] == "missing":
        if name == "TELEGRAM_BOT_TOKEN" and not Path(".env").exists():
            return NO_DOTENV  # the newcomer's first start: say the two steps
        if name == "TELEGRAM_BOT_TOKEN":
            return (
                "TELEGRAM_BOT_TOKEN is not set: add the line TELEGRAM_BOT_TOKEN=<your token "
                "from @BotFather> to .env (as in .env.example), or set it in the environment"
            )
        return f"{name} is not set: set it {WHERE}"
    message = problem["msg"].removeprefix("Value error, ")
    if name == "TELEGRAM_BOT_TOKEN":
        return f"{name} {message}"  # says where to put it right
    if problem["loc"] and not message.startswith(name):  # a rule of several names says them
        message = f"{name}: {message}"
    return f"{message}; change it {WHERE}"
