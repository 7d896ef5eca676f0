// Declarations tapped with no network (js/player.js). Every declaration carries the
// instant of the tap on the server's clock (`tapped_at`, from js/clock.js's offset): the
// server counts it from then, however late it arrives. While it waits in the outbox, the
// screen shows at once the state it leads to and its countdown from the tap, marked as
// not yet confirmed, from the character's outcome table (GET /api/characters/<id>/outcomes/,
// fetched whenever the state changes and kept for offline use). The server's answer then
// confirms or corrects it.
import { get, onOutbox, pendingWrites } from "./api.js";
import { clock } from "./clock.js";
import { lang, t } from "./i18n.js";
import { recall, remember } from "./store.js";
import { h } from "./util.js";

// What the outcome table depends on: the state, its deadlines and values (not the clock,
// not the effects, which move the snapshot's number for everyone at once), and the
// language its labels are in: a table kept before the player chose another language is
// fetched again, and never shown in the old one (offline, no guess beats a French guess
// among Spanish words).
const basis = (snap) => JSON.stringify([lang, snap.state.key, (snap.timers || []).map((tm) => [tm.key, tm.game_s]), snap.values || {}]);

export const tapTime = (ms) => new Date(ms).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });

// `render()`: the screen redraws; `answered(item, answer)`: a declaration that waited got
// the server's answer.
export function declaredOffline(id, { render, answered }) {
  const url = `/api/characters/${id}/actions/`;
  const saved = recall(`outcomes:${id}`);
  let table = saved ? saved.value : null;    // {basis, data}
  let waiting = [];                          // this character's declarations in the outbox
  const queued = new Set();                  // those that were not answered at once
  let timer = null;

  const stop = onOutbox((items, done) => {
    waiting = items.filter((item) => item.url === url);
    if (done && done.item.url === url && queued.delete(done.item.key)) answered(done.item, done.answer);
    else render();
  });
  pendingWrites().then((items) => {
    waiting = items.filter((item) => item.url === url);
    for (const item of waiting) queued.add(item.key);
    if (waiting.length) render();
  });

  async function fetchTable(wanted) {
    try {
      const answer = await get(`/api/characters/${id}/outcomes/`);
      if (answer.ok && !answer.fromCache) {
        table = { basis: wanted, data: answer.data };
        remember(`outcomes:${id}`, table);
      }
    } catch { /* offline: the last table stays */ }
  }

  // A fresh snapshot from the server: a new state needs a new table. Phones whose state
  // changed together (a game's start) do not all ask at the same instant.
  function sync(snap) {
    const wanted = basis(snap);
    if (table && table.basis === wanted) return;
    clearTimeout(timer);
    timer = setTimeout(() => fetchTable(wanted), table ? 200 + Math.random() * 1500 : 0);
  }

  function predicted(snap, action, params) {
    if (!table || table.basis !== basis(snap)) return null;
    const entries = table.data.outcomes[action.key] || [];
    const given = {};
    for (const param of action.params || []) {
      if (param.default !== null && param.default !== undefined) given[param.key] = param.default;
    }
    Object.assign(given, params);
    return entries.find((entry) => Object.keys({ ...entry.params, ...given }).every((key) => entry.params[key] === given[key])) || null;
  }

  // What a tap sends (the instant), keeps with the waiting write (what it leads to), and
  // `queued(key)`: the write could not leave, the screen shows it as waiting.
  function tap(snap, action, params) {
    const tappedMs = clock.now();
    const outcome = snap ? predicted(snap, action, params) : null;
    return { body: { tapped_at: new Date(tappedMs).toISOString() },
             note: { tappedMs, action: action.key, label: action.label, outcome,
                     states: outcome ? table.data.states : null, timers: outcome ? table.data.timers : null,
                     capabilities: outcome ? table.data.capabilities : null },
             queued: (key) => { queued.add(key); render(); } };
  }

  // The snapshot as the screen shows it: with the newest waiting declaration's outcome
  // (one being answered right now is not shown as waiting).
  function shown(snap) {
    const held = waiting.filter((item) => queued.has(item.key));
    if (!snap || !held.length) return snap;
    const latest = held[held.length - 1];
    const note = latest.note || { tappedMs: latest.created, label: latest.label };
    const pending = { label: note.label, tappedMs: note.tappedMs, count: held.length, guessed: Boolean(note.outcome) };
    if (!note.outcome) return { ...snap, pending };
    return { ...withOutcome(snap, note), pending };
  }

  return { sync, tap, shown, waiting: () => waiting.length > 0, release: () => { stop(); clearTimeout(timer); } };
}

