"""``python -m bot.bench``. The bench lives in the package's ``__init__`` and this file only
starts it, as ``bot/__main__.py`` starts the bot: the AI workers, spawned processes, then
import what the bot's own workers import — a spawned process re-imports the main module
unless it is a package's ``__main__`` — so the bench measures the workers the bot runs."""

from bot.bench import main

main()
