"""The docs name real places: every path of the repository that README.md and docs/ name
exists, and every `python -m` command they give names a module that runs."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# a path of the repository as the docs write it: `bot/table/flow.py`, `tests/bot/`, …
PATH = re.compile(r"(?<![\w/.-])((?:bot|games|tests|locales|docs)/[\w./<>{}*,-]*[\w/>}])")
PLACEHOLDER = re.compile(r"[<>{}*]|\.\.\.")
MODULE = re.compile(r"python3? -m ((?:bot|games|tests)(?:\.\w+)*)")


def named_paths(text: str) -> set[str]:
    return {path for path in PATH.findall(text) if not PLACEHOLDER.search(path)}


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.name)
def test_every_path_the_docs_name_exists(doc: Path):
    text = doc.read_text()
    base = doc.parent
    missing = [
        path
        for path in sorted(named_paths(text))
        if not (ROOT / path).exists() and not (base / path).exists()
    ]
    assert not missing, f"{doc.name} names paths that do not exist: {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.name)
def test_every_python_m_command_names_a_module(doc: Path):
    modules = set(MODULE.findall(doc.read_text()))
    missing = [module for module in sorted(modules) if importlib.util.find_spec(module) is None]
    assert not missing, f"{doc.name} gives commands for modules that do not exist: {missing}"


# a Markdown link of the docs' own: [text](target), target a path and/or #anchor
LINK = re.compile(r"\]\(([^)\s]+)\)")
MAX_README_LINES = 300  # the README starts short: the guides live in docs/


def anchors(doc: Path) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings (lowercase, punctuation dropped,
    spaces as hyphens; a repeated heading gets -1, -2, …)."""
    seen: dict[str, int] = {}
    made = set()
    for line in doc.read_text().splitlines():
        if not line.startswith("#"):
            continue
        slug = re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        made.add(slug if count == 0 else f"{slug}-{count}")
    return made


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.name)
def test_every_link_of_the_docs_leads_somewhere(doc: Path):
    """A link works from where it stands: its file relative to the doc, its anchor a heading
    of that file (what moving a section to another file breaks)."""
    broken = []
    for target in LINK.findall(doc.read_text()):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        missing_anchor = anchor and file.suffix == ".md" and anchor not in anchors(file)
        if not file.exists() or missing_anchor:
            broken.append(target)
    assert not broken, f"{doc.name} links nowhere: {broken}"


def test_the_readme_starts_short():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= MAX_README_LINES
    assert "<!-- test-command -->" in lines  # the two commands stay at its top
