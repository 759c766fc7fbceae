"""``python -m bot.pictures GAME …``: draw the pictures of a seeded random game and print
what they cost (:mod:`bot.presentation.pictures.seeded_game`)."""

import sys

from bot.presentation.pictures.seeded_game import main

if __name__ == "__main__":
    sys.exit(main())
