"""What was sent to someone a moment ago, so that asking again within a few minutes is
answered from it instead of sending it all again (``/history``'s files): a memory of keys
that keeps each for a while and at most so many at once."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable

KEEP_SECONDS = 300.0
MAX_KEYS = 4096  # beyond this the oldest are dropped: a flood cannot grow the memory


class SentRecently:
    def __init__(self, keep_seconds: float = KEEP_SECONDS, max_keys: int = MAX_KEYS) -> None:
        self.keep_seconds = keep_seconds
        self.max_keys = max_keys
        self._sent: OrderedDict[Hashable, float] = OrderedDict()  # oldest first

    def claim(self, key: Hashable, now: float) -> bool:
        """Whether to send: True (and ``key`` is remembered from ``now``) unless it was
        claimed less than ``keep_seconds`` ago. Claimed before sending, so that presses
        arriving while the first is still being sent are turned away too."""
        while self._sent:
            oldest, when = next(iter(self._sent.items()))
            if now - when < self.keep_seconds:
                break
            del self._sent[oldest]
        if key in self._sent:
            return False
        self._sent[key] = now
        while len(self._sent) > self.max_keys:
            self._sent.popitem(last=False)
        return True

    def release(self, key: Hashable) -> None:
        """The sending failed: the next request sends again."""
        self._sent.pop(key, None)

    def __len__(self) -> int:
        return len(self._sent)
