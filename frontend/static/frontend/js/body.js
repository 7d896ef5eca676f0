// Rulesets with a body map (Septenario de Normas): which limbs are useless or stunned
// (with the stun's countdown), the armour left in this Conflict and the Conflict's own
// countdown, and what the character carries (Carga). Drawn from `snapshot.body` and
// `snapshot.load`, both null in rulesets without them, where nothing here is shown.
import { countdownElement } from "./countdown.js";
import { colon, t } from "./i18n.js";
import { h } from "./util.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value);
  }
  el.append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

// The body's deadlines come in game seconds: their wall-clock instant is found from a
// timer of the same snapshot that has both, else from the snapshot's server_time. The
// countdown then runs like every other (clock offset, frozen while paused).
export function gameTimer(snap, gameS, remainingS) {
  if (!snap.clock.running) return { at: null, remaining_s: remainingS };
  const known = [snap.next, ...(snap.timers || [])].find((timer) => timer && timer.at && timer.game_s !== undefined);
  let at = null;
  if (known) at = Date.parse(known.at) + (gameS - known.game_s) * 1000;
  else if (snap.server_time) at = (snap.server_time + (gameS - snap.clock.game_time_s)) * 1000;
  return at === null ? { at: null, remaining_s: remainingS } : { at: new Date(at).toISOString(), remaining_s: remainingS };
}

const STATUS = () => ({ ok: t("fine"), wounded: t("damaged"), useless: t("useless"), stunned: t("stunned") });
export const limbStatus = (status) => STATUS()[status] || status;
const MARK = { ok: "", wounded: "•", useless: "X", stunned: "~" };

// Seen from behind, as the player sees their own body: the left arm is on the left.
const SHAPES = {
  left_arm: ["rect", { x: 14, y: 42, width: 20, height: 66, rx: 9 }, [24, 80]],
  right_arm: ["rect", { x: 86, y: 42, width: 20, height: 66, rx: 9 }, [96, 80]],
  torso: ["rect", { x: 38, y: 40, width: 44, height: 66, rx: 10 }, [60, 78]],
  left_leg: ["rect", { x: 39, y: 109, width: 20, height: 86, rx: 9 }, [49, 156]],
  right_leg: ["rect", { x: 61, y: 109, width: 20, height: 86, rx: 9 }, [71, 156]],
};

// Places a blow may land that keep no status of their own (the ruleset's body.zones):
// tappable when the hit form offers them, so a blow on the sword hand is not declared
// as the arm. A melee blow there does not count; the server says why.
const ZONES = {
  head: ["circle", { cx: 60, cy: 20, r: 15 }],
  neck: ["rect", { x: 53, y: 34, width: 14, height: 6, rx: 2 }],
  left_weapon_hand: ["circle", { cx: 24, cy: 116, r: 7 }],
  right_weapon_hand: ["circle", { cx: 96, cy: 116, r: 7 }],
};

function tappable(key, name, cls, onTap, ...children) {
  const tap = () => onTap && onTap(key);
  return svg("g", { class: cls, "data-location": key, role: onTap ? "button" : "img",
                    tabindex: onTap ? 0 : null, "aria-label": name, onclick: tap,
                    onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); tap(); } } },
    svg("title", {}, name), children);
}

