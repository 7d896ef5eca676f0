// What the zombie race's three screens share (the survivor's, the zombie's and the
// organisers': js/race_survivor.js, race_zombie.js, race_organiser.js; docs/phone-app.md,
// "Zombie race"): which events and characters are a race's, the language, the lives drawn
// as flags, times of the night, a scan-or-type field, and the words of a refusal.
import { clock } from "./clock.js";
import { followEventLanguage, lang, t } from "./i18n.js";
import { startScanner } from "./scanner.js";
import { formatDuration, h, mount } from "./util.js";

export const RACE = "zombie_race";
// The rulebook's language: a race is run in French. Used until the server names the
// event's language (a survivor's snapshot does; /api/me/ does not yet for zombies).
export const RACE_LANGUAGE = "fr";

export const raceEvent = (me, eventId) =>
  (me ? me.events.find((e) => e.id === eventId && e.ruleset === RACE) : null) || null;

// A character whose event is a race is a survivor's login (solo or a team's).
export const isRaceCharacter = (me, character) => Boolean(character && raceEvent(me, character.event));

// The organisers of a race are its narrators; its zombies have the role "zombie".
export const organises = (event) => Boolean(event && event.ruleset === RACE && event.roles.includes("narrator"));
export const zombieOf = (event) => Boolean(event && event.ruleset === RACE && event.roles.includes("zombie")
  && !event.roles.includes("narrator"));

// Unless the user chose a language, a race speaks its event's (French by default).
// Returns true when the page reloads to switch.
export function followRaceLanguage(code) {
  return followEventLanguage(code || RACE_LANGUAGE);
}

// 22:05 (the night's wall clock, in the phone's time zone).
export function clockTime(iso) {
  if (!iso) return "";
  return new Date(iso).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
}

// Seconds of a course: 5400 -> "1 h 30", 3600 -> "1 h", 600 -> "10 min".
export function courseDuration(seconds) {
  const minutes = Math.round(seconds / 60);
  const hours = Math.floor(minutes / 60);
  if (!hours) return `${minutes} min`;
  return minutes % 60 ? `${hours} h ${String(minutes % 60).padStart(2, "0")}` : `${hours} h`;
}

// "−15" with a real minus sign, "+20", "0".
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

// Seconds to or past a deadline on the server's clock (negative once late).
export const secondsTo = (iso) => (iso ? clock.secondsUntil(iso) : null);

// "1:29:53" before the deadline, "+2:13" after it.
export function timeWords(seconds) {
  if (seconds === null) return "";
  return seconds >= 0 ? formatDuration(seconds) : `+${formatDuration(-seconds)}`;
}

// The flags of a belt: the ones left drawn, the lost ones crossed (and said in words, so
// never by colour alone).
export function livesFlags(lives, { big = false } = {}) {
  const initial = Math.max(lives.initial, lives.remaining);
  const flags = h("div", { class: `flags${big ? " big" : ""}`, role: "img",
    "aria-label": t("Lives: %(left)s / %(initial)s", { left: lives.remaining, initial }) });
  for (let i = 0; i < initial; i += 1) {
    const lost = i >= lives.remaining;
    const flag = h("span", { class: lost ? "flag-icon lost" : "flag-icon", dataset: { lost: String(lost) } });
    // Static drawing, no data in it.
    flag.innerHTML = `<svg viewBox="0 0 40 52" aria-hidden="true"><line class="pole" x1="7" y1="3" x2="7" y2="50"/>`
      + `<path class="cloth" d="M8 5 H36 L29 15.5 L36 26 H8 Z"/>`
      + (lost ? `<path class="cross" d="M3 6 L37 46 M37 6 L3 46"/>` : "") + "</svg>";
    flags.append(flag);
  }
  return flags;
}

// A field that reads a QR code with the camera (where the phone can) or takes it typed.
// `clean(text)` turns what was read into what is sent; `onCode(code)` acts on it.
export function scanField({ id, label, placeholder, button, scanLabel, onCode, clean = (text) => text.trim(),
                            autocapitalize = "off" }) {
  const input = h("input", { id, name: id, autocomplete: "off", autocapitalize, spellcheck: "false",
                             placeholder, "aria-label": label });
  const note = h("p", { class: "message", role: "status", hidden: true });
  const camera = h("div", { class: "scanner" });
  let scanner = null;
  const stop = () => { if (scanner) scanner.stop(); scanner = null; mount(camera); };
  const scan = async () => {
    if (scanner) { stop(); return; }
    note.hidden = true;
    try {
      scanner = await startScanner((text) => { stop(); input.value = clean(text); onCode(clean(text)); });
    } catch { scanner = null; }
    if (!scanner) {
      note.textContent = t("This phone cannot scan: type the code written under the QR code.");
      note.hidden = false;
      input.focus();
      return;
    }
    mount(camera, scanner.video);
  };
  const form = h("form", { class: "scan-field", onsubmit: (event) => {
    event.preventDefault();
    const code = clean(input.value);
    if (code) onCode(code);
  } },
  h("button", { type: "button", class: "primary scan-button", onclick: scan }, scanLabel), camera, note,
  h("label", {}, label, h("div", { class: "race-row" }, input, h("button", { type: "submit" }, button))));
  return { element: form, input, stop, clear() { input.value = ""; } };
}

// A panel of tabs kept across redraws: `panes` is [[key, label, element]].
export function tabs(panes, { current, onChoose = () => {} }) {
  const bar = h("div", { class: "race-tabs", role: "tablist" });
  const body = h("div", { class: "race-tab-body" });
  let chosen = panes.some(([key]) => key === current) ? current : panes[0][0];
  function choose(key) {
    chosen = key;
    mount(bar, panes.map(([name, text]) => h("button", { type: "button", role: "tab", class: name === key ? "race-tab chosen" : "race-tab",
      "aria-selected": String(name === key), dataset: { tab: name }, onclick: () => choose(name) }, text)));
    mount(body, panes.find(([name]) => name === key)[2]);
    onChoose(key);
  }
  choose(chosen);
  return { bar, body, choose, get current() { return chosen; } };
}

// The kinds of infraction that cost no life (race/models.py Infraction.KINDS).
export const INFRACTIONS = () => [
  ["lives_hidden", t("Lives hidden, passed on or re-attached")],
  ["checkpoint_moved", t("Balise moved or hidden")],
  ["transport", t("Not on foot (bike, scooter…)")],
  ["traffic_code", t("Highway code not followed")],
  ["missing_gear", t("Mandatory gear missing")],
  ["belt_mismatch", t("Flags on the belt do not match")],
  ["other", t("Another infraction")],
];
// Recorded with a marshal's zone call that took no life (shown on the desk, never typed).
export const INFRACTIONS_FROM_CALLS = () => [
  ["out_of_zone", t("Left the race zone, no life taken")],
  ["forbidden_path", t("Forbidden path or fence, no life taken")],
];
