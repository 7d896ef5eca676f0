// The airsoft player's screen (ruleset airsoft_rats: one event is the club's day, its
// games played one after another). The state dominates: its label, the one thing to do
// next (`state.hint`) in large type, and the count as a large number: the seconds of the
// count to 10 after a hit, or, while being healed, the number 11 to 20 the player speaks,
// placed on the heal's remaining time. The game being played and the one announced are at
// the top, with the countdown to its start. The declarations are big buttons, the most
// likely one first and largest. Healing a teammate: js/airsoft_heal.js; the layout of the
// screen, registered for the ruleset: js/airsoft_player.js.
import { clock } from "./clock.js";
import { countdownElement } from "./countdown.js";
import { pendingMark } from "./declared_offline.js";
import { colon, lang, t } from "./i18n.js";
import { formatDuration, h } from "./util.js";

// The ruleset's key: its panels register for it (js/airsoft_player.js, js/referee.js).
export const AIRSOFT = "airsoft_rats";

const SEVERITY_MARKS = ["●○○○○", "●●○○○", "●●●○○", "●●●●○", "●●●●●"];
const DEFAULT_HEAL_S = 10;   // the ruleset's heal_count_s
const known = (value) => value !== null && value !== undefined;

// -- the games of the day ---------------------------------------------------------------

function clockTime(iso) {
  const at = new Date(iso);
  const time = at.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
  if (at.toDateString() === new Date(clock.now()).toDateString()) return time;
  return `${at.toLocaleDateString(lang, { weekday: "short", day: "numeric", month: "short" })} ${time}`;
}

const OPTION_WORDS = {
  hit_count_s: (n) => t("count of %(n)s s after a hit", { n }),
  heal_count_s: (n) => t("heal of %(n)s s", { n }),
  max_wait_for_medic_s: (n) => (known(n) ? t("at most %(n)s s waiting for a medic", { n }) : null),
};
const SHOWN = ["medic_mode", "medics", "respawn_policy", "max_heals_per_player", "ammo_limit_per_replica"];

// "mode médecin, retour en jeu au signal": what a player needs to know of a game.
export function scenarioWords(game) {
  const words = [game.medic_mode ? t("medic mode") : t("no medic mode")];
  if (game.medic_mode && game.medics === "roster") words.push(t("listed medics only"));
  if (game.respawn_policy === "on_signal") words.push(t("back in play on the signal"));
  if (known(game.max_heals_per_player)) words.push(t("%(n)s heals per player", { n: game.max_heals_per_player }));
  if (known(game.ammo_limit_per_replica)) words.push(t("%(n)s BBs per replica", { n: game.ammo_limit_per_replica }));
  for (const key of game.changed || []) {
    if (SHOWN.includes(key)) continue;
    const value = game[key];
    words.push(OPTION_WORDS[key] ? OPTION_WORDS[key](value)
      : `${key}${colon()}${Array.isArray(value) ? value.join(", ") : value}`);
  }
  return words.filter(Boolean);
}

// A countdown on the wall clock (a game's start does not freeze with the game clock).
const WALL = { clock: { running: true } };

export function gameLines(clockPart, { paused = false } = {}) {
  const { game, next_game: next } = clockPart || {};
  const lines = [];
  if (game) {
    lines.push(h("div", { class: "game-now", dataset: { game: game.id } },
      h("p", { class: "game-line" }, h("strong", {}, t("Game %(number)s being played", { number: game.number })),
        " — ", game.scenario, ", ", scenarioWords(game).join(", ")),
      paused ? h("p", { class: "paused" }, t("Game stopped: every count is frozen.")) : null,
      !next && game.description ? h("p", { class: "muted game-description" }, game.description) : null));
  }
  if (next) {
    const left = clock.secondsUntil(next.start_at);
    lines.push(h("div", { class: "game-next", dataset: { game: next.id } },
      h("p", { class: "game-line" }, h("strong", {}, t("Next game at %(time)s", { time: clockTime(next.start_at) })),
        " — ", next.scenario, ", ", scenarioWords(next).join(", ")),
      h("p", { class: "game-start" }, t("Game %(number)s", { number: next.number }), " · ",
        left > 0 ? [t("starts in"), " ", countdownElement("strong", { at: next.start_at, remaining_s: left }, WALL,
          { class: "game-countdown" })] : t("starts any moment now")),
      next.description ? h("p", { class: "muted game-description" }, next.description) : null));
  }
  return lines;
}

export function gameBanner(snap) {
  const lines = gameLines(snap.clock);   // the state card says when the game is stopped
  return lines.length ? h("section", { class: "card game-banner", id: "game-banner" }, lines) : null;
}

// -- the large count ----------------------------------------------------------------------

export const runningHeal = (snap, role) => (snap.fights || []).find((fight) =>
  fight.kind === "heal" && fight.role === role && fight.status === "running");

// How long a heal lasts: the server counts one number a second (11 to 20 for 10 s).
export const healDuration = (fight) => (fight.count ? fight.count.to - fight.count.from + 1 : DEFAULT_HEAL_S);

