"""``python -m bot.bench.tutorials``: each tutorial's figures, one JSON line per game.

The real bot (SQLite in a temporary folder, the fake Telegram) is played by a scripted
newcomer: /learn, the game from the menu, then at each step the presses that make the taught
move (the hint's move, found on the step's own buttons: ``bot.presentation.tutorial.taps``),
to the end. Figures:

* ``steps`` — the tutorial's steps; ``words`` — its captions' and its ending's words, per
  language;
* ``taps`` — the presses a newcomer makes (the menu's choice included);
* ``newcomer_seconds`` — the time a newcomer needs to finish it, at a human pace: every
  caption read at ``READING_WPM`` words a minute, ``SECONDS_PER_TAP`` to find and press each
  button, and the bot's own answer time (measured) — in English;
* ``bot_ms_per_tap`` / ``bot_cpu_ms_per_tap`` — the bot's wall and CPU time
  (``time.process_time``) per press, the drawing of the next step included;
* ``calls_per_step`` — Telegram calls per step, every method counted (the press's answer
  and the lesson's edit), from /learn to the end; ``calls`` — all of them;

each the median of ``--runs`` runs (the counts are the same every run).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from bot.bench import bot_for_a_bench
from bot.presentation.i18n import LANGUAGES, translator
from bot.presentation.tutorial import Lesson, taps, words
from bot.presentation.ui import get_ui, playable_games
from bot.testing.driver import FakeUser
from bot.testing.fake_telegram import FakeTelegram
from games.tutorial import get_tutorial

TOKEN = "123456:BENCH"
READING_WPM = 200  # a newcomer reading a caption in their own language (adults: 200-250)
SECONDS_PER_TAP = 2.0  # finding the button on a screen not seen before, and pressing it
LEARNER = FakeUser(4242, "Newcomer")


async def walk(game: str, workdir: Path, run: int) -> dict[str, float]:
    """One newcomer through ``game``'s lesson, in English: its taps, the bot's time and the
    Telegram calls."""
    api = FakeTelegram()
    t = translator("en")
    async with bot_for_a_bench(workdir / f"{game}-{run}.sqlite3", api) as driver:
        await driver.send(LEARNER, LEARNER.id, "/learn")
        before = sum(api.call_counts.values())
        presses = 0
        wall, cpu = time.perf_counter(), time.process_time()
        await driver.press_label(LEARNER, LEARNER.id, get_ui(game).title(t))
        presses += 1
        for index in range(len(get_tutorial(game))):
            for verb, argument in taps(t, Lesson.at(game, index)):
                message = api.last(LEARNER.id)
                data = next(
                    b["callback_data"]
                    for b in message.buttons()
                    if b.get("callback_data", "").endswith(f"-{verb}{argument}")
                )
                await driver.press(LEARNER, LEARNER.id, message.message_id, data)
                presses += 1
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        calls = sum(api.call_counts.values()) - before
    return {"taps": presses, "wall": wall, "cpu": cpu, "calls": calls}


def reading_seconds(game: str) -> float:
    return words(translator("en"), game) / READING_WPM * 60


async def figures(game: str, runs: int) -> dict:
    steps = len(get_tutorial(game))
    with tempfile.TemporaryDirectory() as folder:
        walks = [await walk(game, Path(folder), run) for run in range(runs)]
    wall = statistics.median(w["wall"] for w in walks)
    cpu = statistics.median(w["cpu"] for w in walks)
    tapped, calls = walks[0]["taps"], walks[0]["calls"]
    return {
        "game": game,
        "steps": steps,
        "words": {lang: words(translator(lang), game) for lang in LANGUAGES},
        "taps": tapped,
        "newcomer_seconds": round(reading_seconds(game) + tapped * SECONDS_PER_TAP + wall),
        "bot_ms_per_tap": round(wall / tapped * 1000, 1),
        "bot_cpu_ms_per_tap": round(cpu / tapped * 1000, 1),
        "calls": calls,
        "calls_per_step": round(calls / steps, 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench.tutorials", description=__doc__)
    parser.add_argument("--game", choices=playable_games(), action="append")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    for game in args.game or playable_games():
        print(json.dumps(asyncio.run(figures(game, args.runs)), ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
