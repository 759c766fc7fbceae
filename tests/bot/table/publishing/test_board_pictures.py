"""Board pictures through the real Application and the fake Bot API: the tile games' group
boards are photos kept up to date by media edits, the player about to decide gets their
own board as a picture with the prompt as its caption, card games stay text, /pictures
switches a group to text and back, and a picture that cannot be drawn or sent never
stalls a match."""

from __future__ import annotations

import logging
import math
import random
import re

import pytest
from telegram import Update

from bot.presentation import pictures
from bot.presentation.i18n import translator
from bot.presentation.ui import get_ui
from bot.storage import storage_for
from bot.table.host import get_host
from bot.table.publishing.board_pictures import names_of
from bot.table.publishing.messages import MAX_CAPTION, fit_caption, plain_length, short_names_of
from bot.telegram_api.callbacks import Callback
from bot.telegram_api.rate_limit import TelegramLimits
from bot.testing.driver import Driver, FakeUser
from bot.testing.fake_telegram import FakeTelegram, Fault, StoredMessage
from games import get_engine
from games.core import encode_action
from tests.bot import play_azul, play_summer_pavilion
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, GROUP, running_bot
from tests.bot.helpers import (
    Play,
    buttons,
    current_match,
    has_choice,
    payload,
    play_by_data,
    press,
    prompt,
)

AZUL = get_engine("azul")
PAVILION = get_engine("summer_pavilion")
PLAYERS = [ALICE, BOB]


@pytest.fixture
def seeded(deal):
    deal(20240611)


def group_photos(api: FakeTelegram, group: int = GROUP) -> list[StoredMessage]:
    return [m for m in api.visible(group) if m.from_bot and m.is_photo]


def photo_board(api: FakeTelegram, group: int = GROUP) -> StoredMessage:
    """The group's board picture: the one photo in the group."""
    (board,) = group_photos(api, group)
    return board


def group_calls(api: FakeTelegram, method: str, group: int = GROUP) -> int:
    return sum(1 for _, called, chat in api.timeline if called == method and chat == group)


def acting_seats(engine, state) -> list[int]:
    return sorted(engine.to_act(state))


async def start(driver: Driver, game: str, options: dict, players=PLAYERS):
    if game == "azul":
        return await play_azul.start_match(driver, ALICE, players, grey=options.get("grey", False))
    return await play_summer_pavilion.start_match(
        driver, ALICE, players, variant1=options.get("v1", False), variant2=options.get("v2", False)
    )


def player_of(game: str) -> Play:
    return (play_azul if game == "azul" else play_summer_pavilion).PLAY


def assert_board_picture_is_the_match(api: FakeTelegram, match, game: str) -> StoredMessage:
    """The board shows the committed match: its picture drawn from the public view, and a
    caption with the round, whose turn and each seat's number, name and score."""
    engine = get_engine(game)
    board = photo_board(api)
    public = engine.view(match.state, None)
    assert board.photo == pictures.render_group(game, public, names=names_of(match))
    t = translator("en")
    assert board.text.startswith(get_ui(game).title(t) + "\n")
    for seat, user in enumerate(PLAYERS):
        assert f"{chr(0x2776 + seat)} " in board.text and user.first_name in board.text
    return board


# -- a match of each tile game -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("azul", {}),
        ("azul", {"grey": True}),
        ("summer_pavilion", {}),
        ("summer_pavilion", {"v1": True, "v2": True}),
    ],
    ids=["azul-coloured", "azul-grey", "pavilion", "pavilion-variants"],
)
async def test_a_tile_game_is_played_on_a_board_picture(driver, api, seeded, game, options):
    engine = get_engine(game)
    match = await start(driver, game, options)
    api.timeline.clear()
    board = assert_board_picture_is_the_match(api, match, game)
    assert board.buttons()  # the link to the private chat rides on the photo
    # the player about to decide sees every board and the supply, the prompt beneath
    (seat,) = acting_seats(engine, match.state)
    mine = prompt(driver, PLAYERS[seat])
    assert mine.is_photo and has_choice(driver, PLAYERS[seat])
    view = engine.view(match.state, seat)
    assert mine.photo == pictures.render_private(game, view, seat, names=names_of(match))
    other = prompt(driver, PLAYERS[1 - seat])
    assert not other.is_photo and not has_choice(driver, PLAYERS[1 - seat])

    # the first round through the keyboards (selection steps edit the caption only), then on
    play = player_of(game)
    rounds = "round"
    await play.play_until(driver, PLAYERS, lambda s: s[rounds] > 1, seed=3, by_buttons=True)
    match = await current_match(driver)
    assert_board_picture_is_the_match(api, match, game)
    assert group_calls(api, "editMessageMedia") > 0  # the board picture is edited in place
    assert group_calls(api, "editMessageText") == 0  # no board went out as text
    assert api.count("editMessageCaption") > 0  # selection steps: no new upload
    if options:  # the variants: into the third round (the end is the same as without)
        await play.play_until(driver, PLAYERS, lambda s: s[rounds] > 2, seed=3)
        assert_board_picture_is_the_match(api, await current_match(driver), game)
        return
    moves = await play.play_until(driver, PLAYERS, lambda s: False, seed=3)
    assert moves > 0
    match = await current_match(driver)
    assert match.status == "finished"
    # the end: one board picture, no buttons, the game over in its caption
    board = assert_board_picture_is_the_match(api, match, game)
    assert not board.buttons()
    over = "azul.board.over" if game == "azul" else "summer_pavilion.board.over"
    assert translator("en")(over) in board.text
    assert api.last(GROUP).text.startswith("🏆")
    for user in PLAYERS:  # waiting, or finished: text
        assert not prompt(driver, user).is_photo


