"""The C allocator, set for a small instance at start-up: at most two arenas (glibc).

glibc gives each thread that allocates an arena of its own (up to eight per core), and an
arena keeps the memory freed in it for reuse rather than give it back. The bot's threads
— the event loop, the drawing thread, the database's thread, the pool behind
``asyncio.to_thread`` — each held their own: on the mixed bench with pictures
(docs/benchmarks.md, "Memory over a long run") two arenas ended the run 23 MB lower (175
against 198 MB, medians) for no measurable CPU. ``MALLOC_ARENA_MAX`` set in the environment
(read by glibc before Python starts) takes precedence: then nothing is changed here.
"""

from __future__ import annotations

import ctypes
import os
import platform

ARENAS = 2
M_ARENA_MAX = -8  # glibc's mallopt parameter (malloc.h)


def limit_arenas(arenas: int = ARENAS) -> bool:
    """At most ``arenas`` arenas from now on; whether the limit was set (not on another C
    library, nor when ``MALLOC_ARENA_MAX`` is set). Call before threads start."""
    if "MALLOC_ARENA_MAX" in os.environ or platform.libc_ver()[0] != "glibc":
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return mallopt(M_ARENA_MAX, arenas) == 1
