"""What happened since my turn, as players meet it through the fake Bot API: a new prompt
opens with the others' moves since the player's previous turn, the group board lists every
move since the player to act last moved (a bot's move, made a second after the one before
it, stays in view), and secret choices (Sultan's bid cards, 5211's cards) never show."""

from __future__ import annotations

from bot.presentation.i18n import translator
from bot.presentation.ui.donkey import cards_text
from games import get_engine
from games.azul.engine import FLOOR_LINE
from tests.bot.conftest import ALICE, BOB, CAROL, GIULIA, GROUP, IVAN
from tests.bot.helpers import current_match, latest, play_by_data, prompt

AZUL = get_engine("azul")
PAVILION = get_engine("summer_pavilion")
SULTAN = get_engine("sultan")
GEMS = ("⚪ white gem", "🔴 red gem", "🟡 yellow gem", "🟢 green gem", "🔵 blue gem")
AZUL_EMOJI = ("🟦", "🟨", "🟥", "⬛", "⬜")
PAVILION_EMOJI = ("🟪", "🟩", "🟧", "🟨", "🟦", "🟥")
SINCE = {
    "en": "↪️ Since your turn:",
    "ru": "↪️ С твоего прошлого хода:",
    "it": "↪️ Dal tuo ultimo turno:",
}
AZUL_TAKE = {"en": "F{source} {tiles} → line {line}", "ru": "Ф{source} {tiles} → линия {line}"}


def since_block(text: str) -> list[str]:
    """The lines under the prompt's "since your turn" heading, up to the blank line."""
    for heading in SINCE.values():
        if heading in text:
            return text.split(heading + "\n", 1)[1].split("\n\n", 1)[0].splitlines()
    return []


def board_moves(text: str) -> list[str]:
    """The lines under the board's "Latest moves" heading, up to the blank line."""
    if "↪️ Latest moves:\n" not in text:
        return []
    return text.split("↪️ Latest moves:\n", 1)[1].split("\n\n", 1)[0].splitlines()


def gem(colour: int) -> str:
    return GEMS[colour]


def azul_factory_take(state: dict, seat: int) -> tuple[int, int, int]:
    """A take from a factory onto the fifth line: it always fits, nothing to the floor."""
    return next(
        action
        for action in AZUL.legal_actions(state, seat)
        if action[0] < len(state["factories"]) and action[2] == 4
    )


def azul_line(event: dict, lang: str) -> str:
    tiles = f"{AZUL_EMOJI[event['colour']]}×{event['count']}"
    line = AZUL_TAKE[lang].format(source=event["source"] + 1, tiles=tiles, line=event["line"] + 1)
    return line


# -- Azul ------------------------------------------------------------------------------------
async def test_the_azul_prompt_names_the_takes_of_everyone_who_moved_since_my_turn(
    driver, api, deal
):
    deal(5)  # Alice starts, then Bob, then Ivan (who reads Russian)
    players = [ALICE, BOB, IVAN]
    for player in players:
        await driver.send(player, player.id, "/start")
    await driver.send(ALICE, GROUP, "/new azul")
    for player in players:
        await driver.press_label(player, GROUP, translator("en")("lobby.join"))
    await driver.press_label(ALICE, GROUP, translator("en")("lobby.start"))
    match = await current_match(driver)
    assert sorted(AZUL.to_act(match.state)) == [0]
    assert since_block(prompt(driver, ALICE).text) == []  # nobody moved yet

    for user in (ALICE, BOB):
        match = await current_match(driver)
        seat = match.seat_of(user.id).seat
        await play_by_data(driver, match, user, azul_factory_take(match.state, seat))
    match = await current_match(driver)
    alice_take, bob_take = [e for e in match.state["log"] if e["type"] == "draft"]
    # Ivan's new prompt opens with both takes, in his language, in the order they came
    text = prompt(driver, IVAN).text
    assert text.splitlines()[1] == SINCE["ru"], text
    assert since_block(text) == [
        f"Alice: {azul_line(alice_take, 'ru')}",
        f"Bob: {azul_line(bob_take, 'ru')}",
    ], text
    # the board shows both as well, not only Bob's
    board = latest(driver, GROUP, "Azul").text
    assert board_moves(board) == [
        f"Alice: {azul_line(alice_take, 'en')}",
        f"Bob: {azul_line(bob_take, 'en')}",
    ], board

    await play_by_data(driver, match, IVAN, azul_factory_take(match.state, 2))
    match = await current_match(driver)
    ivan_take = [e for e in match.state["log"] if e["type"] == "draft"][-1]
    # Alice's next decision: Bob's and Ivan's takes, never her own
    expected = [f"Bob: {azul_line(bob_take, 'en')}", f"Иван: {azul_line(ivan_take, 'en')}"]
    text = prompt(driver, ALICE).text
    assert since_block(text) == expected, text
    assert board_moves(latest(driver, GROUP, "Azul").text) == expected
    # a player who waits reads the turn line, not a story of moves
    assert since_block(prompt(driver, BOB).text) == []


