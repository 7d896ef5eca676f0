// The organisers' screen of the zombie race (#/race/<event>; its organisers are the
// event's narrators). Always on top: who is still out and who is overdue, and the overdue
// alert when it rings on the live channel (with the phone number). Then tabs:
// - Sécurité: per course, who is still out, the most overdue first, the time left or how
//   late (counted live from the deadline), the phone number given at registration;
// - Classement: the live leaderboard per course (pushed after every punch, life or finish),
//   with the "points not confirmed" warning and its confirm button;
// - Inscrits: each entry and what an organiser does to it: gear, start, punch by number,
//   finish, abandon (DNF), disqualify, out of zone / forbidden path, void a lost life,
//   finger and deposit back, carrier, an infraction, the survivor's login QR;
// - Départs: the mass start of each course and its balises;
// - Import: the finger readout (a CSV file); a refused file lists its bad rows.
// And links to the public results page and its CSV.
import { get, send } from "./api.js";
import { alertNow } from "./alerts.js";
import { startTicking } from "./countdown.js";
import { lang, t } from "./i18n.js";
import { Live } from "./live.js";
import { INFRACTIONS, clockTime, courseDuration, followRaceLanguage, livesFlags, raceEvent, said, secondsTo,
         signed, tabs } from "./race_common.js";
import { confirmButton, cookie, formatDuration, h, mount, newKey } from "./util.js";

const TYPING = "input:not([type=checkbox]):not([type=file]), textarea, select";
const ENDED = ["finished", "dnf", "disqualified"];
const GEAR = () => [["vest", t("Yellow vest")], ["light", t("Headlamp or torch")], ["phone", t("Charged phone")]];

const telHref = (phone) => `tel:${String(phone).replace(/[^+\d]/g, "")}`;

