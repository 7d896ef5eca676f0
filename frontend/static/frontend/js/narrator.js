// The narrators' screen: every character live in a list made for hundreds (search, counts
// per state, "next to fall": js/narrator_list.js), the sheet that acts on the selected
// ones (effects pushed to them, a team or everyone; one character's state and traits:
// js/narrator_sheet.js), the game clock, the players' requests to the organisers and the
// journal. Rulesets with an effect catalogue, a body map or days (Septenario) add the
// named effects, each character's hurt limbs, the dawns and day ends, and the untreated
// wounds. On a tablet the list fills the left and the rest stands on the right.
import { get, send } from "./api.js";
import { alertNow } from "./alerts.js";
import { bannerStack } from "./banners.js";
import { startTicking } from "./countdown.js";
import { followEventLanguage, lang, t } from "./i18n.js";
import { Live, withEffect } from "./live.js";
import { liveList } from "./narrator_list.js";
import { daysPanel, optionsPanel } from "./narrator_panels.js";
import { actionSheet } from "./narrator_sheet.js";
import { said } from "./outcome.js";
import { requestBanner, requestsPanel } from "./requests.js";
import { rosterPanel } from "./roster.js";
import { panelFor } from "./panels.js";
import { phonesPanel } from "./phone_readiness.js";
import { confirmButton, h, mount } from "./util.js";

