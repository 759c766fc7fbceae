"""The pictures' API: which games have pictures, same view → same bytes, Telegram's photo
limits and the size target, the cache, and the measuring command."""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.presentation import pictures
from bot.presentation.pictures import (
    MAX_PHOTO_BYTES,
    MAX_PHOTO_RATIO,
    MAX_PHOTO_SIDES,
    PictureCache,
    azul,
    render_group,
    render_private,
    summer_pavilion,
    supports,
)
from bot.presentation.pictures.seeded_game import main as pictures_main
from games import get_engine
from tests.bot.presentation.pictures.helpers import decode

ROOT = Path(__file__).resolve().parents[4]
TARGET_BYTES = 150 * 1024  # the size target of a picture (far under Telegram's 10 MB)
POSITIONS = [
    ("azul", {"wall": "colour"}),
    ("azul", {"wall": "grey"}),
    ("summer_pavilion", {"variant1": False, "variant2": False}),
    ("summer_pavilion", {"variant1": True, "variant2": True}),
]


def busy_position(game: str, players: int, options: dict, seed: int = 11, moves: int = 40):
    """A position a few dozen random moves in: tiles everywhere."""
    engine = get_engine(game)
    state = engine.new_game(players, options, seed)
    chooser = random.Random(seed)
    for _ in range(moves):
        if engine.is_over(state):
            break
        seat = chooser.choice(sorted(engine.to_act(state)))
        state = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)))
    return engine, state


def test_only_the_tile_games_have_pictures():
    assert supports("azul") and supports("summer_pavilion")
    for game in ("5211", "sultan", "donkey"):
        assert not supports(game)
        with pytest.raises(KeyError):
            render_group(game, {})


@pytest.mark.parametrize(("game", "options"), POSITIONS)
def test_same_view_same_bytes(game, options):
    engine, state = busy_position(game, 3, options)
    view = engine.view(state, None)
    first = render_group(game, view)
    again = render_group(game, copy.deepcopy(json.loads(json.dumps(view))))
    assert first == again
    assert render_private(game, engine.view(state, 1), 1) == render_private(
        game, engine.view(state, 1), 1
    )


