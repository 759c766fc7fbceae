"""Who's the Donkey?: a climbing card game with a donkey to pass on (3–12 players)."""

from games.donkey.engine import ENGINE, DonkeyEngine, DonkeyOptions

__all__ = ["ENGINE", "DonkeyEngine", "DonkeyOptions"]
