"""Azul: tile drafting onto a mosaic wall, classic coloured wall or grey wall (2–4 players)."""

from games.azul.engine import ENGINE, AzulEngine, AzulOptions

__all__ = ["ENGINE", "AzulEngine", "AzulOptions"]
