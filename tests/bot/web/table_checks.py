"""What a card table's page shows, read from the page in one go, and checked against the
engine's view: each seat's cards, points and gems, and the centre — 5211's cards of the
round (face up or down) and roosters, Sultan's cushions with their gems and bidders and the
drawn gems, Who's the Donkey?'s plays of the round."""

from __future__ import annotations

from games.g5211.engine import rooster_count, rooster_threshold
from games.sultan.engine import GEM_VALUES

SNAPSHOT = """() => {
  const all = (root, selector) => Array.from(root.querySelectorAll(selector));
  const text = (root, selector) => root.querySelector(selector)?.textContent ?? null;
  const felt = document.querySelector(".felt");
  return {
    seats: all(document, ".seats .seat").map((s) => ({
      seat: Number(s.dataset.seat), label: s.getAttribute("aria-label"),
      count: text(s, ".count"), points: text(s, ".points"), gems: text(s, ".gems"),
      backs: s.querySelector(".backs-fan")?.children.length ?? null,
    })),
    rows: felt ? all(felt, ".play-row").map((r) => ({
      from: Number(r.dataset.from),
      cards: all(r, ".card:not(.back):not(.secret)").map((c) => Number(c.dataset.card)),
      backs: all(r, ".card.back, .card.secret").length,
      passed: r.querySelector(".passed") !== null,
    })) : [],
    cushions: felt ? all(felt, ".cushion").map((c) => ({
      gem: Number(c.querySelector(".gem").dataset.gem), points: text(c, ".gem"),
      bidders: all(c, ".bid .bidder").map((b) => b.textContent),
      label: c.getAttribute("aria-label"),
    })) : [],
    drawn: felt ? all(felt, ".drawn .gem").map((g) => Number(g.dataset.gem)) : [],
    roosters: felt ? text(felt, "[data-roosters]") : null,
    unlabelled: all(document, ".card, .seat, .cushion, .gem").filter((e) => {
      const named = e.getAttribute("aria-label");
      const inNamed = e.getAttribute("aria-hidden") && e.parentElement.closest("[aria-label]");
      return !named && !inNamed;
    }).map((e) => e.outerHTML.slice(0, 80)),
    boardText: document.querySelector(".board-text") !== null,
    text: document.querySelector("main").innerText,
  };
}"""


async def snapshot(page) -> dict:
    return await page.evaluate(SNAPSHOT)


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def check_seats(game: str, shown: dict, view: dict, names: list[str], seat: int | None) -> None:
    n = view["num_players"]
    assert [s["seat"] for s in shown["seats"]] == list(range(n))
    for number, drawn in enumerate(shown["seats"]):
        cards = view["hand_sizes"][number]
        assert drawn["count"] == f"🂠 {cards}"
        assert drawn["label"].startswith(f"{names[number]}: {plural(cards, 'card')}")
        if number != seat:  # the others' hands: a fan of backs
            assert drawn["backs"] == min(cards, 8)
        if game == "5211":
            assert drawn["points"] == f"★ {view['points'][number]}"
        elif game == "sultan":
            assert drawn["gems"] == f"💎 {view['gem_counts'][number]}"
        elif view["hands_played"]:
            assert drawn["points"] == f"★ {view['totals'][number]}"
        else:
            assert drawn["points"] is None


def check_centre(game: str, shown: dict, view: dict, names: list[str]) -> None:
    if game == "5211":
        on_table = [card for cards in view["table"] for card in cards]
        expected = [
            {
                "from": number,
                "cards": view["table"][number],
                "backs": view["part_size"] if view["ready"][number] and not view["over"] else 0,
                "passed": False,
            }
            for number in range(view["num_players"])
        ]
        assert shown["rows"] == expected
        threshold = rooster_threshold(view["num_players"])
        assert shown["roosters"] == f"🐓 {rooster_count(on_table)}/{threshold}"
    elif game == "sultan":
        assert [c["gem"] for c in shown["cushions"]] == view["cushions"]
        assert [c["points"] for c in shown["cushions"]] == [
            str(GEM_VALUES[gem]) for gem in view["cushions"]
        ]
        for number, cushion in enumerate(shown["cushions"]):
            bidders = [names[seat] for seat, on in view["bids"] if on == number]
            assert cushion["bidders"] == bidders
            assert cushion["label"].startswith(f"Cushion {number + 1}: ")
        assert shown["drawn"] == (view["drawn"] if view["phase"] == "return" else [])
    else:
        expected = [
            {
                "from": play["seat"],
                "cards": play["cards"],
                "backs": 0,
                "passed": play["kind"] == "pass",
            }
            for play in view["plays"]
        ]
        assert shown["rows"] == expected


def check_table(game: str, shown: dict, view: dict, names: list[str], seat: int | None) -> None:
    """The page against the view: seats, centre, every card labelled, no board text."""
    check_seats(game, shown, view, names, seat)
    check_centre(game, shown, view, names)
    assert shown["unlabelled"] == []
    assert not shown["boardText"]


