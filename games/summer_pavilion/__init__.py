"""Azul Mini: Summer Pavilion: tile drafting and placing on stars (2–4 players, 6 rounds)."""

from games.summer_pavilion.engine import ENGINE, SummerPavilionEngine, SummerPavilionOptions

__all__ = ["ENGINE", "SummerPavilionEngine", "SummerPavilionOptions"]
