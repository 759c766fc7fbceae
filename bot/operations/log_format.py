"""The log's shape: readable lines, or (``LOG_FORMAT=json``) one JSON object a line that a
platform's log search can filter: time, level, logger, message, and the fields a record
carries (``match``, ``chat``, ``latency_ms``, ``update_kind`` for updates)."""

from __future__ import annotations

import logging

from pythonjsonlogger.json import JsonFormatter

TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def formatter(log_format: str) -> logging.Formatter:
    if log_format == "json":
        return JsonFormatter(
            "{levelname}{name}{message}",
            style="{",
            rename_fields={"levelname": "level", "name": "logger"},
            timestamp="time",  # ISO 8601, UTC
            json_ensure_ascii=False,
        )
    return logging.Formatter(TEXT)


def configure(level: str, log_format: str) -> None:
    """The root logger: one handler on stderr, in the chosen format."""
    handler = logging.StreamHandler()
    handler.setFormatter(formatter(log_format))
    logging.basicConfig(level=level.upper(), handlers=[handler], force=True)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per API call is noise
