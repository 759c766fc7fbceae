"""The door of the bot's web server: what every request meets before its handler spends
anything on it, on every route.

- **The same headers on every answer** — a page, an API answer, a live stream, a health
  check, a 404 for a path nobody routes, a 405: a Content Security Policy that admits no
  origin but this one and telegram.org's script, no framing but by Telegram's web clients,
  no sniffing, no referrer.
- **A body is refused at the headers.** Each route says how large a body it takes
  (``body_limit``: nothing for a GET; a move is a few numbers; Telegram's update up to
  1 MiB). A request that announces more is answered 413 before a byte of its body is read,
  and the connection is closed, so the rest of the body is never buffered; a chunked body is
  cut at the same limit as it arrives.
- **A body framed two ways is refused.** ``Content-Length`` with ``Transfer-Encoding``
  (RFC 9112 §6.3) is answered 400 before any route (:class:`BadFraming`, chosen by
  ``bot.web.server``) and its connection closed.
- **A refusal is one short line.** A request the door or a handler refuses (an unknown path,
  a malformed body, launch data that does not check) is answered with its 4xx status and a
  short JSON ``{"error", "message"}``, and logged once as a warning with no traceback — and
  paced (:class:`RefusalLog`), so a flood of bad requests cannot fill the log; an address
  whose failing sign-ins are past their budget is one line a minute (:class:`OverBudgetLog`).
  A budget's refusal carries ``Retry-After``. Only a real fault of the bot is a 500 with a
  traceback (and an error report).

The server's own limits on time and connections are in ``bot.web.server``."""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from http import HTTPStatus
from typing import Any

import tornado.web
from pydantic import BaseModel

log = logging.getLogger("bot.web.refused")

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; "
        "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
        "frame-ancestors https://web.telegram.org https://*.web.telegram.org"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
REFUSALS_LOGGED_PER_MINUTE = 20  # past this, refusals are counted and said in one line


class Answer(Exception):
    """A request answered with an error: its status, a key the page knows, and a message
    for people (in the asker's language where the handler knows it); ``retry_after``: the
    seconds a budget's refusal asks the client to wait (``Retry-After``); ``logged``: False
    for a refusal its own log line tells of (:data:`SIGN_INS_LOG`)."""

    def __init__(
        self,
        status: HTTPStatus,
        key: str,
        message: str = "",
        retry_after: int | None = None,
        logged: bool = True,
    ) -> None:
        super().__init__(key)
        self.status, self.key, self.message = status, key, message
        self.retry_after, self.logged = retry_after, logged


class RefusalLog:
    """Refused requests as warning lines, at most ``per_minute`` a minute: past that they
    are counted, and the next line that may be written says how many were left out."""

    def __init__(self, per_minute: int = REFUSALS_LOGGED_PER_MINUTE) -> None:
        self.per_minute = per_minute
        self.clock = time.monotonic
        self._window_start = float("-inf")
        self._written = 0
        self.left_out = 0

    def may_write(self) -> bool:
        """Whether one more line may be written this minute (else it is counted)."""
        now = self.clock()
        if now - self._window_start >= 60:
            self._window_start, self._written = now, 0
        if self._written >= self.per_minute:
            self.left_out += 1
            return False
        self._written += 1
        return True

    def refused(self, request: Any, status: int, why: str) -> None:
        if not self.may_write():
            return
        more = f" ({self.left_out} more refused before, not logged)" if self.left_out else ""
        self.left_out = 0
        # the path as sent, cut short and with control characters shown escaped
        path = repr(request.path[:120])[1:-1]
        log.warning(
            "refused %s %s from %s: %d %s%s",
            request.method,
            path,
            request.remote_ip,
            status,
            why,
            more,
        )


REFUSALS = RefusalLog()


class OverBudgetLog:
    """Failing sign-ins of a client address past its budget: one warning line a minute per
    address (how many of its failing requests were refused in the minute before), not one
    per request — so a flood from one address is one line, and the others' lines still
    fit the refusals' log."""

    def __init__(self, kept: int = 10_000, per_minute: int = REFUSALS_LOGGED_PER_MINUTE) -> None:
        self.kept = kept
        self.clock = time.monotonic
        self._addresses: OrderedDict[str, list[float]] = OrderedDict()  # [since, refused]
        # many addresses at once (an attacker's range of them): at most ``per_minute`` lines
        self.lines = RefusalLog(per_minute)

    def over(self, address: str) -> None:
        now = self.clock()
        seen = self._addresses.get(address)
        if seen is not None and now - seen[0] < 60:
            seen[1] += 1
            return
        before = int(seen[1]) if seen is not None else 0
        self._addresses[address] = [now, 0]
        self._addresses.move_to_end(address)
        while len(self._addresses) > self.kept:
            self._addresses.popitem(last=False)
        self.lines.clock = self.clock
        if not self.lines.may_write():
            return
        more = f" ({before} more refused in the minute before)" if before else ""
        log.warning(
            "launch data from %s failed past its budget: its failing requests are refused "
            "429 for a while (valid ones are still served)%s",
            address,
            more,
        )


