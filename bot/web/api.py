"""The table app over HTTP: its page and static files, and its API — served by the bot's
own web server (``bot.web.server``), on the port of ``/healthz``.

- ``GET /app/``: the page (plain HTML, CSS and JavaScript in ``page/``: no build, no CDN);
  ``GET /app/static/<file>``: its files.
- ``GET /api/tables``: the asker's running tables of the games the app draws.
- ``GET /api/tables/<match>``: one table as its player sees it (``bot.web.tables``).
- ``GET /api/launch``: the match a ``startapp`` link from the group opened (the signed
  launch data's ``start_param``, ``bot.web.start_param``), if the asker may see it.
- ``POST /api/tables/<match>/moves`` ``{"action": [...], "token": n}``: a move, made as a
  chat button's is (``Host.play``); a move for an older decision (a repeated request, the
  same decision already made from the chat) is refused as stale and changes nothing.
- ``GET /api/lessons``: the lessons (with the asker's progress: ✓ when finished) and the
  practice games and levels the home offers; ``POST /api/lessons/<game>`` ``{}``: the
  lesson where the asker left it (``{"step": n}``: from step n again, 0 the start); ``GET
  /api/lessons/<game>/<step>``: a step reached, drawn as a table (``bot.web.lessons``);
  ``POST /api/lessons/<game>/<step>/moves`` ``{"action": [...]}``: at the asker's step, the
  next step (stored) if the move reaches the step's goal, or why not.
- ``POST /api/practice`` ``{"game": ..., "level": ...}``: a practice match against bots,
  started in the asker's private chat (``bot.web.practice``).
- ``POST /api/friend`` ``{"game": ...}``: "Play with a friend", the game's invitation
  prepared for the asker to send: ``{"prepared": id}`` for Telegram's ``shareMessage``.
- ``GET /api/tournaments/<id>``: a tournament's page — its standings, rounds and tables
  (``bot.web.tournament_page``), for its entrants and the members of its group.
- ``GET /api/tables/<match>/live``: Server-Sent Events, one ``data: {"version": n}`` each
  time the match changes (the page then reads the table again), a comment every
  ``HEARTBEAT_SECONDS`` to keep proxies from closing it.

- ``GET /api/openapi.json``: this API as an OpenAPI document (``bot.web.openapi``).

Every request stands behind the door (``bot.web.door``): the security headers, a body
refused at its headers when it is over its route's limit, refusals in one line. Every API
request carries ``Authorization: tma <initData>``, checked each time (``bot.web.auth``);
the user comes from it alone. Limits (``bot.web.limits``): a small body, a number of live
connections, and a budget per action that spends — requests per user; launch data that does
not check, per client address (only those failing requests are refused past it: a valid
signature from the same address is always checked, one HMAC, and served on its user's own
pace); new invitations and practice matches per user; questions to Telegram per user and
for everyone. A budget's refusal is a 429 with ``Retry-After`` and a message in the asker's
language. A table, replay or tournament the asker may not see is answered exactly as one
that does not exist (404, the same body). Requests and answers go through the contract's
models (``bot.web.contract``). A database that does not answer is said in one line (503),
as a chat press would be.
"""

from __future__ import annotations

import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from pathlib import Path
from typing import NoReturn, TypeVar

import tornado.iostream
import tornado.web
from pydantic import BaseModel, ValidationError
from telegram import User
from telegram.error import TelegramError

from bot.presentation.i18n import Translator, negotiate, translator
from bot.presentation.tutorial import Lesson, resumed
from bot.presentation.ui import playable_games
from bot.storage import Match, StorageUnavailable
from bot.table import flow
from bot.table.host import Host
from bot.table.place import place_of
from bot.telegram_api.rate_limit import ShareSpent
from bot.web import contract, lessons, openapi, practice, start_param, tables, tournament_page
from bot.web.auth import Refused, WebUser, claimed_language, user_of
from bot.web.door import SIGN_INS_LOG, Answer, DoorHandler
from bot.web.limits import MAX_BODY_BYTES, Budgets, Spent
from bot.web.live import LiveTables
from bot.web.replays import Replays
from bot.web.replays import summary as replay_summary
from games.tutorial import get_tutorial

