"""Each player's private prompt: built (with the time left to move), then sent as a new
message where it is a new decision (which notifies; the old prompt is deleted) or edited in
place (a selection step that changes only the buttons edits only them), and the group told
when the player cannot be reached.

A player waiting for the others is not redrawn at their moves — the group's board shows
them, and the next turn says what happened since — only when their own secrets change;
where the game has none (Azul, Summer Pavilion) the prompt is deleted at their move. The
player about to decide in a tile game gets every board as a photo with the prompt as its
caption, less the text board the picture shows. Calls per move, counted:
``tests/bot/table/test_message_counts.py``."""

from __future__ import annotations

import html
import logging
from collections.abc import Callable, Iterable

from telegram.error import BadRequest

from bot.presentation.i18n import Translator
from bot.presentation.ui import get_ui
from bot.storage import Match, Seat
from bot.table.publishing.drawing import (
    ChatKey,
    Drawing,
    Services,
    record_shown,
)
from bot.table.publishing.messages import (
    MAX_CAPTION,
    Ending,
    Prompt,
    clock_words,
    fingerprint,
    keyboard,
    markup_of,
    names_of,
    picture_digest,
    picture_of,
    plain_length,
    press_button,
    secret_digest,
    secret_of,
    web_app_button,
    words_of,
)
from bot.telegram_api.callbacks import Callback, Kind
from bot.telegram_api.messenger import (
    Markup,
    MessageGone,
    MessageKindDiffers,
    Unreachable,
)
from games import get_engine

log = logging.getLogger(__name__)


