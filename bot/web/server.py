"""The bot's own small web server: the health check, in webhook mode Telegram's updates, and
with ``WEB_APP_URL`` the table app (``bot.web.api``), on one port.

It starts before the bot takes the instance lock, so a waiting instance answers its
platform's health checks too (503). In webhook mode :class:`WebhookUpdater` stands in for
PTB's updater: ``Application.run_webhook`` keeps its order of start-up and shutdown and its
signal handling, and its updates come in through this server instead of a second one on the
same port.

- ``GET /healthz``: 200 while this instance serves (lock held, database answering), else
  503 with the reason; for readiness checks and for restarting an instance whose database
  is gone.
- ``GET /livez``: 200 while the process runs (a liveness check that must not fail while an
  instance waits for the lock: a platform would kill the waiting instance).
- ``POST /<bot id>``: an update from Telegram, with the secret token; 503 while the bot
  does not take updates (not started yet, stopping): Telegram sends it again later.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any

import tornado.httpserver
import tornado.web
from telegram import Bot, Update
from telegram.ext import Updater

from bot.web.health import Health

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_REQUEST_BYTES = 1024 * 1024


class Webhook:
    """Where the webhook route hands updates: known from the start (a waiting instance
    answers Telegram with 503), taking updates once :meth:`open`."""

    def __init__(self, path: str | None = None, secret: str = "") -> None:
        self.path = path.strip("/") if path is not None else None
        self.secret = secret
        self.bot: Bot | None = None
        self.queue: asyncio.Queue | None = None

    def open(self, bot: Bot, queue: asyncio.Queue) -> None:
        self.bot, self.queue = bot, queue

    def close(self) -> None:
        self.queue = None


class HealthHandler(tornado.web.RequestHandler):
    def initialize(self, check: Callable[[], Awaitable[Health]], webhook: Webhook) -> None:
        self.check = check
        self.webhook = webhook

    async def get(self) -> None:
        health = await self.check()
        if health.serving and self.webhook.path is not None and self.webhook.queue is None:
            # the lock is taken, but the webhook does not take updates yet: Telegram's would
            # still be answered 503, so this instance does not serve yet
            health = Health(False, "the webhook does not take updates (starting or stopping)")
        self.set_status(HTTPStatus.OK if health.serving else HTTPStatus.SERVICE_UNAVAILABLE)
        self.finish({"serving": health.serving, "reason": health.reason})


class LiveHandler(tornado.web.RequestHandler):
    def get(self) -> None:
        self.finish({"alive": True})


class WebhookHandler(tornado.web.RequestHandler):
    def initialize(self, webhook: Webhook) -> None:
        self.webhook = webhook

    async def post(self, path: str) -> None:
        hook = self.webhook
        if hook.path is None or path != hook.path:
            raise tornado.web.HTTPError(HTTPStatus.NOT_FOUND)
        given = self.request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), hook.secret.encode()):
            raise tornado.web.HTTPError(HTTPStatus.FORBIDDEN)
        if hook.queue is None or hook.bot is None:
            raise tornado.web.HTTPError(HTTPStatus.SERVICE_UNAVAILABLE)
        try:
            update = Update.de_json(json.loads(self.request.body), hook.bot)
        except Exception as error:
            log.warning("a webhook request could not be read as an update: %r", error)
            raise tornado.web.HTTPError(HTTPStatus.BAD_REQUEST) from None
        await hook.queue.put(update)
        self.finish()


class WebServer:
    def __init__(
        self,
        check: Callable[[], Awaitable[Health]],
        port: int,
        webhook: Webhook | None = None,
        routes: list[tuple] = (),
    ) -> None:
        """``routes``: more of them on the same port (the table app's, ``bot.web.api``)."""
        self.port = port
        self.webhook = webhook or Webhook()
        self.app = tornado.web.Application(
            [
                (r"/healthz", HealthHandler, {"check": check, "webhook": self.webhook}),
                (r"/livez", LiveHandler),
                *routes,
                (r"/([^/]+)/?", WebhookHandler, {"webhook": self.webhook}),
            ],
            log_function=lambda handler: None,  # no access log: health probes come often
        )
        self._server: tornado.httpserver.HTTPServer | None = None

    def start(self, address: str = "0.0.0.0") -> None:
        # a webhook's update or an app's request is small: a large body is refused unread
        self._server = self.app.listen(
            self.port, address, xheaders=True, max_body_size=MAX_REQUEST_BYTES
        )
        log.info("health checks at http://%s:%s/healthz", address, self.port)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            await self._server.close_all_connections()
            self._server = None


class WebhookUpdater(Updater):
    """PTB's updater for ``run_webhook``, with updates coming through :class:`WebServer`
    (already listening) instead of a webhook server of its own."""

    def __init__(self, bot: Bot, update_queue: asyncio.Queue, web: WebServer) -> None:
        super().__init__(bot, update_queue)
        self.web = web

    async def start_webhook(  # type: ignore[override]
        self,
        url_path: str = "",
        webhook_url: str | None = None,
        allowed_updates: Any = None,
        secret_token: str | None = None,
        drop_pending_updates: bool | None = None,
        **_: Any,
    ) -> asyncio.Queue:
        # as PTB's own: the route takes updates first, then Telegram is told where to send
        if url_path.strip("/") != self.web.webhook.path or secret_token != self.web.webhook.secret:
            raise ValueError("run_webhook's path and secret must be the web server's")
        self.web.webhook.open(self.bot, self.update_queue)
        await self.bot.set_webhook(
            webhook_url,
            allowed_updates=allowed_updates,
            secret_token=secret_token,
            drop_pending_updates=drop_pending_updates,
        )
        self._running = True
        return self.update_queue

    async def stop(self) -> None:
        self.web.webhook.close()
        self._running = False