log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)

PAGE = Path(__file__).with_name("page")
STATIC_NAME = r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}"  # the page's files: plain names, no path
HEARTBEAT_SECONDS = 20.0
ENDED = ("finished", "cancelled")  # a replay is of a match that is over
INVITATION_MARGIN_SECONDS = 600  # a prepared invitation is offered again until this near its end
INVITATIONS_KEPT = 10_000
# a refusal's words: ``app.error.<key>`` in the asker's language, for the keys that carry no
# message of their own; a sign-in refused says why (the page opened outside Telegram, launch
# data more than a day old, anything else)
SIGN_IN_WORDS = {"missing": "app.open_in_telegram", "expired": "app.error.expired"}

# an invitation to a game prepared for a user to send (savePreparedInlineMessage): its id
# and when Telegram drops it (a Unix time); made by the chat side
# (``bot.handlers.inline.prepare_invitation``), which the app connects
Invite = Callable[[User, str], Awaitable[tuple[str, float]]]
Rematch = Callable[[Match, User], Awaitable[str]]  # the message key of what happened


class TableApp:
    """Everything the app's requests use: the bot's services, the bot token that checks
    launch data (it never leaves the server), the live tables (and who may watch them) and
    the paces."""

    def __init__(
        self,
        host: Host,
        token: str,
        live: LiveTables,
        invite: Invite | None = None,
        budgets: Budgets | None = None,
        rematch: Rematch | None = None,
    ) -> None:
        self.host = host
        self.invite = invite  # "Play with a friend": a prepared invitation's id
        self.rematch = rematch  # "Play again": the chat's rematch of a finished match
        self.token = token
        self.live = live
        # what the app's users may spend: the same table as the watchers' look-ups (app.py)
        self.budgets = budgets or Budgets()
        # the invitations prepared, per user, game and their words: offered again while valid
        self.invitations: OrderedDict[tuple, tuple[str, float]] = OrderedDict()
        self.replays = Replays()
        self.clock: Callable[[], float] = time.time

    def default_language(self) -> str:
        return self.host.settings.default_language

    def routes(self) -> list[tuple]:
        args = {"app": self}
        return [
            (r"/app/?", PageHandler, args),
            (rf"/app/static/({STATIC_NAME})", StaticHandler, {"path": str(PAGE)}),
            (r"/api/openapi\.json", OpenApiHandler),
            (r"/api/tables/?", TablesHandler, args),
            (r"/api/launch/?", LaunchHandler, args),
            (r"/api/tables/([0-9]{1,18})/?", TableHandler, args),
            (r"/api/tables/([0-9]{1,18})/moves/?", MoveHandler, args),
            (r"/api/tables/([0-9]{1,18})/live/?", LiveHandler, args),
            (r"/api/tables/([0-9]{1,18})/rematch/?", RematchHandler, args),
            (r"/api/replays/([0-9]{1,18})/?", ReplayHandler, args),
            (r"/api/replays/([0-9]{1,18})/([0-9]{1,6})/?", ReplayStepHandler, args),
            (r"/api/tournaments/([0-9]{1,18})/?", TournamentHandler, args),
            (r"/api/lessons/?", LessonsHandler, args),
            (r"/api/lessons/([a-z0-9_]{1,20})/?", LessonStartHandler, args),
            (r"/api/lessons/([a-z0-9_]{1,20})/([0-9]{1,2})/?", LessonHandler, args),
            (r"/api/lessons/([a-z0-9_]{1,20})/([0-9]{1,2})/moves/?", LessonMoveHandler, args),
            (r"/api/practice/?", PracticeHandler, args),
            (r"/api/friend/?", FriendHandler, args),
        ]


class PageHandler(DoorHandler):
    """The page, the same for everyone: it holds no data until it asks with its launch
    data."""

    def initialize(self, app: TableApp) -> None:
        self.app = app

    def set_default_headers(self) -> None:
        super().set_default_headers()
        self.set_header("Cache-Control", "no-cache")

    def get(self) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish((PAGE / "index.html").read_bytes())