async def test_bots_moves_stay_named_until_the_player_to_act_moves(driver, api, deal):
    deal(5)
    await driver.send(ALICE, ALICE.id, "/start")
    await driver.send(ALICE, GROUP, "/new azul")
    await driver.press_label(ALICE, GROUP, translator("en")("lobby.join"))
    await driver.press_label(ALICE, GROUP, "➕🤖 Normal")
    await driver.press_label(ALICE, GROUP, "➕🤖 Hard")
    await driver.press_label(ALICE, GROUP, translator("en")("lobby.start"))
    match = await current_match(driver)
    assert [seat.name for seat in match.seats] == ["Alice", "🤖 Normal Bot", "🤖 Hard Bot"]
    assert sorted(AZUL.to_act(match.state)) == [0]

    await play_by_data(driver, match, ALICE, azul_factory_take(match.state, 0))
    match = await current_match(driver)
    assert sorted(AZUL.to_act(match.state)) == [0], "the bots moved at once"
    drafts = [e for e in match.state["log"] if e["type"] == "draft"]
    assert [e["seat"] for e in drafts] == [0, 1, 2]
    names = ["", "🤖 Normal Bot", "🤖 Hard Bot"]
    board = latest(driver, GROUP, "Azul").text
    shown = board_moves(board)
    # both bots' takes are on the board, the first one too, each with its own name
    assert [line.split(": ", 1)[0] for line in shown] == names[1:], board
    text = prompt(driver, ALICE).text
    assert [line.split(": ", 1)[0] for line in since_block(text)] == names[1:], text
    for event, line in zip(drafts[1:], since_block(text), strict=True):
        source = "centre" if event["centre"] else f"F{event['source'] + 1}"
        assert f"{source} {AZUL_EMOJI[event['colour']]}×{event['count']}" in line, text
        target = "floor" if event["line"] == FLOOR_LINE else f"line {event['line'] + 1}"
        assert target in line, text


# -- Summer Pavilion -------------------------------------------------------------------------
async def test_the_summer_pavilion_prompt_names_the_takes_since_my_turn(driver, api, deal):
    deal(4)  # Alice starts, then Bob, then Giulia (who reads Italian)
    players = [ALICE, BOB, GIULIA]
    for player in players:
        await driver.send(player, player.id, "/start")
    await driver.send(ALICE, GROUP, "/new summer_pavilion")
    for player in players:
        await driver.press_label(player, GROUP, translator("en")("lobby.join"))
    await driver.press_label(ALICE, GROUP, translator("en")("lobby.start"))
    match = await current_match(driver)
    assert sorted(PAVILION.to_act(match.state)) == [0]

    async def take_from_a_factory(user) -> dict:
        match = await current_match(driver)
        seat = match.seat_of(user.id).seat
        factory_takes = [a for a in PAVILION.legal_actions(match.state, seat) if a[1] > 0]
        await play_by_data(driver, match, user, factory_takes[0])
        return (await current_match(driver)).state["log"][-1]

    alice_take, bob_take = [await take_from_a_factory(user) for user in (ALICE, BOB)]
    match = await current_match(driver)
    wild = PAVILION_EMOJI[PAVILION.view(match.state, None)["wild"]]

    def took(event: dict, lang: str) -> str:
        tiles = f"{PAVILION_EMOJI[event['colour']]}×{event['count']}"
        tiles += f" + {wild}" if event["wild"] else ""
        if lang == "it":
            return f"prende {tiles} (espositore {event['source']})"
        return f"took {tiles} from factory {event['source']}"

    text = prompt(driver, GIULIA).text
    assert text.splitlines()[1] == SINCE["it"], text
    assert since_block(text) == [
        f"Alice: {took(alice_take, 'it')}",
        f"Bob: {took(bob_take, 'it')}",
    ], text
    board = latest(driver, GROUP, "Azul Mini").text
    assert board_moves(board) == [
        f"Alice: {took(alice_take, 'en')}",
        f"Bob: {took(bob_take, 'en')}",
    ], board

    giulia_take = await take_from_a_factory(GIULIA)
    expected = [f"Bob: {took(bob_take, 'en')}", f"Giulia: {took(giulia_take, 'en')}"]
    text = prompt(driver, ALICE).text
    assert since_block(text) == expected, text
    assert board_moves(latest(driver, GROUP, "Azul Mini").text) == expected