async def test_card_games_keep_their_text_boards(driver, api):
    players = [ALICE, BOB, CAROL]
    for game in ("5211", "sultan", "donkey"):
        await driver.send(ALICE, GROUP, f"/new {game}")
        for player in players:
            await driver.press_label(player, GROUP, "Join")
        await driver.press_label(ALICE, GROUP, "Start")
        engine = get_engine(game)
        rng = random.Random(1)
        for _ in range(6):  # random legal moves, pressed by their callback data
            match = await current_match(driver)
            seat = min(engine.to_act(match.state))
            action = rng.choice(engine.legal_actions(match.state, seat))
            await play_by_data(driver, match, players[seat], action)
            assert (await current_match(driver)).version == match.version + 1
        assert not group_photos(api)
        await driver.send(ALICE, GROUP, "/cancel")
        await driver.press_label(ALICE, GROUP, "Yes, stop it")
    assert api.count("sendPhoto") == api.count("editMessageMedia") == 0


# -- the group's setting -------------------------------------------------------------------------
async def test_pictures_off_shows_the_text_board_and_on_brings_the_picture_back(
    driver, api, seeded
):
    match = await play_azul.start_match(driver, ALICE, PLAYERS)
    picture = photo_board(api)
    (seat,) = acting_seats(AZUL, match.state)
    user = PLAYERS[seat]
    assert prompt(driver, user).is_photo
    # only in a group, only by its admins
    await driver.send(ALICE, ALICE.id, "/pictures")
    assert api.last(ALICE.id).text == (
        "Board pictures are chosen for each group: send /pictures in the group."
    )
    await driver.send(BOB, GROUP, "/pictures")
    assert api.last(GROUP).text.startswith("Azul and Summer Pavilion boards in this group are")
    assert "are pictures. Show them as:" in api.last(GROUP).text
    # the way in use is ticked
    assert [b["text"] for b in api.last(GROUP).buttons()] == ["✅ 🖼 Pictures", "🔤 Text"]
    answer = await driver.press_label(BOB, GROUP, "🔤 Text")
    assert answer == "Only group admins can change how boards are shown."
    assert photo_board(api).message_id == picture.message_id
    # an admin chooses text: the picture gives way to the text board, the prompt to text
    api.admins[GROUP].add(ALICE.id)
    answer = await driver.press_label(ALICE, GROUP, "🔤 Text")
    assert answer == "Boards in this group are now shown as text."
    await driver.settle()
    assert not group_photos(api)
    board = play_azul.board(driver)
    assert "Centre: 🎯 first-player marker" in board.text  # the whole text board
    assert "Boards in this group are now shown as text." in [m.text for m in api.visible(GROUP)]
    mine = prompt(driver, user)
    assert not mine.is_photo and has_choice(driver, user)
    assert not [m for m in api.visible(user.id) if m.is_photo]  # the photo prompt is gone
    replaced = [
        params
        for method, params in api.calls
        if method == "sendMessage" and params.get("chat_id") == user.id
    ][-1]
    assert replaced.get("disable_notification") is True  # no new decision: no ping
    # play goes on in text
    photos = api.count("sendPhoto") + api.count("editMessageMedia")
    await play_azul.PLAY.play_until(driver, PLAYERS, lambda s: s["round"] > 1, seed=5)
    assert api.count("sendPhoto") + api.count("editMessageMedia") == photos
    assert not group_photos(api)
    # and back to pictures
    await driver.send(ALICE, GROUP, "/pictures")
    assert "are text. Show them as:" in api.last(GROUP).text
    assert [b["text"] for b in api.last(GROUP).buttons()] == ["🖼 Pictures", "✅ 🔤 Text"]
    assert await driver.press_label(ALICE, GROUP, "🖼 Pictures") == (
        "Boards in this group are now shown as pictures."
    )
    await driver.settle()
    match = await current_match(driver)
    assert_board_picture_is_the_match(api, match, "azul")
    (seat,) = acting_seats(AZUL, match.state)
    assert prompt(driver, PLAYERS[seat]).is_photo
    # each switch replaced photos by text and back without a call Telegram refuses (a
    # text edit of a photo)
    assert api.refused == []