function figure(body, onTap, selected, places) {
  const parts = body.locations.filter((loc) => SHAPES[loc.key]).map((loc) => {
    const [tag, attrs, [x, y]] = SHAPES[loc.key];
    return tappable(loc.key, `${loc.label}${colon()}${STATUS()[loc.status] || loc.status}`,
      `limb status-${loc.status}${loc.key === selected ? " selected" : ""}`, onTap,
      svg(tag, { ...attrs, class: "shape" }),
      MARK[loc.status] ? svg("text", { x, y, class: "mark", "text-anchor": "middle", "dominant-baseline": "middle" }, MARK[loc.status]) : null);
  });
  const zones = onTap ? places.filter((place) => ZONES[place.key]) : [];
  const head = zones.some((place) => place.key === "head") ? null : svg("circle", { cx: 60, cy: 20, r: 15, class: "head" });
  return svg("svg", { class: "body-figure", viewBox: "0 0 120 200", width: 120, height: 200, "aria-hidden": onTap ? null : "true" },
    svg("defs", {}, svg("pattern", { id: "stun-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      svg("rect", { width: 6, height: 6, class: "hatch-bg" }), svg("line", { x1: 0, y1: 0, x2: 0, y2: 6, class: "hatch-line" }))),
    head, parts,
    zones.map((place) => {
      const [tag, attrs] = ZONES[place.key];
      return tappable(place.key, place.label, `zone${place.key === "head" ? " head" : ""}${place.key === selected ? " selected" : ""}`,
        onTap, svg(tag, { ...attrs, class: "shape" }));
    }));
}

function armourLine(armour, inConflict) {
  const kind = armour.kind === "heavy" ? t("Heavy armour") : t("Light armour");
  return h("p", { class: "armour" }, kind, colon(),
    h("strong", { id: "armour-left" }, `${armour.left_now} / ${armour.base}`),
    inConflict ? ` ${t("in this Conflict")}` : "",
    armour.next_conflict < armour.base || (inConflict && armour.next_conflict !== armour.left_now)
      ? h("span", { class: "muted" }, " — ", t("%(n)s for the next Conflict", { n: armour.next_conflict })) : null);
}

// `onTap(location)`: a limb was tapped (to say a hit landed there), or null; `selected`:
// the place the open hit form names; `places`: the hit form's choices of where.
export function bodyCard(snap, onTap, selected = null, places = []) {
  const { body } = snap;
  if (!body) return null;
  const list = h("ul", { class: "body-list" }, body.locations.map((loc) => h("li", { class: `status-${loc.status}` },
    h("span", { class: "swatch", "aria-hidden": "true" }), loc.label, colon(),
    h("strong", { class: "limb-status" }, STATUS()[loc.status] || loc.status),
    loc.status === "stunned" && loc.until_game_s !== null
      ? [" ", countdownElement("span", gameTimer(snap, loc.until_game_s, loc.remaining_s), snap, { class: "stun-countdown" })]
      : null)));
  return h("section", { class: "card body-map", id: "body-map" },
    h("h2", {}, t("Body")),
    body.conflict ? h("p", { class: "conflict" }, t("In a Conflict"), " ",
      countdownElement("strong", gameTimer(snap, body.conflict.until_game_s, body.conflict.remaining_s), snap, { id: "conflict-countdown" })) : null,
    h("div", { class: "body-row" }, figure(body, onTap, selected, places), list),
    body.armour ? armourLine(body.armour, Boolean(body.conflict)) : null,
    body.damage_points ? h("p", { class: "muted" }, t("Damage points: %(n)s", { n: body.damage_points })) : null,
    onTap ? h("p", { class: "muted hint" }, t("Hit? Tap where.")) : null);
}

// Carga: the load against the capacity, what it means, and what is carried (an object
// picked up by its code can be put down from here).
export function loadCard(snap, onDrop) {
  const { load } = snap;
  if (!load) return null;
  return h("section", { class: `card load load-${load.status}`, id: "load" },
    h("h2", {}, t("Load (Carga)")),
    h("p", { class: "load-total" }, h("strong", {}, `${load.total} / ${load.capacity}`), " ",
      h("span", { class: "load-label" }, load.label)),
    h("p", { class: "load-meaning" }, load.meaning),
    h("p", { class: "muted" }, t("Overloaded above %(capacity)s, cannot move above %(max)s.",
      { capacity: load.capacity, max: load.overload_max })),
    load.items.length ? h("ul", { class: "load-items" }, load.items.map((item) => h("li", {},
      item.name, " ", h("span", { class: "muted" }, `(${item.load})`),
      item.code && onDrop ? h("button", { type: "button", class: "small", onclick: () => onDrop(item) }, t("Drop")) : null))) : null);
}
