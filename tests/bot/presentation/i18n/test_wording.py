"""Words that sound native: every count agrees with its noun through the catalogues' plural
forms, Russian and Ukrainian speak to the player with the informal "you" and never guess a
gender, and the rulebooks' own terms are used.

Counts are found by placeholder name: every placeholder in the catalogues is classified
below (a count, a number that labels something, or text), so a new placeholder cannot slip
past these checks unclassified. A count shown with a noun must come from a plural message
(``t.plural``), where ``{n}`` is the count; any other count stands alone ("Σ 12", "−3",
"(maximum: 5)"), never right before a word.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from bot.presentation.i18n import FALLBACK, LANGUAGES, Translator, translator
from bot.presentation.ui import get_ui, playable_games
from bot.presentation.ui.base import Names
from games import get_engine
from tests.bot.presentation.i18n.test_catalogues import DOMAINS, PLACEHOLDER, forms, messages

ROOT = Path(__file__).resolve().parents[4]

# numbers of things: they must agree with a noun, so a noun never follows them directly
COUNTS = {
    "n", "count", "points", "penalty", "total", "before", "filled", "size", "threshold",
    "roosters", "worth", "rows", "columns", "full_colours", "row_points", "column_points",
    "colour_points", "bonus", "corners", "bag", "lid", "hands", "rounds", "circles", "min",
    "max", "cost", "target",
    # the operator's /status and /drain: each after a colon, on a line of its own
    "running", "lobbies", "groups", "ai", "hints", "errors", "processes",
    "waiting",  # /status with several workers: the shared inbox's updates not yet handled
    "started", "finished",  # /status: the tutorials begun and finished, before an arrow
}  # fmt: skip
# numbers that name something (round 3, line 2, card value 7): no agreement needed
LABELS = {
    "round",
    "circle",
    "hand",
    "line",
    "row",
    "column",
    "space",
    "game_no",
    "part",
    "number",
    "value",
    "average",  # records: a mean score, a best score, a win rate, a rating, a place, a match
    "best",
    "rate",
    "rating",
    "start",  # where every rating starts (1500)
    "place",
    "table_place",  # an elimination row's place at its table
    "id",
    "megabytes",  # a measure with its unit's symbol ("12.5 MB"): no agreement
}
TEXT = {
    "name", "names", "tiles", "cards", "gem", "gems", "tile", "source", "wild", "first", "star",
    "move", "marker", "game", "colours", "bids", "where", "title", "games", "gain", "detail",
    "colour", "wall", "totals", "table", "stars", "scores", "players", "numbers", "group",
    "command", "bot", "limit", "leader", "score", "left", "led", "plays", "structures",
    "example", "values", "by", "waited", "date",
    # tournaments: a podium's medal, why a timed start failed, when it starts; a season's months
    "medal", "why", "when", "season",
    # tournaments: the tie-breaks' names and their order, a row's tie-break values, bot tables
    "second", "third", "order", "ties", "measures", "tables",
    # the operator's /status
    "version", "uptime", "backend", "database", "lock", "draining", "playing", "memory",
}  # fmt: skip
# A language's plural form for each count the test renders (CLDR: Russian and Ukrainian
# "one" 1, 21…; "few" 2–4, 22…; "many" 5–20, 11…; English and Italian: 1, then the rest).
EXPECTED_FORM = {
    "en": {1: 0, 2: 1, 5: 1, 11: 1, 21: 1},
    "it": {1: 0, 2: 1, 5: 1, 11: 1, 21: 1},
    "ru": {1: 0, 2: 1, 5: 2, 11: 2, 21: 0},
    "uk": {1: 0, 2: 1, 5: 2, 11: 2, 21: 0},
}
COUNT_THEN_WORD = r"{%s}\s*[^\W\d_]"  # "{count} cards": a letter right after the number


def catalogue(lang: str) -> dict:
    merged: dict = {}
    for domain in DOMAINS:
        merged.update(messages(lang, domain))
    return merged


def is_plural(message) -> bool:
    return isinstance(message.id, tuple)


def placeholders(message) -> set[str]:
    return {name for text in forms(message) for name in PLACEHOLDER.findall(text)}


def test_every_placeholder_is_classified_once():
    assert not (COUNTS & LABELS) and not (COUNTS & TEXT) and not (LABELS & TEXT)
    used = set()
    for message in catalogue(FALLBACK).values():
        used |= placeholders(message)
    assert sorted(used - COUNTS - LABELS - TEXT) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_count_never_meets_a_noun_outside_a_plural_message(lang):
    for key, message in catalogue(lang).items():
        names = placeholders(message)
        if not is_plural(message):
            assert "n" not in names, f"{lang}: {key} uses {{n}} outside a plural message"
        for name in names & COUNTS:
            if is_plural(message) and name == "n":
                continue  # the plural forms agree with {n}
            for text in forms(message):
                assert not re.search(COUNT_THEN_WORD % name, text), (
                    f"{lang}: {key} puts a word right after {{{name}}}: make it a plural message"
                )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_count_message_renders_the_form_its_number_needs(lang):
    t = translator(lang)
    plural_messages = {k: m for k, m in catalogue(lang).items() if is_plural(m)}
    assert len(plural_messages) >= 40
    for key, message in plural_messages.items():
        texts = forms(message)
        values = {name: f"<{name}>" for name in placeholders(message) - {"n"}}
        for n, index in EXPECTED_FORM[lang].items():
            rendered = t.plural(key, n, **values)
            assert rendered == texts[index].format(n=n, **values), (lang, key, n)
            if "{n}" in texts[index]:
                assert str(n) in rendered
        if any("{n}" in text for text in texts):
            # the language's forms differ where its grammar does: 1 card, 2 cards
            assert texts[0] != texts[1], f"{lang}: {key} has the same word for 1 and 2"


def code_calls() -> list[tuple[str, str, str]]:
    """(file, function, key) of every ``t("key", ...)`` and ``t.plural("key", n, ...)`` call
    under bot/ whose key is written out."""
    calls = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            first = node.args[0]
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                continue
            if isinstance(node.func, ast.Name) and node.func.id == "t":
                calls.append((path.name, "t", first.value))
            elif isinstance(node.func, ast.Attribute) and node.func.attr == "plural":
                calls.append((path.name, "plural", first.value))
    return calls


def test_the_code_asks_for_plural_messages_with_t_plural_and_only_for_them():
    english = catalogue(FALLBACK)
    calls = code_calls()
    assert any(function == "plural" for _file, function, _key in calls)
    for file, function, key in calls:
        if key not in english:
            continue  # a missing key is test_catalogues' business
        wanted = "plural" if is_plural(english[key]) else "t"
        assert function == wanted, f"{file}: {key} is called with {function}()"


def test_no_count_reaches_a_message_as_a_preformatted_number_and_noun():
    """A plural phrase passed on into another message travels under a TEXT name, so the
    checks above see through it: ``score=t.plural("azul.points", 12)``."""
    for path in sorted((ROOT / "bot" / "ui").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.keyword) and isinstance(node.value, ast.Call):
                call = node.value
                if isinstance(call.func, ast.Attribute) and call.func.attr == "plural":
                    assert node.arg not in COUNTS, f"{path.name}: {node.arg}=t.plural(...)"


# -- the register and no gendered guesses ------------------------------------------------------
FORMAL = {
    "ru": re.compile(r"\b(?:[Вв]ы|[Вв]аш\w*|[Вв]ам|[Вв]ас|[Вв]ами|\w+(?:ите|йте))\b"),
    "uk": re.compile(r"\b(?:[Вв]и|[Вв]аш\w*|[Вв]ам|[Вв]ас|[Вв]ами|\w+(?:іть|йте|ьте))\b"),
}
NOT_FORMAL = {"навіть"}  # "even": ends like an imperative
GENDER_GUESSES = [
    re.compile(r"\w\((?:а|ла|в|ла|на|ая)\)"),  # сыграл(а), зіграв(ла)
    re.compile(r"\bза (?:него|нее|неё|нього|неї)\b"),  # "for him" about a player
    re.compile(r"\b(?:играть|грати|ходить|ходити) сам(?:ому|ой|ій)\b"),
    re.compile(r"\b(?:[Тт]ы|[Тт]и|[Яя])\s+(?:уже\s+)?\w+(?:л|ла|в)\b"),  # ты взял, я зробив
    re.compile(r"\{names?\}\s+\w+(?:л|ла|в)\b"),  # "{name} взял"
    re.compile(r"\b\w+(?:ал|ял|ил|ел|ав|яв|ив|ів)\s+(?:бы\s+)?\{names?\}"),  # "выиграл {name}"
    re.compile(r"\bпервым\s+\{name\}|\{name\}\s+(?:ходит|ходить)\s+першим"),
]


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_russian_and_ukrainian_say_ty_to_everyone(lang):
    for key, message in catalogue(lang).items():
        for text in forms(message):
            formal = set(FORMAL[lang].findall(text)) - NOT_FORMAL
            assert not formal, f"{lang}: {key} is formal: {sorted(formal)}"


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_no_message_guesses_a_gender(lang):
    for key, message in catalogue(lang).items():
        for text in forms(message):
            for pattern in GENDER_GUESSES:
                found = pattern.search(text)
                assert not found, f"{lang}: {key} guesses a gender: {found.group(0)!r}"


def test_italian_buttons_and_greetings_need_no_gender():
    t = translator("it")
    for key in ("timer.back_button", "timer.welcome_back", "timer.back"):
        assert not re.search(r"\b(?:tornat[oa]|Bentornat[oa])\b", t(key, name="X")), key


# -- the rulebooks' own terms -----------------------------------------------------------------
def test_the_summer_pavilion_in_ukrainian_sends_used_tiles_to_the_box():
    """The Ukrainian rulebook: used tiles go to the "бокс", the factories are "вітрини", the
    corner tiles lie "у кутах" of the board."""
    texts = " ".join(" ".join(forms(m)) for m in messages("uk", "summer_pavilion").values())
    assert "бокс" in texts and "вітрин" in texts and "у кутах" in texts
    assert not re.search(r"\bвеж\w*|\bкутк\w*|\bмішк\w*", texts)


def test_italian_azul_speaks_the_rulebook_s_words():
    texts = " ".join(" ".join(forms(m)) for m in messages("it", "azul").values())
    for term in ("segnalino giocatore iniziale", "linea del motivo", "linea del pavimento"):
        assert term in texts
    assert "tabellone" in texts and "plancia" not in texts
    assert "segnalino primo giocatore" not in texts


@pytest.mark.parametrize(
    ("domain", "terms", "foreign"),
    [
        ("sultan", ("мешоч", "подушк", "карт денег", "ширм", "первый игрок"), r"\bжетон"),
        ("donkey", ("карточ", "Осёл", "Осла", "круг", "партия", "пас"), r"\bкарт[аыуе]\b"),
        ("5211", ("петушк", "общая стопка", "преобладающий цвет"), r"\bкарт[аыуе]\b"),
    ],
)
def test_russian_games_use_their_rulebooks_terms(domain, terms, foreign):
    texts = " ".join(" ".join(forms(m)) for m in messages("ru", domain).values())
    for term in terms:
        assert term in texts, f"{domain}: {term}"
    assert not re.search(foreign, texts)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_joining_and_missing_chats_speak_of_no_cards(lang):
    """The tile games have no cards: the join message and the "open the chat" warning are
    worded for every game."""
    t = translator(lang)
    for text in (t("lobby.joined", game="G", group="Q"), t("play.unreachable", name="N", bot="B")):
        assert not re.search(r"(?i)\bcard|\bкарт|\bcart[ae]\b", text), text


# -- /rules in short, and lobby labels that fit a phone ----------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", playable_games())
def test_every_game_has_a_summary_of_three_to_five_lines(game, lang):
    t = translator(lang)
    ui = get_ui(game)
    summary = ui.summary(t)
    lines = summary.splitlines()
    assert 3 <= len(lines) <= 5 and all(line.strip() for line in lines)
    assert len(summary) <= 700 and len(summary) * 3 < len(ui.rules(t))
    assert summary != translator(FALLBACK)(f"{game}.summary") or lang == FALLBACK


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", playable_games())
def test_lobby_option_labels_are_short_and_read_as_a_setting_with_a_value(game, lang):
    """Each label is "<setting>: <value>", short enough for a phone, and every value of one
    option shares the setting's name, so tapping visibly cycles the value."""
    from bot.table.publishing.lobby_view import option_choices

    t = translator(lang)
    ui = get_ui(game)
    for name, values in option_choices(game).items():
        labels = [ui.option_label(t, name, value) for value in values]
        assert all(len(label) <= 34 for label in labels), labels
        settings = {label.split(": ", 1)[0] for label in labels}
        assert len(settings) == 1 and all(": " in label for label in labels), labels