# -- secrets ---------------------------------------------------------------------------------
async def test_sultan_tells_the_cushions_bid_on_never_the_cards(driver, api, deal):
    deal(5)  # Alice returns a gem and bids first, then Bob, then Carol
    players = [ALICE, BOB, CAROL]
    for player in players:
        await driver.send(player, player.id, "/start")
    await driver.send(ALICE, GROUP, "/new sultan")
    for player in players:
        await driver.press_label(player, GROUP, translator("en")("lobby.join"))
    await driver.press_label(ALICE, GROUP, translator("en")("lobby.start"))
    for _ in range(3):  # the gem back to the bag, Alice's bid, Bob's bid
        match = await current_match(driver)
        (seat,) = SULTAN.to_act(match.state)
        action = SULTAN.legal_actions(match.state, seat)[-1]  # the highest card there is
        await play_by_data(driver, match, players[seat], action)
    match = await current_match(driver)
    assert sorted(SULTAN.to_act(match.state)) == [2]
    returned = next(e for e in match.state["log"] if e["type"] == "gem_returned")
    alice_bid, bob_bid = [e for e in match.state["log"] if e["type"] == "bid"]

    def bid(event: dict) -> str:
        colour = match.state["cushions"][event["cushion"]]
        return f"a bid on cushion {event['cushion'] + 1} ({gem(colour)})"

    # Carol learns where the others bid (Alice's gem back and her bid are one turn); the
    # cards under the bids stay secret: the lines hold nothing else
    text = prompt(driver, CAROL).text
    assert since_block(text) == [
        f"Alice: {gem(returned['gem'])} back to the bag · {bid(alice_bid)}",
        f"Bob: {bid(bob_bid)}",
    ], text


async def test_5211_tells_no_story_of_the_secret_cards(driver, api):
    """A guard: in 5211 everyone chooses at once and in secret, so nobody moves between
    one's decisions, and the cards chosen never reach another player's prompt."""
    players = [ALICE, BOB, CAROL]
    for player in players:
        await driver.send(player, player.id, "/start")
    await driver.send(ALICE, GROUP, "/new 5211")
    for player in players:
        await driver.press_label(player, GROUP, translator("en")("lobby.join"))
    await driver.press_label(ALICE, GROUP, translator("en")("lobby.start"))
    match = await current_match(driver)
    engine = get_engine("5211")
    await play_by_data(driver, match, ALICE, engine.legal_actions(match.state, 0)[0])
    for user in (BOB, CAROL):
        text = prompt(driver, user).text
        assert "Since your turn" not in text and "Alice:" not in text, text
    assert "Latest moves" not in latest(driver, GROUP, "5211").text


# -- Who's the Donkey? -----------------------------------------------------------------------
async def test_the_donkey_prompt_names_the_plays_and_passes_since_my_turn(driver, api, deal):
    deal(1)  # Alice leads, then Bob, then Carol
    players = [ALICE, BOB, CAROL]
    for player in players:
        await driver.send(player, player.id, "/start")
    await driver.send(ALICE, GROUP, "/new donkey")
    for player in players:
        await driver.press_label(player, GROUP, translator("en")("lobby.join"))
    await driver.press_label(ALICE, GROUP, translator("en")("lobby.start"))
    engine = get_engine("donkey")
    for user in (ALICE, BOB):  # Alice leads her lowest card, Bob passes (his first choice)
        match = await current_match(driver)
        seat = match.seat_of(user.id).seat
        assert sorted(engine.to_act(match.state)) == [seat]
        await play_by_data(driver, match, user, engine.legal_actions(match.state, seat)[0])
    match = await current_match(driver)
    assert sorted(engine.to_act(match.state)) == [2]
    lead, answer = [e for e in match.state["log"] if e["type"] in ("play", "pass")]
    assert answer["type"] == "pass"
    text = prompt(driver, CAROL).text
    assert since_block(text) == [f"Alice: {cards_text(lead['cards'])}", "Bob: pass"], text
