"""Languages: groups and players each get theirs; /language changes them."""

from __future__ import annotations

from bot.presentation.i18n import translator
from bot.testing.fake_telegram import plain
from tests.bot.conftest import ALICE, BOB, GIULIA, GROUP, IVAN, OKSANA
from tests.bot.play5211 import card_buttons, prompt


async def test_private_screens_follow_each_players_telegram_language(driver, api):
    await driver.send(IVAN, GROUP, "/new 5211")  # the group takes the creator's language
    for player in (IVAN, OKSANA, GIULIA):
        await driver.press_label(player, GROUP, "✋")
    await driver.press_label(IVAN, GROUP, "▶️")
    for player, lang in ((IVAN, "ru"), (OKSANA, "uk"), (GIULIA, "it")):
        round_line = translator(lang)("5211.board.round", round=1, part=1)
        assert round_line in prompt(driver, player).text
        assert len(card_buttons(prompt(driver, player))) == 5
    assert translator("ru")("5211.board.round", round=1, part=1) in api.last(GROUP).text


async def test_a_player_chooses_their_own_language_in_private(driver, api):
    await driver.send(ALICE, ALICE.id, "/language")
    assert api.last(ALICE.id).text == "Choose your language:"
    await driver.press_label(ALICE, ALICE.id, "Italiano")
    assert api.last(ALICE.id).text == translator("it")("language.private_set")
    await driver.send(ALICE, ALICE.id, "/help")
    assert api.last(ALICE.id).text.startswith(plain(translator("it")("help.text")))


async def test_only_admins_change_the_groups_language(driver, api):
    await driver.send(BOB, GROUP, "/language")
    answer = await driver.press_label(BOB, GROUP, "Українська")
    assert answer == "Only group admins can change the group's language."
    api.admins[GROUP].add(ALICE.id)
    await driver.press_label(ALICE, GROUP, "Українська")
    await driver.send(BOB, GROUP, "/new")
    assert api.last(GROUP).text == translator("uk")("lobby.choose_game")
    # Bob's own private messages stay in his language
    await driver.send(BOB, BOB.id, "/help")
    assert "Games:" in api.last(BOB.id).text