# -- the classification matches what the screens really pass -----------------------------------
class RecordingTranslator(Translator):
    """A translator that notes the type of every value each placeholder receives."""

    def __init__(self, lang: str) -> None:
        super().__init__(lang)
        self.seen: dict[str, set[type]] = {}

    def _note(self, values: dict) -> None:
        for name, value in values.items():
            self.seen.setdefault(name, set()).add(type(value))

    def __call__(self, key: str, /, **values: object) -> str:
        self._note(values)
        return super().__call__(key, **values)

    def plural(self, key: str, n: int, /, **values: object) -> str:
        self._note({"n": n, **values})
        return super().plural(key, n, **values)


@pytest.mark.parametrize("game", playable_games())
def test_counts_are_numbers_and_text_is_text_on_every_screen(game):
    """Random games drawn in full: a placeholder classified as a count always receives a
    number, one classified as text never does."""
    engine = get_engine(game)
    ui = get_ui(game)
    t = RecordingTranslator(FALLBACK)
    for players in sorted({engine.min_players, engine.max_players}):
        names = Names.of([f"P{seat}" for seat in range(players)])
        state = engine.new_game(players, None, seed=players)
        chooser = random.Random(players)
        while not engine.is_over(state):
            public = engine.view(state, None)
            ui.board(t, public, names)
            ui.announce(t, public["log"][-12:], public, names)
            for seat in range(players):
                legal = engine.legal_actions(state, seat)
                ui.prompt(t, engine.view(state, seat), seat, legal, None, names)
            seat = chooser.choice(sorted(engine.to_act(state)))
            action = chooser.choice(engine.legal_actions(state, seat))
            ui.move_label(t, engine.view(state, seat), action, seat)
            state = engine.apply(state, seat, action)
        public = engine.view(state, None)
        ui.final(t, public, engine.result(state), names)
    assert t.seen
    for name, types in t.seen.items():
        if name in COUNTS:
            assert types == {int}, f"{game}: {{{name}}} is a count but received {types}"
        elif name in TEXT:
            assert int not in types, f"{game}: {{{name}}} is text but received a number"