async def test_the_setting_is_kept_and_follows_a_supergroup_upgrade(database):
    storage = storage_for(database.url, database.path)
    await storage.open()
    assert await storage.chat_pictures(GROUP) is True  # pictures unless a group says no
    await storage.set_chat_pictures(GROUP, False)
    await storage.set_chat_lang(GROUP, "it")
    await storage.close()
    reopened = storage_for(database.url, database.path)
    await reopened.open()
    assert await reopened.chat_pictures(GROUP) is False
    await reopened.move_chat(GROUP, GROUP - 1)
    assert await reopened.chat_pictures(GROUP - 1) is False
    assert await reopened.chat_lang(GROUP - 1) == "it"
    await reopened.close()


async def test_the_setting_in_every_language(driver, api):
    api.admins[GROUP].add(ALICE.id)
    for lang in ("en", "ru", "uk", "it"):
        await get_host(driver.app).storage.set_chat_lang(GROUP, lang)
        t = translator(lang)
        await driver.send(ALICE, GROUP, "/pictures")
        assert api.last(GROUP).text == t("pictures.choose.on")
        assert await driver.press_label(ALICE, GROUP, t("pictures.button.off")) == t(
            "pictures.set.off"
        )
        await driver.send(ALICE, GROUP, "/pictures")
        assert api.last(GROUP).text == t("pictures.choose.off")
        await driver.press_label(ALICE, GROUP, t("pictures.button.on"))


# -- never a stalled match ------------------------------------------------------------------------
async def test_drawing_that_raises_falls_back_to_text_and_the_match_goes_on(
    driver, api, seeded, monkeypatch, caplog
):
    def broken(*args, **kwargs):
        raise RuntimeError("the pen ran dry")

    monkeypatch.setattr(pictures, "render_group", broken)
    monkeypatch.setattr(pictures, "render_private", broken)
    caplog.set_level(logging.ERROR, logger="bot.table.publishing.board_pictures")
    match = await play_azul.start_match(driver, ALICE, PLAYERS)
    assert not group_photos(api)
    assert "Centre: 🎯 first-player marker" in play_azul.board(driver).text
    (seat,) = acting_seats(AZUL, match.state)
    assert not prompt(driver, PLAYERS[seat]).is_photo and has_choice(driver, PLAYERS[seat])
    assert "the pen ran dry" in caplog.text
    await play_azul.PLAY.play_until(driver, PLAYERS, lambda s: s["round"] > 1, seed=4)
    assert (await current_match(driver)).state["round"] == 2
    assert api.count("sendPhoto") == 0
    # drawing works again: the next move brings the picture back
    monkeypatch.undo()
    await play_azul.PLAY.play_move(driver, PLAYERS, random.Random(4))
    match = await current_match(driver)
    assert_board_picture_is_the_match(api, match, "azul")
    assert [m for m in api.visible(GROUP) if m.text.startswith("Azul\n")] == [photo_board(api)]


async def test_a_picture_telegram_refuses_gives_the_text_board(driver, api, seeded, caplog):
    api.faults.append(
        Fault("sendPhoto", 400, "Bad Request: IMAGE_PROCESS_FAILED", chat_id=GROUP, times=50)
    )
    caplog.set_level(logging.ERROR, logger="bot.table.publishing.publisher")
    await play_azul.start_match(driver, ALICE, PLAYERS)
    assert not group_photos(api)
    assert "Centre: 🎯 first-player marker" in play_azul.board(driver).text
    assert "the board picture was refused" in caplog.text
    await play_azul.PLAY.play_until(driver, PLAYERS, lambda s: s["round"] > 1, seed=4)
    assert (await current_match(driver)).state["round"] == 2


# -- captions -------------------------------------------------------------------------------------
LONGEST_NAME = 129  # Telegram: a first name and a last name of up to 64 characters each


