"""Numbers as each language writes them: Babel's (CLDR's) decimal sign and thousands
separator, and a real minus sign "−" — "рейтинг 1.5" or "valutazione -3.3" read wrong."""

from __future__ import annotations

import pytest

from bot.presentation.i18n import translator

NBSP = "\N{NO-BREAK SPACE}"


@pytest.mark.parametrize(
    ("lang", "decimal", "count", "negative", "rate"),
    [
        ("en", "21.8", "1,234", "−1,234.5", "31%"),
        ("ru", "21,8", f"1{NBSP}234", f"−1{NBSP}234,5", f"31{NBSP}%"),
        ("uk", "21,8", f"1{NBSP}234", f"−1{NBSP}234,5", "31%"),
        ("it", "21,8", "1.234", "−1.234,5", "31%"),
    ],
)
def test_a_number_is_written_as_the_language_writes_it(lang, decimal, count, negative, rate):
    t = translator(lang)
    assert t.number(21.75, 1) == decimal
    assert t.number(1234) == count
    assert t.number(-1234.5, 1) == negative
    assert t.percent(4, 13) == rate
    assert t.number(1520, grouped=False) == "1520"  # a rating, read like a chess rating


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "it"])
def test_no_hyphen_for_a_minus_and_no_minus_zero(lang):
    t = translator(lang)
    assert t.number(-3) == "−3" and t.number(-0.04, 1) == t.number(0, 1)
    assert "-" not in t.number(-2.84, 1) and t.percent(0, 0) == t.percent(0, 1)


@pytest.mark.parametrize(
    ("lang", "games"),
    [("en", "1,234 games"), ("ru", f"1{NBSP}234 игры"), ("uk", f"1{NBSP}234 гри"),
     ("it", "1.234 partite")],
)  # fmt: skip
def test_a_plural_count_is_written_as_the_language_writes_it(lang, games):
    assert translator(lang).plural("stats.games", 1234) == games
