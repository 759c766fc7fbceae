"""Settings from the environment, and ``python -m bot`` choosing polling or a webhook."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

import bot.__main__ as entry
from bot.settings import Settings


def test_settings_come_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "42:hush-hush")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "x.sqlite3"))
    monkeypatch.setenv("DEFAULT_LANGUAGE", "uk")
    settings = Settings(_env_file=None)
    assert settings.telegram_bot_token.get_secret_value() == "42:hush-hush"
    assert "hush" not in repr(settings)
    assert settings.default_language == "uk"
    assert settings.webhook_url is None and settings.port == 8080


def test_settings_read_a_dotenv_file(monkeypatch, tmp_path):
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    env = tmp_path / ".env"
    env.write_text("TELEGRAM_BOT_TOKEN=7:from-file\nPORT=9000\n")
    settings = Settings(_env_file=env)
    assert settings.telegram_bot_token.get_secret_value() == "7:from-file"
    assert settings.port == 9000


def test_bad_settings_are_refused_at_start(monkeypatch):
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    with pytest.raises(ValidationError):
        Settings(_env_file=None)
    with pytest.raises(ValidationError):
        Settings(telegram_bot_token="1:x", webhook_url="http://insecure", _env_file=None)
    with pytest.raises(ValidationError):
        Settings(telegram_bot_token="1:x", default_language="de", _env_file=None)


class Recorder:
    def __init__(self):
        self.calls = []

    def __call__(self, *args, **kwargs):
        self.calls.append(kwargs)


def test_main_polls_by_default_and_serves_a_webhook_when_configured(monkeypatch, tmp_path):
    from telegram.ext import Application

    polling, webhook = Recorder(), Recorder()
    monkeypatch.setattr(Application, "run_polling", lambda self, **kw: polling(**kw))
    monkeypatch.setattr(Application, "run_webhook", lambda self, **kw: webhook(**kw))
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "42:secret")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "x.sqlite3"))
    monkeypatch.delenv("WEBHOOK_URL", raising=False)
    entry.main()
    assert len(polling.calls) == 1 and not webhook.calls

    monkeypatch.setenv("WEBHOOK_URL", "https://bots.example.com/")
    monkeypatch.setenv("PORT", "5555")
    entry.main()
    (call,) = webhook.calls
    assert call["port"] == 5555 and call["listen"] == "0.0.0.0"
    assert call["webhook_url"] == "https://bots.example.com/42"
    assert "secret" not in call["webhook_url"]


def test_the_global_pace_is_a_setting_and_above_30_a_second_needs_paid_broadcasts(tmp_path):
    """TELEGRAM_CALLS_PER_SECOND paces the bot's calls in all (30 by default, Telegram's
    free pace); more is refused at start unless the operator pays for it (PAID_BROADCAST),
    with a line that says so."""
    from bot.app import build_application
    from bot.settings import SettingsError, load_settings

    base = {"telegram_bot_token": "1:x", "database_path": tmp_path / "b.sqlite3"}
    default = Settings(**base, _env_file=None)
    assert default.telegram_calls_per_second == 30 and default.paid_broadcast is False
    with pytest.raises(SettingsError) as refused:
        load_settings(**base, telegram_calls_per_second=100, _env_file=None)
    assert str(refused.value).startswith("TELEGRAM_CALLS_PER_SECOND above 30 needs PAID_BROADCAST")
    with pytest.raises(SettingsError):  # Telegram's ceiling for paid broadcasts
        load_settings(**base, telegram_calls_per_second=1001, paid_broadcast=True, _env_file=None)
    paid = load_settings(**base, telegram_calls_per_second=100, paid_broadcast=True, _env_file=None)
    limits = build_application(paid).bot.rate_limiter
    assert limits.overall.per_second == 100
    assert build_application(default).bot.rate_limiter.overall.per_second == 30


def test_several_workers_are_asked_for_and_need_postgres_and_a_webhook(tmp_path):
    """A lone process is the default, on PostgreSQL in webhook mode too (it pays nothing for
    what workers share); SEVERAL_WORKERS=true asks for several, and is refused at start,
    in a line that says what it needs, without PostgreSQL or without a webhook."""
    from bot.settings import SettingsError, load_settings

    base = {"telegram_bot_token": "1:x", "database_path": tmp_path / "b.sqlite3"}
    hook = {"webhook_url": "https://bot.example.org"}
    postgres = {"database_url": "postgresql://bot@db/bot"}
    alone = load_settings(**base, **hook, **postgres, _env_file=None)
    assert alone.one_of_several() is False
    several = load_settings(**base, **hook, **postgres, several_workers=True, _env_file=None)
    assert several.one_of_several() is True
    for missing in (hook, postgres):
        with pytest.raises(SettingsError) as refused:
            load_settings(**base, **missing, several_workers=True, _env_file=None)
        assert "SEVERAL_WORKERS=true needs DATABASE_URL (PostgreSQL) and WEBHOOK_URL" in str(
            refused.value
        )