class StaticHandler(DoorHandler, tornado.web.StaticFileHandler):
    """The page's files, by plain name only (the route admits no other path)."""

    def set_extra_headers(self, path: str) -> None:
        self.set_header("Cache-Control", "no-cache")  # revalidated: an upgrade shows at once


class OpenApiHandler(DoorHandler):
    """This API's OpenAPI document: public, like the page."""

    def get(self) -> None:
        self.set_header("Content-Type", "application/json; charset=UTF-8")
        self.finish(openapi.document_json())


class ApiHandler(DoorHandler):
    """An API request: its size checked at the headers, its launch data checked (its
    client's failures paced), its asker's pace checked, then answered in JSON."""

    def initialize(self, app: TableApp) -> None:
        self.app = app
        self.user: WebUser | None = None
        self.t: Translator | None = None  # the asker's language, once the storage said it

    def set_default_headers(self) -> None:
        super().set_default_headers()
        self.set_header("Cache-Control", "no-store")

    # -- a refusal in the asker's words -----------------------------------------------------
    def words(self) -> Translator:
        """The asker's language as far as it is known: the one the chat speaks to them (once
        read), else their Telegram app's — from the launch data even when its signature
        fails, else from the browser's Accept-Language (a page opened outside Telegram)."""
        if self.t is not None:
            return self.t
        default = self.app.host.settings.default_language
        if self.user is not None:
            return translator(negotiate(self.user.language_code, default))
        claimed = claimed_language(self.request.headers.get("Authorization"))
        accepted = self.request.headers.get("Accept-Language", "").split(",")[0].split(";")[0]
        return translator(negotiate(claimed or accepted.strip() or None, default))

    def refuse(self, error: Answer) -> None:
        if not error.message:  # a key alone would reach the player: its words instead
            t = self.words()
            key = f"app.error.{error.key}"
            error.message = t(key) if t.has(key) else t("app.error.refused")
        super().refuse(error)

    def write_error(self, status_code: int, **kwargs) -> None:
        if status_code == HTTPStatus.METHOD_NOT_ALLOWED:
            self.set_header("Allow", ", ".join(self.allowed_methods()))
        key = "server" if status_code >= 500 else HTTPStatus(status_code).phrase.lower()
        self.refuse(Answer(HTTPStatus(status_code), key.replace(" ", "_")))

    async def prepare(self) -> None:
        await super().prepare()  # the body's size, at the headers
        header = self.request.headers.get("Authorization")
        try:  # always checked: one HMAC, cheaper than any refusal
            self.user = user_of(header, self.app.token, self.app.clock())
        except Refused as refused:
            await self.failed_sign_in(refused)
        await self.spend("request", self.user.id)
        await self.reader()  # the asker's language, for the answer and for any refusal

    async def failed_sign_in(self, refused: Refused) -> NoReturn:
        """Launch data that does not check: 401 saying why, and past its client address's
        budget 429 (this failing request only), said in the log once a minute per address."""
        address = self.request.remote_ip
        words = self.words()
        if await self.app.budgets.allow("failed_sign_in", address):
            log.info("launch data refused from %s: %s", address, refused)
            message = words(SIGN_IN_WORDS.get(refused.reason, "app.error.signed_out"))
            raise Answer(HTTPStatus.UNAUTHORIZED, "signed_out", message)
        SIGN_INS_LOG.over(address)
        budget = self.app.budgets.table["failed_sign_in"]
        raise Answer(
            HTTPStatus.TOO_MANY_REQUESTS,
            budget.error,
            words(budget.refusal),
            retry_after=budget.retry_after,
            logged=False,
        )

    async def spend(self, action: str, key=None) -> None:
        """Charge ``action`` to ``key``'s budget (the asker's, where it is theirs); past it,
        a 429 in the asker's words."""
        try:
            await self.app.budgets.spend(action, key)
        except Spent as spent:
            raise self.spent(spent) from None

    def spent(self, spent: Spent) -> Answer:
        budget = spent.budget
        return Answer(
            HTTPStatus.TOO_MANY_REQUESTS,
            budget.error,
            self.words()(budget.refusal),
            retry_after=budget.retry_after,
        )

    def _handle_request_exception(self, error: BaseException) -> None:
        if isinstance(error, Spent):  # a budget spent deep down (a question to Telegram)
            self.refuse(self.spent(error))
            return
        if isinstance(error, StorageUnavailable):
            # in the asker's Telegram language: the database that keeps their choice is down
            message = self.words()("app.storage_down")
            self.refuse(Answer(HTTPStatus.SERVICE_UNAVAILABLE, "storage_down", message))
            return
        super()._handle_request_exception(error)

    def read(self, model: type[M], refusal: str) -> M:
        """The request's body as the contract's ``model``; a 400 ``refusal`` where it is not
        JSON, is nested too deep, or is not that model's shape."""
        try:
            return model.model_validate_json(self.body() or b"{}")
        except ValidationError:
            raise Answer(HTTPStatus.BAD_REQUEST, refusal) from None

    def answer(self, model: type[BaseModel], payload: dict) -> None:
        """Send ``payload`` as the contract's ``model`` says it is."""
        self.send(model.model_validate(payload))

    async def reader(self) -> Translator:
        """The asker's language, as the chat speaks to them (read once a request)."""
        if self.t is None:
            user = self.user
            assert user is not None
            telegram_user = User(user.id, user.first_name, False, language_code=user.language_code)
            self.t = await self.app.host.languages.user_t(telegram_user)
        return self.t

    async def seated_match(self, match_id: str) -> Match:
        """A match the asker plays in (one who only watches it is told it is not theirs)."""
        match = await self.viewable_match(match_id)
        if match.seat_of(self.user.id) is None:
            message = (await self.reader())("app.not_your_table")
            raise Answer(HTTPStatus.FORBIDDEN, "not_your_table", message)
        return match

    async def viewable_match(self, match_id: str) -> Match:
        """A match the asker plays in, or may watch (a member of its group)."""
        match = await self.shown_match(match_id)
        if match is not None and match.seat_of(self.user.id) is not None:
            return match
        group = match.chat_id if match is not None and place_of(match).watchable else None
        if not await self.member_of(group) or match is None:
            await self.unseen()
        return match

    async def member_of(self, group: int | None) -> bool:
        """Whether the asker is a member of ``group`` (None: no group that lets anyone but
        the players in). Known from the last minute, it costs nothing; else, whether Telegram
        is asked or the answer is a refusal, the asker's and everyone's look-ups must not be
        spent — the same check either way (:meth:`unseen`)."""
        watchers = self.app.live.watchers
        known = watchers.known(group, self.user.id) if group is not None else None
        if known:
            return True
        try:
            self.app.budgets.require("look_up", self.user.id)
            self.app.budgets.require("look_ups")
        except Spent as spent:
            raise self.spent(spent) from None
        if group is None or known is not None:
            return False
        return await watchers.ask(group, self.user.id)

    async def shown_match(self, match_id: str) -> Match | None:
        """The match, if the app shows it at all (a table of a game it draws)."""
        match = await self.app.host.storage.load(int(match_id))
        if match is None or match.state is None or match.game not in tables.TABLE_GAMES:
            return None
        return match

    async def unseen(self, key: str = "no_table", message: str = "app.unseen_table") -> NoReturn:
        """A table, replay or tournament the asker may not see, or that is not there: the
        same answer either way (404, the same body), and the same cost — one of the asker's
        look-ups, checked before (:meth:`member_of`) — so asking cannot tell them apart."""
        await self.spend("look_up", self.user.id)
        raise Answer(HTTPStatus.NOT_FOUND, key, self.words()(message))


