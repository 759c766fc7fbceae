"""The bot's HTTP server: the health paths and, on the same port, Telegram's webhook."""
