"""Message catalogues: gettext ``.po`` files read with Babel, one domain per file.

``locales/<lang>/LC_MESSAGES/<domain>.po`` holds keyed messages (``msgid`` is a stable key
such as ``"lobby.joined"``; the English catalogue holds the English text). The host's
messages live in the ``bot`` domain, each game's in a domain named after the game, so a
new game or language is a new file, not an edit of a shared one. Placeholders use
``str.format`` syntax: ``{name}``.

Numbers shown to people go through :meth:`Translator.number` (and ``{n}`` of plural
messages does on its own): each language's decimal sign and thousands separator, from
Babel's locale data, and a real minus sign.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent, get_minus_sign_symbol

LOCALES_DIR = Path(__file__).resolve().parents[2] / "locales"
LANGUAGES = ("en", "ru", "uk", "it")
LANGUAGE_NAMES = {"en": "English", "ru": "Русский", "uk": "Українська", "it": "Italiano"}
FALLBACK = "en"
MINUS = "\N{MINUS SIGN}"  # "−", not the hyphen "-" that Babel's data has for these languages


def po_files(lang: str) -> list[Path]:
    return sorted((LOCALES_DIR / lang / "LC_MESSAGES").glob("*.po"))


def read_catalog(path: Path, lang: str) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=lang, domain=path.stem)


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """All domains of one language merged into one compiled catalogue (English behind it)."""
    merged = Catalog(locale=lang)
    for path in po_files(lang):
        for message in read_catalog(path, lang):
            if message.id and message.string and not message.fuzzy:
                merged[message.id] = message
    buffer = io.BytesIO()
    write_mo(buffer, merged)
    buffer.seek(0)
    compiled = gettext.GNUTranslations(buffer)
    if lang != FALLBACK:
        compiled.add_fallback(translations(FALLBACK))
    return compiled


def negotiate(language_code: str | None, default: str = FALLBACK) -> str:
    """The supported language for a Telegram ``language_code`` such as ``"uk"`` or ``"en-GB"``."""
    if language_code:
        base = language_code.split("-")[0].lower()
        if base in LANGUAGES:
            return base
    return default


class Translator:
    """``t("key", name=...)`` and ``t.plural("key", n, ...)`` in one language."""

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in LANGUAGES else FALLBACK
        self._catalog = translations(self.lang)

    def __call__(self, key: str, /, **values: object) -> str:
        text = self._catalog.gettext(key)
        return text.format(**values) if values else text

    def plural(self, key: str, n: int, /, **values: object) -> str:
        """A message with plural forms; ``{n}`` is available in the text, written as the
        language writes numbers."""
        return self._catalog.ngettext(key, key, n).format(n=self.number(n), **values)

    def number(self, value: float, decimals: int = 0, *, grouped: bool = True) -> str:
        """``value`` as this language writes it, with ``decimals`` places: "1,234.5" in
        English, "1 234,5" in Russian and Ukrainian, "1.234,5" in Italian; a real minus
        sign "−" in every language. ``grouped=False``: no thousands separator (a rating,
        read like a chess rating: "1520")."""
        value = round(value, decimals) or 0  # never "−0"
        pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
        text = format_decimal(value, pattern, locale=self.lang, group_separator=grouped)
        return text.replace(get_minus_sign_symbol(self.lang), MINUS)

    def percent(self, part: float, whole: float) -> str:
        """``part`` of ``whole`` as a whole percentage, as this language writes it ("31%",
        "31 %"); 0% of nothing."""
        return format_percent(part / whole if whole else 0, locale=self.lang)

    def has(self, key: str) -> bool:
        return self._catalog.gettext(key) != key


@cache
def translator(lang: str) -> Translator:
    return Translator(lang)


def format_duration(t: Translator, seconds: float) -> str:
    """A duration in words, in ``t``'s language, in one unit: the largest that still says
    it exactly or gives at least two of it — "1 hour", "12 hours", "3 minutes", "90 seconds"
    (never "1 minute" for 90 seconds). Long times are rounded to their unit, short ones to
    5 seconds."""
    seconds = max(1, round(seconds))
    if 30 < seconds < 2 * 60:
        seconds = 5 * round(seconds / 5)
    if seconds % 3600 == 0 or seconds >= 2 * 3600:
        return t.plural("time.hours", round(seconds / 3600))
    if seconds % 60 == 0 or seconds >= 2 * 60:
        return t.plural("time.minutes", round(seconds / 60))
    return t.plural("time.seconds", seconds)
