"""The layering is a checked contract, and docs/architecture.md is its true map.

`lint-imports` runs the import-linter contracts of pyproject.toml (the layers of bot/'s
packages and of the table, engines free of the bot and of Telegram, presentation and storage
free of Telegram, handlers on top, the fake Telegram apart, no import cycles). The map's
diagram is kept by hand and checked here against the imports the code makes: every package
is drawn, every arrow is an import, and every import follows the arrows."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp

from games import GAME_MODULES, package_name

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
MAP = ROOT / "docs" / "architecture.md"
ENTRY_POINTS = ("__main__", "backup", "migrate", "pictures", "bench_records")
MAX_MODULES_IN_BOT = 8  # besides __init__.py and __main__.py
MAX_LINES = 900


def test_the_import_contracts_are_kept():
    result = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout, result.stdout
    kept = int(re.search(r"Contracts: (\d+) kept", result.stdout).group(1))
    assert kept >= 8, result.stdout


def test_each_games_screens_are_in_the_contract_that_keeps_them_apart():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    apart = next(
        contract["modules"]
        for contract in contracts["contracts"]
        if contract["name"] == "Each game's screens stand alone"
    )
    assert sorted(apart) == sorted(f"bot.presentation.ui.{package_name(g)}" for g in GAME_MODULES)


def diagram() -> tuple[set[str], set[tuple[str, str]]]:
    """The nodes and arrows of the Mermaid diagram in docs/architecture.md."""
    text = MAP.read_text()
    block = re.search(r"```mermaid\n(.*?)```", text, re.S).group(1)
    nodes = set(re.findall(r"^\s*(\w+)\[", block, re.M))
    arrows = set(re.findall(r"^\s*(\w+) --> (\w+)\s*$", block, re.M))
    return nodes, arrows


def modules_of(node: str) -> tuple[str, ...]:
    if node == "games":
        return ("games",)
    if node == "entry":
        return tuple(f"bot.{name}" for name in ENTRY_POINTS)
    return (f"bot.{node}",)


def bot_parts() -> set[str]:
    """The packages and modules directly in bot/, as dotted names."""
    parts = set()
    for path in (ROOT / "bot").iterdir():
        if path.name.startswith(("_", ".")) and path.name != "__main__.py":
            continue
        if path.suffix == ".py" or (path / "__init__.py").is_file():
            parts.add(f"bot.{path.stem}")
    return parts


def package_imports(nodes: set[str]) -> set[tuple[str, str]]:
    """(A, B) for every direct import from a module of node A into one of node B."""
    graph = grimp.build_graph("bot", "games")
    owner = {module: node for node in nodes for module in modules_of(node)}

    def node_of(module: str) -> str | None:
        while module:
            if module in owner:
                return owner[module]
            module = module.rpartition(".")[0]
        return None

    imports = set()
    for module in graph.modules:
        source = node_of(module)
        if source is None:
            continue
        for imported in graph.find_modules_directly_imported_by(module):
            target = node_of(imported)
            if target is not None and target != source:
                imports.add((source, target))
    return imports


def reachable(arrows: set[tuple[str, str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        for tail, head in arrows:
            if tail == node and head not in seen:
                seen.add(head)
                todo.append(head)
    return seen


def test_the_diagram_names_every_package_of_bot():
    nodes, _ = diagram()
    drawn = {module for node in nodes for module in modules_of(node)}
    assert bot_parts() - drawn == set(), "packages of bot/ missing from the diagram"
    assert {module for module in drawn if module != "games"} <= bot_parts(), "stale nodes"


def test_the_package_table_names_every_package_of_bot():
    text = MAP.read_text()
    rows = [line for line in text.splitlines() if line.startswith("| `bot/")]
    named = {
        "bot." + Path(path).stem if path.endswith(".py") else "bot." + path.strip("/")[4:]
        for row in rows
        for path in re.findall(r"`(bot/[\w/.]+)`", row.split("|")[1])
    }
    assert named == bot_parts()


def test_every_arrow_is_an_import_and_every_import_follows_the_arrows():
    nodes, arrows = diagram()
    imports = package_imports(nodes)
    assert arrows - imports == set(), "arrows with no import behind them"
    astray = {(a, b) for a, b in imports if b not in reachable(arrows, a)}
    assert astray == set(), "imports that follow no path of arrows"


def test_bot_reads_as_the_architecture():
    modules = [
        path.name
        for path in (ROOT / "bot").glob("*.py")
        if path.name not in ("__init__.py", "__main__.py")
    ]
    assert len(modules) <= MAX_MODULES_IN_BOT, modules
    long = {
        str(path.relative_to(ROOT)): lines
        for path in (ROOT / "bot").rglob("*.py")
        if (lines := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}
