"""Sultan: a gem auction with hidden bids (2–5 players)."""

from games.sultan.engine import ENGINE, EngineSultan, OptionsSultan

__all__ = ["ENGINE", "EngineSultan", "OptionsSultan"]
