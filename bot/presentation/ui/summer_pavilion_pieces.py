"""Summer Pavilion's pieces as text: the tiles' coloured squares (each with its shape's glyph,
so that no choice rests on colour alone), the stars and their spaces, a take and a payment
— the small renderings the screens (``summer_pavilion``) are built from."""

from __future__ import annotations

from bot.presentation.i18n import Translator
from games.summer_pavilion.engine import (
    COLOURS,
    EMPTY,
    Place,
    SummerPavilionAction,
    SummerPavilionView,
    Take,
    take_counts,
)

COLOUR_EMOJI = ("🟪", "🟩", "🟧", "🟨", "🟦", "🟥")  # purple, green, orange, yellow, blue, red
CIRCLED = "⓪①②③④⑤⑥⑦⑧⑨"
KEYCAP = "\ufe0f\u20e3"
CENTRE_ICON = "🌈"
VARIANT1_CENTRE_ICON = "🌟"
VARIANT1_STAR_ICON = "⭐"
FIRST_TILE = "🎯"
BONUS_MARK = "🎁"  # bonus tiles from the supply
TURN_MARK = "👉 "
EMPTY_SPACE = "·"


def square(colour: int) -> str:
    return COLOUR_EMOJI[colour]


def colour_name(t: Translator, colour: int) -> str:
    """ "🟪 purple"."""
    return f"{COLOUR_EMOJI[colour]} {t('summer_pavilion.colour.' + COLOURS[colour])}"


def tiles_row(counts: list[int]) -> str:
    """A small pile as squares, one per tile: "🟪🟪🟨🟥"."""
    return "".join(COLOUR_EMOJI[c] * count for c, count in enumerate(counts))


def tiles_counts(counts: list[int], sep: str = "") -> str:
    """A pile as counts per colour: "🟥3 🟩1" (``sep`` between square and count)."""
    return " ".join(f"{COLOUR_EMOJI[c]}{sep}{count}" for c, count in enumerate(counts) if count)


def tiles_list(colours: list[int]) -> str:
    """Tiles given one per entry, as squares."""
    return "".join(COLOUR_EMOJI[c] for c in colours)


def keycap(number: int) -> str:
    return f"{number}{KEYCAP}"


def circled(number: int) -> str:
    return CIRCLED[number] if 0 <= number < len(CIRCLED) else f"({number})"


def variant1(view: SummerPavilionView) -> bool:
    return bool(view["options"]["variant1"])


def star_icon(view: SummerPavilionView, star: int) -> str:
    if variant1(view):
        return VARIANT1_CENTRE_ICON if star == 0 else f"{VARIANT1_STAR_ICON}{star}"
    colour = view["star_colours"][star]
    return CENTRE_ICON if colour < 0 else COLOUR_EMOJI[colour]


def star_name(t: Translator, view: SummerPavilionView, star: int) -> str:
    if star == 0:
        return t("summer_pavilion.star.0")
    if variant1(view):
        return t("summer_pavilion.star.numbered", number=star)
    return t(f"summer_pavilion.star.{star}")


def star_label(t: Translator, view: SummerPavilionView, star: int) -> str:
    """ "🟪 Purple star"; Variant 1: "⭐ Star 3"."""
    icon = VARIANT1_STAR_ICON if variant1(view) and star else star_icon(view, star)
    return f"{icon} {star_name(t, view, star)}"


def space_label(view: SummerPavilionView, star: int, space: int) -> str:
    """A space as the picture shows it: by the number printed on it; where a star prints
    one number on every space (Variant 1's centre, all 3s), by the two outer stars it lies
    between, as numbered on their hubs ("⭐2–⭐3": centre space k points between outer stars
    k + 1 and k + 2)."""
    numbers = view["numbers"][star]
    if len(set(numbers)) == len(numbers):
        return str(numbers[space - 1])
    return f"{VARIANT1_STAR_ICON}{space % 6 + 1}–{VARIANT1_STAR_ICON}{(space + 1) % 6 + 1}"


def star_cells_public(view: SummerPavilionView, board: list[list[int]], star: int) -> str:
    """ "🟪①②·④··": the star's icon, then each space: its printed number if filled."""
    numbers = view["numbers"][star]
    cells = "".join(
        circled(numbers[offset]) if tile != EMPTY else EMPTY_SPACE
        for offset, tile in enumerate(board[star])
    )
    return star_icon(view, star) + cells


def star_cells_private(view: SummerPavilionView, board: list[list[int]], star: int) -> str:
    """ "🟪 🟪🟪3️⃣4️⃣🟪6️⃣": a filled space as its tile, an empty one as its cost."""
    numbers = view["numbers"][star]
    cells = "".join(
        COLOUR_EMOJI[tile] if tile != EMPTY else keycap(numbers[offset])
        for offset, tile in enumerate(board[star])
    )
    return f"{star_icon(view, star)} {cells}"


def payment(colour: int, cost: int, wilds: int, wild: int) -> str:
    """ "🟥×3 + 🟪×1": the tiles spent on a placement."""
    text = f"{COLOUR_EMOJI[colour]}×{cost - wilds}"
    if wilds:
        text += f" + {COLOUR_EMOJI[wild]}×{wilds}"
    return text


def source_tiles(view: SummerPavilionView, source: int) -> list[int]:
    return view["centre"] if source == 0 else view["factories"][source - 1]


def take_text(view: SummerPavilionView, take: Take) -> str:
    """What a take gets: "🟥×2 + 🟪" (all of a colour, plus one wild tile if any)."""
    wild = view["wild"]
    count, wilds = take_counts(source_tiles(view, take.source), take.colour, wild)
    text = f"{COLOUR_EMOJI[take.colour]}×{count}"
    if wilds:
        text += f" + {COLOUR_EMOJI[wild]}"
    return text


def placements(moves: list[SummerPavilionAction], **fields: int) -> list[Place]:
    """The legal placements whose fields have the given values, e.g. ``star=3, space=5``."""
    return [
        move
        for move in moves
        if type(move) is Place
        and all(getattr(move, name) == value for name, value in fields.items())
    ]
