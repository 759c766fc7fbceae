"""The running bot's version: the installed package's (pyproject), for `python -m bot
--version`, the start-up log line and /status."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

PACKAGE = "tablebot"  # pyproject's [project] name

try:
    VERSION = version(PACKAGE)
except PackageNotFoundError:  # run from a checkout that was never installed
    VERSION = "unknown"