function paint(el) {
  const seconds = el.dataset.frozen !== "" ? Number(el.dataset.frozen)
    : Math.max(0, clock.secondsUntil(el.dataset.at) ?? 0);
  if (el.dataset.from) {
    // The spoken count: 11 for the first second of the heal, 20 for its last.
    const from = Number(el.dataset.from);
    const steps = Number(el.dataset.to) - from + 1;
    const duration = Number(el.dataset.duration) || DEFAULT_HEAL_S;
    const done = Math.floor(((duration - seconds) / duration) * steps);
    el.textContent = String(from + Math.min(steps - 1, Math.max(0, done)));
  } else {
    el.textContent = seconds < 100 ? String(Math.ceil(seconds)) : formatDuration(seconds);
  }
  el.dataset.left = String(seconds);
}

export function bigCount(timer, snap, { spoken = null, duration = null, id = "airsoft-count" } = {}) {
  const frozen = snap.clock.running && timer.at ? "" : String(timer.remaining_s);
  const el = h("strong", { class: "count-big", id, role: "timer", dataset: {
    at: timer.at || "", frozen, from: spoken ? spoken.from : "", to: spoken ? spoken.to : "",
    duration: duration || "" } });
  paint(el);
  return el;
}

// Called at every tick of the screen (four times a second). Returns true when a count has
// ended a moment ago and the screen should ask for a fresh snapshot (a read advances the
// state past its deadline; a heal's end comes with the server's push), a few times at most.
const asked = new Map();   // deadline -> fresh snapshots asked for it
export function refreshCounts(root) {
  let due = false;
  for (const el of root.querySelectorAll(".count-big")) {
    paint(el);
    if (el.dataset.frozen !== "" || !el.dataset.at) continue;
    const late = -clock.secondsUntil(el.dataset.at);
    const tries = asked.get(el.dataset.at) || 0;
    if (tries < 3 && late >= 0.5 + tries * 3) { asked.set(el.dataset.at, tries + 1); due = true; }
  }
  return due;
}

function countBlock(snap) {
  const heal = runningHeal(snap, "patient");
  if (heal && heal.type.key === "heal" && heal.ends) {
    return h("div", { class: "count-block" },
      h("p", { class: "count-label" }, t("Count aloud")),
      bigCount(heal.ends, snap, { spoken: heal.count, duration: healDuration(heal) }),
      h("p", { class: "count-who" }, t("%(name)s is healing you", { name: heal.other }), " · ",
        countdownElement("span", heal.ends, snap)));
  }
  if (heal) return h("p", { class: "count-who" }, t("%(name)s is extracting you", { name: heal.other }));
  if (!snap.next) return null;
  return h("div", { class: "count-block" },
    h("p", { class: "count-label" }, snap.next.label),
    bigCount(snap.next, snap),
    snap.next.leads_to ? h("p", { class: "muted" }, t("then: %(state)s", { state: snap.next.leads_to.label })) : null);
}

export function stateCard(snap) {
  const { state } = snap;
  const severity = Math.min(state.severity, 4);
  return h("section", { class: `card state airsoft-state severity-${severity}`, dataset: { state: state.key } },
    h("div", { class: "severity", "aria-hidden": "true" }, SEVERITY_MARKS[severity]),
    h("h1", { class: "state-label", id: "state-label" }, state.label),
    pendingMark(snap),
    state.hint ? h("p", { class: "hint-big", id: "state-hint" }, state.hint) : null,
    countBlock(snap),
    !snap.clock.running ? h("p", { class: "paused" }, t("Game paused: every countdown is frozen.")) : null,
    (snap.flags || []).map((flag) => h("p", { class: "flag" }, flag.label)));
}

// -- what the player may declare ------------------------------------------------------------

// The most likely declaration of each state, first and largest ("Touché !" in play).
const LIKELY = ["retour_en_jeu", "request_medic", "arrived_at_spawn", "respawn", "back_from_off_game"];

function ordered(snap) {
  const playing = snap.state.key === "in_play";
  // A hit while already out is ignored by the rules (P23): not offered then.
  const actions = snap.actions.filter((a) => playing || a.key !== "hit");
  const primary = playing ? actions.find((a) => a.key === "hit")
    : LIKELY.map((key) => actions.find((a) => a.key === key)).find(Boolean);
  return { primary, others: actions.filter((a) => a !== primary) };
}

// `button(action)` and `withParams(action)` are the player screen's own (two taps, the
// parameters' form), so a declaration behaves the same in every game.
export function actionsCard(snap, { button, withParams, message }) {
  const one = (action) => (action.params && action.params.length ? withParams(action) : button(action));
  const { primary, others } = ordered(snap);
  return h("section", { class: "card actions airsoft-actions", id: "actions" },
    h("h2", {}, t("Declare")),
    primary ? h("div", { class: "primary-action", dataset: { action: primary.key } }, one(primary)) : null,
    others.map(one),
    message ? h("p", { class: "message", role: "status" }, message) : null);
}
