"""Telegram update handlers, on top of everything else: one module per intent (lobby, play,
commands, membership, errors); ``buttons`` binds every kind of button to its handler."""
