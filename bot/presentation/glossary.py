"""One vocabulary per game: each game's pieces, places and actions named one way in every
screen — the chat, the table app, the lessons, the tournaments — in each language, as the
glossaries in ``locales/glossary/`` say.

A glossary (``<game>.toml``, and ``host.toml`` for the host's own words) is a list of
terms. Each term gives its word per language (the rulebook's own in the rulebook's
language, the established word in the others) and two lists of patterns per language:

- ``used``: the word as the strings write it, in any of its forms. At least one string of
  the glossary's messages must match, so a glossary never names a word nobody uses.
- ``not``: the words that must not be used for it (the drift of earlier translations).
  An entry is a pattern, or ``{ word = "...", keys = ["tutorial.*"] }`` to forbid it only in
  the messages whose key matches one of ``keys`` (a word right in one place and wrong in
  another: Italian «mano» is a hand of Who's the Donkey?, never its round).

A pattern is a Python regular expression matched as a whole word or phrase (no letter
right before or after it), case-insensitively unless it says ``(?-i:...)``. Russian and
Ukrainian inflect: a pattern names a stem with ``\\w*`` (``кам(ень|н\\w*)``) or the list of
its forms (``карт(а|ы|е|у|ой)?``, which does not match «карточка»).

Which messages are a game's: every message of its own catalogue (``<game>.po``), and every
message of the shared catalogues (bot, table, tutorial, tournament, season) whose key has
the game's id as one of its dotted parts (``tutorial.azul.take``, ``table.5211.card``,
``app.summer_pavilion.factory``). Every other message is the host's. The host's glossary
applies to every message; a term may narrow it with ``keys``.

Besides the terms, each language is checked for English left in a translation: in Russian
and Ukrainian any word in Latin letters, in Italian any word of the English original left
as it was, beyond the loans that ``host.toml`` declares (``Buchholz``, ``Telegram``, the
games' own names). And no message shows a raw key (``too_fast``, ``app.no_table``) to a
player.

``python -m bot.presentation.glossary`` prints every problem, one a line (nothing when the
catalogues agree with the glossaries): what a translator runs after each change.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import cached_property
from pathlib import Path

from bot.presentation.i18n import FALLBACK, LANGUAGES, LOCALES_DIR, read_catalog

HOST = "host"
CYRILLIC = ("ru", "uk")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
# what a message may hold that is not words of its language: placeholders, HTML tags and
# entities, commands, @names, addresses, emoji's text (none), numbers
NOT_WORDS = re.compile(
    r"{\w*}|</?\w+[^>]*>|&\w+;|(?<![\w/])/\w+|@\w+|https?://\S+|\b[\w.-]+\.(?:py|md|toml)\b"
)
# a key or an identifier shown as it is: snake_case, or a dotted key
RAW_KEY = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z]+\.[a-z_]+\.[a-z_.]+\b")


@dataclass(frozen=True)
class Message:
    domain: str
    key: str
    texts: tuple[str, ...]
    english: tuple[str, ...]

    def game(self, games: Iterable[str]) -> str | None:
        """The game this message belongs to, or None for the host's."""
        games = set(games)
        if self.domain in games:
            return self.domain
        for part in self.key.split("."):
            if part in games:
                return part
        return None


@dataclass(frozen=True)
class Rule:
    """One pattern of a term, for one language; ``keys`` narrows where it applies."""

    pattern: re.Pattern[str]
    source: str
    keys: tuple[str, ...] = ()

    def applies_to(self, key: str) -> bool:
        return not self.keys or any(fnmatchcase(key, pattern) for pattern in self.keys)


@dataclass(frozen=True)
class Term:
    name: str
    words: dict[str, str]
    used: dict[str, list[Rule]]
    not_: dict[str, list[Rule]]


@dataclass
class Glossary:
    name: str  # a game's id, or "host"
    path: Path
    rulebook: str | None
    terms: list[Term]
    loans: dict[str, set[str]] = field(default_factory=dict)

    def owns(self, message: Message, games: Iterable[str]) -> bool:
        return self.name == HOST or message.game(games) == self.name


def whole(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![^\W\d_])(?:{pattern})(?![^\W\d_])", re.IGNORECASE)


def _rules(entries: object, where: str) -> list[Rule]:
    if isinstance(entries, (str, dict)):
        entries = [entries]
    rules = []
    for entry in entries:  # type: ignore[union-attr]
        if isinstance(entry, str):
            rules.append(Rule(whole(entry), entry))
        elif isinstance(entry, dict) and isinstance(entry.get("word"), str):
            keys = tuple(entry.get("keys", ()))
            rules.append(Rule(whole(entry["word"]), entry["word"], keys))
        else:
            raise ValueError(f"{where}: {entry!r} is neither a pattern nor {{word, keys}}")
    return rules