class TablesHandler(ApiHandler):
    """The app's home: the asker's running tables, in every chat, then their finished
    matches with their results."""

    async def get(self) -> None:
        host, user = self.app.host, self.user
        t = await self.reader()
        running = []
        for match_id in await host.storage.active_matches_of(user.id):
            match = await host.storage.load(match_id)
            if match is not None and match.status == "playing" and match.game in tables.TABLE_GAMES:
                running.append(tables.listing(match, user.id, t, self.app.clock()))
        finished = [
            tables.finished_line(past, t) for past in await host.storage.player_history(user.id)
        ]
        entered = []  # the tournaments they are in: the home links each one's page
        for tournament_id in await host.storage.tournaments_of(user.id):
            stored = await host.storage.tournament(tournament_id)
            if stored is not None:
                entered.append(tournament_page.listing(stored, t))
        self.answer(
            contract.Tables,
            {
                "tables": running,
                "finished": finished,
                "tournaments": entered,
                "texts": tables.texts(t),
            },
        )


class LaunchHandler(ApiHandler):
    """The table a link from the group opened: the match its signed start parameter names,
    for a player (their seat) or a member who watches; anyone else is refused as for any
    table."""

    async def get(self) -> None:
        match_id = start_param.decode(self.user.start_param)
        if match_id is None:
            await self.member_of(None)  # the same checks as for a table not there
            await self.unseen()
        match = await self.viewable_match(str(match_id))
        self.send(contract.Launched(match=match.id))


