"""5211: simultaneous card play with rooster and majority-colour scoring (2–5 players)."""

from games.g5211.engine import ENGINE, Engine5211, Options5211

__all__ = ["ENGINE", "Engine5211", "Options5211"]
