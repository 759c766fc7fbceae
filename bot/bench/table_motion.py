"""``python -m bot.bench.table_motion``: the drawn card table in a real Chromium, in one JSON
line. Needs Playwright (a dev dependency) and Debian's chromium (or ``CHROMIUM``).

The real bot (SQLite in a temporary folder, the fake Telegram, the table app on a free port
of localhost) starts a match of ``--game`` (5211 by default; 3 players); every player's
table is open in a headless Chromium, 400 px wide, with its CPU slowed down
``--throttle`` times (the DevTools protocol's ``Emulation.setCPUThrottlingRate``: a
mid-range phone). The players make ``--moves`` moves by tapping, as a finger would, and for
each:

* ``frame_ms_p50`` / ``frame_ms_p95`` / ``frame_ms_max`` — the time between two frames
  (``requestAnimationFrame``) on another player's table while the move's card or bid travels
  from its seat to the centre (``frame_target_ms``: 16.7, 60 frames a second;
  ``frames_late_share``: the share of them that came later than that), and
  ``draw_frame_ms_p50`` / ``_p95`` — the frame before them, which draws the new table;
* ``tap_to_redraw_ms_p50`` / ``_p95`` — on the mover's table, from the tap that makes the
  move to the table drawn again with it (the request, the reading of the new table, the
  drawing);
* ``first_load_bytes`` — what the page loads from the bot before its first table is drawn
  (every response of the bot's own origin, uncompressed; Telegram's script is elsewhere),
  against ``first_load_budget_bytes`` (150 KB);

each the median of ``--runs`` runs (a new match each), with the bench's ``cpu_seconds``
(``time.process_time``: the bot, since the browser is a process of its own) and
``wall_seconds`` per run."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

from bot.bench.table_app import TableBench, launch
from bot.presentation.i18n import translator
from bot.table.host import get_host
from bot.testing.fake_server import free_port
from bot.web import cards
from games import get_engine
from games.simulate import percentile

FIRST_LOAD_BUDGET = 150 * 1024
FRAME_TARGET_MS = 1000 / 60
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
# Frames are counted from the new version's drawing until every animation has ended.
WATCH = """() => {
  window.benchFrames = [];
  window.benchWatching = true;
  const table = document.querySelector("#table");
  const tick = (now) => {
    window.benchFrames.push(now);
    if (window.benchWatching) requestAnimationFrame(tick);
  };
  const before = table.dataset.version;
  new MutationObserver((changes, observer) => {
    if (table.dataset.version === before) return; // a pick's drawing, not the move's
    observer.disconnect();
    window.benchFrames = [];
    requestAnimationFrame(tick);
  }).observe(table, { attributes: true, attributeFilter: ["data-version"] });
}"""
FRAMES = """async () => {
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  await frame();
  await frame(); // the drawing's frame and the next, at least
  await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
  window.benchWatching = false;
  const f = window.benchFrames;
  return f.slice(1).map((t, i) => t - f[i]);
}"""
TAP_CLOCK = """() => {
  const table = document.querySelector("#table");
  const before = table.dataset.version;
  window.benchTap = null;
  window.benchDrawn = null;
  // the tap that makes the move: the last click before the new version is drawn
  document.addEventListener("click", () => { window.benchTap = performance.now(); }, true);
  new MutationObserver((changes, observer) => {
    if (table.dataset.version === before) return;
    observer.disconnect();
    window.benchDrawn = performance.now();
  }).observe(table, { attributes: true, attributeFilter: ["data-version"] });
}"""


def chromium_path() -> str:
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


async def table_page(browser, url: str, throttle: float, loaded: list[int] | None = None):
    page = await browser.new_page(viewport={"width": 400, "height": 900})
    await page.route("https://telegram.org/**", lambda route: route.abort())
    if loaded is not None:  # the bytes of every response of the bot's own origin

        async def count(response) -> None:
            own = response.url.startswith(url.split("/app/")[0])
            if own and "/live" not in response.url:  # the live channel never ends
                loaded.append(len(await response.body()))

        page.on("response", count)
    session = await page.context.new_cdp_session(page)
    await session.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    await page.goto(url)
    await page.wait_for_selector("#table[data-version]")
    if loaded is not None:
        page.remove_listener("response", count)  # the first table is drawn: that is all
    return page


async def wait_version(page, version: int) -> None:
    await page.wait_for_function(
        "v => Number(document.querySelector('#table').dataset.version || 0) >= v",
        arg=version,
        timeout=30_000,
    )


async def tap_move(page, card_codes: list[int], action: tuple) -> None:
    for card in card_codes:
        await page.locator(
            f".hand-fan .card.playable[data-card='{card}']:not(.chosen)"
        ).first.click()
    await page.locator(f"[data-move='{'.'.join(str(n) for n in action)}']").first.click()


async def one_run(browser, args: argparse.Namespace, workdir: Path) -> dict:
    port = free_port()
    bench = TableBench.of(workdir, port, args.game, players=3)
    await bench.start()
    try:
        host = get_host(bench.app)
        match_id = await bench.open_match(args.game)
        match = await host.storage.load(match_id)
        users = [seat.user_id for seat in match.seats]
        loaded: list[int] = []
        pages = []
        for number, user in enumerate(users):
            data = quote(launch(user).removeprefix("tma "))
            url = f"{bench.url}/app/?m={match_id}#tgWebAppData={data}"
            pages.append(
                await table_page(browser, url, args.throttle, loaded if not number else None)
            )
        for page in pages:
            await wait_version(page, match.version)
        first_load = sum(loaded)
        engine, t, rng = get_engine(args.game), translator("en"), random.Random(7)
        frames: list[float] = []
        drawing: list[float] = []
        taps: list[float] = []
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(args.moves):
            match = await host.storage.load(match_id)
            if match.status != "playing":
                break
            seat = min(engine.to_act(match.state))
            view, legal = engine.view(match.state, seat), engine.legal_actions(match.state, seat)
            action = rng.choice(legal)
            (choice,) = cards.choices(args.game, t, view, seat, [action])
            other = pages[(seat + 1) % len(pages)]
            await other.evaluate(WATCH)
            await pages[seat].evaluate(TAP_CLOCK)
            await tap_move(pages[seat], choice["cards"], action)
            for page in pages:
                await wait_version(page, match.version + 1)
            between = await other.evaluate(FRAMES)
            if between:  # (a move that only clears the table moves nothing)
                drawing.append(between[0])  # the frame that draws the new table
                frames += between[1:]  # the card or bid on its way
            tapped = await pages[seat].evaluate("() => window.benchDrawn - window.benchTap")
            taps.append(tapped)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        for page in pages:
            await page.close()
    finally:
        await bench.stop()
    return {
        "frame_ms_p50": percentile(frames, 0.5),
        "frame_ms_p95": percentile(frames, 0.95),
        "frame_ms_max": max(frames),
        "frames_late_share": sum(f > FRAME_TARGET_MS + 1 for f in frames) / len(frames),
        "draw_frame_ms_p50": percentile(drawing, 0.5),
        "draw_frame_ms_p95": percentile(drawing, 0.95),
        "tap_to_redraw_ms_p50": percentile(taps, 0.5),
        "tap_to_redraw_ms_p95": percentile(taps, 0.95),
        "first_load_bytes": first_load,
        "frames": len(frames),
        "moves": len(taps),
        "cpu_seconds": cpu,
        "wall_seconds": wall,
    }


async def run(args: argparse.Namespace) -> dict:
    from playwright.async_api import async_playwright

    runs = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=chromium_path(), args=CHROMIUM_ARGS
        )
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as folder:
                runs.append(await one_run(browser, args, Path(folder)))
        await browser.close()
    figures = {key: round(statistics.median(r[key] for r in runs), 3) for key in runs[0]}
    return {
        **figures,
        "frame_target_ms": round(FRAME_TARGET_MS, 1),
        "first_load_budget_bytes": FIRST_LOAD_BUDGET,
        "game": args.game,
        "cpu_throttling": args.throttle,
        "runs": args.runs,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench.table_motion", description=__doc__)
    parser.add_argument("--game", default="5211", choices=sorted(cards.CARD_GAMES))
    parser.add_argument("--moves", type=int, default=30, help="moves a run (fewer if it ends)")
    parser.add_argument("--throttle", type=float, default=4.0, help="CPU slowed this many times")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
