// The safety board (#/safety/<event>), for every kind of event, of the organisers and the
// safety team: the calls for help (real) first, each taken by one ("I'm on it") and closed
// with an outcome;
// then who is still out (per team), and who needs a look: not heard from for a while, a
// low battery, still out after the end. A row marked "seen" leaves the list (journalled).
// When the event tracks its races, the runners' last positions too (list and plan).
// Calls arrive live on the event's socket (`safety` messages); the board is read again
// when it changes and every 30 s (silence is the passing of time, not a message). The
// settings, the plan's upload and "out for real" (it stops game timers) are the
// narrators' alone: the board says whether this reader is one (`narrator`).
import { alertNow } from "./alerts.js";
import { get, send } from "./api.js";
import { kindLabel } from "./help.js";
import { colon, t } from "./i18n.js";
import { Live } from "./live.js";
import { said } from "./outcome.js";
import { planPanel } from "./safety_plan.js";
import { h, mount } from "./util.js";

const OUTCOMES = () => [["treated", t("Treated on the spot")], ["evacuated", t("Taken off the field")],
  ["found", t("Found")], ["false_alarm", t("False alarm")], ["other", t("Other")]];
const REASONS = () => ({ silent: t("Not heard from"), battery_low: t("Low battery"),
  not_checked_out: t("Not checked out after the end"), out_for_real: t("Out for real") });
const timeOf = (iso) => (iso ? new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "");
const BOARD_EVERY_MS = 30000;

function agoWords(iso) {
  if (!iso) return t("never");
  const minutes = Math.max(0, Math.floor((Date.now() - Date.parse(iso)) / 60000));
  return minutes < 1 ? t("just now") : t("%(n)s min ago", { n: minutes });
}

