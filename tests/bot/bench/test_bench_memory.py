"""The bench's memory figures are the whole bot's: its own process and every process it
started (AI and hint workers), as a small instance's memory limit counts them."""

from __future__ import annotations

import subprocess
import sys

import psutil

from bot.bench import Memory, memory, memory_figures

HOLD_MB = 64
# a child that holds HOLD_MB of touched memory until its stdin closes
CHILD = (
    f"import sys; held = bytearray({HOLD_MB} * 2**20); print('ready', flush=True); sys.stdin.read()"
)


def test_the_memory_counts_the_bots_worker_processes():
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline() == "ready\n"
        held = psutil.Process(child.pid).memory_info().rss / 2**20
        with_child = memory()
    finally:
        child.communicate("")
    assert held >= HOLD_MB
    assert with_child.workers >= held - 1  # the child, and any other process started here
    assert with_child.whole == round(with_child.main + with_child.workers, 1)
    assert memory().workers <= with_child.workers - held + 1  # gone with the child


def test_the_figures_give_the_whole_bot_and_its_parts():
    figures = memory_figures(Memory(150.0, 80.5), [Memory(140.0, 80.0), Memory(145.0, 80.5)])
    assert figures == {
        "rss_mb": 230.5,
        "rss_mb_at": [220.0, 225.5],
        "rss_mb_main": 150.0,
        "rss_mb_main_at": [140.0, 145.0],
        "rss_mb_workers": 80.5,
        "rss_mb_workers_at": [80.0, 80.5],
    }
