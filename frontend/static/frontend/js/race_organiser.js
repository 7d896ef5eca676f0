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
import { get } from "./api.js";
import { alertNow } from "./alerts.js";
import { startTicking } from "./countdown.js";
import { t } from "./i18n.js";
import { Live } from "./live.js";
import { followRaceLanguage, raceEvent, secondsTo, tabs } from "./race_common.js";
import { boardPane } from "./race_org_board.js";
import { coursesPane } from "./race_org_courses.js";
import { entriesPane } from "./race_org_entries.js";
import { importPanel } from "./race_org_import.js";
import { safetyPanes } from "./race_org_safety.js";
import { h, mount } from "./util.js";

const TYPING = "input:not([type=checkbox]):not([type=file]), textarea, select";

export async function show(root, { id, me, params, context }) {
  const event = raceEvent(me, id) || { id, name: "", roles: [] };
  const courses = new Map();        // id -> course (with its balises and warnings)
  const boards = new Map();         // course id -> leaderboard of the course
  const entries = new Map();        // entry id -> organiser view
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
    import: importPanel(id, { onImported: () => loadBoard() }),
  };
  const tabBar = tabs([["safety", t("Safety"), panes.safety], ["board", t("Ranking"), panes.board],
                       ["entries", t("Entries"), panes.entries], ["courses", t("Starts"), panes.courses],
                       ["import", t("Import"), panes.import]], { current: params.get("tab") || "safety" });

  // What the panels share (js/race_org_*.js); `safety` is replaced at each load.
  const org = { id, courses, boards, entries, notes, drafts, openEntries, starts, alerts, alertBox, panes, tabBar,
                safety: null, field, loadBoard, loadCourses, loadSafety, safetySoon };
  const safetyView = safetyPanes(org);
  const board = boardPane(org);
  const entryList = entriesPane(org);
  const courseList = coursesPane(org);


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
    redraw(panes.courses, courseList.draw);
  }

  async function loadBoard() {
    const answer = await read(`/api/race/events/${id}/leaderboard/`);
    if (!answer) return;
    for (const board of answer.data.courses) boards.set(board.course.id, board);
    redraw(panes.board, board.draw);
  }

  async function loadEntries() {
    const answer = await read(`/api/race/events/${id}/entries/`);
    if (!answer) return;
    entries.clear();
    for (const view of answer.data.entries) entries.set(view.entry.id, view);
    redraw(panes.entries, entryList.draw);
  }

  async function loadSafety() {
    const answer = await read(`/api/race/events/${id}/safety/`);
    if (!answer) return;
    org.safety = answer.data;
    if (!answer.fromCache) context.synced();
    safetyView.drawAlerts();
    redraw(panes.safety, safetyView.drawSafety);
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
      redraw(panes.entries, entryList.draw);
      safetySoon();
    } else if (message.kind === "leaderboard") {
      boards.set(message.course.id, { course: message.course, warnings: message.warnings,
                                      ranking: message.ranking, unranked: message.unranked });
      redraw(panes.board, board.draw);
    } else if (message.kind === "overdue_alert") {
      if (!alerts.some((a) => a.entry.id === message.entry.id && a.alerted_at === message.alerted_at)) {
        alerts.unshift(message);
        alertNow("overdue");
      }
      safetyView.drawAlerts();
      safetySoon();
    }
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
      h("a", { class: "button", href: `/race/${id}/iof/results.xml` }, t("Results (IOF XML)")),
      h("a", { class: "button", href: `/race/${id}/iof/startlist.xml` }, t("Start list (IOF XML)")),
      h("a", { class: "button", href: `#/narrator/${id}` }, t("Journal and narrators' screen"))));
  safetyView.drawAlerts();
  safetyView.drawSafety();
  board.draw();
  entryList.draw();
  courseList.draw();

  const live = new Live(`event=${id}`, {
    onMessage: receive,
    onStatus: (state) => { context.setOnline(state === "online"); if (state === "online") loadAll(); },
  });
  const poll = setInterval(loadSafety, 30000);
  // The overdue times count live from each deadline.
  const stopTicking = startTicking(root, () => {
    for (const el of root.querySelectorAll(".race-due")) {
      const left = secondsTo(el.dataset.deadline);
      el.textContent = safetyView.dueWords(el.dataset.deadline);
      el.classList.toggle("race-late", left < 0);
      const row = el.closest(".safety-row");
      if (row) row.classList.toggle("overdue", left < 0);
    }
  });
  loadAll();
  return () => { active = false; live.close(); clearInterval(poll); clearTimeout(safetyTimer); stopTicking(); };
}