export async function show(root, { id, me, params, context }) {
  const event = raceEvent(me, id) || { id, name: "", roles: [] };
  const courses = new Map();        // id -> course (with its balises and warnings)
  const boards = new Map();         // course id -> leaderboard of the course
  const entries = new Map();        // entry id -> organiser view
  let safety = null;
  const alerts = [];                // overdue alerts rung on the live channel
  const notes = new Map();          // entry or course key -> {ok, text}
  const drafts = new Map();         // what is typed in a field, kept across redraws
  const openEntries = new Set();
  const starts = new Map();         // course id -> what its mass start answered
  let active = true;
  let languageFollowed = false;

  const alertBox = h("div", { id: "race-alerts" });
  const panes = {
    safety: h("div", { id: "race-safety" }),
    board: h("div", { id: "race-leaderboard" }),
    entries: h("div", { id: "race-entries" }),
    courses: h("div", { id: "race-courses" }),
    import: importPanel(),
  };
  const tabBar = tabs([["safety", t("Safety"), panes.safety], ["board", t("Ranking"), panes.board],
                       ["entries", t("Entries"), panes.entries], ["courses", t("Starts"), panes.courses],
                       ["import", t("Import"), panes.import]], { current: params.get("tab") || "safety" });

  // -- fields that survive a redraw, and redraws that wait for the typing to end ---------------

  function field(key, attrs = {}) {
    const el = h(attrs.tag || "input", { ...attrs, tag: null, name: attrs.name || key });
    if (drafts.has(key)) el.value = drafts.get(key);
    el.addEventListener("input", () => drafts.set(key, el.value));
    return el;
  }

  const waiting = new Map();   // pane -> its draw, when someone was typing in it
  function redraw(pane, draw) {
    const focused = document.activeElement;
    if (focused && pane.contains(focused) && focused.matches(TYPING)) { waiting.set(pane, draw); return; }
    draw();
  }
  root.addEventListener("focusout", () => setTimeout(() => {
    for (const [pane, draw] of [...waiting]) {
      const focused = document.activeElement;
      if (focused && pane.contains(focused) && focused.matches(TYPING)) continue;
      waiting.delete(pane);
      draw();
    }
  }, 0));

  // -- reading --------------------------------------------------------------------------------

  async function read(url) {
    try {
      const answer = await get(url);
      return answer.ok ? answer : null;
    } catch { return null; }
  }

  async function loadCourses() {
    const answer = await read(`/api/race/events/${id}/courses/`);
    if (!answer) return;
    courses.clear();
    for (const course of answer.data.courses) courses.set(course.id, course);
    redraw(panes.courses, drawCourses);
  }

  async function loadBoard() {
    const answer = await read(`/api/race/events/${id}/leaderboard/`);
    if (!answer) return;
    for (const board of answer.data.courses) boards.set(board.course.id, board);
    redraw(panes.board, drawBoard);
  }

  async function loadEntries() {
    const answer = await read(`/api/race/events/${id}/entries/`);
    if (!answer) return;
    entries.clear();
    for (const view of answer.data.entries) entries.set(view.entry.id, view);
    redraw(panes.entries, drawEntries);
  }

  async function loadSafety() {
    const answer = await read(`/api/race/events/${id}/safety/`);
    if (!answer) return;
    safety = answer.data;
    if (!answer.fromCache) context.synced();
    drawAlerts();
    redraw(panes.safety, drawSafety);
  }

  let safetyTimer = null;
  function safetySoon() {        // many entries may change at once (a mass start, an import)
    clearTimeout(safetyTimer);
    safetyTimer = setTimeout(loadSafety, 600);
  }

  const loadAll = () => Promise.all([loadCourses(), loadBoard(), loadEntries(), loadSafety()]);

  // -- the live channel ---------------------------------------------------------------------------

  function receive(message) {
    if (!active) return;
    if (message.type === "event_snapshot" && !languageFollowed) {
      languageFollowed = true;
      const first = message.characters[0];
      if (followRaceLanguage(first ? first.character.language : event.language)) return;
    }
    if (message.type !== "race") return;
    context.synced();
    if (message.kind === "entries") {
      for (const view of message.entries) entries.set(view.entry.id, view);
      redraw(panes.entries, drawEntries);
      safetySoon();
    } else if (message.kind === "leaderboard") {
      boards.set(message.course.id, { course: message.course, warnings: message.warnings,
                                      ranking: message.ranking, unranked: message.unranked });
      redraw(panes.board, drawBoard);
    } else if (message.kind === "overdue_alert") {
      if (!alerts.some((a) => a.entry.id === message.entry.id && a.alerted_at === message.alerted_at)) {
        alerts.unshift(message);
        alertNow(3);
      }
      drawAlerts();
      safetySoon();
    }
  }

  // -- the alerts, always on top ---------------------------------------------------------------------

  function drawAlerts() {
    const overdue = safety ? safety.courses.reduce((n, c) => n + c.overdue, 0) : 0;
    mount(alertBox,
      alerts.map((alert) => h("section", { class: "card race-alert", role: "alert", dataset: { entry: alert.entry.id } },
        h("h2", {}, t("Overdue alert")),
        h("p", { class: "alert-text" }, alert.text),
        h("p", {}, h("a", { class: "button primary phone-link", href: telHref(alert.phone) }, "☎ ", alert.phone),
          h("button", { type: "button", onclick: () => { alerts.splice(alerts.indexOf(alert), 1); drawAlerts(); } }, t("Dismiss"))))),
      safety ? h("p", { class: `card race-summary${overdue ? " has-overdue" : ""}`, id: "race-summary" },
        h("strong", {}, t("Still out: %(n)s", { n: safety.still_out })), " · ",
        overdue ? h("strong", { class: "race-late" }, t("overdue: %(n)s", { n: overdue })) : t("overdue: %(n)s", { n: 0 }),
        h("button", { type: "button", class: "small", onclick: () => tabBar.choose("safety") }, t("Safety board"))) : null);
  }

  // -- safety ---------------------------------------------------------------------------------------

  function drawSafety() {
    if (!safety) { mount(panes.safety, h("p", { class: "card muted" }, t("Loading…"))); return; }
    mount(panes.safety,
      h("p", { class: "muted" }, t("Alert %(minutes)s min after the deadline. Phone numbers are for the organisers only.",
        { minutes: Math.round(safety.alert_after_s / 60) }),
      " ", h("button", { type: "button", class: "small", onclick: loadSafety }, t("Refresh"))),
      safety.courses.map((course) => h("section", { class: "card safety-course", dataset: { course: course.course.id } },
        h("h2", {}, course.course.name, " — ", t("%(out)s out, %(late)s overdue", { out: course.still_out, late: course.overdue })),
        course.entries.length ? h("ul", { class: "safety-list" }, course.entries.map(safetyRow))
          : h("p", { class: "muted" }, t("Nobody out on this course.")))));
  }

  function safetyRow(row) {
    const team = row.entry.kind === "team";
    return h("li", { class: `safety-row${row.overdue_s > 0 ? " overdue" : ""}${row.alert ? " alerted" : ""}`, dataset: { entry: row.entry.id } },
      h("div", { class: "who" }, h("strong", {}, row.entry.name),
        team ? h("span", { class: "muted" }, " — ", t("carrier: %(name)s", { name: row.entry.carrier })) : null,
        row.alert ? h("span", { class: "race-badge" }, t("ALERT")) : null),
      h("a", { class: "phone-link", href: telHref(row.phone) }, "☎ ", row.phone),
      h("div", { class: "due" },
        row.deadline_at ? h("span", { class: "race-due", dataset: { deadline: row.deadline_at } }, dueWords(row.deadline_at)) : null,
        h("span", { class: "muted" }, " · ", row.status.label, " · ", t("deadline %(time)s", { time: clockTime(row.deadline_at) }),
          " · ", (row.lives === 1 ? t("%(n)s life", { n: 1 }) : t("%(n)s lives", { n: row.lives })), " · ", t("finger %(n)s", { n: row.entry.finger }))));
  }

  function dueWords(deadline) {
    const left = secondsTo(deadline);
    return left >= 0 ? t("%(time)s left", { time: formatDuration(left) }) : t("%(time)s overdue", { time: formatDuration(-left) });
  }

  // -- leaderboard -------------------------------------------------------------------------------

  function drawBoard() {
    if (!boards.size) { mount(panes.board, h("p", { class: "card muted" }, t("Loading…"))); return; }
    mount(panes.board, [...boards.values()].map((board) => h("section", { class: "card board", dataset: { course: board.course.id } },
      h("h2", {}, board.course.name, " ", h("span", { class: "muted" }, courseDuration(board.course.duration_s))),
      board.warnings.map((w) => h("div", { class: "race-warning", role: "alert", dataset: { warning: w.code } }, "⚠ ", w.text,
        w.code === "points_unconfirmed" ? pointsForm(board.course) : null)),
      board.ranking.length ? h("div", { class: "table-wrap" }, h("table", { class: "ranking" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("Survivor(s)")), h("th", { class: "n" }, t("Balises")),
          h("th", { class: "n", title: t("Late minutes") }, t("Late min")), h("th", { class: "n", title: t("Lives lost") }, t("Lives −")),
          h("th", { class: "n" }, t("Elapsed")), h("th", { class: "n" }, t("Race score")))),
        h("tbody", {}, board.ranking.map((row) => h("tr", { dataset: { entry: row.entry.id } },
          h("td", {}, row.rank), h("td", {}, row.entry.name, row.entry.members.length ? h("div", { class: "muted race-small" }, row.entry.members.join(", ")) : null),
          h("td", { class: "n" }, `${row.found}/${row.checkpoints}`), h("td", { class: "n" }, row.late_minutes),
          h("td", { class: "n" }, row.lives_lost), h("td", { class: "n" }, row.elapsed_s !== null ? formatDuration(row.elapsed_s) : ""),
          h("td", { class: "n" }, h("strong", {}, row.score))))))) : h("p", { class: "muted" }, t("Nobody ranked yet.")),
      board.unranked.length ? [h("h3", {}, t("Not ranked (still out: estimate)")), h("div", { class: "table-wrap" }, h("table", { class: "unranked" },
        h("tbody", {}, board.unranked.map((row) => h("tr", { dataset: { entry: row.entry.id } },
          h("td", {}, h("strong", {}, row.entry.name), h("div", { class: "muted race-small" }, (row.unclassified || row.status).label,
            " · ", t("lives − %(n)s", { n: row.lives_lost }))),
          h("td", { class: "n" }, `${row.found}/${row.checkpoints}`),
          h("td", { class: "n" }, row.score === null ? "" : `≈ ${row.score}`))))))] : null)));
  }

  function pointsForm(course) {
    const input = field(`points:${course.id}`, { type: "number", min: 0, max: 10000, step: 1, required: true,
      "aria-label": t("Points per balise"), value: course.points_per_checkpoint });
    if (!drafts.has(`points:${course.id}`)) input.value = course.points_per_checkpoint;
    const note = notes.get(`points:${course.id}`);
    return h("form", { class: "points-form", onsubmit: async (e) => {
      e.preventDefault();
      const answer = await send(t("Confirm the points"), "POST", `/api/race/courses/${course.id}/points/`,
        { points_per_checkpoint: Number(input.value) });
      notes.set(`points:${course.id}`, answer.ok ? null : { ok: false, text: said(answer) });
      drafts.delete(`points:${course.id}`);
      input.blur();
      if (answer.ok) { loadBoard(); loadCourses(); } else drawBoard();
    } },
    h("label", {}, t("Points per balise"), h("div", { class: "race-row" }, input,
      h("button", { type: "submit", class: "primary" }, t("Confirm the points")))),
    note ? h("p", { class: "race-note refusal", role: "alert" }, note.text) : null);
  }

  // -- entries and what organisers do to them ---------------------------------------------------------

  async function act(entryId, label, url, body = {}) {
    const answer = await send(label, "POST", url, body);
    notes.set(entryId, answer.ok ? { ok: true, text: t("Done: %(what)s", { what: label }) } : { ok: false, text: said(answer) });
    if (answer.ok && answer.data.entry && answer.data.entry.phone !== undefined) entries.set(answer.data.entry.id, answer.data);
    if (answer.ok) { for (const key of [...drafts.keys()]) if (key.endsWith(`:${entryId}`)) drafts.delete(key); }
    const focused = document.activeElement;
    if (focused && panes.entries.contains(focused)) focused.blur();
    drawEntries();
    if (answer.ok) safetySoon();
    return answer;
  }

  const entryUrl = (entryId, path) => `/api/race/entries/${entryId}/${path}/`;

  function drawEntries() {
    if (!entries.size) { mount(panes.entries, h("p", { class: "card muted" }, t("No entry yet."))); return; }
    const byCourse = new Map();
    for (const view of entries.values()) {
      if (!byCourse.has(view.course.id)) byCourse.set(view.course.id, { course: view.course, views: [] });
      byCourse.get(view.course.id).views.push(view);
    }
    mount(panes.entries, [...byCourse.values()].map(({ course, views }) => h("section", { class: "card entries-course" },
      h("h2", {}, course.name),
      views.sort((a, b) => a.entry.name.localeCompare(b.entry.name)).map(entryDetails))));
  }

  function entryDetails(view) {
    const eid = view.entry.id;
    const details = h("details", { class: `entry status-${view.status.key}`, open: openEntries.has(eid), dataset: { entry: eid } },
      h("summary", {}, h("strong", {}, view.entry.name), " ",
        h("span", { class: "muted" }, `${view.status.label} · ${view.found}/${view.checkpoints} · `),
        livesFlags(view.lives), h("span", { class: "muted" }, ` · ${t("finger %(n)s", { n: view.entry.finger })}`)),
      openEntries.has(eid) ? entryBody(view) : null);
    details.addEventListener("toggle", () => {
      const had = openEntries.has(eid);
      if (details.open === had) return;
      if (details.open) openEntries.add(eid); else openEntries.delete(eid);
      drawEntries();
    });
    return details;
  }

  function entryBody(view) {
    const eid = view.entry.id;
    const e = view.entry;
    const key = view.status.key;
    const racing = key === "racing" || key === "overtime";
    const note = notes.get(eid);
    const two = (label, confirm, onConfirm, cls = "") => confirmButton(label, confirm, onConfirm, { class: cls }, `${label}:${eid}`);
    return h("div", { class: "entry-body" },
      note ? h("p", { class: note.ok ? "race-note ok" : "race-note refusal", role: note.ok ? "status" : "alert" }, note.text) : null,
      h("p", {}, h("a", { class: "phone-link", href: telHref(e.phone) }, "☎ ", e.phone), " ",
        h("span", { class: "muted" }, t("bib code %(code)s", { code: e.code }))),
      e.kind === "team" ? h("p", { class: "muted" }, e.members.join(", "), " · ", t("carrier: %(name)s", { name: e.carrier })) : null,
      h("p", { class: "muted" },
        view.started_at ? t("started %(time)s", { time: clockTime(view.started_at) }) : t("not started"),
        view.deadline_at ? ` · ${t("deadline %(time)s", { time: clockTime(view.deadline_at) })}` : "",
        view.finished_at ? ` · ${t("finished %(time)s", { time: clockTime(view.finished_at) })}` : "",
        view.score !== null ? ` · ${t("score %(n)s", { n: view.score })}` : ""),
      h("p", { class: "muted" }, t("Deposit: %(state)s", { state: e.deposit_returned_at ? t("returned")
        : e.deposit_taken_at ? t("taken") : t("not taken") }),
        " · ", t("Finger: %(state)s", { state: e.finger_returned_at ? t("back") : t("out") })),
      key === "registered" ? gearAndStart(view, two) : null,
      racing ? raceActions(view, two) : null,
      lossesList(view),
      ENDED.includes(key) && !e.finger_returned_at
        ? two(t("Finger back, deposit returned"), t("Tap again: finger back"), () =>
          act(eid, t("Finger back, deposit returned"), entryUrl(eid, "finger-return"))) : null,
      e.kind === "team" && !ENDED.includes(key) ? carrierForm(view) : null,
      !ENDED.includes(key) ? endForms(view, two) : null,
      infractionForm(view),
      loginQr(view));
  }

  function gearAndStart(view, two) {
    const eid = view.entry.id;
    return h("div", { class: "gear" }, h("h3", {}, t("Mandatory gear")),
      GEAR().map(([item, label]) => h("label", { class: "race-check" },
        h("input", { type: "checkbox", checked: view.entry.gear[item], onchange: (ev) =>
          act(eid, t("Gear check"), entryUrl(eid, "gear"), { [item]: ev.target.checked }) }), " ", label)),
      !view.entry.deposit_taken_at ? h("button", { type: "button", class: "small", onclick: () =>
        act(eid, t("Deposit taken"), entryUrl(eid, "deposit")) }, t("Deposit taken")) : null,
      two(t("Start now"), t("Tap again: start"), () => act(eid, t("Start now"), entryUrl(eid, "start")), "primary"));
  }

  function raceActions(view, two) {
    const eid = view.entry.id;
    const code = field(`punch:${eid}`, { autocomplete: "off", placeholder: "31", "aria-label": t("Balise number or QR") });
    const flags = field(`flags:${eid}`, { type: "number", min: 0, max: 10, step: 1, "aria-label": t("Flags on the belt (optional)"),
      placeholder: String(view.lives.remaining) });
    return h("div", { class: "race-actions" },
      h("h3", {}, t("Record the finish")),
      h("label", {}, t("Flags on the belt (optional)"), flags),
      two(t("Record the finish"), t("Tap again: finish"), () => act(eid, t("Record the finish"), entryUrl(eid, "finish"),
        flags.value !== "" ? { flags_on_belt: Number(flags.value) } : {}), "primary"),
      h("h3", {}, t("A marshal saw them")),
      two(t("Out of the race zone"), t("Tap again: a life for leaving the zone"), () =>
        act(eid, t("Out of the race zone"), entryUrl(eid, "zone-losses"), { cause: "out_of_zone" }), "danger"),
      two(t("Forbidden path or fence"), t("Tap again: a life for a forbidden path"), () =>
        act(eid, t("Forbidden path or fence"), entryUrl(eid, "zone-losses"), { cause: "forbidden_path" }), "danger"),
      h("h3", {}, t("Punch a balise")),
      h("form", { class: "race-row", onsubmit: (ev) => { ev.preventDefault(); if (code.value.trim()) act(eid, t("Punch"), entryUrl(eid, "punches"), { checkpoint: code.value.trim() }); } },
        code, h("button", { type: "submit" }, t("Punch"))));
  }

  function lossesList(view) {
    if (!view.life_losses.length) return null;
    const eid = view.entry.id;
    return h("div", { class: "losses-org" }, h("h3", {}, t("Lives lost")),
      h("ul", { class: "losses" }, view.life_losses.map((loss) => {
        const reason = field(`void:${loss.id}:${eid}`, { autocomplete: "off", "aria-label": t("Why void it"), placeholder: t("Why void it") });
        return h("li", { class: loss.voided ? "voided" : "", dataset: { loss: loss.id } },
          h("span", { class: "muted" }, clockTime(loss.at)), " ", loss.cause.label,
          loss.review ? h("div", { class: "message" }, "⚠ ", loss.review.text) : null,
          loss.voided ? h("div", { class: "muted" }, t("voided: %(reason)s", { reason: loss.void_reason }))
            : loss.took_life ? h("div", { class: "race-row void-form" }, reason,
              confirmButton(t("Void the loss"), t("Tap again: give the life back"), () => {
                if (!reason.value.trim()) { notes.set(eid, { ok: false, text: t("Give the reason first.") }); drawEntries(); return; }
                act(eid, t("Void the loss"), `/api/race/life-losses/${loss.id}/void/`, { reason: reason.value.trim() });
              }, { class: "small" }, `void:${loss.id}`))
              : h("div", { class: "muted" }, t("no life left to take")));
      })));
  }

  function carrierForm(view) {
    const eid = view.entry.id;
    const choice = h("select", { name: "carrier", "aria-label": t("New carrier") },
      view.entry.members.map((name) => h("option", { value: name, selected: name === view.entry.carrier }, name)));
    return h("form", { class: "race-row", onsubmit: (ev) => { ev.preventDefault(); act(eid, t("Change the carrier"), entryUrl(eid, "carrier"), { carrier: choice.value }); } },
      choice, h("button", { type: "submit", class: "small" }, t("Change the carrier")));
  }

  function endForms(view, two) {
    const eid = view.entry.id;
    const reason = field(`end:${eid}`, { autocomplete: "off", maxlength: 300, "aria-label": t("Reason"), placeholder: t("Reason") });
    const needReason = (then) => () => {
      if (!reason.value.trim()) { notes.set(eid, { ok: false, text: t("Give the reason first.") }); drawEntries(); return; }
      then(reason.value.trim());
    };
    return h("details", { class: "end-forms" }, h("summary", {}, t("Abandon or disqualification")),
      h("label", {}, t("Reason"), reason),
      two(t("Abandon (DNF)"), t("Tap again: abandon"), () =>
        act(eid, t("Abandon (DNF)"), entryUrl(eid, "abandon"), { reason: reason.value.trim() }), "danger"),
      two(t("Disqualify"), t("Tap again: disqualify"), needReason((why) =>
        act(eid, t("Disqualify"), entryUrl(eid, "disqualify"), { reason: why })), "danger"));
  }

  function infractionForm(view) {
    const eid = view.entry.id;
    const form = h("form", { class: "infraction-form", onsubmit: (ev) => {
      ev.preventDefault();
      act(eid, t("Record the infraction"), entryUrl(eid, "infractions"), { kind: form.elements.kind.value,
        note: form.elements.note.value.trim(), penalty_points: Number(form.elements.penalty_points.value || 0) });
    } },
    h("label", {}, t("Which infraction"), h("select", { name: "kind" }, INFRACTIONS().map(([k, label]) => h("option", { value: k }, label)))),
    h("label", {}, t("Note (optional)"), field(`note:${eid}`, { name: "note", maxlength: 300, autocomplete: "off" })),
    h("label", {}, t("Penalty points"), field(`penalty:${eid}`, { name: "penalty_points", type: "number", min: 0, max: 1000, step: 1 })),
    h("button", { type: "submit" }, t("Record the infraction")));
    const listed = (view.infractions || []).map((i) => h("li", {}, h("span", { class: "muted" }, clockTime(i.at)), " ",
      (INFRACTIONS().find(([k]) => k === i.kind) || [i.kind, i.kind])[1], i.note ? ` — ${i.note}` : "",
      i.penalty_points ? ` (${signed(-i.penalty_points)})` : ""));
    return h("details", { class: "infractions" }, h("summary", {}, t("Infractions (%(n)s)", { n: listed.length })),
      listed.length ? h("ul", {}, listed) : null, form);
  }

  function loginQr(view) {
    const box = h("div", { class: "qr", hidden: true });
    return h("div", {}, h("button", { type: "button", class: "small", onclick: () => {
      if (!box.hidden) { box.hidden = true; return; }
      mount(box, h("img", { src: `/api/characters/${view.entry.character}/login-qr.svg?${Date.now()}`, alt: t("Login QR code of %(name)s", { name: view.entry.name }) }),
        h("p", { class: "muted" }, t("A one-time login: scanned, it opens the survivor's screen on their phone.")));
      box.hidden = false;
    } }, t("Survivor's login QR code")), box);
  }

  // -- courses: mass start and balises -----------------------------------------------------------------

  function drawCourses() {
    if (!courses.size) { mount(panes.courses, h("p", { class: "card muted" }, t("Loading…"))); return; }
    mount(panes.courses, [...courses.values()].map((course) => {
      const answer = starts.get(course.id);
      return h("section", { class: "card course", dataset: { course: course.id } },
        h("h2", {}, course.name, " ", h("span", { class: "muted" }, courseDuration(course.duration_s))),
        h("p", { class: "muted" }, t("%(points)s points per balise", { points: course.points_per_checkpoint }),
          course.points_confirmed ? "" : ` (${t("not confirmed")})`,
          course.mass_started_at ? ` · ${t("mass start at %(time)s", { time: clockTime(course.mass_started_at) })}` : ""),
        confirmButton(t("Mass start: %(course)s", { course: course.name }), t("Tap again: everyone ready starts now"),
          () => massStart(course), { class: "primary" }, `mass:${course.id}`),
        answer ? startAnswer(answer) : null,
        h("details", { class: "balises" }, h("summary", {}, t("Balises (%(n)s)", { n: course.checkpoints.length })),
          h("ul", {}, course.checkpoints.map((cp) => h("li", {}, h("strong", {}, cp.code), " ", cp.name, " ",
            h("span", { class: "muted" }, cp.qr))))));
    }));
  }

  function startAnswer(answer) {
    if (answer.refused) return h("p", { class: "race-note refusal", role: "alert" }, answer.refused);
    return h("div", { class: "start-answer", role: "status" },
      h("p", { class: "race-note ok" }, startedWords(answer.started.map((e) => e.name))),
      answer.not_started.length ? h("div", {}, h("p", { class: "message" }, t("Not started (still registered):")),
        h("ul", {}, answer.not_started.map((e) => h("li", {}, h("strong", {}, e.name), " — ", e.detail)))) : null);
  }

  function startedWords(names) {
    if (!names.length) return t("Nobody started.");
    const values = { n: names.length, names: names.join(", ") };
    return names.length === 1 ? t("One started: %(names)s", values) : t("%(n)s started: %(names)s", values);
  }

  async function massStart(course) {
    const answer = await send(t("Mass start: %(course)s", { course: course.name }), "POST", `/api/race/courses/${course.id}/start/`, {});
    starts.set(course.id, answer.ok ? answer.data : { refused: said(answer) });
    drawCourses();
    if (answer.ok) { loadCourses(); safetySoon(); }
  }

  // -- the finger readout ------------------------------------------------------------------------------

  function importPanel() {
    const file = h("input", { type: "file", name: "file", accept: ".csv,text/csv,text/plain", required: true,
                              "aria-label": t("Readout file (CSV)") });
    const result = h("div", { class: "import-result", id: "import-result" });
    const form = h("form", { class: "card import-form", onsubmit: async (ev) => {
      ev.preventDefault();
      if (!file.files.length) return;
      mount(result, h("p", { class: "muted" }, t("Sending the file…")));
      const body = new FormData();
      body.append("file", file.files[0]);
      let response;
      let data = {};
      try {
        response = await fetch(`/api/race/events/${id}/punches/import/`, { method: "POST", body, credentials: "same-origin",
          headers: { Accept: "application/json", "Accept-Language": lang, "X-CSRFToken": cookie("csrftoken"), "Idempotency-Key": newKey() } });
        data = await response.json().catch(() => ({}));
      } catch {
        mount(result, h("p", { class: "race-note refusal", role: "alert" }, t("No network: the import needs the network.")));
        return;
      }
      if (response.ok) {
        mount(result, h("p", { class: "race-note ok", role: "status" }, t("%(rows)s punches read: %(imported)s imported, %(already)s already there, %(entries)s entries.", {
          rows: data.rows, imported: data.imported, already: data.already_there, entries: data.entries })));
        form.reset();
        loadBoard();
        return;
      }
      mount(result, h("div", { class: "race-note refusal", role: "alert" }, h("p", {}, h("strong", {}, data.detail || t("Refused."))),
        data.rows && data.rows.length ? h("table", { class: "bad-rows" },
          h("thead", {}, h("tr", {}, h("th", {}, t("File line")), h("th", {}, t("Reason")))),
          h("tbody", {}, data.rows.map((row) => h("tr", {}, h("td", { class: "n" }, row.line), h("td", {}, row.reason))))) : null,
        data.rows && data.rows.length ? h("p", {}, t("Nothing was imported: fix these lines and send the file again.")) : null));
    } },
    h("h2", {}, t("Finger readout")),
    h("p", { class: "muted" }, t("A CSV file with the columns doigt, balise, heure (or finger, checkpoint, time). A file with a bad line imports nothing.")),
    h("label", {}, t("Readout file (CSV)"), file),
    h("button", { type: "submit", class: "primary" }, t("Import")), result);
    return form;
  }

  // -- the screen -------------------------------------------------------------------------------------------

  mount(root,
    h("h1", {}, event.name || t("Race")),
    h("p", { class: "muted" }, t("Organisers of the zombie race")),
    alertBox,
    h("section", { class: "card race-tabs-card" }, tabBar.bar),
    tabBar.body,
    h("section", { class: "card links" },
      h("a", { class: "button", href: `/race/${id}/results/`, target: "_blank", rel: "noopener" }, t("Public results")),
      h("a", { class: "button", href: `/race/${id}/results.csv` }, t("Results CSV")),
      h("a", { class: "button", href: `#/narrator/${id}` }, t("Journal and narrators' screen"))));
  drawAlerts();
  drawSafety();
  drawBoard();
  drawEntries();
  drawCourses();

  const live = new Live(`event=${id}`, {
    onMessage: receive,
    onStatus: (state) => { context.setOnline(state === "online"); if (state === "online") loadAll(); },
    resync: () => {},
  });
  const poll = setInterval(loadSafety, 30000);
  // The overdue times count live from each deadline.
  const stopTicking = startTicking(root, () => {
    for (const el of root.querySelectorAll(".race-due")) {
      const left = secondsTo(el.dataset.deadline);
      el.textContent = dueWords(el.dataset.deadline);
      el.classList.toggle("race-late", left < 0);
      const row = el.closest(".safety-row");
      if (row) row.classList.toggle("overdue", left < 0);
    }
  });
  loadAll();
  return () => { active = false; live.close(); clearInterval(poll); clearTimeout(safetyTimer); stopTicking(); };
}
