"""Publishing: a committed match drawn into its chats — the lobby, the group's news and
board, the final result and each player's private prompt — from the database, as often as
asked and never more than Telegram allows."""