# -- native typography and one name per thing ------------------------------------------------


def test_english_quotes_with_english_quotation_marks_not_guillemets():
    found = [
        (key, text)
        for key, message in catalogue("en").items()
        for text in forms(message)
        if "«" in text or "»" in text
    ]
    assert not found, found


TITLES = re.compile(r"{(game|group|title)}")  # a game's or a group's name


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_title_inside_a_russian_or_ukrainian_sentence_stands_in_guillemets(lang):
    """'в игре «Кто осёл?» в группе «Настолки по пятницам»': a name after a word (or in
    brackets) is quoted; a name that heads a line or a label ('📍 {title}') is not."""
    unquoted = []
    for key, message in catalogue(lang).items():
        for text in forms(message):
            for found in TITLES.finditer(text):
                before = re.sub(r"<b>$", "", text[: found.start()])
                after = re.sub(r"^</b>", "", text[found.end() :])
                if before.endswith("«") and after.startswith("»"):
                    continue
                if re.search(r"(\w\s|\()$", before):  # inside a sentence
                    unquoted.append((key, text))
    assert not unquoted, unquoted


# Where discarded tiles go, as each language's rulebook names it; no other name anywhere
# in that game's messages (Summer Pavilion Mini's is a cardboard box: "картонний бокс").
DISCARD = {
    "summer_pavilion": {
        "en": ("box", ("tower", "lid")),
        "ru": ("коробк", ("башн", "крышк")),
        "uk": ("бокс", ("веж", "коробк", "кришк")),
        "it": ("scatola", ("torre", "coperchio")),
    },
    "azul": {
        "en": ("lid", ("tower",)),
        "ru": ("крышк", ("башн", "коробку", "коробке")),
        "uk": ("кришк", ("веж", "бокс")),
        "it": ("coperchio", ("torre", "scatola")),
    },
}


@pytest.mark.parametrize("game", sorted(DISCARD))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_game_names_its_discard_place_one_way(game, lang):
    name, others = DISCARD[game][lang]
    texts = [text for message in messages(lang, game).values() for text in forms(message)]
    assert any(name in text.lower() for text in texts)
    wrong = [text for text in texts if any(other in text.lower() for other in others)]
    assert not wrong, wrong