function withOutcome(snap, note) {
  const { outcome, states, timers: timerLabels, capabilities } = note;
  const running = snap.clock.running;
  const leadsTo = (key) => (key ? { key, label: states[key] ? states[key].label : key,
                                    countdown_label: states[key] ? states[key].countdown_label : null } : null);
  const timers = outcome.timers.map((timer) => {
    const held = (snap.timers || []).find((tm) => tm.key === timer.key);
    if (timer.kept && held) return { ...held, leads_to: leadsTo(timer.leads_to) };
    const endsMs = note.tappedMs + timer.after_s * 1000;
    return {
      key: timer.key, label: timerLabels[timer.key] || timer.key, leads_to: leadsTo(timer.leads_to),
      at: running ? new Date(endsMs).toISOString() : null,
      remaining_s: running ? Math.max(0, (endsMs - clock.now()) / 1000) : timer.after_s,
      game_s: snap.clock.game_time_s + timer.after_s,
    };
  });
  const endsOf = (tm) => (tm.at ? Date.parse(tm.at) : Infinity);
  timers.sort((a, b) => endsOf(a) - endsOf(b) || a.remaining_s - b.remaining_s);
  const described = states[outcome.state] || { label: outcome.state, severity: snap.state.severity };
  const named = (keys) => keys.map((key) => ({ key, label: capabilities[key] || key }));
  return {
    ...snap,
    state: { ...snap.state, key: outcome.state, label: described.label, severity: described.severity,
             hint: described.hint, inert: outcome.inert, can: named(outcome.can), cannot: named(outcome.cannot) },
    timers, next: timers.find((tm) => tm.leads_to) || null,
  };
}

// The mark on the state card while a declaration waits for the network.
export function pendingMark(snap) {
  if (!snap.pending) return null;
  const { label, tappedMs, guessed, count } = snap.pending;
  return h("p", { class: "pending-mark", role: "status" },
    h("strong", {}, t("Not yet confirmed")), " — ",
    t("%(action)s, tapped at %(time)s with no network.", { action: label, time: tapTime(tappedMs) }), " ",
    guessed ? t("The server will confirm or correct it.") : t("What it leads to is shown once the server confirms it."),
    count > 1 ? h("span", { class: "muted" }, " ", t("%(n)s declarations waiting.", { n: count })) : null);
}

// Whether the server's answer led elsewhere than the screen showed.
export function corrected(item, answer) {
  const expected = item.note && item.note.outcome ? item.note.outcome.state : null;
  return Boolean(answer.ok && expected && expected !== answer.data.snapshot.state.key);
}

// The words of the server's answer to a declaration that waited.
export function answerWords(item, answer) {
  const time = tapTime((item.note && item.note.tappedMs) || item.created);
  if (!answer.ok) {
    return t("%(action)s (tapped at %(time)s) was not applied: %(reason)s",
             { action: item.label, time, reason: (answer.data && answer.data.detail) || t("Refused.") });
  }
  const snap = answer.data.snapshot;
  const late = (answer.data.events || []).find((event) => event.kind === "declared_at");
  const words = [corrected(item, answer)
    ? t("Corrected by the server: %(state)s.", { state: snap.state.label })
    : t("Confirmed by the server: %(state)s, counted from %(time)s.", { state: snap.state.label, time })];
  if (late && late.text) words.push(late.text);
  return words.join(" ");
}
