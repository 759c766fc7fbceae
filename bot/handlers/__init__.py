"""Telegram update handlers: one module per intent (lobby, play, commands, errors)."""
