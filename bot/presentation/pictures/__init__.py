"""Board pictures of the tile games (Azul, Summer Pavilion), drawn with Pillow from the
engines' views. The host sends them as photos; the text boards stay the fallback.

The API is small and pure, so drawing can run off the event loop (``asyncio.to_thread``):

* :func:`render_group` — the table as the group sees it: every board, the supply, the
  players to act framed in gold;
* :func:`render_private` — what the player about to decide needs: the supply, their own
  board with everything printed on it, and every other board compact beside it, so the
  whole table shows with the prompt on one phone screen;
* :class:`PictureCache` — recently drawn pictures by a key such as ``(match_id, version,
  audience)``, up to a number of bytes; on a miss it draws in its one drawing thread.

Pictures hold no words but the players' names — seats are numbers and names, everything else
is tiles, symbols and digits — so one picture serves every language (the caption carries the
words) and a cache key needs no language. Every text is drawn at least
:data:`~bot.presentation.pictures.drawing.MIN_TEXT_SIZE` pixels, readable where a phone
shows the picture 400 pixels wide. Input is a view as the engine produces it (plain lists
and ints, read only) and the players' names; output is PNG bytes, the same bytes for the
same view and names. Drawing never touches the network or the machine's fonts: the font
ships in ``fonts/``.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from importlib import import_module
from pathlib import Path
from types import ModuleType

from PIL import Image

from bot.presentation.pictures import palettes
from bot.presentation.pictures.encoding import build_palette, to_png
from games import GAME_MODULES, package_name
from games.core import View

# game id -> its drawing module: ``bot/presentation/pictures/<package>.py``, named after the
# engine's package like its UI adapter; a game without one keeps its text board
PICTURE_MODULES: dict[str, str] = {
    game: f"bot.presentation.pictures.{package_name(game)}"
    for game in GAME_MODULES
    if (Path(__file__).parent / f"{package_name(game)}.py").is_file()
}

# Telegram's limits for a photo (sendPhoto): the picture's size and shape
MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_PHOTO_SIDES = 10_000  # width + height
MAX_PHOTO_RATIO = 20


def supports(game: str) -> bool:
    """Whether ``game`` has pictures (the card games keep their text boards)."""
    return game in PICTURE_MODULES


def _module(game: str) -> ModuleType:
    if game not in PICTURE_MODULES:
        raise KeyError(f"no pictures for {game!r}")
    return import_module(PICTURE_MODULES[game])


@cache
def palette(game: str) -> Image.Image:
    """The game's 256 colours, as shipped (``bot.presentation.pictures.palettes``: what
    :func:`learn_palette` gives, read rather than learnt)."""
    _module(game)  # a game without pictures has no palette
    image = Image.new("P", (1, 1))
    image.putpalette(palettes.load(package_name(game)))
    return image


def learn_palette(game: str) -> Image.Image:
    """The game's 256 colours learnt from specimen pictures (see ``encoding``): about a
    second of CPU and 110 MB of drawing, so done once, when the drawing changes, and
    shipped (``python -m bot.presentation.pictures.palettes``)."""
    module = _module(game)
    specimens = []
    for view in module.specimen_views():
        everyone = module.acting(view)
        names = SPECIMEN_NAMES[: view["num_players"]]
        specimens.append(module.group_picture(view, everyone, names))
        specimens.append(module.private_picture(view, 0, everyone, names))
    return build_palette(module.key_colours(), specimens)


# names that teach the palette the shades of drawn text
SPECIMEN_NAMES = ("Alice", "Борис", "Ґедзь Їжак", "Niccolò")

Names = Sequence[str]  # the players' names by seat; a seat without one shows its number only


def group_image(
    game: str, view: View, acting_seats: Iterable[int] | None = None, names: Names = ()
) -> Image.Image:
    """The group picture as an RGB image (before encoding)."""
    module = _module(game)
    seats = module.acting(view) if acting_seats is None else frozenset(acting_seats)
    return module.group_picture(view, seats, tuple(names))


def private_image(game: str, view: View, seat: int, names: Names = ()) -> Image.Image:
    """The private picture of ``seat`` as an RGB image (before encoding)."""
    module = _module(game)
    return module.private_picture(view, seat, module.acting(view), tuple(names))


def render_group(
    game: str, view: View, acting_seats: Iterable[int] | None = None, names: Names = ()
) -> bytes:
    """The group's picture (PNG) of a public ``view``: the supply and every board, each
    with its seat's number and name. ``acting_seats`` are framed in gold; by default the
    seats the view says are to act."""
    return to_png(group_image(game, view, acting_seats, names), palette(game))


def render_private(game: str, view: View, seat: int, names: Names = ()) -> bytes:
    """``seat``'s private picture (PNG): the supply, that player's own board in full, and
    every other player's board compact beside it."""
    return to_png(private_image(game, view, seat, names), palette(game))


class PictureCache:
    """The pictures drawn last, by key — e.g. ``(match_id, version, "group")`` or
    ``(match_id, version, seat)``: a redraw of an unchanged match (a retry, a restart, a
    resent prompt) costs nothing. Bounded in bytes (pictures weigh 20–150 KB), the oldest
    forgotten first. No language in the key: pictures hold no words but the players' names,
    which a match keeps.

    A miss is drawn in the cache's one drawing thread, off the event loop, one picture at a
    time: pictures wait their turn rather than draw side by side, because each thread that
    draws makes the C allocator keep an arena of freed picture memory of its own (measured:
    about 130 MB more with the event loop's default pool of threads). Drawing takes a few
    milliseconds; one thread draws a couple of hundred pictures a second."""

    def __init__(self, capacity_bytes: int = 16 * 2**20) -> None:
        self.capacity_bytes = capacity_bytes
        self.bytes = 0
        self._pictures: OrderedDict[Hashable, bytes] = OrderedDict()
        self._drawing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures")

    def __len__(self) -> int:
        return len(self._pictures)

    def get(self, key: Hashable) -> bytes | None:
        picture = self._pictures.get(key)
        if picture is not None:
            self._pictures.move_to_end(key)
        return picture

    def put(self, key: Hashable, picture: bytes) -> None:
        old = self._pictures.pop(key, None)
        if old is not None:
            self.bytes -= len(old)
        self._pictures[key] = picture
        self.bytes += len(picture)
        while self.bytes > self.capacity_bytes and len(self._pictures) > 1:
            _, dropped = self._pictures.popitem(last=False)
            self.bytes -= len(dropped)

    async def render(self, key: Hashable, draw: Callable[[], bytes]) -> bytes:
        """The cached picture, or ``draw()`` run in the drawing thread and remembered."""
        picture = self.get(key)
        if picture is None:
            picture = await asyncio.get_running_loop().run_in_executor(self._drawing, draw)
            self.put(key, picture)
        return picture
