"""One registry: a game is declared once, in ``games.GAME_MODULES``, and everything else it
needs is found from its id and its package's name. Every registered game has all of it, and
nothing is left over for a game that is not registered."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.presentation.i18n import LANGUAGES, LOCALES_DIR, read_catalog
from bot.presentation.pictures import PICTURE_MODULES, supports
from bot.presentation.ui import get_ui, playable_games
from bot.presentation.ui.base import GameUI
from games import GAME_MODULES, get_engine, package_name
from games.core import Engine

ROOT = Path(__file__).resolve().parents[1]
GAMES = list(GAME_MODULES)
PACKAGES = {package_name(game) for game in GAMES}


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_an_engine_and_a_ui_over_that_engine(game):
    engine = get_engine(game)
    assert isinstance(engine, Engine) and engine.id == game
    ui = get_ui(game)
    assert isinstance(ui, GameUI) and ui.engine is engine
    assert game in playable_games()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_game_has_a_catalogue_in_every_language_with_its_rules(game, lang):
    path = LOCALES_DIR / lang / "LC_MESSAGES" / f"{game}.po"
    assert path.is_file(), f"no {path.relative_to(ROOT)}"
    translated = {message.id: message.string for message in read_catalog(path, lang)}
    for key in (f"{game}.title", f"{game}.rules", f"{game}.summary"):
        assert translated.get(key), f"{path.relative_to(ROOT)} has no {key}"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_its_rules_documented(game):
    rules = ROOT / "docs" / "rules" / f"{game}.md"
    assert rules.is_file() and rules.read_text().strip(), f"no docs/rules/{game}.md"


def test_pictures_are_found_for_exactly_the_games_that_have_a_drawing_module():
    drawn = {
        game
        for game in GAMES
        if (ROOT / "bot/presentation/pictures" / f"{package_name(game)}.py").exists()
    }
    assert set(PICTURE_MODULES) == drawn == {game for game in GAMES if supports(game)}
    assert drawn, "no game has pictures"


def test_nothing_is_left_over_for_a_game_that_is_not_registered():
    engines = {path.parent.name for path in (ROOT / "games").glob("*/engine.py")}
    assert engines == PACKAGES
    shared = {"__init__", "base", "recent"}  # every game's screens use these
    # a game's screens may keep their small renderings apart: <package>_pieces.py
    adapters = {
        path.stem.removesuffix("_pieces") for path in (ROOT / "bot/presentation/ui").glob("*.py")
    }
    assert adapters - shared == PACKAGES
    drawings = {path.stem for path in (ROOT / "bot/presentation/pictures").glob("*.py")}
    shared = {"__init__", "seeded_game", "drawing", "encoding", "backgrounds"}
    assert drawings - shared <= PACKAGES
    for lang in LANGUAGES:
        domains = {path.stem for path in (LOCALES_DIR / lang / "LC_MESSAGES").glob("*.po")}
        # the host's, each game's, and a feature's own (the drawn card table, tournaments,
        # seasons, tutorials)
        assert domains == {"bot", "table", "tournament", "season", "tutorial", *GAMES}, lang
    assert {path.stem for path in (ROOT / "docs/rules").glob("*.md")} == set(GAMES)
