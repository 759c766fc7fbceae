"""Telegram's Bot API as the bot uses it: every outgoing call with its errors handled
(``messenger``), their pacing (``rate_limit``), the buttons' data (``callbacks``), what an
update is about (``update_facts``) and what was sent a moment ago (``sent_recently``). No
game, no match, no database."""
