"""The web side: the bot's HTTP server on one port — the health paths, Telegram's webhook,
and the table app (a Telegram Mini App: its launch-data check, API, live channel, replays,
limits, and its page in ``page/``). Like the Telegram side, it calls the table; the table
never calls it."""