def test_a_fresh_process_draws_the_same_bytes():
    """The palette and every sprite are rebuilt from scratch in a new process."""
    script = (
        "import hashlib, sys\n"
        "from tests.bot.presentation.pictures.test_picture_api import busy_position\n"
        "from bot.presentation.pictures import render_group\n"
        "for game, options in (('azul', {'wall': 'grey'}), ('summer_pavilion', {})):\n"
        "    engine, state = busy_position(game, 4, options)\n"
        "    picture = render_group(game, engine.view(state, None))\n"
        "    print(hashlib.sha256(picture).hexdigest())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    here = []
    for game, options in (("azul", {"wall": "grey"}), ("summer_pavilion", {})):
        engine, state = busy_position(game, 4, options)
        here.append(hashlib.sha256(render_group(game, engine.view(state, None))).hexdigest())
    assert result.stdout.split() == here


@pytest.mark.parametrize(("game", "options"), POSITIONS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_pictures_fit_telegrams_photo_limits_and_the_size_target(game, options, players):
    engine, state = busy_position(game, players, options, seed=players)
    seat = min(engine.to_act(state) or {0})
    drawn = [
        render_group(game, engine.view(state, None)),
        render_private(game, engine.view(state, seat), seat),
    ]
    for picture in drawn:
        assert len(picture) <= min(MAX_PHOTO_BYTES, TARGET_BYTES)
        width, height = decode(picture).size
        assert width + height <= MAX_PHOTO_SIDES
        assert max(width, height) / min(width, height) <= MAX_PHOTO_RATIO
        assert max(width, height) <= 1400  # Telegram shows photos at most 1280 px: no waste


def test_cache_keeps_the_latest_pictures_up_to_its_bytes():
    cache = PictureCache(capacity_bytes=10)
    cache.put(("m", 1, "group"), b"one")
    cache.put(("m", 2, "group"), b"two")
    assert cache.get(("m", 1, "group")) == b"one"  # now the most recently used
    cache.put(("m", 3, "group"), b"three")  # 11 bytes: the least recently used goes
    assert cache.get(("m", 2, "group")) is None
    assert cache.get(("m", 1, "group")) == b"one"
    assert len(cache) == 2 and cache.bytes == 8
    cache.put(("m", 4, "group"), b"a large picture")  # alone over the bound: kept alone
    assert len(cache) == 1 and cache.get(("m", 4, "group")) == b"a large picture"


async def test_cache_draws_once_per_key_off_the_event_loop():
    cache = PictureCache()
    loop_thread = threading.get_ident()
    drawn_in: list[int] = []
    engine, state = busy_position("azul", 2, {"wall": "colour"})
    view = engine.view(state, None)

    def draw() -> bytes:
        drawn_in.append(threading.get_ident())
        return render_group("azul", view)

    first = await cache.render(("match", 7, "group"), draw)
    second = await cache.render(("match", 7, "group"), draw)
    assert first == second == render_group("azul", view)
    assert len(drawn_in) == 1 and drawn_in[0] != loop_thread


async def test_the_cache_draws_one_picture_at_a_time_in_one_thread():
    """Many pictures wanted at once are drawn one after another in the same thread, not
    side by side in a pool (each drawing thread keeps memory of its own)."""
    cache = PictureCache()
    engine, state = busy_position("summer_pavilion", 4, {})
    views = [engine.view(state, seat) for seat in range(4)]
    threads: set[int] = set()
    drawing = 0
    most_at_once = 0
    guard = threading.Lock()

    def draw(seat: int) -> bytes:
        nonlocal drawing, most_at_once
        with guard:
            drawing += 1
            most_at_once = max(most_at_once, drawing)
            threads.add(threading.get_ident())
        try:
            return render_private("summer_pavilion", views[seat], seat)
        finally:
            with guard:
                drawing -= 1

    drawn = await asyncio.gather(
        *(cache.render(("match", 1, n), lambda n=n: draw(n % 4)) for n in range(12))
    )
    assert drawn[:4] == [render_private("summer_pavilion", views[s], s) for s in range(4)]
    assert most_at_once == 1
    assert len(threads) == 1 and threading.get_ident() not in threads


async def test_rendering_in_threads_gives_the_same_pictures():
    engine, state = busy_position("summer_pavilion", 4, {})
    view = engine.view(state, None)
    expected = render_group("summer_pavilion", view)
    drawn = await asyncio.gather(
        *(asyncio.to_thread(render_group, "summer_pavilion", view) for _ in range(4))
    )
    assert set(drawn) == {expected}


def test_the_command_prints_its_figures_and_writes_the_pictures(tmp_path, capsys):
    code = pictures_main(
        ["azul", "--players", "3", "--seed", "2", "--moves", "6", "--out", str(tmp_path)]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "azul" and report["players"] == 3
    assert report["positions"] == 7
    for key in ("render_ms_p50", "render_ms_p99", "cpu_ms_p50", "cpu_ms_p99", "max_bytes"):
        assert report[key] > 0
    assert report["render_ms_p50"] <= report["render_ms_p99"]
    assert len(report["files"]) == 4  # the group picture and each player's
    for path in report["files"]:
        with open(path, "rb") as file:
            picture = file.read()
        assert len(picture) <= report["max_bytes"]
        decode(picture)


def test_the_command_rejects_a_wrong_player_count(tmp_path, capsys):
    code = pictures_main(["summer_pavilion", "--players", "5", "--out", str(tmp_path)])
    assert code == 2
    assert "error" in capsys.readouterr().err


@pytest.mark.parametrize("game", ["azul", "summer_pavilion"])
def test_the_shipped_palette_is_the_one_learnt_from_the_pictures(game):
    """The palettes ship as data (learning one costs a second of CPU and 110 MB of drawing
    per process); they must be exactly what learning gives, or the pictures would change.
    After a change to the drawing that fails here: python -m bot.presentation.pictures.palettes"""
    assert pictures.palette(game).getpalette() == pictures.learn_palette(game).getpalette()


def test_the_palette_starts_with_the_tile_colours():
    for game, module in (("azul", azul), ("summer_pavilion", summer_pavilion)):
        colours = pictures.palette(game).getpalette()
        assert len(colours) == 3 * 256
        tiles = [channel for colour in module.TILE_RGB for channel in colour]
        assert colours[: len(tiles)] == tiles