export async function show(root, { id, context }) {
  const calls = new Map();
  let board = null;
  let message = "";
  let active = true;
  const top = h("p", { class: "card safety-message", role: "status" });
  const callsBox = h("section", { class: "safety-calls", "aria-label": t("Calls for help") });
  const boardBox = h("section", { class: "safety-board" });
  // The site plan sits under the calls: where each one is (js/safety_plan.js).
  const plan = planPanel(id, { reload: () => loadBoard() });
  mount(root, h("h1", {}, t("Safety")), top, callsBox, plan.element, boardBox);

  async function write(label, url, body) {
    const answer = await send(label, "POST", url, body);
    message = said(answer, { refused: t("Refused.") }) || "";
    if (answer.ok && answer.data && answer.data.status) keep(answer.data);
    draw();
    return answer;
  }

  function keep(call) { calls.set(call.id, call); }
  // Who is out of the game for real already (the board's rows say).
  const narrator = () => Boolean(board && board.narrator);
  const heldIds = () => new Set(board ? board.rows.filter((r) => r.out_for_real).map((r) => r.character.id) : []);

  function callCard(call) {
    const outcome = h("select", { name: "outcome", "aria-label": t("Outcome") },
      OUTCOMES().map(([key, label]) => h("option", { value: key }, label)));
    const note = h("input", { name: "outcome-note", maxlength: 500, placeholder: t("What was done (optional)"), "aria-label": t("What was done (optional)") });
    const where = call.position;
    return h("article", { class: `card help-call help-${call.status}`, dataset: { call: call.id }, role: call.status === "open" ? "alert" : null },
      h("h2", {}, kindLabel(call.kind), " — ", call.character ? call.character.name : call.caller,
        call.character && call.character.team ? h("span", { class: "muted" }, ` (${call.character.team})`) : null),
      call.note ? h("p", { class: "help-note" }, call.note) : null,
      h("p", { class: "muted" }, t("Tapped at %(time)s", { time: timeOf(call.tapped_at) }),
        call.tapped_at !== call.received_at ? ` · ${t("received at %(time)s", { time: timeOf(call.received_at) })}` : ""),
      where ? h("p", { class: "help-where" }, h("a", { href: `geo:${where.latitude},${where.longitude}` },
        `${where.latitude.toFixed(5)}, ${where.longitude.toFixed(5)}`),
      where.accuracy_m !== null ? ` ± ${Math.round(where.accuracy_m)} m` : "") : h("p", { class: "muted" }, t("No position given.")),
      call.status === "open"
        ? h("button", { type: "button", class: "primary help-take", onclick: () => write(t("I'm on it"), `/api/help/${call.id}/take/`, {}) }, t("I'm on it"))
        : null,
      narrator() && call.status !== "closed" && call.character && !heldIds().has(call.character.id) ? h("button", { type: "button", class: "small help-hold",
        onclick: () => write(t("Out of the game for real"), `/api/characters/${call.character.id}/out-for-real/`,
          { out: true, reason: [kindLabel(call.kind), call.note].filter(Boolean).join(" — ").slice(0, 200) }).then(loadBoard) },
      t("Out of the game for real")) : null,
      call.status === "taken" ? h("p", { class: "help-taken-by" }, h("strong", {}, t("%(name)s is on it", { name: call.taken_by })),
        ` · ${timeOf(call.taken_at)}`) : null,
      call.status === "closed"
        ? h("p", { class: "muted" }, t("Closed by %(name)s at %(time)s", { name: call.closed_by, time: timeOf(call.closed_at) }),
          " · ", (OUTCOMES().find(([k]) => k === call.outcome) || ["", call.outcome])[1], call.outcome_note ? ` — ${call.outcome_note}` : "")
        : h("div", { class: "row help-close" }, outcome, note,
          h("button", { type: "button", onclick: () => write(t("Close the call"), `/api/help/${call.id}/close/`, { outcome: outcome.value, note: note.value.trim() }) }, t("Close the call"))));
  }

  function row(line) {
    const reasons = REASONS();
    const battery = line.battery ? `${line.battery.level} %${line.battery.charging ? " ⚡" : ""}` : "—";
    return h("li", { class: "safety-row", dataset: { character: line.character.id } },
      h("div", { class: "who" }, h("strong", {}, line.character.name),
        line.character.team ? h("span", { class: "muted" }, ` (${line.character.team})`) : null),
      h("div", {}, line.reasons.map((r) => h("span", { class: `safety-reason reason-${r}` }, reasons[r] || r))),
      h("div", { class: "muted" }, t("last seen %(ago)s", { ago: agoWords(line.last_seen_at) }), " · ", t("battery %(level)s", { level: battery }),
        line.acknowledged_by ? ` · ${t("seen by %(name)s at %(time)s", { name: line.acknowledged_by, time: timeOf(line.acknowledged_at) })}` : ""),
      line.out_for_real ? h("p", { class: "real-injury" }, t("Out for real"), " — ", line.out_for_real.reason, " ",
        !narrator() ? null : h("button", { type: "button", class: "small", onclick: () => write(t("Back in the game"), `/api/characters/${line.character.id}/out-for-real/`, { out: false }).then(loadBoard) },
          t("Back in the game"))) : null,
      h("div", { class: "row" },
        h("button", { type: "button", class: "small", onclick: () => write(t("Seen"), `/api/characters/${line.character.id}/seen/`, {}).then(loadBoard) }, t("Seen")),
        h("button", { type: "button", class: "small", onclick: () => write(t("Left the field"), `/api/characters/${line.character.id}/check-out/`, { out: true }).then(loadBoard) }, t("Left the field"))));
  }

  function settingsForm(settings) {
    const minutes = h("input", { type: "number", min: 1, max: 1440, name: "silent_after_min", value: settings.silent_after_min });
    const battery = h("input", { type: "number", min: 0, max: 100, name: "battery_low_pct", value: settings.battery_low_pct });
    const ends = h("input", { type: "datetime-local", name: "ends_at", value: settings.ends_at ? toLocalInput(settings.ends_at) : "" });
    const tracking = h("input", { type: "checkbox", name: "race_tracking", checked: settings.race_tracking });
    return h("details", { class: "card safety-settings" }, h("summary", {}, t("Board settings")),
      h("label", {}, t("Not heard from after (minutes)"), minutes),
      h("label", {}, t("Low battery at (%)"), battery),
      h("label", {}, t("End on the field"), ends),
      h("label", { class: "safety-tracking" }, tracking, " ", t("Runners share their position during their race (tell them beforehand)")),
      h("button", { type: "button", onclick: () => write(t("Board settings"), `/api/events/${id}/safety/settings/`, {
        silent_after_min: Number(minutes.value), battery_low_pct: Number(battery.value),
        ends_at: ends.value ? new Date(ends.value).toISOString() : null, race_tracking: tracking.checked }).then(loadBoard) }, t("Save")));
  }

  // The runners' last positions, while the event tracks its races: who, where, how old.
  function positionsCard(positions) {
    return h("section", { class: "card safety-positions" }, h("h2", {}, t("Runners' last positions")),
      positions.length ? h("ul", { class: "safety-list" }, positions.map((p) => h("li", { class: "safety-position", dataset: { character: p.character.id } },
        h("strong", {}, p.character.name), p.character.team ? h("span", { class: "muted" }, ` (${p.character.team})`) : null, " — ",
        h("a", { href: `geo:${p.latitude},${p.longitude}` }, `${p.latitude.toFixed(5)}, ${p.longitude.toFixed(5)}`),
        p.accuracy_m !== null ? ` ± ${Math.round(p.accuracy_m)} m` : "", " · ", agoWords(p.at))))
        : h("p", { class: "muted" }, t("No runner has shared a position yet.")));
  }

  function draw() {
    if (!active) return;
    top.textContent = message;
    top.hidden = !message;
    const ordered = [...calls.values()].sort((a, b) => (a.status === "closed") - (b.status === "closed")
      || (a.status === "closed" ? Date.parse(b.closed_at) - Date.parse(a.closed_at) : Date.parse(a.received_at) - Date.parse(b.received_at)));
    mount(callsBox, ordered.length ? ordered.map(callCard) : h("p", { class: "card muted" }, t("No call for help.")));
    if (board) plan.update(board.plan, ordered, { editable: narrator(), runners: board.positions || [] });
    if (!board) { mount(boardBox, h("p", { class: "card muted" }, t("Loading…"))); return; }
    mount(boardBox,
      h("p", { class: "card safety-summary" }, h("strong", {}, t("Still out: %(n)s", { n: board.still_out })),
        board.teams.length > 1 || (board.teams[0] && board.teams[0].team) ? h("span", {}, " · ",
          board.teams.map((team) => `${team.team || t("no team")}${colon()}${team.still_out}`).join(" · ")) : null),
      h("section", { class: "card" }, h("h2", {}, t("Needs a look")),
        board.rows.length ? h("ul", { class: "safety-list" }, board.rows.map(row)) : h("p", { class: "muted" }, t("Nobody to look for."))),
      board.settings.race_tracking ? positionsCard(board.positions || []) : null,
      narrator() ? settingsForm(board.settings) : null);
  }

  async function loadBoard() {
    try {
      const answer = await get(`/api/events/${id}/safety/`);
      if (answer.ok && !answer.fromCache) {
        board = answer.data;
        for (const call of board.calls) keep(call);
        context.synced();
      }
    } catch { /* offline: the last board stays */ }
    draw();
  }

  const onSafety = (event) => {
    const told = event.detail;
    if (told.call && told.call.event === id) {
      const fresh = !calls.has(told.call.id);
      keep(told.call);
      if (fresh) alertNow("help_call");
      draw();
    }
    if (told.board) loadBoard();
  };
  window.addEventListener("live-safety", onSafety);
  const live = new Live(`event=${id}`, {
    onMessage: () => {},
    onStatus: (state) => { context.setOnline(state === "online"); if (state === "online") loadBoard(); },
    onCheck: loadBoard,
  });
  const poll = setInterval(loadBoard, BOARD_EVERY_MS);
  await loadBoard();
  return () => { active = false; plan.close(); live.close(); clearInterval(poll); window.removeEventListener("live-safety", onSafety); };
}

function toLocalInput(iso) {
  const at = new Date(iso);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
}
