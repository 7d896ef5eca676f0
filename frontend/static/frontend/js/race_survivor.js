// The survivor's screen of the zombie race (#/survivor/<character>): the login of a solo
// survivor or of a team (docs/race.md). The time left as a large countdown to the course's
// deadline, then the overtime counting up in red with what each started minute costs; the
// lives as flags (lost ones crossed); the balises punched (n / N, with their names and
// whether each counts); the score estimate; the status. "Scanner une balise" sends what
// the balise's QR holds, or the code printed under it as typed, to the punch API (a
// refusal's detail is shown); a team changes its carrier here. The server pushes this
// entry on the live channel after every change (`{"type": "race", "kind": "entry"}`,
// race/publish.py): it is applied without a reload.
//
// Which entry: the server does not name it in /api/me/ yet (see docs/phone-app.md), so the
// phone takes it from `character.race_entry` when the server gives it, from the route
// (`?entry=`), from what it remembered, or from the first entry the live channel pushes
// (the gear check, the start, any punch or lost life).
import { get, send } from "./api.js";
import { alertNow, keepAwake, warnBeforeDeadline } from "./alerts.js";
import { clock } from "./clock.js";
import { startTicking } from "./countdown.js";
import { t } from "./i18n.js";
import { Live } from "./live.js";
import { said } from "./outcome.js";
import { followRaceLanguage, scanField, secondsTo, timeWords } from "./race_common.js";
import { statusOf, survivorCards } from "./race_survivor_cards.js";
import { recall, remember } from "./store.js";
import { h, mount } from "./util.js";

const STATUS_RANK = { registered: 0, racing: 1, overtime: 1, finished: 2, dnf: 2, disqualified: 3 };

// Entries carry no version: a later one has at least as many punches, losses and voids,
// and a status at least as far along. An older answer arriving late is dropped.
function progress(view) {
  return view.punches.length + view.life_losses.length + view.life_losses.filter((l) => l.voided).length
    + 100 * (STATUS_RANK[view.status.key] || 0);
}

function entryFrom(message) {
  const { type, kind, server_time: _s, ...view } = message;
  return view;
}

