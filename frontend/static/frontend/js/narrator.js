// The narrators' screen: every character live, soonest deadline first (who dies next?),
// filters by state and team, effects pushed to one, several, a team or everyone, the game
// clock, state corrections, the players' requests to the organisers and the journal.
// Rulesets with an effect catalogue, a body map or days (Septenario) add the named effects,
// each character's hurt limbs, the dawns and day ends, and the untreated wounds.
import { get, send } from "./api.js";
import { alertNow } from "./alerts.js";
import { limbStatus } from "./body.js";
import { countdownElement, startTicking } from "./countdown.js";
import { followEventLanguage, t } from "./i18n.js";
import { Live, withEffect } from "./live.js";
import { daysPanel, optionsPanel, psychPanel } from "./narrator_panels.js";
import { said } from "./outcome.js";
import { requestsPanel } from "./requests.js";
import { reissueButton } from "./reissue.js";   // issue 16: lost phones
import { confirmCorrection, confirmPush, offerUndo } from "./confirm.js";   // issue 16: safe taps
import { panelFor } from "./panels.js";
import { confirmButton, h, mount } from "./util.js";

export async function show(root, { id, me, context }) {
  const event = me.events.find((e) => e.id === id) || { id, ruleset: null };
  const characters = new Map();
  const selected = new Set();
  let clock = { running: true };
  let ruleset = null;
  let filters = { state: "", team: "", sortBy: "deadline" };
  let message = null;
  let journal = null;
  const emergencies = [];   // declared by players, shown until a narrator dismisses them

  try {
    const answer = await get(`/api/rulesets/${event.ruleset}/`);
    if (answer.ok) ruleset = answer.data;
  } catch { /* offline: the corrections menu waits for the network */ }

  const stateOptions = () => (ruleset ? Object.entries(ruleset.states) : []).map(([key, s]) => h("option", { value: key }, s.label));
  const teams = () => [...new Set([...characters.values()].map((s) => s.character.team).filter(Boolean))].sort();

  function visible() {
    const rows = [...characters.values()].filter((s) =>
      (!filters.state || s.state.key === filters.state) && (!filters.team || s.character.team === filters.team));
    const deadline = (s) => (s.next ? s.next.game_s : Infinity);
    return rows.sort((a, b) => (filters.sortBy === "deadline" ? deadline(a) - deadline(b) : 0)
      || a.character.name.localeCompare(b.character.name));
  }

  async function write(label, url, body) {
    const answer = await send(label, "POST", url, body);
    message = said(answer, { refused: null });
    render();
    return answer;
  }

  function row(snap) {
    const cid = snap.character.id;
    const correction = h("select", { "aria-label": t("Set the state of %(name)s", { name: snap.character.name }),
      onchange: async (e) => {
        const key = e.target.value;
        if (!key) return;
        if (!(await confirmCorrection(snap.character.name, ruleset.states[key].label))) { e.target.value = ""; return; }   // issue 16: safe taps
        const answer = await write(t("Set state"), `/api/characters/${cid}/actions/`, { action: "set_state", params: { state: key } });
        if (answer.ok) offerUndo({ eventId: id, characterId: cid, said: `${snap.character.name} → ${ruleset.states[key].label}` });   // issue 16: undo
      } },
      h("option", { value: "" }, t("Correct…")), stateOptions());
    return h("tr", { dataset: { character: cid } },
      h("td", {}, h("input", { type: "checkbox", checked: selected.has(cid), "aria-label": snap.character.name,
        onchange: (e) => { if (e.target.checked) selected.add(cid); else selected.delete(cid); showTraits(); } })),
      h("td", {}, h("strong", {}, snap.character.name), h("div", { class: "muted" }, snap.character.team || ""), correction,
        reissueButton(snap.character)),   // issue 16: lost phones
      h("td", { class: `row-state severity-${Math.min(snap.state.severity, 4)}` }, snap.state.label,
        (snap.flags || []).map((flag) => h("div", { class: "flag" }, flag.label)),
        hurt(snap),
        snap.effects.length ? h("div", { class: "muted" }, snap.effects.map((e) => e.text).join(" · ")) : null),
      h("td", {}, snap.next ? [countdownElement("span", snap.next, snap), h("div", { class: "muted" }, "→ ", snap.next.leads_to.label)] : "—"));
  }

  // A body map's hurt limbs and a load that weighs, under the state (Septenario).
  function hurt(snap) {
    const limbs = snap.body ? snap.body.locations.filter((loc) => loc.status !== "ok" && loc.status !== "wounded") : [];
    const load = snap.load && snap.load.status !== "normal" ? snap.load.label : null;
    if (!limbs.length && !load) return null;
    return h("div", { class: "muted hurt" }, limbs.map((loc) => `${loc.label}: ${limbStatus(loc.status)}`).join(" · "),
      limbs.length && load ? " · " : "", load);
  }

  function effectForm() {
    const catalogue = Object.entries((ruleset && ruleset.catalogue) || {});
    const conflictLong = ruleset && ruleset.options && ruleset.options.conflict_gap_s !== undefined;
    const text = h("textarea", { name: "text", rows: 2, placeholder: t("Effet : …"), required: true });
    const minutes = h("input", { name: "minutes", type: "number", min: 1, step: 1,
      placeholder: conflictLong ? t("Minutes (empty: one Conflict)") : t("Minutes (empty: until removed)") });
    const state = h("select", { name: "state" }, h("option", { value: "" }, t("No change of state")), stateOptions());
    // A named effect of the ruleset: its text defaults to its name and explanation, and it
    // says itself what happens to the character (Muerte kills): no state is chosen then.
    const named = catalogue.length ? h("select", { name: "catalogue", "aria-label": t("Effect from the catalogue"),
      onchange: () => {
        const entry = named.value ? ruleset.catalogue[named.value] : null;
        text.required = !entry;
        text.placeholder = entry ? `${entry.label}: ${entry.explains}` : t("Effet : …");
        state.disabled = Boolean(entry && (entry.set_state || entry.action));
        if (state.disabled) state.value = "";
      } },
      h("option", { value: "" }, t("Typed effect (no catalogue)")),
      catalogue.map(([key, entry]) => h("option", { value: key }, entry.label))) : null;
    const target = h("select", { name: "target" },
      h("option", { value: "selected" }, t("The selected characters")),
      teams().map((team) => h("option", { value: `team:${team}` }, t("Team %(team)s", { team }))),
      h("option", { value: "everyone" }, t("Everyone")));
    return h("form", { class: "card effect-form", onsubmit: async (e) => {
      e.preventDefault();
      const body = { text: text.value.trim(), set_state: state.value };
      if (named && named.value) body.catalogue = named.value;
      if (minutes.value) body.duration_s = Number(minutes.value) * 60;
      if (target.value === "everyone") body.everyone = true;
      else if (target.value.startsWith("team:")) body.team = target.value.slice(5);
      else body.character_ids = [...selected];
      // issue 16: safe taps
      const who = body.everyone ? { everyone: characters.size }
        : body.team ? { team: body.team, count: [...characters.values()].filter((c) => c.character.team === body.team).length }
          : { names: [...selected].map((cid) => characters.get(cid)?.character.name).filter(Boolean) };
      const entry = named && named.value ? ruleset.catalogue[named.value] : null;
      if (!(await confirmPush({ who, entry, stateLabel: state.value ? ruleset.states[state.value].label : null }))) return;
      const answer = await write(t("Push an effect"), `/api/events/${id}/effects/`, body);
      if (answer.ok) text.value = "";
    } }, h("h2", {}, t("Push an effect")), named, text, minutes, state, target,
      h("button", { type: "submit", class: "primary" }, t("Push")));
  }

  function controls() {
    const select = (name, first, options) => h("select", { "aria-label": first,
      onchange: (e) => { filters = { ...filters, [name]: e.target.value }; render(); } },
      h("option", { value: "" }, first), options);
    return h("section", { class: "card" },
      clock.running
        ? confirmButton(t("Pause the game"), t("Tap again: pause everything"), () => write(t("Pause"), `/api/events/${id}/clock/`, { action: "pause" }), { class: "danger" })
        : h("button", { type: "button", class: "primary", onclick: () => write(t("Resume"), `/api/events/${id}/clock/`, { action: "resume" }) }, t("Resume the game")),
      h("div", { class: "filters" },
        select("state", t("Every state"), (ruleset ? Object.entries(ruleset.states) : []).map(([key, s]) => h("option", { value: key, selected: filters.state === key }, s.label))),
        select("team", t("Every team"), teams().map((team) => h("option", { value: team, selected: filters.team === team }, team))),
        h("button", { type: "button", onclick: () => { filters.sortBy = filters.sortBy === "deadline" ? "name" : "deadline"; render(); } },
          filters.sortBy === "deadline" ? t("Sorted by next deadline") : t("Sorted by name"))));
  }

  async function loadJournal() {
    const answer = await get(`/api/events/${id}/journal/?last=100`).catch(() => null);
    journal = answer && answer.ok ? answer.data.entries.reverse() : [];
    render();
  }

  function journalPanel() {
    return h("section", { class: "card" }, h("h2", {}, t("Journal")),
      h("button", { type: "button", onclick: loadJournal }, journal ? t("Refresh") : t("Show the journal")),
      h("a", { class: "button", href: `/api/events/${id}/journal.csv` }, t("Export CSV")),
      h("a", { class: "button", href: `/events/${id}/sheets/`, target: "_blank" }, t("Print the character sheets")),
      h("a", { class: "button", href: `/events/${id}/labels/`, target: "_blank" }, t("Print the object labels")),
      journal ? h("ol", { class: "journal" }, journal.map((line) => h("li", {},
        h("span", { class: "muted" }, new Date(line.at).toLocaleTimeString()), " ", line.who, " · ", line.kind, " · ", line.what,
        line.character ? ` · ${line.character}` : "",
        line.before && line.after && line.before.status !== line.after.status ? ` (${line.before.status} → ${line.after.status})` : ""))) : null);
  }

  let active = true;   // a late answer must not draw over the next screen

  function render() {
    if (!active) return;
    mount(root,
      h("h1", {}, event.name || t("Narrator")),
      emergencies.map(emergencyCard),
      !clock.running ? h("p", { class: "card paused" }, t("Game paused: every countdown is frozen.")) : null,
      message ? h("p", { class: "card message", role: "alert" }, message) : null,
      controls(),
      staff ? staff.element : null,
      h("section", { class: "card table-wrap" }, h("table", {},
        h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("Character")), h("th", {}, t("State")), h("th", {}, t("Next")))),
        h("tbody", {}, visible().map(row)))),
      effectForm(), traits, days.element, requests.element, journalPanel(), options);
    showTraits();
  }

  // Kept across redraws: the options stay open, and ticking a box does not redraw (and
  // wipe) the effect being typed.
  const options = optionsPanel(id);
  const requests = requestsPanel(id, { get, send, t, h });
  const days = daysPanel(id);
  // The panels of the event's ruleset (an airsoft day's staff: js/referee.js), if it has any.
  const own = panelFor("narrator", event.ruleset);
  const staff = own ? own.render(id, { players: () => [...characters.values()], onCheckedIn: () => resync() }) : null;

  function emergencyCard(emergency) {
    const who = emergency.character ? emergency.character.name : emergency.who;
    return h("section", { class: "card emergency-alert", role: "alert" },
      h("h2", {}, t("Emergency")),
      h("p", {}, h("strong", {}, who), " — ", new Date(emergency.at).toLocaleTimeString()),
      emergency.reason ? h("p", { class: "effect-text" }, emergency.reason) : null,
      h("p", { class: "muted" }, emergency.paused ? t("The game was paused for everyone.") : t("The game was not paused by it.")),
      h("button", { type: "button", onclick: () => { emergencies.splice(emergencies.indexOf(emergency), 1); render(); } },
        t("Dismiss")));
  }
  const traits = h("div", {});

  function showTraits() {
    const one = selected.size === 1 && ruleset ? characters.get([...selected][0]) : null;
    mount(traits, one ? psychPanel(one, ruleset.traits, write) : null);
  }

  function apply(message_) {
    if (!active) return;
    if (message_.type === "event_snapshot") {
      characters.clear();
      for (const snap of message_.characters) characters.set(snap.character.id, snap);
      clock = message_.clock;
    } else if (message_.type === "snapshot") {
      characters.set(message_.snapshot.character.id, message_.snapshot);
      clock = message_.snapshot.clock;
    } else if (message_.type === "effect") {
      for (const cid of message_.characters) {
        if (characters.has(cid)) characters.set(cid, withEffect(characters.get(cid), message_.effect));
      }
    } else if (message_.type === "emergency") {
      emergencies.unshift(message_.emergency);
      alertNow();
    } else if (message_.type === "day") {
      days.onDay(message_);
      return;
    } else return;
    if (message_.type === "event_snapshot" && message_.characters.length
        && followEventLanguage(message_.characters[0].character.language)) return;
    context.synced();
    if (staff) staff.update({ clock, characters });
    // Typing in the effect form must not be wiped by a push: redraw only the table then.
    const focused = document.activeElement;
    if (root.contains(focused) && (focused.matches("textarea, input[type=number]") || focused.closest(".effect-form"))) {
      const body = root.querySelector("tbody");
      if (body) { mount(body, visible().map(row)); return; }
    }
    render();
  }

  async function resync() {
    const answer = await get(`/api/events/${id}/characters/`).catch(() => null);
    if (answer && answer.ok) {
      apply({ type: "event_snapshot", ...answer.data });
      for (const snap of answer.data.characters) live.hold(snap);
    }
  }

  render();
  const live = new Live(`event=${id}`, {
    onMessage: apply,
    onStatus: (state) => context.setOnline(state === "online"),
  });
  const stopTicking = startTicking(root);
  return () => { active = false; live.close(); stopTicking(); requests.stop(); days.stop(); if (staff) staff.stop(); };
}
