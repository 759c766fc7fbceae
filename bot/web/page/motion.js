// Movement: a card, a bid or a play that has just arrived on the table travels there from
// its seat; a tile laid on a board settles into its place; either stays highlighted until
// the next move. Only transforms and opacity are animated (the compositor's work: 60 fps on a
// phone), the table is already drawn where it ends, so a tap during the movement lands on
// what it shows. prefers-reduced-motion gets none; Telegram's low performance class on
// Android (its user agent ends in "LOW", as in "...; SDK 29; LOW)") gets a short fade
// instead of the travel.

const TRAVEL_MS = 420;
const FADE_MS = 160;

export function motionLevel() {
  if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return "none";
  if (/\bLOW\)?$/.test(navigator.userAgent)) return "low";
  return "full";
}

// The keys of everything on the table that may arrive (cards, bids, plays).
export function keysOf(root) {
  return new Set(Array.from(root.querySelectorAll("[data-key]"), (element) => element.dataset.key));
}

// Everything under ``root`` whose key was not there before arrives: from its seat (data-from)
// to where it lies now.
export function arrive(root, before, level = motionLevel()) {
  if (level === "none") return [];
  const moving = [];
  for (const element of root.querySelectorAll("[data-key]")) {
    if (before.has(element.dataset.key)) continue;
    const from = element.dataset.from;
    const seat = from !== undefined ? root.querySelector(`.seats [data-seat="${from}"]`) : null;
    if (level === "low") {
      moving.push(element.animate([{ opacity: 0 }, { opacity: 1 }], { duration: FADE_MS }));
      continue;
    }
    if (!seat) {  // laid where it was picked (a tile on a board): it settles into place
      moving.push(
        element.animate(
          [
            { transform: "scale(1.6)", opacity: 0 },
            { transform: "scale(1)", opacity: 1 },
          ],
          { duration: TRAVEL_MS / 2, easing: "ease-out" },
        ),
      );
      continue;
    }
    const start = seat.getBoundingClientRect();
    const to = element.getBoundingClientRect();
    const dx = start.left + start.width / 2 - (to.left + to.width / 2);
    const dy = start.top + start.height / 2 - (to.top + to.height / 2);
    element.style.willChange = "transform, opacity"; // a layer of its own while it travels
    const travel = element.animate(
      [
        { transform: `translate(${dx}px, ${dy}px) scale(0.5)`, opacity: 0.4 },
        { transform: "translate(0, 0) scale(1)", opacity: 1 },
      ],
      { duration: TRAVEL_MS, easing: "cubic-bezier(.2, .7, .3, 1)" },
    );
    travel.finished.then(() => { element.style.willChange = ""; }, () => {});
    moving.push(travel);
  }
  return moving;
}

// A picked card rises (a new element each drawing: the rise is played, not transitioned).
export function lift(element, level = motionLevel()) {
  if (level !== "full" || !element) return;
  element.animate([{ transform: "translateY(0)" }, { transform: "translateY(-14px)" }], { duration: 120, easing: "ease-out" });
}
