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
