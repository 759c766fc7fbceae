"""``python -m bot.presentation.pictures.palettes``: learn every game's palette and write it
as data."""

from __future__ import annotations

from bot.presentation.pictures import PICTURE_MODULES, learn_palette
from bot.presentation.pictures.palettes import path, write
from games import package_name


def main() -> None:
    for game in PICTURE_MODULES:
        write(package_name(game), learn_palette(game).getpalette() or [])
        print(path(package_name(game)))


if __name__ == "__main__":
    main()
