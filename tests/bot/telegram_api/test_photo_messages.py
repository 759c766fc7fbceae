"""Photo messages through the messenger and the fake Bot API: sending a picture with a
caption and buttons, editing its media or caption, and the errors real chats produce."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import pytest
from PIL import Image
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest

from bot.telegram_api.messenger import MessageGone, MessageKindDiffers, Messenger, Unreachable
from bot.testing.fake_server import FakeTelegramServer
from bot.testing.fake_telegram import FakeTelegram, Fault

GROUP = -100555
PLAYER = 4242


def png(width: int = 60, height: int = 40, colour=(30, 108, 192)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, "PNG")
    return out.getvalue()


def buttons(*labels: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(label, callback_data=f"x:{label}") for label in labels]]
    )


@pytest.fixture
async def setup() -> AsyncIterator[tuple[FakeTelegram, Messenger, list[float]]]:
    api = FakeTelegram()
    api.chats[GROUP] = {"id": GROUP, "type": "supergroup", "title": "Table"}
    api.started.add(PLAYER)
    bot = Bot("123456:TEST-TOKEN", request=api, get_updates_request=api)
    await bot.initialize()
    waits: list[float] = []

    async def no_wait(seconds: float) -> None:
        waits.append(seconds)

    yield api, Messenger(bot, sleep=no_wait), waits
    await bot.shutdown()


async def test_send_photo_with_caption_and_buttons(setup):
    api, messenger, _ = setup
    picture = png()
    sent = await messenger.send_photo(GROUP, picture, "<b>Alice</b> to play", buttons("Go"))
    stored = api.last(GROUP)
    assert stored.message_id == sent  # its id
    assert stored.is_photo and stored.photo == picture
    assert stored.photo_size == (60, 40)
    assert stored.text == "Alice to play"
    assert [b["text"] for b in stored.buttons()] == ["Go"]
    reply = api.message_dict(stored)  # what Telegram answers about the new message
    assert reply["photo"][-1]["width"] == 60 and reply["caption"] == "Alice to play"
    assert api.calls[-1][1]["_files"]["photo"] == picture  # uploaded, not a URL


async def test_edit_photo_replaces_picture_caption_and_buttons(setup):
    api, messenger, _ = setup
    sent = await messenger.send_photo(GROUP, png(), "round 1", buttons("Go"))
    newer = png(colour=(207, 55, 44))
    await messenger.edit_photo(GROUP, sent, newer, "round 2", buttons("Stop"))
    stored = api.last(GROUP)
    assert stored.photo == newer and stored.text == "round 2" and stored.edits == 1
    assert [b["text"] for b in stored.buttons()] == ["Stop"]
    assert len(api.visible(GROUP)) == 1
    # the very same picture, caption and buttons: Telegram says "not modified", nothing fails
    await messenger.edit_photo(GROUP, sent, newer, "round 2", buttons("Stop"))
    assert api.last(GROUP).edits == 1


async def test_edit_caption_keeps_the_picture(setup):
    api, messenger, _ = setup
    picture = png()
    sent = await messenger.send_photo(GROUP, picture, "Alice to play")
    await messenger.edit_caption(GROUP, sent, "Bob to play", buttons("Go"))
    stored = api.last(GROUP)
    assert stored.photo == picture and stored.text == "Bob to play"
    assert [b["text"] for b in stored.buttons()] == ["Go"]
    await messenger.edit_caption(GROUP, sent, "Bob to play", buttons("Go"))
    assert stored.edits == 1


async def test_a_text_board_can_become_a_picture(setup):
    api, messenger, _ = setup
    text = await messenger.send(GROUP, "the board as text")
    picture = png()
    await messenger.edit_photo(GROUP, text, picture, "the board")
    stored = api.last(GROUP)
    assert stored.message_id == text and stored.photo == picture


async def test_a_picture_falls_back_to_a_new_text_message(setup):
    """Text cannot be edited into a photo message: the text edit sends a new message."""
    api, messenger, _ = setup
    photo = await messenger.send_photo(GROUP, png(), "the board")
    with pytest.raises(MessageKindDiffers):
        await messenger.edit(GROUP, photo, "the board as text")
    message_id = await messenger.edit_or_send(GROUP, photo, "the board as text")
    assert message_id != photo
    assert not api.last(GROUP).is_photo and api.last(GROUP).text == "the board as text"
    assert [m.message_id for m in api.visible(GROUP)] == [message_id]  # the photo gave way
    with pytest.raises(MessageKindDiffers):  # and a text message has no caption to edit
        await messenger.edit_caption(GROUP, message_id, "a caption")


async def test_edit_photo_or_send_sends_anew_when_the_message_is_gone(setup):
    api, messenger, _ = setup
    sent = await messenger.send_photo(GROUP, png(), "the board")
    await messenger.delete(GROUP, sent)
    with pytest.raises(MessageGone):
        await messenger.edit_photo(GROUP, sent, png(), "again")
    message_id = await messenger.edit_photo_or_send(GROUP, sent, png(), "again")
    assert message_id != sent
    assert api.last(GROUP).is_photo and api.last(GROUP).text == "again"
    same = await messenger.edit_photo_or_send(GROUP, message_id, png(colour=(0, 0, 0)), "x")
    assert same == message_id


async def test_photo_calls_wait_out_429_and_report_blocked_players(setup):
    api, messenger, waits = setup
    api.faults.append(Fault("sendPhoto", 429, "Too Many Requests: retry after 5", GROUP, 5))
    await messenger.send_photo(GROUP, png(), "the board")
    assert waits == [5] and api.last(GROUP).is_photo
    sent = api.last(GROUP)
    api.faults.append(Fault("editMessageMedia", 429, "Too Many Requests: retry after 2", GROUP, 2))
    await messenger.edit_photo(GROUP, sent.message_id, png(colour=(1, 2, 3)), "later")
    assert waits == [5, 2] and api.last(GROUP).text == "later"
    api.blocked.add(PLAYER)
    with pytest.raises(Unreachable):
        await messenger.send_photo(PLAYER, png(), "your board")


@pytest.mark.parametrize(
    ("picture", "error"),
    [
        (png(9_995, 500), "photo_invalid_dimensions"),  # width + height over 10,000
        (png(2_100, 100), "photo_invalid_dimensions"),  # longer than 20 times its height
        (b"not a picture", "image_process_failed"),
    ],
)
async def test_the_fake_refuses_what_telegram_refuses(setup, picture, error):
    _, messenger, _ = setup
    with pytest.raises(BadRequest, match=f"(?i){error}"):
        await messenger.send_photo(GROUP, picture, "the board")


async def test_captions_are_limited_to_1024_characters(setup):
    api, messenger, _ = setup
    with pytest.raises(BadRequest, match="caption is too long"):
        await messenger.send_photo(GROUP, png(), "x" * 1025)
    await messenger.send_photo(GROUP, png(), "<b>" + "x" * 1024 + "</b>")  # tags do not count
    assert len(api.last(GROUP).text) == 1024


async def test_photos_through_the_fake_served_over_http():
    """The real process talks to the fake over HTTP: uploads arrive as multipart parts."""
    api = FakeTelegram()
    api.chats[GROUP] = {"id": GROUP, "type": "supergroup", "title": "Table"}
    server = FakeTelegramServer(api)
    server.start()
    bot = Bot("123456:TEST-TOKEN", base_url=f"{server.url}/bot")
    try:
        await bot.initialize()
        messenger = Messenger(bot)
        picture = png()
        sent = await messenger.send_photo(GROUP, picture, "over HTTP", buttons("Go"))
        assert api.last(GROUP).photo == picture
        newer = png(colour=(9, 9, 9))
        await messenger.edit_photo(GROUP, sent, newer, "edited", buttons("Stop"))
        stored = api.last(GROUP)
        assert stored.photo == newer and stored.text == "edited" and stored.edits == 1
        assert [b["text"] for b in stored.buttons()] == ["Stop"]
    finally:
        await bot.shutdown()
        await server.stop()
