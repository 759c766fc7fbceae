"""Optional error reports to Sentry (``SENTRY_DSN``; ``pip install '.[sentry]'``).

Every error the bot logs (its handlers' failures among them) becomes an event, tagged with
what the update was about — the game, the match id, the kind of update — and nothing
private: no local variables (a hand of cards, a message), no request bodies (a webhook's
update), no HTTP breadcrumbs (the Bot API's addresses carry the token), and the token
scrubbed from whatever text is left. Without ``SENTRY_DSN`` the SDK is not even imported.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Any

from bot.operations.version import VERSION
from bot.telegram_api.update_facts import UpdateFacts

log = logging.getLogger(__name__)

SCRUBBED = "[scrubbed]"
_enabled = False


def start(dsn: str | None, token: str, transport: Any = None) -> bool:
    """Report errors to ``dsn`` from now on (``transport``: the tests' in-memory one).
    False when there is no DSN, or the SDK is not installed (said once in the log)."""
    global _enabled
    if not dsn:
        return False
    try:
        import sentry_sdk
    except ImportError:
        log.warning("SENTRY_DSN is set but sentry-sdk is not installed: pip install '.[sentry]'")
        return False
    secrets = [token, token.split(":", 1)[-1]]  # the token, and its secret half alone
    sentry_sdk.init(
        dsn=dsn,
        release=f"tablebot@{VERSION}",
        include_local_variables=False,  # a frame's variables hold hands, updates, texts
        max_request_body_size="never",
        auto_enabling_integrations=False,  # no HTTP client/server integrations: see above
        before_send=lambda event, hint: _scrub(event, secrets),
        before_breadcrumb=lambda crumb, hint: _breadcrumb(crumb, secrets),
        transport=transport,
    )
    _enabled = True
    return True


def stop() -> None:
    """Send what is left and report no more (tests; the process's exit does it too)."""
    global _enabled
    if not _enabled:
        return
    import sentry_sdk

    sentry_sdk.get_client().close()
    _enabled = False


@contextlib.contextmanager
def about(facts: UpdateFacts, game: str | None) -> Iterator[None]:
    """Events reported inside are tagged with what the update was about."""
    if not _enabled:
        yield
        return
    import sentry_sdk

    with sentry_sdk.new_scope() as scope:
        scope.set_tag("update_kind", facts.kind)
        if game is not None:
            scope.set_tag("game", game)
        if facts.match is not None:
            scope.set_tag("match", str(facts.match))
        if facts.button is not None:
            scope.set_tag("button", facts.button)
        yield


def _breadcrumb(crumb: dict, secrets: list[str]) -> dict | None:
    if crumb.get("category") in ("httplib", "http", "subprocess"):
        return None
    return _scrub(crumb, secrets)


def _scrub(value: Any, secrets: list[str]) -> Any:
    """``value`` with every secret replaced, and without a user or a request."""
    if isinstance(value, dict):
        return {
            key: _scrub(item, secrets)
            for key, item in value.items()
            if key not in ("user", "request", "vars")
        }
    if isinstance(value, list | tuple):
        return [_scrub(item, secrets) for item in value]
    if isinstance(value, str):
        for secret in secrets:
            if secret:
                value = value.replace(secret, SCRUBBED)
    return value
