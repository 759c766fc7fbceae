"""The card games' hands and choices, for the table app's fan of cards: each card of a
seat's hand with its label, and each legal move as the cards it plays (by card, so equal
cards are interchangeable), what it is played onto where the game asks (Sultan's cushion),
and its words. The page offers a move once the picked cards are exactly its cards; a move
that plays no card (a pass, a gem returned) is a button of its own. Everything comes from
the seat's own view and the engine's legal moves, in the chat's words
(``bot.presentation.ui``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.presentation.i18n import Translator
from bot.presentation.ui import donkey as donkey_ui
from bot.presentation.ui import g5211 as g5211_ui
from bot.presentation.ui import get_ui
from bot.presentation.ui import sultan as sultan_ui
from games.core import Action
from games.donkey.engine import DONKEY, JOKER, Card, LeadDonkey, Pass, Play, set_cards
from games.donkey.engine import as_action as donkey_action
from games.g5211.engine import COLOURS as COLOURS_5211
from games.g5211.engine import colour_of, is_rooster, value_of
from games.sultan.engine import Bid, Return
from games.sultan.engine import as_action as sultan_action

CARD_GAMES = ("5211", "sultan", "donkey")
Choice = dict[str, Any]


def card_label(game: str, card: int) -> str:
    """The card as the chat writes it: "🔵3", "🫏", "7"."""
    if game == "5211":
        return g5211_ui.card_text(card)
    if game == "donkey":
        return donkey_ui.card_text(card)
    return str(card)  # Sultan's money cards: their value


def card(game: str, t: Translator, code: int) -> dict[str, Any]:
    """A card as the page draws it: ``face`` (its value, the rooster, the donkey, the
    joker), ``suit`` (5211's colour, drawn in its colour and shape; else None) and
    ``label``, the words a screen reader says ("blue 3", "the donkey")."""
    if game == "5211":
        colour = t(f"5211.colour.{COLOURS_5211[colour_of(code)]}")
        if is_rooster(code):
            face, label = "🐓", t("table.5211.rooster", colour=colour)
        else:
            face = str(value_of(code))
            label = t("table.5211.card", colour=colour, value=face)
        return {"card": code, "face": face, "suit": colour_of(code), "label": label}
    if game == "donkey":
        if code == DONKEY:
            return {"card": code, "face": "🫏", "suit": None, "label": t("table.donkey.donkey")}
        if code == JOKER:
            return {"card": code, "face": "🃏", "suit": None, "label": t("table.donkey.joker")}
        return {"card": code, "face": str(code), "suit": None, "label": str(code)}
    return {
        "card": code,
        "face": str(code),
        "suit": None,
        "label": t("table.sultan.card", value=code),
    }


def hand(game: str, t: Translator, view: dict) -> list[dict[str, Any]]:
    """The seat's cards, sorted (by colour then value in 5211; by value else)."""
    return [card(game, t, code) for code in sorted(view["hand"])]


def choices(
    game: str, t: Translator, view: dict, seat: int, legal: Sequence[Action]
) -> list[Choice]:
    """Every legal move as the page offers it: ``action`` (what the server is sent back),
    ``cards`` (the cards it plays), ``target`` (what it is played onto: a label, or None)
    and ``label``; in Sultan ``onto``, the spot on the table tapped for it (a cushion's
    number, or the drawn gem that goes back)."""
    ui = get_ui(game)
    shape = SHAPES[game]
    made = []
    for action in legal:
        cards, target = shape(t, view, action)
        choice = {
            "action": list(action),
            "cards": cards,
            "target": target,
            "label": ui.move_label(t, view, tuple(action), seat),
        }
        if game == "sultan":  # the table's own spot for it: a cushion, or a drawn gem
            move = sultan_action(action)
            choice["onto"] = {"cushion": move.cushion} if type(move) is Bid else {"gem": move.gem}
        made.append(choice)
    return made


def _5211(t: Translator, view: dict, action: Action) -> tuple[list[int], str | None]:
    return list(action), None  # the cards chosen, face down until the reveal


def _sultan(t: Translator, view: dict, action: Action) -> tuple[list[int], str | None]:
    move = sultan_action(action)
    if type(move) is Return:
        return [], t("sultan.prompt.return_button", gem=sultan_ui.gem_worth(t, move.gem))
    assert type(move) is Bid
    gem = view["cushions"][move.cushion]
    return [move.value], f"{move.cushion + 1}. {sultan_ui.gem_worth(t, gem)}"


def _donkey(t: Translator, view: dict, action: Action) -> tuple[list[int], str | None]:
    move = donkey_action(action)
    if type(move) is Pass:
        return [], t("donkey.button.pass")
    if type(move) is LeadDonkey:
        return [DONKEY], None
    if type(move) is Card:
        return [move.card], None
    assert type(move) is Play
    return set_cards(move.value, move.size, move.jokers), None


SHAPES: dict[str, Callable[[Translator, dict, Action], tuple[list[int], str | None]]] = {
    "5211": _5211,
    "sultan": _sultan,
    "donkey": _donkey,
}
