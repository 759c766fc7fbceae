"""The tournament formats, each one object behind :class:`~.base.TournamentFormat`.

A format is one file in this package that defines ``FORMAT``, an instance whose ``format`` is
its name (the one stored with a tournament): it is found here by that name, and nothing else
in the bot branches on it or lists it — a new format is one new file. The bot asks the
tournament's format for the next round, whether it is over, how many rounds it has, its
standings and whether rules can be played by it.
"""

from __future__ import annotations

import importlib
import pkgutil

from bot.tournaments.formats.base import TournamentFormat
from bot.tournaments.model import Rules, RulesError, Tournament
from bot.tournaments.standings import Row


def _found() -> dict[str, TournamentFormat]:
    found: dict[str, TournamentFormat] = {}
    for module in pkgutil.iter_modules(__path__):
        if module.name == "base":
            continue
        defined = getattr(importlib.import_module(f"{__name__}.{module.name}"), "FORMAT", None)
        if isinstance(defined, TournamentFormat):
            found[defined.format] = defined
    return found


FORMATS = _found()


def choices(table_size: int) -> list[str]:
    """The formats a lobby offers at tables of this size, in their order."""
    fitting = [f for f in FORMATS.values() if f.fits(table_size)]
    return [f.format for f in sorted(fitting, key=lambda f: f.order)]


def check(rules: Rules) -> None:
    """Rules a tournament can be played by, else a :class:`RulesError`: the tables' sizes,
    then what its format asks."""
    rules.check()
    if rules.format not in FORMATS:
        raise RulesError(f"no format {rules.format!r}")
    FORMATS[rules.format].check(rules)


def format_of(what: Tournament | Rules) -> TournamentFormat:
    rules = what.rules if isinstance(what, Tournament) else what
    return FORMATS[rules.format]


def standings(tournament: Tournament) -> list[Row]:
    """The standings as the tournament's format ranks them."""
    return format_of(tournament).standings(tournament)
