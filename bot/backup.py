"""``python -m bot.backup``: back up the SQLite database while the bot runs, or restore a
backup (:mod:`bot.operations.backup`)."""

from bot.operations.backup import main

if __name__ == "__main__":
    main()
