"""Each game's 256-colour palette, shipped as data: ``<package>.json`` beside this file.

Learning a palette (``bot.presentation.pictures.learn_palette``: median cut over specimen
pictures) takes about a second of CPU per game and leaves some 110 MB of the specimens'
drawing in the allocator; reading 768 numbers takes nothing. The data is exactly what
learning gives (tests/bot/presentation/pictures/test_picture_api.py learns it again and
compares), so pictures are byte-identical either way. After a change to a game's drawing
that changes its colours, write the palettes again:

    python -m bot.presentation.pictures.palettes
"""

from __future__ import annotations

import json
from pathlib import Path

FOLDER = Path(__file__).parent


def path(package: str) -> Path:
    return FOLDER / f"{package}.json"


def load(package: str) -> list[int]:
    """The palette's 768 channel values (red, green, blue of 256 colours)."""
    return json.loads(path(package).read_text())


def write(package: str, channels: list[int]) -> None:
    # 16 colours a line: a change to the drawing shows as a readable diff
    lines = [json.dumps(channels[start : start + 48]) for start in range(0, len(channels), 48)]
    path(package).write_text("[\n" + ",\n".join(line[1:-1] for line in lines) + "\n]\n")