class TableHandler(ApiHandler):
    async def get(self, match_id: str) -> None:
        match = await self.viewable_match(match_id)
        table = tables.table(match, self.user.id, await self.reader(), self.app.clock())
        self.answer(contract.Table, table)


class ReplayHandler(ApiHandler):
    """A finished match to replay: its players', and its group members'."""

    async def get(self, match_id: str) -> None:
        match, made = await self.replay(match_id)
        self.answer(contract.ReplaySummary, replay_summary(await self.reader(), match, len(made)))

    async def replay(self, match_id: str):
        match = await self.viewable_match(match_id)
        t = await self.reader()
        if match.status not in ENDED:
            raise Answer(HTTPStatus.CONFLICT, "still_playing", t("app.no_table"))
        moves = await self.app.host.storage.moves(match.id)
        return match, self.app.replays.steps(t, match, moves)


class ReplayStepHandler(ReplayHandler):
    async def get(self, match_id: str, number: str) -> None:
        _, made = await self.replay(match_id)
        if int(number) >= len(made):
            raise Answer(HTTPStatus.NOT_FOUND, "no_step")
        self.answer(contract.ReplayStep, made[int(number)])


class TournamentHandler(ApiHandler):
    """A tournament's page: its entrants', and its group members' (as its tables are)."""

    async def get(self, tournament_id: str) -> None:
        stored = await self.app.host.storage.tournament(int(tournament_id))
        user_id = self.user.id
        if stored is None or user_id not in tournament_page.entrants(stored):
            group = stored.chat_id if stored is not None else None
            if not await self.member_of(group) or stored is None:
                await self.unseen("no_tournament", "tournament.page.unseen")
        t = await self.reader()
        self.answer(contract.TournamentPage, tournament_page.payload(stored, t, user_id))


class MoveHandler(ApiHandler):
    body_limit = MAX_BODY_BYTES

    async def post(self, match_id: str) -> None:
        move = self.read(contract.MoveRequest, "bad_move")
        action, token = move.action, move.token
        host = self.app.host
        async with host.lock(int(match_id)):
            match = await self.shown_match(match_id)
            seat = match.seat_of(self.user.id) if match is not None else None
            if seat is not None:
                refused = flow.move_refusal(match, self.user.id, token, action)
                if refused is not None:
                    t = await self.reader()
                    conflict = refused == "play.stale"
                    status = HTTPStatus.CONFLICT if conflict else HTTPStatus.FORBIDDEN
                    raise Answer(status, refused, t(refused))
                await host.play(match, seat, tuple(action))
        if seat is None:  # refused as any table is, its look-up outside the match's lock
            await self.seated_match(match_id)
            t = await self.reader()  # seated only since: the move was for an older state
            raise Answer(HTTPStatus.CONFLICT, "play.stale", t("play.stale"))
        self.send(contract.Moved(version=match.version))


class RematchHandler(ApiHandler):
    """The end screen's 🔁 Play again: the chat's rematch (``bot.handlers.lobby``), opened
    by one of the finished match's players; its lobby is drawn in the match's chat, so it
    spends the asker's rematches."""

    async def post(self, match_id: str) -> None:
        match = await self.seated_match(match_id)
        t = await self.reader()
        if self.app.rematch is None or match.status != "finished":
            raise Answer(HTTPStatus.CONFLICT, "not_finished", t("error.bad_button"))
        await self.spend("rematch", self.user.id)
        user = self.user
        asker = User(user.id, user.first_name, False, language_code=user.language_code)
        opened = await self.app.rematch(match, asker)
        if opened != "rematch.opened":
            raise Answer(HTTPStatus.CONFLICT, "no_rematch", t(opened))
        self.send(contract.Rematched(message=t(opened)))