class Prompts(Drawing):
    """Draws the players' private prompts."""

    def __init__(
        self, services: Services, request: Callable[[Match, Iterable[ChatKey]], None]
    ) -> None:
        super().__init__(services)
        self._request = request  # the group told of an unreachable player is drawn anew
        self.resend: set[tuple[int, int]] = set()  # (match, user): prompt as a new message
        self.endings: dict[tuple[int, int], Ending] = {}  # (match, user): the last line

    async def draw(self, match_id: int, user_id: int) -> None:
        """Bring a player's private prompt of a match up to its committed state."""
        match = await self.storage.load(match_id)
        seat = match.seat_of(user_id) if match else None
        if seat is not None and match.status == "cancelled":
            await self._draw_ending(match, seat)
            return
        if seat is None or match.state is None or match.status not in ("playing", "finished"):
            return
        if (match_id, user_id) not in self.resend and self.tables.is_open(match_id, user_id):
            return  # their table shows it; the chat is brought up to date when it closes
        prompt = await self._prompt(match, seat)
        await self._illustrate(match, seat, prompt)
        resend = (match_id, user_id) in self.resend
        self.resend.discard((match_id, user_id))
        fresh = self._is_new_decision(match, seat, prompt)
        unchanged = prompt.print == seat.prompt_text and seat.prompt_message_id is not None
        if unchanged and not (fresh or resend):
            return
        if match.status == "playing" and prompt.waiting and not resend:
            await self._draw_waiting(match, seat, prompt)
            return
        try:
            # the final screen of a player whose prompt went at their move (Azul, Summer
            # Pavilion) comes as a new message: silently, as the edit it replaces
            notify = fresh or resend or match.status != "finished"
            await self._deliver_prompt(seat, prompt, as_new_message=fresh or resend, notify=notify)
        except Unreachable:
            await self._player_unreachable(match, seat, tell_group=fresh)
        seat.prompt_token = seat.token
        await record_shown(lambda: self.storage.save_seat_display(match.id, seat))

    async def _draw_waiting(self, match: Match, seat: Seat, prompt: Prompt) -> None:
        """A player who waits for the others. Their screen is not redrawn for the others'
        moves (the group's board shows them; their turn comes as a new message, which
        says what happened since): only when their own secrets change (a hand that took
        cards). Where the game has no secrets (Azul, Summer Pavilion) there is nothing the
        board does not show: the prompt they decided on is deleted at their move, and
        their next turn has no old prompt to delete."""
        if not prompt.secret:
            old = seat.prompt_message_id
            if old is None:
                return
            photo = picture_of(seat.prompt_text) is not None
            try:
                await self.messenger.retire(seat.user_id, old, prompt.closed, photo=photo)
            except Unreachable:  # blocked the bot meanwhile: the message is theirs to clear
                await self._player_unreachable(match, seat, tell_group=False)
            seat.prompt_message_id, seat.prompt_text = None, None
        elif secret_of(seat.prompt_text) == prompt.secret and seat.prompt_message_id is not None:
            return  # only the others moved
        else:
            try:
                await self._deliver_prompt(seat, prompt, as_new_message=False)
            except Unreachable:
                await self._player_unreachable(match, seat, tell_group=False)
        seat.prompt_token = seat.token
        await record_shown(lambda: self.storage.save_seat_display(match.id, seat))

    async def _draw_ending(self, match: Match, seat: Seat) -> None:
        """The prompt of a match that ended unfinished becomes the line saying how (a photo
        keeps its picture); as a new message where it notifies, the old prompt retired."""
        ending = self.endings.pop((match.id, seat.user_id), None)
        if ending is None:
            return
        t = await self.languages.user_t_by_id(seat.user_id)
        title, game = html.escape(match.title or "—"), html.escape(get_ui(match.game).title(t))
        text = t(ending.key, title=title, game=game, **ending.params)
        try:
            if ending.notify or not await self._edit_ending(seat, text):
                old = seat.prompt_message_id
                seat.prompt_message_id = await self.messenger.send(
                    seat.user_id, text, notify=ending.notify
                )
                if old is not None:
                    photo = picture_of(seat.prompt_text) is not None
                    await self.messenger.retire(seat.user_id, old, text, photo=photo)
        except Unreachable:  # blocked the bot meanwhile: nothing to say it with
            return
        seat.prompt_text = fingerprint(text, [])
        await record_shown(lambda: self.storage.save_seat_display(match.id, seat))

    async def _edit_ending(self, seat: Seat, text: str) -> bool:
        """The prompt edited into ``text`` without buttons; False where there is none."""
        if seat.prompt_message_id is None:
            return False
        try:
            if picture_of(seat.prompt_text) is not None:  # a photo: its caption
                await self.messenger.edit_caption(seat.user_id, seat.prompt_message_id, text)
            else:
                await self.messenger.edit(seat.user_id, seat.prompt_message_id, text)
        except MessageGone:
            return False
        return True

    async def _prompt(self, match: Match, seat: Seat) -> Prompt:
        """The seat's secrets and choices under the match's title; a decision opens with
        what the others did since the seat's turn; on autopilot, a way back."""
        engine = get_engine(match.game)
        t = await self.languages.user_t_by_id(seat.user_id)
        view = engine.view(match.state, seat.seat)
        secret = secret_digest(view, engine.view(match.state, None))
        legal = engine.legal_actions(match.state, seat.seat)
        ui, names = get_ui(match.game), names_of(match)
        screen = ui.prompt(t, view, seat.seat, legal, seat.draft, names)
        title = html.escape(match.title or "—")
        text = t("play.prompt_header", title=title) + "\n"
        since = ui.since_your_turn(t, view, seat.seat, names) if legal else ""
        if since:
            text += since + "\n\n"
        text += screen.text
        rows = keyboard(match, screen.rows, seat.seat)
        if match.practice and legal and match.status == "playing":
            hint = Callback(Kind.HINT, match.id, seat.token).encode()
            rows.append([press_button(t("hint.button"), hint)])
        if seat.autopilot and match.status == "playing":
            text += "\n\n" + t("timer.autopilot_private")
            back = Callback(Kind.BACK, match.id, 0, "").encode()
            rows.append([press_button(t("timer.back_button"), back)])
        elif legal and seat.deadline is not None and match.status == "playing":
            text += "\n\n" + self._clock_line(t, match, seat)
        elif not legal and match.status == "playing":  # a waiting screen, drawn seldom
            text += "\n\n" + t("play.waiting_note")
        closed = t("play.prompt_closed", title=title)
        link = self.tables.link(match)
        app = [[web_app_button(t("app.open_table"), link)]] if link else []
        prompt = Prompt(text, rows, decides=bool(legal), closed=closed, secret=secret, app=app)
        if screen.caption is not None:  # the same text, the boards left to the picture,
            # without blank lines: a few lines, to fit one phone screen with the picture
            caption = text.replace(screen.text, screen.caption, 1)
            caption = "\n".join(line for line in caption.split("\n") if line.strip())
            if since:  # the others' moves stand apart from the choice to make
                caption = caption.replace(since + "\n", since + "\n\n", 1)
            prompt.caption = caption
        return prompt

    def _clock_line(self, t: Translator, match: Match, seat: Seat) -> str:
        """The time the player has left for this decision: after the half-time reminder
        with a word of warning; a clock the other players started says so."""
        left = clock_words(t, seat.deadline - self.clock())
        if not match.turn_seconds:
            return t("clock.prompt_started", left=left)
        if seat.reminded:
            return t("clock.prompt_hurry", left=left)
        return t("clock.prompt", left=left)

    async def _illustrate(self, match: Match, seat: Seat, prompt: Prompt) -> None:
        """The player about to decide in a tile game sees every board and the supply as a
        picture (their own board in full), the prompt without its text board as its
        caption. A prompt too long for a caption (only with names and a group title near
        Telegram's longest) stays text: it shows the same board in emoji, so nothing is
        lost."""
        if not prompt.decides or plain_length(prompt.caption or prompt.text) > MAX_CAPTION:
            return
        view = get_engine(match.game).view(match.state, seat.seat)
        prompt.picture = await self.pictures.private(match, view, seat.seat)

    @staticmethod
    def _is_new_decision(match: Match, seat: Seat, prompt: Prompt) -> bool:
        """A new decision gets a new message, which notifies the player — unless they made
        the move that led to it themselves (several choices in a row: bonus tiles, a bid
        after returning a gem): they are looking at the prompt, so it is edited in place."""
        return (
            prompt.decides
            and seat.prompt_token != seat.token
            and not (match.last_mover == seat.seat and seat.prompt_message_id is not None)
        )

    async def _deliver_prompt(
        self, seat: Seat, prompt: Prompt, as_new_message: bool, notify: bool = True
    ) -> None:
        """Send the prompt as a new message, which notifies (the old one is removed: one
        live prompt per match in the chat), or edit it in place; a prompt message that is
        gone is sent anew (``notify``: whether a message sent where there was none
        notifies)."""
        user_id, markup = seat.user_id, markup_of(prompt.buttons)
        if as_new_message or seat.prompt_message_id is None:
            old = seat.prompt_message_id
            seat.prompt_message_id = await self._send_prompt(
                user_id, prompt, markup, notify=as_new_message or notify
            )
            if old is not None:
                photo = picture_of(seat.prompt_text) is not None
                await self.messenger.retire(user_id, old, prompt.closed, photo=photo)
        else:
            try:
                seat.prompt_message_id = await self._edit_prompt(
                    user_id, seat.prompt_message_id, seat.prompt_text, prompt, markup
                )
            except MessageGone:
                seat.prompt_message_id = await self._send_prompt(user_id, prompt, markup)
        seat.prompt_text = prompt.print

    async def _send_prompt(
        self,
        user_id: int,
        prompt: Prompt,
        markup: Markup,
        notify: bool = True,
    ) -> int:
        """A prompt as a new message: a photo with the prompt as its caption, or text —
        also when Telegram refuses the picture."""
        if prompt.picture is not None:
            try:
                return await self.messenger.send_photo(
                    user_id, prompt.picture, prompt.shown, markup, notify=notify
                )
            except BadRequest:
                log.exception("the prompt's picture for %s was refused; sending text", user_id)
                prompt.picture = None
        return await self.messenger.send(user_id, prompt.text, markup, notify=notify)

    async def _edit_prompt(
        self,
        user_id: int,
        message_id: int,
        shown: str | None,
        prompt: Prompt,
        markup: Markup,
    ) -> int:
        """Edit a prompt in place: text as text; a picture by its caption alone when the
        message shows it already (a selection step), else by its media. A message of the
        other kind (a photo prompt becoming text, or the reverse where Telegram refuses)
        is replaced: deleted, and sent anew. Returns the prompt's message id."""
        try:
            if prompt.picture is None and picture_of(shown) is not None:
                # a photo prompt becoming text: Telegram would refuse the text edit
                raise MessageKindDiffers(message_id)
            same_picture = picture_of(shown) == (
                picture_digest(prompt.picture) if prompt.picture is not None else None
            )
            if same_picture and words_of(shown) == words_of(prompt.print):
                # a selection step: only the buttons change
                await self.messenger.edit_markup(user_id, message_id, markup)
            elif prompt.picture is None:
                await self.messenger.edit(user_id, message_id, prompt.text, markup)
            elif same_picture:
                await self.messenger.edit_caption(user_id, message_id, prompt.shown, markup)
            else:
                await self.messenger.edit_photo(
                    user_id, message_id, prompt.picture, prompt.shown, markup
                )
            return message_id
        except MessageKindDiffers:  # not a new decision: the new message is silent
            photo = picture_of(shown) is not None
            await self.messenger.retire(user_id, message_id, prompt.closed, photo=photo)
            return await self._send_prompt(user_id, prompt, markup, notify=False)
        except BadRequest:
            if prompt.picture is None:
                raise
            log.exception("the prompt's picture for %s was refused; showing text", user_id)
            prompt.picture = None
            return await self._edit_prompt(user_id, message_id, shown, prompt, markup)

    async def _player_unreachable(self, match: Match, seat: Seat, tell_group: bool) -> None:
        """The player blocked the bot or never opened the private chat: remember it, and
        tell the group once per decision (not at every redraw)."""
        await self.storage.set_can_message(seat.user_id, False)
        if tell_group:
            await self.storage.add_notice(
                match.id, "play.unreachable", {"user_id": seat.user_id, "name": seat.name}
            )
            self._request(match, [("group", match.chat_id)])
