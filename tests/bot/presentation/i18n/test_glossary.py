"""One vocabulary per game (locales/glossary/): every catalogue — the chat's, the table
app's, the lessons' and the tournaments' — uses each game's own words and the host's, in
every language, leaves no English in a translation and shows no raw key; and the check
itself fails when an old word is put back."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from bot.presentation.glossary import HOST, Catalogues, page_problems, problems
from bot.presentation.i18n import LANGUAGES, LOCALES_DIR, translator
from bot.presentation.ui import playable_games
from bot.web import tables

CATALOGUES = Catalogues()


def test_every_game_and_the_host_have_a_glossary_with_each_language_s_word():
    names = {glossary.name for glossary in CATALOGUES.glossaries}
    assert names == {HOST, *playable_games()}
    for glossary in CATALOGUES.glossaries:
        assert glossary.terms, glossary.name
        for term in glossary.terms:
            assert set(term.words) == set(LANGUAGES), f"{glossary.name}: {term.name}"
        if glossary.name != HOST:
            # the rulebook's language: its words are the rulebook's own
            assert glossary.rulebook in LANGUAGES, glossary.name


def test_every_catalogue_speaks_the_glossaries_words():
    found = problems(CATALOGUES)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", sorted(tables.TABLE_GAMES))
def test_the_table_app_s_words_for_each_game_are_the_game_s(game, lang):
    """The page's own words sent with a game's table (``bot.web.tables.texts``), checked
    against that game's glossary and the host's."""
    texts = tables.texts(translator(lang), game)
    glossaries = [g for g in CATALOGUES.glossaries if g.name in (game, HOST)]
    found = [line for g in glossaries for line in page_problems(g, lang, texts)]
    assert not found, "\n".join(found)


# -- the test of the test: an old word put back in a copy of the catalogues ------------------
def copy_of_locales(tmp_path: Path) -> Path:
    copy = tmp_path / "locales"
    shutil.copytree(LOCALES_DIR, copy)
    return copy


def put_back(locales: Path, lang: str, domain: str, old: str, new: str) -> None:
    path = locales / lang / "LC_MESSAGES" / f"{domain}.po"
    text = path.read_text(encoding="utf-8")
    assert new in text, f"{new!r} is not in {lang}/{domain}.po"
    path.write_text(text.replace(new, old, 1), encoding="utf-8")


@pytest.mark.parametrize(
    ("lang", "domain", "old", "new", "said"),
    [
        # an old forbidden word, each kind: a phrase, an inflected stem, a scoped word
        ("ru", "tutorial", "самоцвет", "камень", "gem is «камень», not «самоцвет»"),
        ("uk", "tutorial", "<b>одну дику плитку</b>", "<b>один джокер</b>", "not «дику»"),
        ("it", "tutorial", "piastrelle", "tessere", "tile is «tessera», not «piastrelle»"),
        ("ru", "tournament", "Пропуск тура (bye)", "Без пары", "English left in: «bye»"),
        ("it", "tutorial", "passo", "tappa", "a lesson's step is «tappa», not «passo»"),
    ],
)
def test_the_check_fails_when_an_old_word_is_put_back(tmp_path, lang, domain, old, new, said):
    locales = copy_of_locales(tmp_path)
    assert problems(Catalogues(locales)) == []  # the copy is as clean as the original
    put_back(locales, lang, domain, old, new)
    found = problems(Catalogues(locales))
    assert any(said in line for line in found), found


def test_the_check_finds_a_raw_key_and_english_left_in(tmp_path):
    locales = copy_of_locales(tmp_path)
    put_back(locales, "ru", "bot", "too_fast", "Такого стола нет.")
    put_back(locales, "uk", "bot", "Your turn", "Твій хід")
    found = problems(Catalogues(locales))
    assert any("raw key reaches a player: «too_fast»" in line for line in found), found
    assert any("uk/bot: app.your_turn: English left in: «Your»" in line for line in found)


# -- Italian grammar in the lessons and around a game's name ----------------------------------
def test_italian_never_writes_a_bare_a_before_a_game_s_name():
    """«a {game}» reads «a Azul», which Italian writes «ad Azul»: the strings name the game
    without a preposition."""
    for message in CATALOGUES.messages("it"):
        for text in message.texts:
            assert not re.search(r"\ba\s+«?\{game\}", text), (message.key, text)
    assert translator("it")("tutorial.done", game="Azul").startswith("🎓 Azul:")


def test_an_italian_colour_never_follows_a_plural_noun_unagreed():
    """A colour's name ({colour}: «giallo», «arancione») is the colour, a masculine noun: it
    stands after «il colore» or «di colore», never as an adjective of «carte» or «tessere»."""
    for message in CATALOGUES.messages("it"):
        for text in message.texts:
            found = re.search(r"\b(?:carte|tessere|due|le|una tessera)\s+\{colour\}", text)
            assert not found, (message.key, text)