class LiveHandler(ApiHandler):
    """Server-Sent Events over a plain GET (the page reads it with ``fetch``, which can
    send the Authorization header that ``EventSource`` cannot)."""

    async def get(self, match_id: str) -> None:
        match = await self.viewable_match(match_id)
        watching = match.chat_id if match.seat_of(self.user.id) is None else None
        stream = self.app.live.open(match.id, self.user.id, match.version, watching)
        if stream is None:
            raise Answer(HTTPStatus.SERVICE_UNAVAILABLE, "too_many_connections")
        self.stream = stream
        self.set_header("Content-Type", "text/event-stream")
        self.set_header("X-Accel-Buffering", "no")  # a proxy must not hold the events back
        try:
            await self.event({"version": match.version})
            while not self.request.connection.stream.closed():
                news = await stream.wait(HEARTBEAT_SECONDS)
                if stream.ended:  # the watcher left the group: the table is no longer theirs
                    break
                if news:
                    await self.event({"version": stream.version})
                else:
                    self.write(": still here\n\n")
                    await self.flush()
        except tornado.iostream.StreamClosedError:
            pass
        finally:
            self.app.live.close(stream)

    async def event(self, event: dict) -> None:
        self.write(f"data: {json.dumps(event)}\n\n")
        await self.flush()

    def on_connection_close(self) -> None:
        stream = getattr(self, "stream", None)
        if stream is not None:
            self.app.live.close(stream)
            stream.tell(stream.version + 1)  # wakes the loop above, which then ends


# -- learning and practising from the app's home ---------------------------------------------
class LessonsHandler(ApiHandler):
    """The lessons the home offers, and the games and levels of a practice match."""

    async def get(self) -> None:
        t = await self.reader()
        self.answer(
            contract.Home,
            {
                "lessons": lessons.menu(
                    t, await self.app.host.storage.lessons_reached(self.user.id)
                ),
                "practice": practice.choices(t),
                "texts": {**tables.texts(t), **lessons.texts(t), **practice.texts(t)},
            },
        )


class LessonRoute(ApiHandler):
    """A lesson named in the address, at the asker's stored place in it."""

    def game(self, game: str) -> str:
        if game not in playable_games():
            raise Answer(HTTPStatus.NOT_FOUND, "no_lesson")
        return game

    async def place(self, game: str) -> list[list[int]]:
        assert self.user is not None
        stored = await self.app.host.storage.lesson_path(self.user.id, self.game(game))
        return list(resumed(game, stored).path) if stored else []

    async def keep(self, lesson: Lesson) -> None:
        assert self.user is not None
        await self.app.host.storage.save_lesson(self.user.id, lesson.game, lesson.path)

    @property
    def learner(self) -> str:
        """The asker's first name: the tables' sentences name the learner as a match would."""
        assert self.user is not None
        return self.user.first_name

    async def lesson(self, game: str, step: str) -> Lesson:
        """Step ``step`` of the asker's lesson: where they are, or a step before (to look
        back); a step not reached yet is 409."""
        path = await self.place(game)
        index = int(step)
        if index > len(path) or index > len(get_tutorial(game)):
            raise Answer(HTTPStatus.CONFLICT, "lesson_step")
        return Lesson(game, tuple(tuple(move) for move in path[:index]))


class LessonHandler(LessonRoute):
    """A lesson's step as a table."""

    async def get(self, game: str, step: str) -> None:
        lesson = await self.lesson(game, step)
        table = lessons.table(await self.reader(), lesson, self.app.clock(), self.learner)
        self.answer(contract.LessonTable, table)


