// "Next to fall": the few characters whose next deadline leads to a worse state (a wound
// to a coma, a coma to death), soonest first, above the narrators' list. A tap brings the
// character's row into view. Deadlines compare in game seconds, so the order holds while
// the game is paused.
import { countdownPhrase } from "./countdown.js";
import { lang, t } from "./i18n.js";
import { h, mount } from "./util.js";

export const SHOWN = 5;

// The characters about to get worse, soonest first. Without the ruleset (offline before it
// ever loaded) every deadline that leads somewhere counts.
export function fallingFirst(snaps, ruleset, limit = SHOWN) {
  const severity = (key) => (ruleset && ruleset.states[key] ? ruleset.states[key].severity : Infinity);
  return snaps.filter((snap) => snap.next && snap.next.leads_to && severity(snap.next.leads_to.key) > snap.state.severity)
    .sort((a, b) => a.next.game_s - b.next.game_s || a.character.name.localeCompare(b.character.name, lang))
    .slice(0, limit);
}

export function nextToFall({ onPick }) {
  const list = h("ol", { class: "fall-list" });
  const none = h("p", { class: "muted fall-none" }, t("No one is on the way to a worse state."));
  const element = h("div", { class: "fall-strip", role: "region", "aria-label": t("Next to fall") },
    h("h2", {}, t("Next to fall")), none, list);
  let last = "";

  function update(snaps, ruleset) {
    const falling = fallingFirst(snaps, ruleset);
    // Redrawn only when who or when changes: the countdowns tick by themselves.
    const key = falling.map((snap) => `${snap.character.id}:${snap.next.game_s}:${snap.next.at}`).join(",");
    if (key === last) return;
    last = key;
    none.hidden = falling.length > 0;
    mount(list, falling.map((snap) => h("li", {}, h("button", { type: "button", class: "fall",
      dataset: { character: snap.character.id }, onclick: () => onPick(snap.character.id) },
      h("span", { class: "fall-name" }, snap.character.name),
      countdownPhrase("span", snap.next, snap, { className: "fall-to" })))));
  }

  return { element, update };
}
