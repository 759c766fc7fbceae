"""The Telegram host, one package per concern (docs/architecture.md has the map): the
Telegram side (``handlers``) and the web side (``web``) over the table (``table``: a match's
life), the operator's side (``operations``), ``storage``, Telegram's API (``telegram_api``)
and ``presentation``; ``app`` wires them, ``bench`` and ``testing`` run them offline."""

import os

# python-telegram-bot 22 gives RetryAfter.retry_after as a timedelta when asked to (it will
# always do so from the next major version on); the Messenger handles both forms.
os.environ.setdefault("PTB_TIMEDELTA", "1")