class LessonStartHandler(LessonRoute):
    """A lesson begun where it was left (a finished one from its start), or again from a
    step already reached (``{"step": n}``: retried; 0: restarted). Each step is counted
    once per learner (``Storage.save_lesson``)."""

    body_limit = MAX_BODY_BYTES

    async def post(self, game: str) -> None:
        begin = self.read(contract.LessonBegin, "bad_lesson")
        path = await self.place(game)
        if begin.step is not None:
            if begin.step > len(path):
                raise Answer(HTTPStatus.CONFLICT, "lesson_step")
            path = path[: begin.step]
        lesson = Lesson(game, tuple(tuple(move) for move in path))
        await self.keep(lesson)
        table = lessons.table(await self.reader(), lesson, self.app.clock(), self.learner)
        self.answer(contract.LessonTable, table)


class LessonMoveHandler(LessonRoute):
    """A move at the asker's step: stored, and the next step, if it reaches the step's
    goal; else why not, and nothing is played. A step other than the asker's is 409."""

    body_limit = MAX_BODY_BYTES

    async def post(self, game: str, step: str) -> None:
        move = self.read(contract.LessonMove, "bad_move")
        lesson = await self.lesson(game, step)
        if lesson.over:
            raise Answer(HTTPStatus.CONFLICT, "lesson_over")
        if lesson.index != len(await self.place(game)):
            raise Answer(HTTPStatus.CONFLICT, "lesson_step")
        t, now = await self.reader(), self.app.clock()
        answer = lessons.answer(t, lesson, tuple(move.action), now, self.learner)
        if answer["right"]:
            await self.keep(lesson.then(tuple(move.action)))
        self.answer(contract.LessonAnswer, answer)


class PracticeHandler(ApiHandler):
    """``{"game": ..., "level": ...}``: a practice match against bots in the asker's private
    chat, started at once; its table's number (or the running one's, if there is one)."""

    body_limit = MAX_BODY_BYTES

    async def post(self) -> None:
        asked = self.read(contract.PracticeRequest, "bad_practice")
        game, level = asked.game, asked.level
        t = await self.reader()  # the game and level are known ones: the contract says so
        started = await practice.start(self.app.host, self.user, t, game, level, self.new_practice)
        if isinstance(started, str):
            raise Answer(HTTPStatus.CONFLICT, started, t(started))
        self.send(contract.Launched(match=started.id))

    async def new_practice(self) -> None:
        """A new match charged to the asker's budget and everyone's (both must have room)."""
        try:
            self.app.budgets.require("practices")
        except Spent as spent:
            raise self.spent(spent) from None
        await self.spend("practice", self.user.id)
        await self.spend("practices")


class FriendHandler(ApiHandler):
    """``{"game": ...}``: "Play with a friend" — the game's invitation prepared for the asker
    to send (``{"prepared": id}``: the page opens Telegram's chat picker with it); the
    friend's Join in the chat they pick opens the table, as inline tables do."""

    body_limit = MAX_BODY_BYTES

    async def post(self) -> None:
        game = self.read(contract.FriendRequest, "bad_game").game
        t = await self.reader()  # a two-player game: the contract says so
        if self.app.invite is None:
            raise Answer(HTTPStatus.SERVICE_UNAVAILABLE, "no_invitations", t("home.friend_failed"))
        user = self.user
        kept = (user.id, game, t.lang, user.first_name)  # the same invitation, the same words
        prepared = self.app.invitations.get(kept)
        if prepared is not None and prepared[1] - self.app.clock() > INVITATION_MARGIN_SECONDS:
            self.send(contract.Prepared(prepared=prepared[0]))  # no call to Telegram
            return
        await self.spend("invitation", user.id)
        asker = User(user.id, user.first_name, False, language_code=user.language_code)
        try:
            prepared = await self.app.invite(asker, game)
        except ShareSpent:
            raise self.spent(Spent("look_ups")) from None  # the app's share: everyone's
        except TelegramError as error:
            log.info("no prepared invitation for %s: %s", user.id, error)
            raise Answer(HTTPStatus.BAD_GATEWAY, "telegram", t("home.friend_failed")) from None
        invitations = self.app.invitations
        invitations[kept] = prepared
        invitations.move_to_end(kept)
        while len(invitations) > INVITATIONS_KEPT:
            invitations.popitem(last=False)
        self.send(contract.Prepared(prepared=prepared[0]))
