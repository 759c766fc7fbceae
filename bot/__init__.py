"""The Telegram host: lobby, play loop, storage, languages and per-game UI adapters."""

import os

# python-telegram-bot 22 gives RetryAfter.retry_after as a timedelta when asked to (it will
# always do so from the next major version on); the Messenger handles both forms.
os.environ.setdefault("PTB_TIMEDELTA", "1")
