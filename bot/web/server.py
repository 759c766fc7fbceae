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
  does not take updates (not started yet, stopping): Telegram sends it again later. With
  several workers (PostgreSQL, webhook mode) the update is kept in the shared inbox first
  (``bot.operations.inbox``): 200 only once it is kept, at once for one kept already (a
  redelivery: nothing more is done), 503 if the database cannot keep it.

Every route stands behind the door (``bot.web.door``): the same headers on every answer, a
body refused at its headers when it is over the route's limit, refusals in one line. The
server itself bounds time and connections, so nobody can hold the bot's memory by being
slow: a request's headers must be in within ``HEADERS_SECONDS`` of the connection opening
(or of the previous answer, for a kept-alive one), its body within ``BODY_SECONDS``, and at
most ``MAX_CONNECTIONS`` connections are open at once (a new one past that is closed at
once). A live stream is not cut: its request is read, and its answer is meant to last.
The client's address is the connection's, or with ``TRUST_PROXY`` the one a proxy names in
``X-Forwarded-For`` (``trust_proxy``).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import resource
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any

import tornado.httpserver
import tornado.iostream
import tornado.web
from telegram import Bot, Update
from telegram.ext import Updater

from bot.web import contract
from bot.web.door import Answer, BadFraming, DoorHandler, NotFound
from bot.web.health import Health
from bot.web.limits import LIVE_IN_ALL

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_UPDATE_BYTES = 1024 * 1024  # Telegram's update: the only route that takes a large body
MAX_HEADER_BYTES = 16 * 1024  # launch data is a few hundred bytes; Telegram's headers fewer
HEADERS_SECONDS = 10.0  # a connection that has not sent a whole request's headers by then
BODY_SECONDS = 15.0  # a request whose body has not arrived by then
# every live stream may stay open, and a thousand requests more; but never so many that the
# process runs out of file descriptors (an accept that fails is a busy loop of errors)
MAX_CONNECTIONS = LIVE_IN_ALL + 1000
FILES_KEPT_FREE = 200  # descriptors left for the database, Telegram's calls, the AI workers