SIGN_INS_LOG = OverBudgetLog()


@tornado.web.stream_request_body
class DoorHandler(tornado.web.RequestHandler):
    """A handler behind the door: the security headers, the body limit at the headers, and
    refusals answered in one short line. Its body, once read, is :meth:`body`."""

    body_limit = 0  # bytes a request of this route may carry

    def set_default_headers(self) -> None:
        for name, value in SECURITY_HEADERS.items():
            self.set_header(name, value)

    async def prepare(self) -> None:
        # stream_request_body: this runs as soon as the headers are in, before the body
        self._chunks: list[bytes] = []
        headers = self.request.headers
        if "Transfer-Encoding" not in headers:
            try:
                announced = int(headers.get("Content-Length", "0"))
            except ValueError:  # tornado checks it is digits; this only guards the int
                announced = self.body_limit + 1
            if announced > self.body_limit:
                raise Answer(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "too_large")
        # a chunked body: cut by the connection as soon as it passes the limit
        self.request.connection.set_max_body_size(self.body_limit)

    def data_received(self, chunk: bytes) -> None:
        self._chunks.append(chunk)

    def body(self) -> bytes:
        return b"".join(self._chunks)

    # -- answers --------------------------------------------------------------------------
    def send(self, model: BaseModel) -> None:
        """Answer with one of the contract's models (``bot.web.contract``), as JSON."""
        self.set_header("Content-Type", "application/json; charset=UTF-8")
        self.finish(model.model_dump_json(exclude_unset=True))

    def _handle_request_exception(self, error: BaseException) -> None:
        if isinstance(error, Answer):
            self.refuse(error)
            return
        super()._handle_request_exception(error)

    def refuse(self, error: Answer) -> None:
        if error.logged:
            REFUSALS.refused(self.request, error.status, error.key)
        if self._finished:
            return
        if self._headers_written:  # a live stream already under way: it just ends
            self.finish()
            return
        self.clear()  # headers a handler set for a good answer (an event stream's type)
        self.set_status(error.status)
        if error.status == HTTPStatus.METHOD_NOT_ALLOWED:
            self.set_header("Allow", ", ".join(self.allowed_methods()))
        if error.status == HTTPStatus.REQUEST_ENTITY_TOO_LARGE or error.key == "bad_framing":
            # the body is not read: the connection cannot carry another request
            self.set_header("Connection", "close")
        if error.retry_after is not None:
            self.set_header("Retry-After", str(error.retry_after))
        self.finish({"error": error.key, "message": error.message})

    def log_exception(self, typ, value, tb) -> None:  # type: ignore[override]
        if isinstance(value, tornado.web.HTTPError) and value.status_code < 500:
            REFUSALS.refused(self.request, value.status_code, value.reason or "refused")
            return
        super().log_exception(typ, value, tb)  # a fault of the bot: its traceback

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        if status_code == HTTPStatus.METHOD_NOT_ALLOWED:
            self.set_header("Allow", ", ".join(self.allowed_methods()))
        key = "server" if status_code >= 500 else HTTPStatus(status_code).phrase.lower()
        self.finish({"error": key.replace(" ", "_"), "message": ""})

    def allowed_methods(self) -> list[str]:
        """The methods this route answers (a 405 names them, as HTTP asks)."""
        mine = type(self)
        return [
            method
            for method in self.SUPPORTED_METHODS
            if getattr(mine, method.lower())
            is not getattr(tornado.web.RequestHandler, method.lower())
        ]


class NotFound(DoorHandler):
    """Any path nobody routes: 404 in one line, with the headers of every answer."""

    def prepare(self) -> None:  # type: ignore[override]
        raise tornado.web.HTTPError(HTTPStatus.NOT_FOUND, reason="Not Found")


class BadFraming(DoorHandler):
    """A request whose body is framed two ways (``Content-Length`` and
    ``Transfer-Encoding``): 400, and its connection closed (``bot.web.server``)."""

    def prepare(self) -> None:  # type: ignore[override]
        raise Answer(HTTPStatus.BAD_REQUEST, "bad_framing")