@pytest.mark.parametrize("game", ["azul", "summer_pavilion"])
def test_captions_of_four_players_with_the_longest_names_fit_in_every_language(game):
    """Every position of seeded four-player games, in every language: the caption fits
    without dropping a line."""
    engine = get_engine(game)
    ui = get_ui(game)

    class Seat:
        def __init__(self, seat: int) -> None:
            self.name = f"{'Щ' * 40}&<{seat}>" + "x" * (LONGEST_NAME - 44)

    class Match:
        def __init__(self) -> None:
            self.seats = [Seat(seat) for seat in range(4)]

    names = short_names_of(Match())
    longest = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = engine.new_game(4, {}, seed)
        while True:
            public = engine.view(state, None)
            for lang in ("en", "ru", "uk", "it"):
                caption = ui.caption(translator(lang), public, names)
                longest = max(longest, plain_length(caption))
                assert fit_caption(caption) == caption
            if engine.is_over(state):
                break
            seat = rng.choice(sorted(engine.to_act(state)))
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    assert 0 < longest <= MAX_CAPTION


def test_a_caption_over_the_limit_loses_its_last_lines():
    lines = ["<b>Azul</b>", "Round 2", "x" * 600, "<i>" + "y" * 500 + "</i>", "last"]
    fitted = fit_caption("\n".join(lines))
    assert fitted == "\n".join(lines[:3])
    assert plain_length("a &amp; <b>b</b>") == len("a & b")
    assert plain_length("🎲 x") == 4  # UTF-16: the die counts twice


async def test_four_players_with_the_longest_names_keep_a_board_picture(api, database, seeded):
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        players = [
            FakeUser(user.id, (user.first_name * 50)[:LONGEST_NAME], "it")
            for user in (ALICE, BOB, CAROL, DAVE)
        ]
        await get_host(driver.app).storage.set_chat_lang(GROUP, "it")
        await play_azul.start_match(driver, players[0], players, lang="it")
        await play_azul.PLAY.play_until(driver, players, lambda s: s["round"] > 1, seed=2)
        board = photo_board(api)
        assert board.text.startswith("Azul\n") and len(board.text) <= MAX_CAPTION
        assert ("Alice" * 7)[:31] + "…" in board.text


async def test_a_prompt_too_long_for_a_caption_stays_text(api, database, seeded):
    """The prompt's header names the group; Telegram's titles are shorter, but names and a
    title near their longest add up the same way. The caption under a picture leaves the
    board out, so only a prompt whose other lines are too long stays text."""
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night " + "🎲" * 500)
        match = await play_azul.start_match(driver, ALICE, PLAYERS)
        assert photo_board(api)
        (seat,) = acting_seats(AZUL, match.state)
        mine = prompt(driver, PLAYERS[seat])
        assert not mine.is_photo and has_choice(driver, PLAYERS[seat])
        assert plain_length(mine.text) > MAX_CAPTION and "🎲" * 500 in mine.text


# -- the message budget --------------------------------------------------------------------------
async def test_fast_play_coalesces_picture_edits_within_the_group_budget(api, database, seeded):
    window = 1.0  # Telegram's minute, shrunk
    limits = TelegramLimits(window=window, margin=0.05)
    players = [ALICE, BOB, CAROL, DAVE]
    async with running_bot(api, database, limits, rate_limit=True) as driver:
        driver.group(GROUP, "Game Night")
        match = await play_azul.start_match(driver, ALICE, players)
        api.timeline.clear()
        host = get_host(driver.app)
        rng = random.Random(7)
        for _ in range(60):  # presses as fast as the bot takes them, drawing in between
            match = await host.storage.load(match.id)
            if match.state["round"] > 2:
                break
            seat = min(AZUL.to_act(match.state))
            action = play_azul.choose(match.state, seat, rng)
            data = Callback("a", match.id, match.seats[seat].token, encode_action(action))
            update = driver.press_update(players[seat], players[seat].id, 1, data.encode())
            await driver.app.process_update(Update.de_json(update, driver.app.bot))
        await driver.settle()
        match = await host.storage.load(match.id)
    moves = match.version - 1
    assert api.peak_group_calls_per_minute(window=window) <= 19
    media_edits = group_calls(api, "editMessageMedia") + group_calls(api, "sendPhoto")
    assert 0 < media_edits < moves  # coalesced: the latest picture, not every one
    board = photo_board(api)
    public = AZUL.view(match.state, None)
    assert board.photo == pictures.render_group("azul", public, names=names_of(match))
    assert match.published == match.version