def load(path: Path) -> Glossary:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    terms = []
    for raw in data.get("term", []):
        name = raw["name"]
        words = {lang: raw[lang] for lang in LANGUAGES if lang in raw}
        used = {
            lang: _rules(rules, f"{path.name}: {name}.used.{lang}")
            for lang, rules in raw.get("used", {}).items()
        }
        forbidden = {
            lang: _rules(rules, f"{path.name}: {name}.not.{lang}")
            for lang, rules in raw.get("not", {}).items()
        }
        terms.append(Term(name, words, used, forbidden))
    loans = {lang: set(words) for lang, words in data.get("loans", {}).items()}
    return Glossary(data.get("game", HOST), path, data.get("rulebook"), terms, loans)


@dataclass
class Catalogues:
    """Every message of every language, as the catalogues in ``locales_dir`` hold them."""

    locales_dir: Path = LOCALES_DIR

    @cached_property
    def glossaries(self) -> list[Glossary]:
        return [load(path) for path in sorted((self.locales_dir / "glossary").glob("*.toml"))]

    @cached_property
    def games(self) -> list[str]:
        return [glossary.name for glossary in self.glossaries if glossary.name != HOST]

    def host(self) -> Glossary:
        return next(glossary for glossary in self.glossaries if glossary.name == HOST)

    def _read(self, lang: str) -> dict[tuple[str, str], tuple[str, ...]]:
        read = {}
        for path in sorted((self.locales_dir / lang / "LC_MESSAGES").glob("*.po")):
            for message in read_catalog(path, lang):
                if not message.id:
                    continue
                key = message.id[0] if isinstance(message.id, tuple) else message.id
                texts = message.string if isinstance(message.string, tuple) else (message.string,)
                read[(path.stem, key)] = tuple(text for text in texts if text)
        return read

    @cached_property
    def _english(self) -> dict[tuple[str, str], tuple[str, ...]]:
        return self._read(FALLBACK)

    def messages(self, lang: str) -> list[Message]:
        english = self._english
        return [
            Message(domain, key, texts, english.get((domain, key), ()))
            for (domain, key), texts in self._read(lang).items()
        ]


def _plain(text: str) -> str:
    return NOT_WORDS.sub(" ", text)


def forbidden_words(glossary: Glossary, lang: str, key: str, text: str) -> Iterator[str]:
    """Each use of a word the glossary forbids in this message: "term: «word»"."""
    plain = _plain(text)
    for term in glossary.terms:
        for rule in term.not_.get(lang, []):
            if rule.applies_to(key):
                for found in rule.pattern.finditer(plain):
                    yield f"{term.name} is «{term.words.get(lang, '?')}», not «{found.group(0)}»"


def english_left(lang: str, text: str, english: tuple[str, ...], loans: set[str]) -> set[str]:
    """Words of English in a translation, beyond the declared loans."""
    plain = _plain(text)
    if lang in CYRILLIC:
        found = set(LATIN_WORD.findall(plain))
    elif lang == FALLBACK:
        return set()
    else:
        source = {word.lower() for line in english for word in WORD.findall(_plain(line))}
        found = {word for word in WORD.findall(plain) if word.lower() in source}
        found = {word for word in found if len(word) > 2}  # "a", "in", "e": both languages'
    return {word for word in found if word not in loans and word.lower() not in loans}


def raw_keys(text: str) -> set[str]:
    return set(RAW_KEY.findall(_plain(text)))


def problems(catalogues: Catalogues | None = None) -> list[str]:
    """Every disagreement between the catalogues and the glossaries, one line each."""
    catalogues = catalogues or Catalogues()
    games = catalogues.games
    host = catalogues.host()
    found: list[str] = []
    for lang in LANGUAGES:
        messages = catalogues.messages(lang)
        loans = host.loans.get(lang, set()) | host.loans.get("all", set())
        for message in messages:
            where = f"{lang}/{message.domain}: {message.key}"
            for text in message.texts:
                for glossary in catalogues.glossaries:
                    if glossary.owns(message, games):
                        for wrong in forbidden_words(glossary, lang, message.key, text):
                            found.append(f"{where}: {glossary.name}: {wrong}")
                for word in sorted(english_left(lang, text, message.english, loans)):
                    found.append(f"{where}: English left in: «{word}»")
                for key in sorted(raw_keys(text)):
                    found.append(f"{where}: a raw key reaches a player: «{key}»")
        for glossary in catalogues.glossaries:
            owned = [m for m in messages if glossary.owns(m, games)]
            for term in glossary.terms:
                for rule in term.used.get(lang, []):
                    if not any(
                        rule.applies_to(m.key) and rule.pattern.search(_plain(text))
                        for m in owned
                        for text in m.texts
                    ):
                        found.append(
                            f"{lang}: {glossary.name}: {term.name}: no string uses «{rule.source}»"
                        )
    return found


def page_problems(glossary: Glossary, lang: str, texts: dict[str, str]) -> list[str]:
    """What the table app's words for one game (``bot.web.tables.texts``) break of that
    game's glossary and of the host's."""
    return [
        f"{lang}: the page's {name}: {glossary.name}: {wrong}"
        for name, text in texts.items()
        for wrong in forbidden_words(glossary, lang, f"app.{glossary.name}.{name}", text)
    ]


def main() -> int:
    found = problems()
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
