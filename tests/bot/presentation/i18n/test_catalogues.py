"""Every language has every message, with the same placeholders, tags and plural forms."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural

from bot.presentation.i18n import (
    FALLBACK,
    LANGUAGES,
    LOCALES_DIR,
    po_files,
    read_catalog,
    translator,
)

PLACEHOLDER = re.compile(r"{(\w*)}")
TAG = re.compile(r"</?(\w+)")
DOMAINS = sorted(path.stem for path in po_files(FALLBACK))
ROOT = Path(__file__).resolve().parents[4]


def messages(lang: str, domain: str) -> dict:
    path = LOCALES_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
    assert path.exists(), f"{lang} has no {domain}.po"
    catalog = read_catalog(path, lang)
    return {
        (message.id[0] if isinstance(message.id, tuple) else message.id): message
        for message in catalog
        if message.id
    }


def forms(message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple) else [message.string]


def test_the_host_and_5211_have_catalogues():
    assert {"bot", "5211"} <= set(DOMAINS)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_with_the_same_placeholders_and_tags(lang, domain):
    english = messages(FALLBACK, domain)
    translated = messages(lang, domain)
    assert sorted(translated) == sorted(english), "missing or extra messages"
    plurals = get_plural(lang).num_plurals
    for key, source in english.items():
        message = translated[key]
        assert not message.fuzzy, f"{lang}/{domain}: {key} is fuzzy"
        texts = forms(message)
        assert all(text.strip() for text in texts), f"{lang}/{domain}: {key} is empty"
        if isinstance(source.id, tuple):
            assert len(texts) == plurals, f"{lang}/{domain}: {key} needs {plurals} plural forms"
        wanted = set(PLACEHOLDER.findall(" ".join(forms(source))))
        for text in texts:
            assert set(PLACEHOLDER.findall(text)) == wanted, f"{lang}/{domain}: {key} {{}}"
            assert sorted(TAG.findall(text)) == sorted(TAG.findall(forms(source)[0])), (
                f"{lang}/{domain}: {key} tags"
            )


def test_no_message_id_is_defined_in_two_domains():
    seen: dict[str, str] = {}
    for domain in DOMAINS:
        for key in messages(FALLBACK, domain):
            assert key not in seen, f"{key} is in {seen.get(key)} and {domain}"
            seen[key] = domain


def test_every_key_the_code_uses_literally_exists_in_english():
    english = set()
    for domain in DOMAINS:
        english |= set(messages(FALLBACK, domain))
    used = {
        message[2] if isinstance(message[2], str) else message[2][0]
        for message in extract_from_dir(
            str(ROOT / "bot"),
            method_map=[("**.py", "python")],
            keywords={"t": None, "plural": (1,)},
        )
    }
    used = {key for key in used if "." in key and " " not in key}
    assert used, "the extractor found no messages"
    assert sorted(used - english) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_forms_follow_the_language(lang):
    t = translator(lang)
    assert all(t.plural("5211.points", n).startswith(f"{n} ") for n in (1, 2, 5, 21))
    if lang in ("ru", "uk"):
        assert len({t.plural("5211.points", n).split()[1] for n in (1, 2, 5)}) == 3
    else:
        assert len({t.plural("5211.points", n).split()[1] for n in (1, 2, 5)}) == 2