def open_files_limit() -> int:
    """Raise this process's limit of open files to what it may have (the hard limit), and
    return how many connections it allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MAX_CONNECTIONS + FILES_KEPT_FREE
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(1, min(MAX_CONNECTIONS, soft - FILES_KEPT_FREE))


class BoundedHTTPServer(tornado.httpserver.HTTPServer):
    """Tornado's server, closing a new connection at once while ``max_connections`` are
    open."""

    max_connections = MAX_CONNECTIONS
    turned_away = 0  # connections closed at once, for the figures

    def handle_stream(self, stream: tornado.iostream.IOStream, address: tuple) -> None:
        if len(self._connections) >= self.max_connections:
            self.turned_away += 1
            stream.close()
            return
        super().handle_stream(stream, address)

    @property
    def open_connections(self) -> int:
        return len(self._connections)


class Webhook:
    """Where the webhook route hands updates: known from the start (a waiting instance
    answers Telegram with 503), taking updates once :meth:`open`."""

    def __init__(
        self,
        path: str | None = None,
        secret: str = "",
        take: Callable[[int, str], Awaitable[bool]] | None = None,
        keep_for_others: bool = False,
    ) -> None:
        """``take(update_id, body)``: keep an update before it is answered, False if it was
        kept already (the inbox); none: every update is handled. ``keep_for_others``
        (several workers): an update that comes while this worker stops is still kept
        and answered 200 — the other workers take it over once this one has left — so a
        rolling restart refuses none."""
        self.path = path.strip("/") if path is not None else None
        self.secret = secret
        self.take = take
        self.keep_for_others = keep_for_others and take is not None
        self.stopped = False  # it took updates, and no longer does: the worker is stopping
        self.bot: Bot | None = None
        self.queue: asyncio.Queue | None = None

    def open(self, bot: Bot, queue: asyncio.Queue) -> None:
        self.bot, self.queue = bot, queue

    def close(self) -> None:
        self.stopped = self.queue is not None or self.stopped
        self.queue = None


class HealthHandler(DoorHandler):
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
        self.send(contract.Health(serving=health.serving, reason=health.reason))


class LiveHandler(DoorHandler):
    def get(self) -> None:
        self.send(contract.Alive(alive=True))


class WebhookHandler(DoorHandler):
    def initialize(self, webhook: Webhook) -> None:
        self.webhook = webhook

    async def prepare(self) -> None:
        # a wrong path or secret is refused at the headers: only Telegram's body is read
        hook = self.webhook
        path = self.path_args[0] if self.path_args else ""
        if hook.path is None or path != hook.path:
            raise Answer(HTTPStatus.NOT_FOUND, "not_found")
        if self.request.method != "POST":
            raise Answer(HTTPStatus.METHOD_NOT_ALLOWED, "method_not_allowed")
        given = self.request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), hook.secret.encode()):
            raise Answer(HTTPStatus.FORBIDDEN, "forbidden")
        self.body_limit = MAX_UPDATE_BYTES
        await super().prepare()

    async def post(self, path: str) -> None:
        hook = self.webhook
        stopping = hook.queue is None and hook.stopped and hook.keep_for_others
        if (hook.queue is None or hook.bot is None) and not stopping:
            raise Answer(HTTPStatus.SERVICE_UNAVAILABLE, "not_serving")
        try:
            data = json.loads(self.body())
            update = Update.de_json(data, hook.bot)
        except Exception as error:  # RecursionError too: a body nested too deep
            log.warning("a webhook request could not be read as an update: %r", error)
            raise Answer(HTTPStatus.BAD_REQUEST, "not_an_update") from None
        if hook.take is not None:
            try:
                new = await hook.take(update.update_id, json.dumps(data))
            except Exception as error:  # not kept: Telegram sends it again later
                log.warning("update %s could not be kept: %r", update.update_id, error)
                raise Answer(HTTPStatus.SERVICE_UNAVAILABLE, "not_serving") from None
            if not new:  # kept already (sent again, or to another worker): done
                self.finish()
                return
        queue = hook.queue
        if queue is None and hook.stopped and hook.keep_for_others:  # kept for the others
            self.finish()
            return
        if queue is None:  # stopped while it was kept: a worker takes it over
            raise Answer(HTTPStatus.SERVICE_UNAVAILABLE, "not_serving")
        await queue.put(update)
        self.finish()


class DoorApplication(tornado.web.Application):
    """Tornado's application, with one check before any route: a request that gives both a
    ``Content-Length`` and a ``Transfer-Encoding`` frames its body two ways (RFC 9112
    §6.3: the seed of request smuggling behind a proxy), so it is answered 400 by
    :class:`~bot.web.door.BadFraming` and its connection closed, whatever its path."""

    def find_handler(self, request, **kwargs: Any):  # type: ignore[override]
        headers = request.headers
        if "Content-Length" in headers and "Transfer-Encoding" in headers:
            return self.get_handler_delegate(request, BadFraming)
        return super().find_handler(request, **kwargs)


class WebServer:
    def __init__(
        self,
        check: Callable[[], Awaitable[Health]],
        port: int,
        webhook: Webhook | None = None,
        routes: list[tuple] = (),
        trust_proxy: bool = False,
    ) -> None:
        """``routes``: more of them on the same port (the table app's, ``bot.web.api``);
        ``trust_proxy``: the client's address is the one a proxy names in
        ``X-Forwarded-For`` / ``X-Real-Ip`` (TRUST_PROXY), else the connection's."""
        self.port = port
        self.webhook = webhook or Webhook()
        self.trust_proxy = trust_proxy
        self.app = DoorApplication(
            [
                (r"/healthz", HealthHandler, {"check": check, "webhook": self.webhook}),
                (r"/livez", LiveHandler),
                *routes,
                (r"/([^/]+)/?", WebhookHandler, {"webhook": self.webhook}),
            ],
            default_handler_class=NotFound,
            log_function=lambda handler: None,  # no access log: health probes come often
        )
        self._server: BoundedHTTPServer | None = None

    def start(self, address: str = "0.0.0.0") -> None:
        server = BoundedHTTPServer(
            self.app,
            xheaders=self.trust_proxy,
            max_body_size=MAX_UPDATE_BYTES,  # each route lowers it (bot.web.door)
            max_buffer_size=MAX_UPDATE_BYTES + MAX_HEADER_BYTES,
            max_header_size=MAX_HEADER_BYTES,
            idle_connection_timeout=HEADERS_SECONDS,
            body_timeout=BODY_SECONDS,
        )
        server.max_connections = open_files_limit()
        server.listen(self.port, address)
        self._server = server
        log.info("health checks at http://%s:%s/healthz", address, self.port)

    @property
    def server(self) -> BoundedHTTPServer | None:
        return self._server

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