export async function show(root, { id, me, params, context }) {
  const character = (me.characters || []).find((c) => c.id === id) || { id, name: "" };
  const idKey = `race-entry-id:${id}`;
  let entryId = Number(params.get("entry")) || character.race_entry || Number(localStorage.getItem(idKey)) || null;
  const saved = recall(`race:${id}`);
  let entry = saved && saved.value && (!entryId || saved.value.entry.id === entryId) ? saved.value : null;
  if (entry) { entryId = entry.entry.id; context.synced(saved.savedAt); }
  let note = null;          // what the last punch, carrier change or abandon answered
  let askedLate = null;     // the late minute a fresh entry was asked for
  let active = true;

  const scan = scanField({
    id: "checkpoint-code", label: t("Code under the balise's QR code"), placeholder: "H4TR9X", autocapitalize: "characters",
    button: t("Punch"), scanLabel: t("Scan a balise"), onCode: punch,
  });

  function setEntryId(value) {
    entryId = value;
    try { localStorage.setItem(idKey, String(value)); } catch { /* private mode */ }
  }

  function apply(view, { fromCache = false, force = false } = {}) {
    if (!active || !view || !view.entry) return;
    if (entry && entry.entry.id === view.entry.id && !force && progress(view) < progress(entry)) return;
    const before = entry;
    entry = view;
    setEntryId(view.entry.id);
    if (!fromCache) { remember(`race:${id}`, view); context.synced(); }
    if (before && view.lives.remaining < before.lives.remaining) alertNow("grave");
    else if (before && before.status.key !== view.status.key) alertNow("state");
    // Started or over: position sharing (js/tracking.js) asks the server again at once.
    if (!before || before.status.key !== view.status.key) window.dispatchEvent(new CustomEvent("race-status"));
    render();
  }

  async function refresh() {
    if (!entryId) return;
    try {
      const answer = await get(`/api/race/entries/${entryId}/`);
      if (answer.ok) apply(answer.data, { fromCache: answer.fromCache, force: !answer.fromCache });
      else if (answer.status === 404 && !answer.fromCache) {    // not ours (another login on this phone)
        entryId = null;
        entry = null;
        localStorage.removeItem(idKey);
        render();
      }
    } catch { /* offline: keep the last entry */ }
  }

  async function punch(code) {
    if (!entryId) return;
    // The scan's instant (on the server's clock): a punch sent later from the outbox keeps
    // it. Never before the start the phone knows (a clock a little behind would lose it).
    const started = entry && entry.started_at ? Date.parse(entry.started_at) : 0;
    const at = new Date(Math.max(clock.now(), started)).toISOString();
    const answer = await send(t("Punch"), "POST", `/api/race/entries/${entryId}/punches/`, { checkpoint: code, at });
    if (answer.ok) {
      const made = answer.data.punches.find((p) => p.id === answer.data.punch.id);
      const name = made ? `${made.checkpoint.code} ${made.checkpoint.name}`.trim() : code;
      note = made && made.counted
        ? { ok: true, where: "punch", text: t("Balise %(name)s punched: it counts.", { name }) }
        : { ok: false, where: "punch", text: t("Balise %(name)s punched, but it does not count: %(reason)s", { name, reason: made ? made.reason : "" }) };
      scan.clear();
      apply(answer.data, { force: true });
      return;
    }
    note = { ok: false, where: "punch", text: said(answer) };
    render();
  }

  async function changeCarrier(carrier) {
    const answer = await send(t("Change the carrier"), "POST", `/api/race/entries/${entryId}/carrier/`, { carrier });
    note = answer.ok ? { ok: true, where: "carrier", text: t("%(name)s now carries the finger and the belt.", { name: carrier }) }
      : { ok: false, where: "carrier", text: said(answer) };
    if (answer.ok) apply(answer.data, { force: true }); else render();
  }

  async function abandon() {
    const answer = await send(t("Abandon the race"), "POST", `/api/race/entries/${entryId}/abandon/`, { reason: "" });
    note = answer.ok ? { ok: true, where: "head", text: t("Abandon recorded. Go back to the start and hand the finger back: the organisers wait for you.") }
      : { ok: false, where: "head", text: said(answer) };
    if (answer.ok) apply(answer.data, { force: true }); else render();
  }

  const statusKey = () => statusOf(entry);

  function render() {
    if (!active) return;
    if (!entry) {
      mount(root, h("section", { class: "card race-waiting" },
        h("h1", {}, character.name || t("Survivor")),
        h("p", {}, t("Your race shows here as soon as the organisers check your gear or start you.")),
        h("p", { class: "muted" }, t("Keep this screen open; nothing to do yet."))));
      keepAwake(false);
      return;
    }
    mount(root, survivorCards({ id, entry, note, scan, changeCarrier, abandon }));
    keepAwake(["racing", "overtime"].includes(statusKey()));
  }

  // Four times a second: the countdown from the deadline instant; past it, the overtime
  // counting up, and a fresh entry at each new started minute (its penalty is the server's).
  function tick() {
    if (!entry || !["racing", "overtime"].includes(entry.status.key) || !entry.deadline_at) return;
    const left = secondsTo(entry.deadline_at);
    const el = root.querySelector("#race-time");
    const late = left < 0;
    if (!el || late !== el.closest(".race-time").classList.contains("overtime")) { render(); return; }
    el.textContent = timeWords(left);
    warnBeforeDeadline(`race:${entry.entry.id}:${entry.deadline_at}`, left, timeWords(left));
    if (late) {
      const started = Math.ceil(-left / 60);
      if (started !== entry.late_minutes && askedLate !== started) { askedLate = started; refresh(); }
    }
  }

  render();
  const live = new Live(`character=${id}`, {
    onMessage: (message) => {
      if (message.type === "snapshot") {
        if (followRaceLanguage(message.snapshot.character.language)) return;
      } else if (message.type === "race" && message.kind === "entry") {
        apply(entryFrom(message));
      }
    },
    onStatus: (state) => { context.setOnline(state === "online"); if (state === "online") refresh(); },
  });
  refresh();
  const stopTicking = startTicking(root, tick);
  return () => { active = false; live.close(); stopTicking(); scan.stop(); keepAwake(false); };
}
