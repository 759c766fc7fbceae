"""What happened since a seat's turn: the moves picked from a game's public log.

Pure functions of the public log (``view["log"]``), so every screen that tells it — the
group board, the private prompt, later an inline answer — picks the same moves, and can
show nothing the group was not shown: a secret choice (a 5211 card, a Sultan bid's value)
is not in the public log until the rules reveal it.

A game names the log events that are a seat's moves (each carries its ``seat``). A seat's
moves in a row (a placement, then its bonus tiles) are one turn, so the moves "since its
turn" are those after its previous turn, and they stay the same while it finishes the
current one. A game may also name events that close the story (a new deal of cards, a new
circle of bids whose cushions differ): the moves before them are told elsewhere and left
out.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from bot.presentation.i18n import Translator

MAX_LINES = 4  # lines of moves on a phone screen; older ones are summed up in the first
# a turn's words at the most (a Summer Pavilion turn can be a placement, the structures it
# completed, its payment and a bonus tile): four of them beside four long names must still
# fit a picture's caption
MAX_TURN_CHARACTERS = 90


def turn_start(
    log: Sequence[dict], seat: int, moves: Collection[str], breaks: Collection[str] = ()
) -> int:
    """The index in ``log`` just after ``seat``'s previous turn: its latest move that
    another seat's move followed; or just after the latest event of a kind in ``breaks``
    when that is later (0: neither happened yet)."""
    others_moved = False
    for index in range(len(log) - 1, -1, -1):
        event = log[index]
        kind = event["type"]
        if kind in breaks:
            return index + 1
        if kind not in moves:
            continue
        if event["seat"] != seat:
            others_moved = True
        elif others_moved:
            return index + 1
    return 0


def moves_since_turn(
    log: Sequence[dict],
    seat: int,
    moves: Collection[str],
    *,
    others_only: bool,
    breaks: Collection[str] = (),
) -> list[dict]:
    """The move events since ``seat``'s previous turn (see :func:`turn_start`), oldest
    first: all of them (what the group missed before ``seat``, to act, moves), or only the
    other seats' (what ``seat`` missed)."""
    start = turn_start(log, seat, moves, breaks)
    return [
        event
        for event in log[start:]
        if event["type"] in moves and not (others_only and event["seat"] == seat)
    ]


def move_lines(
    t: Translator,
    events: Sequence[dict],
    names: Sequence[str],
    describe: Callable[[dict], str | None],
) -> list[str]:
    """One line per turn, "Bob: F3 ⬛×2 → line 4" (a seat's moves in a row joined by " · "),
    at most ``MAX_LINES``: the oldest turns beyond that are counted in the first line.
    ``names`` are the players' names by seat, ready for HTML; ``describe`` gives a move's
    short text without the name (None: not worth a word)."""
    turns: list[tuple[int, list[str]]] = []
    for event in events:
        text = describe(event)
        if text is None:
            continue
        if turns and turns[-1][0] == event["seat"]:
            turns[-1][1].append(text)
        else:
            turns.append((event["seat"], [text]))
    lines = [f"{names[seat]}: {shortened(' · '.join(texts))}" for seat, texts in turns]
    if len(lines) <= MAX_LINES:
        return lines
    hidden = turns[: len(turns) - (MAX_LINES - 1)]
    earlier = t.plural("recent.earlier", sum(len(texts) for _, texts in hidden))
    return [earlier, *lines[-(MAX_LINES - 1) :]]


def shortened(text: str) -> str:
    """A turn's words cut to ``MAX_TURN_CHARACTERS`` with "…"; a text with markup is left
    whole (a tag or entity cut in two would make Telegram refuse the message)."""
    if len(text) <= MAX_TURN_CHARACTERS or "<" in text or "&" in text:
        return text
    return text[: MAX_TURN_CHARACTERS - 1].rstrip(" ·,;:") + "…"


def block(heading: str, lines: Sequence[str]) -> str:
    """The heading and the lines under it; nothing when there are no lines."""
    return "\n".join([heading, *lines]) if lines else ""
