"""``python -m bot``: long polling, or a webhook server on $PORT when WEBHOOK_URL is set."""

from __future__ import annotations

import logging

from bot.app import ALLOWED_UPDATES, build_application
from bot.settings import Settings


def main() -> None:
    settings = Settings()
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per API call is noise
    application = build_application(settings)
    if settings.webhook_url:
        token = settings.telegram_bot_token.get_secret_value()
        path = token.split(":")[0]  # a path that only Telegram knows, without the secret half
        application.run_webhook(
            listen="0.0.0.0",
            port=settings.port,
            url_path=path,
            webhook_url=f"{settings.webhook_url}/{path}",
            secret_token=(
                settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
            ),
            allowed_updates=ALLOWED_UPDATES,
        )
    else:
        application.run_polling(allowed_updates=ALLOWED_UPDATES)


if __name__ == "__main__":
    main()
