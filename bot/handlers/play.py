"""Button presses during a match: moves (``a``), selection steps (``d``), "I'm back" (``bk``),
"Start the clock" (``ck``) and, in practice, "Hint" (``hn``).

Order of work for a press: check it (match, chat, seat, token, legality) → commit → answer
the press → everything slower (autopilot moves that follow, drawing, other chats). A press
that fails a check gets a short popup and changes nothing.
"""

from __future__ import annotations

from bot.handlers.buttons import (
    MatchPress,
    current_token,
    in_status,
    match_button,
    names_a_seat,
    pressed_in,
    seated,
    started,
)
from bot.presentation.ui import get_ui
from bot.presentation.ui.base import BadDraft
from bot.table import flow
from bot.table.ai_moves import decision_seed
from bot.table.deadlines import may_start_clock
from bot.telegram_api.callbacks import Kind
from games import get_engine
from games.core import Action, IllegalAction, decode_action

# a move or a selection step: the presser's own current decision, on the group board or in
# their private chat
MOVE_CHECKS = (
    started("play.no_match"),
    in_status("playing", "play.match_over"),
    seated("play.not_your_match"),
    current_token,
    pressed_in("group", "private"),
)


@match_button(Kind.ACTION, language="presser", missing="play.no_match", checks=MOVE_CHECKS)
async def press_action(press: MatchPress) -> None:
    try:
        action = decode_action(press.data.payload)
    except IllegalAction:
        await press.tell("error.bad_button")
        return
    await _play(press, action)


@match_button(Kind.DRAFT, language="presser", missing="play.no_match", checks=MOVE_CHECKS)
async def press_draft(press: MatchPress) -> None:
    match, seat = press.match, press.seat
    if press.data.step != seat.draft_step:  # drawn for an older version of this prompt
        await press.tell("play.stale")
        return
    engine = get_engine(match.game)
    view = engine.view(match.state, seat.seat)
    legal = engine.legal_actions(match.state, seat.seat)
    try:
        step = get_ui(match.game).draft(view, seat.seat, legal, seat.draft, press.data.payload)
    except BadDraft:
        await press.tell("play.stale")
        return
    if step.action is not None:
        await _play(press, step.action)
        return
    seat.draft = step.draft
    seat.draft_step += 1
    await press.host.storage.save(match)
    await press.answer()
    press.host.publisher.request(match, [("user", seat.user_id)])


async def _play(press: MatchPress, action: Action) -> None:
    match, seat, t = press.match, press.seat, press.t
    refused = flow.move_refusal(match, seat.user_id, seat.token, action)
    if refused is not None:  # the press's own checks passed: not the turn, or not legal
        await press.tell(refused)
        return
    view_before = get_engine(match.game).view(match.state, seat.seat)
    label = get_ui(match.game).move_label(t, view_before, tuple(action), seat.seat)
    await press.host.play(match, seat, action, answer=lambda: press.answer(label))


@match_button(
    Kind.BACK,
    language="presser",
    missing="play.match_over",
    # it lives in the private chat only
    checks=(
        in_status("playing", "play.match_over"),
        seated("play.match_over"),
        pressed_in("private"),
    ),
)
async def press_back(press: MatchPress) -> None:
    """ "I'm back": a player on autopilot takes their seat again."""
    if not press.seat.autopilot:
        await press.tell("timer.not_on_autopilot")
        return
    await press.host.timers.come_back(press.match, press.seat)
    await press.tell("timer.welcome_back")
    press.host.publisher.request(press.match)


@match_button(
    Kind.CLOCK,
    language="presser",
    missing="play.match_over",
    checks=(
        in_status("playing", "play.match_over"),
        pressed_in("group"),
        names_a_seat,
        seated("play.not_your_match"),
    ),
)
async def press_clock(press: MatchPress) -> None:
    """ "Start the clock" on the group board: another player of the match gives the absent
    player a short deadline."""
    host, match = press.host, press.match
    absent = match.seats[int(press.data.payload)]
    if press.seat is absent:
        await press.tell("clock.not_yourself")
        return
    if absent.token != press.data.token or not may_start_clock(match, absent):
        await press.tell("play.stale")
        return
    await host.timers.start_clock(match, absent, by=press.seat)
    await press.tell("clock.started_popup")
    host.publisher.request(match)
    press.after_unlock(host.timers.tell_clock_started(match, absent))


POPUP_CHARACTERS = 200  # the most an answer to a press may show


async def practice_only(press: MatchPress) -> str | None:
    return None if press.match.practice else "error.bad_button"


@match_button(
    Kind.HINT,
    language="presser",
    missing="play.no_match",
    checks=(*MOVE_CHECKS, practice_only),
)
async def press_hint(press: MatchPress) -> None:
    """ "Hint" under a practice prompt: what the normal AI would play here and the points it
    expects to end with — computed off the event loop, after the match's lock is released
    (the AI seats need it), and answered in a popup."""
    match, seat = press.match, press.seat
    engine = get_engine(match.game)
    view = engine.view(match.state, seat.seat)
    legal = engine.legal_actions(match.state, seat.seat)
    seed = decision_seed(match, seat)
    press.after_unlock(_tell_hint(press, view, legal, seed))


async def _tell_hint(press: MatchPress, view: object, legal: list[Action], seed: int) -> None:
    match, seat, t = press.match, press.seat, press.t
    tip = await press.host.hints.ask(press.user.id, match.game, view, seat.seat, legal, seed)
    if isinstance(tip, str):  # one already computing for this player, or too many at once
        await press.tell(tip)
        return
    move = get_ui(match.game).move_label(t, view, tuple(tip.action), seat.seat, suggested=True)
    points = round(tip.expected_score)
    key = "hint.penalty" if tip.lower_is_better else "hint.points"
    text = t.plural(key, points, move=move)
    if len(text) > POPUP_CHARACTERS:  # Telegram refuses a longer popup: shorten the move
        move = move[: len(move) - (len(text) - POPUP_CHARACTERS) - 1] + "…"
        text = t.plural(key, points, move=move)
    await press.answer(text, alert=True)