export async function show(root, { id, me, context }) {
  const event = me.events.find((e) => e.id === id) || { id, ruleset: null };
  // The narrators' screen speaks the event's language from the start (unless this phone chose
  // one), not only once characters exist: an import never reloads the page under its result.
  if (followEventLanguage(event.language)) return () => {};
  const characters = new Map();
  const selected = new Set();
  let clock = { running: true };
  let ruleset = null;
  let message = null;
  let journal = null;
  const emergencies = [];   // declared by players, shown until a narrator dismisses them

  try {
    const answer = await get(`/api/rulesets/${event.ruleset}/`);
    if (answer.ok) ruleset = answer.data;
  } catch { /* offline: the corrections menu waits for the network */ }

  // `say(words)`: where the outcome is shown; the top of the screen by default.
  async function write(label, url, body, { say = null, done = null } = {}) {
    const answer = await send(label, "POST", url, body);
    const words = said(answer, { refused: null, done });
    if (say) say(words);
    else { message = words; renderTop(); }
    return answer;
  }

  const sheet = actionSheet({ eventId: id, characters, selected, ruleset, write,
    selectNone: () => list.selectNone() });

  // -- the list, the top of the screen and the panels beside ---------------------------------
  // The players' phones: ready or not (their self-check), counted, and marked in each row.
  const phones = phonesPanel(id, { onChange: () => redrawSoon() });
  const list = liveList({ characters: () => [...characters.values()], ruleset: () => ruleset, selected,
    phone: (cid) => phones.of(cid), onSelection: () => sheet.sync({ selection: true }) });

  async function loadJournal() {
    const answer = await get(`/api/events/${id}/journal/?last=100`).catch(() => null);
    journal = answer && answer.ok ? answer.data.entries.reverse() : [];
    showJournal();
  }

  const journalBox = h("section", { class: "card journal-panel" });
  // A state in the journal by its label in the reader's language, never its key.
  const stateName = (key) => (ruleset && ruleset.states[key] ? ruleset.states[key].label : key);
  function showJournal() {
    mount(journalBox, h("h2", {}, t("Journal")),
      h("button", { type: "button", onclick: loadJournal }, journal ? t("Refresh") : t("Show the journal")),
      h("a", { class: "button", href: `/api/events/${id}/journal.csv` }, t("Export CSV")),
      h("a", { class: "button", href: `/events/${id}/sheets/`, target: "_blank" }, t("Print the character sheets")),
      h("a", { class: "button", href: `/events/${id}/labels/`, target: "_blank" }, t("Print the object labels")),
      journal ? h("ol", { class: "journal" }, journal.map((line) => h("li", {},
        h("span", { class: "muted" }, new Date(line.at).toLocaleTimeString(lang)), " ", line.who, " · ", line.kind, " · ", line.what,
        line.character ? ` · ${line.character}` : "",
        line.before && line.after && line.before.status !== line.after.status ? ` (${stateName(line.before.status)} → ${stateName(line.after.status)})` : ""))) : null);
  }

  let active = true;   // a late answer must not draw over the next screen
  const top = h("div", { class: "narrator-top" });

  function renderTop() {
    if (!active) return;
    mount(top,
      h("div", { class: "narrator-head" }, h("h1", {}, event.name || t("Narrator")),
        clock.running
          ? confirmButton(t("Pause the game"), t("Tap again: pause everything"), () => write(t("Pause"), `/api/events/${id}/clock/`, { action: "pause" }), { class: "danger" })
          : h("button", { type: "button", class: "primary", onclick: () => write(t("Resume"), `/api/events/${id}/clock/`, { action: "resume" }) }, t("Resume the game"))),
      emergencies.map(emergencyCard),
      !clock.running ? h("p", { class: "card paused" }, t("Game paused: every countdown is frozen.")) : null,
      message ? h("p", { class: "card message", role: "alert" }, message) : null);
  }

  // Kept for the whole screen: the options stay open, the days keep the instant being typed.
  const options = optionsPanel(id);
  // A player's new request rings and stays as a banner until a narrator taps "OK".
  const banners = bannerStack(`narrator-${id}`);
  const requests = requestsPanel(id, { get, send, t, h, onNew: (request) => banners.raise([requestBanner(request)]) });
  const days = daysPanel(id);
  const roster = rosterPanel(id, { onImported: () => resync() });
  // The panels of the event's ruleset (an airsoft day's staff: js/referee.js), if it has any.
  const own = panelFor("narrator", event.ruleset);
  const staff = own ? own.render(id, { players: () => [...characters.values()], onCheckedIn: () => resync() }) : null;

  function emergencyCard(emergency) {
    const who = emergency.character ? emergency.character.name : emergency.who;
    return h("section", { class: "card emergency-alert", role: "alert" },
      h("h2", {}, t("Emergency")),
      h("p", {}, h("strong", {}, who), " — ", new Date(emergency.at).toLocaleTimeString(lang)),
      emergency.reason ? h("p", { class: "effect-text" }, emergency.reason) : null,
      h("p", { class: "muted" }, emergency.paused ? t("The game was paused for everyone.") : t("The game was not paused by it.")),
      h("button", { type: "button", onclick: () => { emergencies.splice(emergencies.indexOf(emergency), 1); renderTop(); } },
        t("Dismiss")));
  }

  root.classList.add("narrator-screen");
  renderTop();
  showJournal();
  mount(root, top, list.element,
    h("div", { class: "narrator-side" }, phones.element, requests.element, staff ? staff.element : null, days.element, journalBox, options, roster),
    sheet.element, sheet.button);
  list.refresh();

  function apply(message_) {
    if (!active) return;
    const running = clock.running;
    if (message_.type === "event_snapshot") {
      // A big event's view comes in parts (`part` 0 to `parts` - 1); the API's in one.
      const { part = 0, parts = 1 } = message_;
      if (part === 0) characters.clear();
      for (const snap of message_.characters) characters.set(snap.character.id, snap);
      if (part === parts - 1) for (const cid of [...selected]) if (!characters.has(cid)) selected.delete(cid);
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
      alertNow("game_stop");
      renderTop();
    } else if (message_.type === "request") {
      requests.receive(message_.request);
      return;
    } else if (message_.type === "day") {
      days.onDay(message_);
      return;
    } else if (message_.type === "phone") {
      phones.receive(message_.phone);
      return;
    } else return;
    if (message_.type === "event_snapshot" && !message_.part && message_.characters.length
        && followEventLanguage(message_.characters[0].character.language)) return;
    context.synced();
    if (staff) staff.update({ clock, characters });
    if (clock.running !== running) renderTop();
    redrawSoon();
  }

  // A day end or a push to a team sends a snapshot per character: the list and the sheet
  // follow them once per frame, not once per message.
  let frame = 0;
  function redrawSoon() {
    if (!frame) frame = requestAnimationFrame(() => { frame = 0; if (active) { list.refresh(); sheet.sync(); } });
  }

  async function resync() {
    const answer = await get(`/api/events/${id}/characters/`).catch(() => null);
    if (answer && answer.ok) {
      apply({ type: "event_snapshot", ...answer.data });
      for (const snap of answer.data.characters) live.hold(snap);
    }
  }

  const live = new Live(`event=${id}`, {
    onMessage: apply,
    onStatus: (state) => {
      context.setOnline(state === "online");
      // Requests sent while this screen was cut off are read again on every (re)connect.
      if (state === "online") { requests.refresh(); phones.refresh(); }
    },
    onCheck: () => requests.refresh(),
  });
  const stopTicking = startTicking(root);
  return () => {
    active = false; cancelAnimationFrame(frame); live.close(); stopTicking(); requests.stop(); banners.release(); days.stop(); list.stop(); phones.stop();
    if (staff) staff.stop();
    root.classList.remove("narrator-screen");
  };
}