# -- the prompt: every board, one phone screen ----------------------------------------------------
# A phone shows a photo across the chat, about 400 px wide, and about 720 px of a chat at once
# (a 6.1" phone: 915 px less the status bar, the chat's title and its input line). A caption
# line holds about 42 characters of Telegram's 16 px text, 21 px high; a button row is 46 px.
PHONE_WIDTH = 400
PHONE_SCREEN = 720
CAPTION_CHARS = 42
CAPTION_LINE = 21
BUTTON_ROW = 46
BUBBLE = 24  # the message's padding around the caption and between it and the buttons


def on_a_phone(message: StoredMessage) -> float:
    """How tall a photo prompt is on a phone: the picture scaled to the chat's width, the
    caption's lines (long ones wrapped), the button rows."""
    width, height = message.photo_size
    caption = re.sub(r"<[^>]+>", "", message.text)
    lines = sum(max(1, math.ceil(len(line) / CAPTION_CHARS)) for line in caption.split("\n"))
    rows = len(message.markup["inline_keyboard"]) if message.markup else 0
    return height * PHONE_WIDTH / width + lines * CAPTION_LINE + rows * BUTTON_ROW + BUBBLE


@pytest.mark.parametrize("game", ["azul", "summer_pavilion"])
async def test_every_step_of_a_take_shows_every_board_on_one_phone_screen(
    driver, api, seeded, game
):
    """Four players: at each step of a take the prompt is one photo — the supply and every
    player's board, the reader's in full, with every name — a caption of a few lines
    without the emoji board, and the buttons, together within a phone's screen."""
    players = [ALICE, BOB, CAROL, DAVE]
    match = await start(driver, game, {}, players)
    engine = get_engine(game)
    (seat,) = acting_seats(engine, match.state)
    user = players[seat]
    view = engine.view(match.state, seat)
    expected = pictures.render_private(game, view, seat, names=names_of(match))
    module = pictures._module(game)
    layout = module.private_layout(view, seat)
    assert sorted(layout.boards) == [0, 1, 2, 3]  # every board in the picture
    steps = 0
    while True:
        message = prompt(driver, user)
        assert message.is_photo and message.photo == expected
        assert message.photo_size == layout.size
        caption = message.text
        assert len([line for line in caption.split("\n") if line]) <= 8, caption
        own = [line for line in own_board_lines(game, view, seat) if line in caption]
        assert not own, own  # the board is in the picture, not again in emoji
        assert on_a_phone(message) <= PHONE_SCREEN, (steps, on_a_phone(message), caption)
        steps += 1
        moves = buttons(message, "a")
        if moves:
            break
        step = next(b for b in buttons(message, "d") if payload(b) != "b")
        assert await press(driver, user, message, step) is None
    assert steps >= 2
    await press(driver, user, prompt(driver, user), moves[0])
    assert (await current_match(driver)).version == match.version + 1


def own_board_lines(game: str, view, seat: int) -> list[str]:
    """The lines of the text prompt that draw the player's own board in emoji."""
    ui = get_ui(game)
    lines = ui._own_lines(translator("en"), view, seat)
    return [line for line in lines[1:] if line.strip()]


async def test_the_prompt_shows_its_text_board_only_without_a_picture(
    driver, api, seeded, monkeypatch
):
    """The caption under the picture leaves the board to it; with pictures off (or a
    picture that cannot be drawn) the prompt is text with the emoji board."""
    match = await play_azul.start_match(driver, ALICE, PLAYERS)
    (seat,) = acting_seats(AZUL, match.state)
    user = PLAYERS[seat]
    board = own_board_lines("azul", AZUL.view(match.state, seat), seat)
    mine = prompt(driver, user)
    assert mine.is_photo and not [line for line in board if line in mine.text]
    api.admins[GROUP].add(ALICE.id)
    await driver.send(ALICE, GROUP, "/pictures")
    await driver.press_label(ALICE, GROUP, "🔤 Text")
    await driver.settle()
    mine = prompt(driver, user)
    assert not mine.is_photo and all(line in mine.text for line in board)

    def broken(*args, **kwargs):
        raise RuntimeError("no picture")

    monkeypatch.setattr(pictures, "render_private", broken)
    monkeypatch.setattr(get_host(driver.app).publisher.pictures, "cache", pictures.PictureCache())
    await driver.send(ALICE, GROUP, "/pictures")
    await driver.press_label(ALICE, GROUP, "🖼 Pictures")
    await driver.settle()
    assert photo_board(api)  # the group's picture is back, the prompt's cannot be drawn
    mine = prompt(driver, user)
    assert not mine.is_photo and all(line in mine.text for line in board)
