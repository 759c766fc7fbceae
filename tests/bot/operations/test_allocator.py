"""At start-up the bot limits glibc's arenas (bot.operations.allocator) unless the operator chose a
number in the environment."""

from __future__ import annotations

import platform

import pytest

from bot.operations.allocator import limit_arenas

GLIBC = platform.libc_ver()[0] == "glibc"


def test_the_arenas_are_limited_on_glibc(monkeypatch):
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    assert limit_arenas() is GLIBC


@pytest.mark.parametrize("value", ["1", "8"])
def test_the_operators_malloc_arena_max_wins(monkeypatch, value):
    monkeypatch.setenv("MALLOC_ARENA_MAX", value)
    assert limit_arenas() is False
