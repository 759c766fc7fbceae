"""The Telegram host: lobby, play loop, storage, languages and per-game UI adapters."""
