"""The in-memory Bot API served over HTTP on localhost, for running the real bot process.

Point the bot at it with ``TELEGRAM_API_URL=http://127.0.0.1:<port>``: it polls
``getUpdates`` and calls the Bot API exactly as against Telegram. Tests queue updates with
:meth:`FakeTelegram.queue_update` and read what the bot sent from the same object.
"""

from __future__ import annotations

import socket

from tornado.httpserver import HTTPServer
from tornado.web import Application, RequestHandler

from bot.testing.fake_telegram import FakeTelegram


class _BotApiHandler(RequestHandler):
    def initialize(self, api: FakeTelegram) -> None:
        self.api = api

    async def post(self, token: str, method: str) -> None:
        params = {key: values[0].decode() for key, values in self.request.body_arguments.items()}
        if not params and self.request.body:
            params = dict(_json_body(self.request.body))
        files = {name: parts[0].body for name, parts in self.request.files.items()}  # photos
        status, body = await self.api.handle(method, params, files)
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.finish(body)

    get = post


def _json_body(body: bytes) -> dict:
    import json

    try:
        data = json.loads(body)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class FakeTelegramServer:
    """Serves a :class:`FakeTelegram` at ``http://127.0.0.1:<port>/bot<token>/<method>``."""

    def __init__(self, api: FakeTelegram, port: int | None = None) -> None:
        self.api = api
        self.port = port or free_port()
        self._server: HTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        app = Application([(r"/bot([^/]+)/(\w+)", _BotApiHandler, {"api": self.api})])
        self._server = HTTPServer(app)
        self._server.listen(self.port, address="127.0.0.1")

    async def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            await self._server.close_all_connections()