TARGET = 44  # CSS px either way: the least a tap target measures (Apple's 44 pt, WCAG 2.5.5)
TARGETS = """() => Array.from(
  document.querySelectorAll('main button:not(:disabled), main a[href], main select, '
    + 'main summary'),
  (e) => { const r = e.getBoundingClientRect();
           return { what: e.outerHTML.slice(0, 90), width: r.width, height: r.height }; })"""
SIGNED_LINKS = """() => [
  ...Array.from(document.querySelectorAll('[href]'), (e) => e.getAttribute('href')),
  location.href,
].filter((href) => href.includes('tgWebAppData') || href.includes('hash='))"""


async def targets(page) -> list[dict]:
    """Every control of the page a tap can use, with its size."""
    return await page.evaluate(TARGETS)


def too_small(shown: list[dict]) -> list[dict]:
    return [t for t in shown if t["width"] < TARGET or t["height"] < TARGET]


async def signed_links(page) -> list[str]:
    """The links, and the address, that carry Telegram's signed launch data: none should."""
    return await page.evaluate(SIGNED_LINKS)


# The contrast of what is drawn (WCAG 1.4.11, non-text contrast, and 1.4.3 for numbers, at
# 3:1): each piece against what lies behind it — its fill or its edge, whichever stands out
# more — and its symbol or number against the piece; each control likewise. The colours are
# the browser's own, as drawn: computed styles, composited through every transparent layer
# and opacity down to the page.
LOW_CONTRAST = """(least) => {
  const parse = (c) => {
    let m = c.match(/^rgba?\\(([^)]+)\\)/);
    if (m) {
      const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    }
    m = c.match(/^color\\(srgb ([^)]+)\\)/);
    if (m) {
      const p = m[1].split(/[\\s\\/]+/).filter(Boolean).map(Number);
      return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1];
    }
    return [0, 0, 0, 0];
  };
  const over = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]);
  };
  const lum = (c) => {
    const f = (v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  // an element's own fill: its background colour, or its gradient's colours averaged
  const fill = (e) => {
    const style = getComputedStyle(e);
    const stops = [...style.backgroundImage.matchAll(/(rgba?|color)\\([^)]+\\)/g)]
      .map((m) => parse(m[0]));
    if (stops.length) {
      const sum = stops.reduce((s, c) => s.map((v, i) => v + c[i]), [0, 0, 0, 0]);
      const mean = sum.map((v) => v / stops.length);
      return over(parse(style.backgroundColor), mean).slice(0, 3).concat([1]);
    }
    return parse(style.backgroundColor);
  };
  const opacity = (e) => Number(getComputedStyle(e).opacity);
  // what lies behind an element: its ancestors' fills, from the page down
  const behind = (e) => {
    const chain = [];
    for (let a = e.parentElement; a; a = a.parentElement) chain.unshift(a);
    let colour = [255, 255, 255, 1];
    for (const a of chain) {
      const f = fill(a);
      colour = over([f[0], f[1], f[2], f[3] * opacity(a)], colour);
    }
    return colour;
  };
  const found = [];
  const check = (e, what) => {
    const style = getComputedStyle(e);
    if (style.visibility === "hidden" || style.display === "none") return;
    const back = behind(e);
    const own = fill(e);
    const alpha = opacity(e);
    const body = over([own[0], own[1], own[2], own[3] * alpha], back);
    const edgeWidth = parseFloat(style.borderTopWidth) || 0;
    const faded = (c) => [c[0], c[1], c[2], c[3] * alpha];
    const edge = edgeWidth > 0 ? over(faded(parse(style.borderTopColor)), body) : body;
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0
      ? over(parse(style.outlineColor), back) : back;
    const shape = Math.max(ratio(body, back), ratio(edge, back), ratio(outline, back));
    const ink = over(faded(parse(style.color)), body);
    const hasText = (e.textContent || "").trim() !== "";
    const text = hasText ? ratio(ink, body) : 99;
    if (shape < least || text < least) {
      const html = e.outerHTML.slice(0, 100);
      found.push({ what, html, shape: +shape.toFixed(2), text: +text.toFixed(2) });
    }
  };
  const PIECES = ".tile, .space, .marker, .card, .gem, .chip, .back-mini";
  const CONTROLS = "button.action, .replay-controls button, select, .lessons a, .table-link";
  for (const e of document.querySelectorAll(`main :is(${PIECES})`)) check(e, "piece");
  for (const e of document.querySelectorAll(`main :is(${CONTROLS})`)) check(e, "control");
  // a number or symbol drawn inside a piece (a card's face, a tile's symbol)
  for (const e of document.querySelectorAll("main :is(.card, .chip) > span:not(.gem)")) {
    const style = getComputedStyle(e);
    const piece = e.parentElement;
    const ink = parse(style.color);
    const body = over(fill(e), over(fill(piece), behind(piece)));
    const r = ratio(over(ink, body), body);
    if ((e.textContent || "").trim() && r < least) {
      found.push({ what: "mark", html: piece.outerHTML.slice(0, 100), text: +r.toFixed(2) });
    }
  }
  return found;
}"""

LEAST_CONTRAST = 3.0


async def low_contrast(page) -> list[dict]:
    """Every piece, number and control drawn under 3:1 against what is behind it."""
    return await page.evaluate(LOW_CONTRAST, LEAST_CONTRAST)
