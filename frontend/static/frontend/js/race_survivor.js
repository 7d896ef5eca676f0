// The survivor's screen of the zombie race (#/survivor/<character>): the login of a solo
// survivor or of a team (docs/race.md). The time left as a large countdown to the course's
// deadline, then the overtime counting up in red with what each started minute costs; the
// lives as flags (lost ones crossed); the balises punched (n / N, with their names and
// whether each counts); the score estimate; the status. "Scanner une balise" sends what
// the balise's QR holds to the punch API (a refusal's detail is shown); a team changes its
// carrier here. The server pushes this entry on the live channel after every change
// (`{"type": "race", "kind": "entry"}`, race/publish.py): it is applied without a reload.
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
import { clockTime, courseDuration, followRaceLanguage, livesFlags, scanField, secondsTo, signed,
         timeWords } from "./race_common.js";
import { said } from "./outcome.js";
import { recall, remember } from "./store.js";
import { confirmButton, formatDuration, h, mount } from "./util.js";

const STATUS_RANK = { registered: 0, racing: 1, overtime: 1, finished: 2, dnf: 2, disqualified: 3 };
const ENDED = ["finished", "dnf", "disqualified"];

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
    id: "checkpoint-code", label: t("What the balise's QR code holds"), placeholder: "RBN-…",
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
    if (before && view.lives.remaining < before.lives.remaining) alertNow(3);
    else if (before && before.status.key !== view.status.key) alertNow();
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

  // -- drawing ------------------------------------------------------------------------------

  const statusKey = () => {
    const key = entry.status.key;
    if (key === "racing" && entry.deadline_at && secondsTo(entry.deadline_at) < 0) return "overtime";
    return key;
  };

  function header() {
    const team = entry.entry.kind === "team";
    return h("section", { class: `card race-head status-${statusKey()}` },
      h("p", { class: "muted race-course" }, t("Course %(name)s · %(duration)s", {
        name: entry.course.name, duration: courseDuration(entry.course.duration_s) })),
      h("h1", { class: "race-name" }, entry.entry.name),
      team ? h("p", { class: "muted" }, entry.entry.members.join(", "), " · ",
        t("Carrier: %(name)s", { name: entry.entry.carrier })) : null,
      h("p", { class: "race-status", id: "race-status" }, statusLabel()),
      noteFor("head"));
  }

  function noteFor(where) {
    if (!note || note.where !== where) return null;
    return h("p", { class: note.ok ? "race-note ok" : "race-note refusal", role: note.ok ? "status" : "alert" }, note.text);
  }

  function statusLabel() {
    const key = statusKey();
    if (key === "overtime" && entry.status.key === "racing") return t("Overtime");
    if (key === "registered") return t("Not started yet");
    return entry.status.label;
  }

  function timeCard() {
    const key = statusKey();
    if (key === "registered") {
      return h("section", { class: "card race-time" }, h("h2", {}, t("Race time")),
        h("p", { class: "big-timer race-clock" }, formatDuration(entry.course.duration_s)),
        h("p", { class: "muted" }, t("The countdown starts with your start.")));
    }
    if (ENDED.includes(key)) {
      const elapsed = entry.finished_at && entry.started_at
        ? (Date.parse(entry.finished_at) - Date.parse(entry.started_at)) / 1000 : null;
      return h("section", { class: "card race-time" }, h("h2", {}, t("Race time")),
        entry.finished_at ? h("p", {}, t("Finished at %(time)s", { time: clockTime(entry.finished_at) }),
          elapsed !== null ? h("strong", { class: "race-elapsed" }, ` · ${formatDuration(elapsed)}`) : null) : null,
        entry.late_minutes ? h("p", { class: "late-words" }, lateWords()) : null);
    }
    const left = secondsTo(entry.deadline_at);
    return h("section", { class: `card race-time${left < 0 ? " overtime" : ""}` },
      h("h2", { id: "race-time-label" }, left < 0 ? t("Overtime") : t("Time left")),
      h("p", { class: "big-timer race-clock", id: "race-time", "aria-labelledby": "race-time-label",
               dataset: { deadline: entry.deadline_at } }, timeWords(left)),
      h("p", { class: "muted" }, t("Deadline %(time)s", { time: clockTime(entry.deadline_at) })),
      h("p", { class: "late-words", id: "race-late" }, left < 0 ? lateWords() : t("Each started minute late costs points.")));
  }

  // "3 started minutes late: −15 points (−5 per started minute)", from the server's numbers.
  function lateWords() {
    const minutes = entry.late_minutes;
    if (!minutes) return t("Late: hurry back to the finish.");
    const per = -entry.breakdown.late / minutes;
    return t("%(n)s minutes late: %(points)s points (%(per)s per started minute)", {
      n: minutes, points: signed(entry.breakdown.late), per: signed(-per) });
  }

  function livesCard() {
    const losses = entry.life_losses;
    return h("section", { class: "card race-lives", id: "race-lives" },
      h("h2", {}, t("Lives")),
      h("div", { class: "lives-row" }, livesFlags(entry.lives, { big: true }),
        h("strong", { class: "lives-count", id: "lives-count" }, `${entry.lives.remaining} / ${entry.lives.initial}`)),
      entry.lives.remaining === 0 ? h("p", { class: "muted" }, t("No flag left: you still race and may finish.")) : null,
      losses.length ? h("ul", { class: "losses" }, losses.map((loss) => h("li", { class: loss.voided ? "voided" : "" },
        h("span", { class: "muted" }, clockTime(loss.at)), " ", loss.cause.label,
        loss.voided ? h("span", {}, " — ", t("voided: the life is back"), loss.void_reason ? ` (${loss.void_reason})` : "")
          : !loss.took_life ? h("span", { class: "muted" }, " — ", t("no life left to take")) : null))) : null);
  }

  function punchesCard() {
    const racing = ["racing", "overtime"].includes(statusKey());
    return h("section", { class: "card race-punches", id: "race-punches" },
      h("h2", {}, t("Balises")),
      h("p", { class: "found" }, h("strong", { id: "found-count" }, `${entry.found} / ${entry.checkpoints}`), " ",
        t("balises found")),
      racing ? scan.element : null,
      noteFor("punch"),
      entry.punches.length ? h("ol", { class: "punch-list" }, entry.punches.map((p) => h("li", { class: p.counted ? "counted" : "not-counted" },
        h("span", { class: "mark", "aria-hidden": "true" }, p.counted ? "✔ " : "✘ "),
        h("strong", {}, p.checkpoint.code), " ", p.checkpoint.name, " ", h("span", { class: "muted" }, clockTime(p.at)),
        p.counted ? null : h("div", { class: "muted" }, t("does not count: %(reason)s", { reason: p.reason }))))) : null);
  }

  function scoreCard() {
    if (entry.score === null || entry.score === undefined) return null;
    const b = entry.breakdown;
    const parts = [[t("balises"), b.points], [t("not found"), b.unfound], [t("late minutes"), b.late], [t("lives lost"), b.lives],
                   [t("exits without a life"), b.exits_without_life], [t("infractions"), b.infractions]]
      .filter(([, value], i) => i < 2 || value);
    const final = statusKey() === "finished";
    return h("section", { class: "card race-score" },
      h("h2", {}, final ? t("Final score") : t("Score estimate")),
      h("p", {}, h("strong", { class: "score", id: "race-score" }, String(entry.score)), " ", t("points")),
      h("p", { class: "muted breakdown" }, parts.map(([label, value]) => `${label} ${signed(value)}`).join(" · ")),
      final ? null : h("p", { class: "muted" }, t("If you finished now; the organisers' ranking is the one that counts.")),
      entry.warnings.map((w) => h("p", { class: "race-warning" }, "⚠ ", w.text)));
  }

  function carrierCard() {
    if (entry.entry.kind !== "team" || ENDED.includes(statusKey())) return null;
    const others = entry.entry.members.filter((m) => m !== entry.entry.carrier);
    const choice = h("select", { name: "carrier", "aria-label": t("New carrier") },
      others.map((name) => h("option", { value: name }, name)));
    return h("section", { class: "card race-carrier" }, h("h2", {}, t("Change the carrier")),
      h("p", { class: "muted" }, t("Whoever carries the finger carries the belt.")),
      h("form", { onsubmit: (e) => { e.preventDefault(); if (choice.value) changeCarrier(choice.value); } },
        choice, h("button", { type: "submit" }, t("Change the carrier"))), noteFor("carrier"));
  }

  function abandonCard() {
    if (!["racing", "overtime"].includes(statusKey())) return null;
    return h("section", { class: "card race-abandon" },
      confirmButton(t("Abandon the race"), t("Tap again: abandon"), abandon, { class: "danger" }, `abandon:${id}`),
      h("p", { class: "muted" }, t("You stay on the safety board until you hand the finger back.")));
  }

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
    mount(root, header(), timeCard(), livesCard(), punchesCard(), scoreCard(), carrierCard(), abandonCard());
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
    warnBeforeDeadline(`race:${entry.entry.id}:${entry.deadline_at}`, left);
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
    resync: () => refresh(),
  });
  refresh();
  const stopTicking = startTicking(root, tick);
  return () => { active = false; live.close(); stopTicking(); scan.stop(); keepAwake(false); };
}
