"""Settings from the environment and ``.env``, validated once at start-up."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

Language = Literal["en", "ru", "uk", "it"]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    telegram_bot_token: SecretStr = Field(description="The token from @BotFather.")
    database_path: Path = Field(
        Path("data/bot.sqlite3"), description="SQLite file; put it on a persistent volume."
    )
    default_language: Language = Field(
        "en", description="For users and groups whose Telegram language is not supported."
    )
    webhook_url: str | None = Field(
        None, description="Public HTTPS base URL; when set, serve a webhook instead of polling."
    )
    webhook_secret: SecretStr | None = Field(
        None, description="Secret token Telegram sends with each webhook request."
    )
    port: int = Field(8080, description="Port of the webhook server (PaaS platforms set PORT).")
    telegram_api_url: str = Field(
        "https://api.telegram.org",
        description="Bot API server (a self-hosted one, or a fake one for offline testing).",
    )
    rate_limit: bool = Field(True, description="Throttle outgoing calls to Telegram's limits.")
    default_turn_seconds: int = Field(
        180, description="The lobby's preset move time limit in seconds (0 = none)."
    )
    autopilot_after: int = Field(
        2, ge=1, description="Timeouts in a row after which a seat plays on autopilot."
    )
    lobby_ttl_minutes: int = Field(
        120, ge=1, description="A lobby nobody touches for this long is closed."
    )
    log_level: str = Field("INFO")

    @field_validator("default_turn_seconds")
    @classmethod
    def _a_preset(cls, seconds: int) -> int:
        from bot.timers import TURN_PRESETS

        if seconds not in TURN_PRESETS:
            raise ValueError(f"DEFAULT_TURN_SECONDS must be one of {TURN_PRESETS}")
        return seconds

    @field_validator("webhook_url")
    @classmethod
    def _https_only(cls, url: str | None) -> str | None:
        if url in (None, ""):
            return None
        if not url.startswith("https://"):
            raise ValueError("WEBHOOK_URL must start with https://")
        return url.rstrip("/")
