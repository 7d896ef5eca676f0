// The games of an airsoft day, for the staff (docs/airsoft-day.md): the game being played
// and the one announced, as every phone shows them. Organisers announce the next game
// (scenario, description, start time and the scenario's options), start it (every player
// back to spawn) and end it; the arrêt de jeu stays the clock's pause and resume of the
// narrators' screen. Referees read it (polled: they have no live channel of the event).
import { get as apiGet, send as apiSend } from "./api.js";
import { gameLines } from "./airsoft.js";
import { colon, t } from "./i18n.js";
import { said } from "./outcome.js";
import { confirmButton, h, mount } from "./util.js";

const POLL_MS = 30000;
// The options a game's announcement always sets, in this order; the others are folded.
const MAIN = ["medic_mode", "medics", "respawn_policy"];
const LABELS = () => ({
  medic_mode: t("Medic mode"), medics: t("Who may heal"), respawn_policy: t("Back in play from spawn"),
  max_heals_per_player: t("Heals per player (empty: no limit)"),
  ammo_limit_per_replica: t("BBs per replica (empty: no limit)"),
  hit_count_s: t("Count after a hit (s)"), heal_count_s: t("Heal count, 11 to 20 (s)"),
  max_wait_for_medic_s: t("Longest wait for a medic (s, empty: no limit)"),
});
const CHOICES = () => ({
  any_teammate: t("any teammate"), roster: t("the listed medics only"),
  on_arrival_at_spawn: t("on arriving at spawn"), on_signal: t("on the organisers' signal"),
});

// `organiser`: may announce, start and end. `onClock(clock)`: a write answered the clock.
export function gamesPanel(eventId, { organiser, get = apiGet, send = apiSend, onClock = () => {} }) {
  const status = h("div", { class: "games-status" });
  const message = h("p", { class: "message", role: "alert", hidden: true });
  const fields = h("div", { class: "game-options" });
  const more = h("details", { class: "more-options" }, h("summary", {}, t("Other options of the scenario")));
  const scenario = h("input", { name: "scenario", maxlength: 200, required: true, autocomplete: "off",
                                "aria-label": t("Scenario"), placeholder: t("Capture the flag…") });
  const description = h("textarea", { name: "description", rows: 2, maxlength: 4000, "aria-label": t("Description") });
  const start = h("input", { type: "datetime-local", name: "start_at", required: true, "aria-label": t("Start time") });
  const form = h("form", { class: "announce-form" },
    h("h3", {}, t("Announce the next game")),
    h("label", {}, t("Scenario"), scenario), h("label", {}, t("Description"), description),
    h("label", {}, t("Start time"), start), fields, more,
    h("button", { type: "submit", class: "primary" }, t("Announce")));
  const root = h("div", { class: "games-panel" }, status, message, organiser ? form : null);
  let options = null;      // {key: {value, default, choices}} from the event's options
  let inputs = new Map();  // key -> [input, value shown]
  let active = true;
  let timer = null;

  function say(text) {
    message.textContent = text || "";
    message.hidden = !text;
  }

  function show(clockPart) {
    const { game, next_game: next } = clockPart || {};
    mount(status,
      gameLines(clockPart, { paused: clockPart && clockPart.running === false }),
      !game && !next ? h("p", { class: "muted" }, t("No game announced.")) : null,
      organiser && next && !game ? confirmButton(t("Start game %(number)s", { number: next.number }),
        t("Tap again: everyone back to spawn"), () => act(`/api/games/${next.id}/start/`, t("Start")),
        { class: "primary", id: "game-start" }, `game-start-${next.id}`) : null,
      organiser && game ? confirmButton(t("End game %(number)s", { number: game.number }),
        t("Tap again to end the game"), () => act(`/api/games/${game.id}/end/`, t("End")),
        { class: "danger", id: "game-end" }, `game-end-${game.id}`) : null,
      organiser && next && game ? h("p", { class: "muted" }, t("End the game being played before starting the next one.")) : null);
  }

  async function act(url, label) {
    const answer = await send(label, "POST", url, {});
    say(said(answer));
    if (answer.ok) { show(answer.data.clock); onClock(answer.data.clock); }
  }

  function field(key, option) {
    const label = LABELS()[key] || key;
    let input;
    if (typeof option.default === "boolean") {
      input = h("input", { type: "checkbox", name: key, checked: option.value === true });
      inputs.set(key, [input, option.value]);
      return h("label", { class: "check" }, input, " ", label);
    }
    if (option.choices && option.choices.length) {
      input = h("select", { name: key, "aria-label": label }, option.choices.map((choice) =>
        h("option", { value: choice, selected: choice === option.value }, CHOICES()[choice] || choice)));
    } else if (option.default === null || typeof option.default === "number") {
      input = h("input", { type: "number", name: key, min: 0, step: "any", value: option.value ?? "", "aria-label": label });
    } else {
      return h("p", { class: "muted" }, `${key}${colon()}${Array.isArray(option.value) ? option.value.join(", ") : option.value}`);
    }
    inputs.set(key, [input, option.value]);
    return h("label", {}, label, input);
  }

  async function loadOptions() {
    const answer = await get(`/api/events/${eventId}/options/`).catch(() => null);
    if (!active || !answer || !answer.ok) return;
    options = Object.fromEntries(answer.data.options.map((option) => [option.key, option]));
    inputs = new Map();
    mount(fields, MAIN.filter((key) => options[key]).map((key) => field(key, options[key])));
    mount(more, h("summary", {}, t("Other options of the scenario")),
      Object.keys(options).filter((key) => !MAIN.includes(key)).map((key) => field(key, options[key])));
  }

  function read(key) {
    const [input] = inputs.get(key);
    if (input.type === "checkbox") return input.checked;
    if (input.type === "number") return input.value === "" ? null : Number(input.value);
    return input.value;
  }

  // The main options always (what phones show is what the organiser chose), the others
  // when changed here.
  function chosenOptions() {
    const chosen = {};
    for (const key of inputs.keys()) {
      const value = read(key);
      if (MAIN.includes(key) || JSON.stringify(value) !== JSON.stringify(inputs.get(key)[1])) chosen[key] = value;
    }
    return chosen;
  }

  function defaultStart() {
    const at = new Date(Date.now() + 30 * 60000);
    at.setMinutes(Math.ceil(at.getMinutes() / 5) * 5, 0, 0);
    const pad = (n) => String(n).padStart(2, "0");
    return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const at = new Date(start.value);
    if (Number.isNaN(at.getTime())) { say(t("Give the start time.")); return; }
    const answer = await send(t("Announce the next game"), "POST", `/api/events/${eventId}/games/`, {
      scenario: scenario.value.trim(), description: description.value.trim(), start_at: at.toISOString(),
      options: chosenOptions() });
    say(said(answer, { done: (data) => t("Game %(number)s announced: every phone shows it.", { number: data.game.number }) }));
    if (answer.ok) { show(answer.data.clock); onClock(answer.data.clock); }
  });

  async function poll() {
    const answer = await get(`/api/events/${eventId}/games/`).catch(() => null);
    if (active && answer && answer.ok) show({ ...answer.data.announcement, running: undefined });
  }

  start.value = defaultStart();
  show(null);
  if (organiser) loadOptions();
  else { poll(); timer = setInterval(() => { if (!document.hidden) poll(); }, POLL_MS); }
  return {
    element: root,
    // Organisers: the live channel's clock carries the game and the next one.
    update(clockPart) { if (clockPart) show(clockPart); },
    stop() { active = false; clearInterval(timer); },
  };
}
