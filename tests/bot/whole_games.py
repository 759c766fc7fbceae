"""Whole games played through the players' buttons, in a group and in an inline message:
shared by the tests that count a game's calls and read its final message."""

from __future__ import annotations

import random

from bot.presentation.i18n import translator
from bot.table.host import get_host
from bot.table.place import inline_chat_id
from bot.testing.driver import Driver, FakeUser
from tests.bot import play5211, play_azul, play_donkey, play_sultan, play_summer_pavilion
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, GROUP
from tests.bot.helpers import current_match

PAIR = 7_000_002  # two friends' private chat (three friends': a group without the bot)
INLINE_PLAYERS = {
    "5211": [ALICE, BOB],
    "sultan": [ALICE, BOB],
    "donkey": [ALICE, BOB, CAROL],
    "azul": [ALICE, BOB],
    "summer_pavilion": [ALICE, BOB],
}


async def play_whole_game(game: str, driver: Driver, lang: str = "en") -> list[FakeUser]:
    """One whole game, through the players' buttons, in a group that speaks ``lang``;
    returns the players."""
    t = translator(lang)
    await get_host(driver.app).storage.set_chat_lang(GROUP, lang)
    if game == "5211":
        players = [ALICE, BOB, CAROL]
        await play5211.start_game(driver, GROUP, ALICE, players, lang=lang)
        await play5211.play_to_the_end(driver, players)
    elif game == "sultan":
        players = [ALICE, BOB, CAROL]
        await play_sultan.start_game(
            driver, GROUP, ALICE, players, join=t("lobby.join"), start=t("lobby.start")
        )
        await play_sultan.play_to_the_end(driver, GROUP, players, seed=3)
    elif game == "donkey":
        players = [ALICE, BOB, CAROL, DAVE]
        await play_donkey.start_match(driver, ALICE, players, hands=2, lang=lang)
        await play_donkey.play_to_the_end(driver, players, random.Random(2))
    elif game.startswith("azul"):
        grey = game.startswith("azul_grey")
        players = [ALICE, BOB, CAROL] if grey else [ALICE, BOB]
        if game.endswith("_text"):  # the group chose text boards (/pictures)
            await get_host(driver.app).storage.set_chat_pictures(GROUP, False)
        await play_azul.start_match(driver, ALICE, players, grey=grey, lang=lang)
        await play_azul.play_until(driver, players, lambda s: False, seed=3, by_buttons=True)
    else:
        players = [ALICE, BOB]
        if game.endswith("_text"):
            await get_host(driver.app).storage.set_chat_pictures(GROUP, False)
        await play_summer_pavilion.start_match(driver, ALICE, players, lang=lang)
        await play_summer_pavilion.play_until(
            driver, players, lambda s: False, seed=3, by_buttons=True
        )
    assert (await current_match(driver)).status == "finished"
    return players


async def play_whole_inline_game(
    game: str, driver: Driver, lang: str = "en"
) -> tuple[list[FakeUser], str]:
    """One whole game in an inline message whose table speaks ``lang``: the players and the
    message's id."""
    t = translator(lang)
    players = INLINE_PLAYERS[game]
    for player in players:
        await driver.send(player, player.id, "/start")
    chat = inline_chat_id(Driver.chat_instance(PAIR))
    await get_host(driver.app).storage.set_chat_lang(chat, lang)
    answer = await driver.inline_query(ALICE, game)
    inline_id = driver.choose_result(ALICE, PAIR, answer["results"][0])
    # the invitation speaks its creator's language (English); the table opened by the first
    # press, the table's
    for number, player in enumerate(players[1:]):
        join = translator("en" if number == 0 else lang)("lobby.join")
        await driver.press_inline_label(player, inline_id, join)
    await driver.press_inline_label(ALICE, inline_id, t("lobby.start"))
    if game == "5211":
        await play5211.play_to_the_end(driver, players)
    elif game == "sultan":
        await play_sultan.play_to_the_end(driver, chat, players, seed=3)
    elif game == "azul":
        await play_azul.play_until(driver, players, lambda s: False, 3, True, group=chat)
    elif game == "summer_pavilion":
        await play_summer_pavilion.play_until(driver, players, lambda s: False, 3, True, group=chat)
    else:
        rng = random.Random(2)
        while True:
            _match, _seat, user = await play_donkey.acting(driver, players, chat)
            if user is None:
                break
            await play_donkey.random_move(driver, user, rng)
    assert (await current_match(driver, chat)).status == "finished"
    return players, inline_id
