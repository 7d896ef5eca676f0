// The player's screen: state in big type, the countdown to what comes next, what the
// character can and cannot do, points, effects, what the player may declare, a QR code
// for medics and a short history. Everything is drawn from the snapshot, so another
// ruleset shows up without new code here. Rulesets with a body map and a load
// (Septenario) add the body figure, the Carga, the Rasgos and "Claridad"; an action with
// parameters (where a hit landed, with what) opens a small form.
import { get, send } from "./api.js";
import { airsoftTop, healPanel, isAirsoft, refreshCounts, withHealLimits } from "./airsoft.js";
import { alertNow, keepAwake, warnBeforeDeadline } from "./alerts.js";
import { bodyCard, loadCard } from "./body.js";
import { countdownElement, startTicking } from "./countdown.js";
import { followEventLanguage, t } from "./i18n.js";
import { fightTools, fightsCard } from "./fights.js";
import { objectPanel } from "./items.js";
import { Live, withEffect } from "./live.js";
import { paramField, paramValues } from "./params.js";
import { clarityPanel, emergencyPanel } from "./player_panels.js";
import { askPanel } from "./requests.js";
import { recall, remember } from "./store.js";
import { confirmButton, h, mount } from "./util.js";

const SEVERITY_MARKS = ["●○○○○", "●●○○○", "●●●○○", "●●●●○", "●●●●●"];

function stateCard(snap) {
  const { state, next } = snap;
  const card = h("section", { class: `card state severity-${Math.min(state.severity, 4)}` },
    h("div", { class: "severity", "aria-hidden": "true" }, SEVERITY_MARKS[Math.min(state.severity, 4)]),
    h("h1", { class: "state-label", id: "state-label" }, state.label));
  if (!snap.clock.running) card.append(h("p", { class: "paused" }, t("Game paused: every countdown is frozen.")));
  if (next) {
    card.append(h("p", { class: "next" },
      countdownElement("strong", next, snap, { id: "next-countdown" }), " ",
      t("before %(state)s", { state: next.leads_to.label })));
  }
  const others = snap.timers.filter((timer) => !timer.leads_to);
  if (others.length) {
    card.append(h("ul", { class: "timers" }, others.map((timer) =>
      h("li", {}, timer.label, " ", countdownElement("span", timer, snap)))));
  }
  if (state.inert) card.append(h("p", { class: "inert" }, t("Inert: stay on the ground.")));
  for (const flag of snap.flags || []) card.append(h("p", { class: "flag" }, flag.label));
  return card;
}

function abilities(snap) {
  const list = (items) => items.map((item) => item.label).join(", ");
  return h("section", { class: "card" },
    snap.state.can.length ? h("p", {}, h("span", { class: "yes" }, "✔ "), t("You can:"), " ", list(snap.state.can)) : null,
    snap.state.cannot.length ? h("p", {}, h("span", { class: "no" }, "✘ "), t("You cannot:"), " ", list(snap.state.cannot)) : null);
}

const known = (value) => value !== null && value !== undefined;

function points(snap) {
  if (!snap.points.length) return null;
  // Out of its maximum when the rules have one (Coraje 2 / 5), else of the sheet's base.
  return h("section", { class: "card points" }, snap.points.map((point) =>
    h("div", { class: "point", dataset: { point: point.key } }, h("span", {}, point.label),
      h("strong", {}, known(point.max) ? `${point.value} / ${point.max}`
        : known(point.base) ? `${point.value} / ${point.base}` : point.value),
      point.recovers ? h("span", { class: "muted recovers" }, " ",
        t("all back in"), " ", countdownElement("span", point.recovers, snap)) : null)));
}

function effects(snap) {
  if (!snap.effects.length) return null;
  return h("section", { class: "card effects" }, h("h2", {}, t("Active effects")),
    h("ul", {}, snap.effects.map((effect) => h("li", {}, h("span", { class: "effect-text" }, effect.text),
      effect.ends_game_s !== null
        ? h("span", { class: "muted" }, " — ", countdownElement("span", { at: effect.ends_at, remaining_s: effect.remaining_s }, snap))
        : null))));
}

function sheet(snap) {
  const { skills, kits } = snap.sheet;
  const traits = (snap.sheet.traits || []).filter((trait) => trait.value !== null && trait.value !== undefined);
  if (!skills.length && !kits.length && !traits.length) return null;
  return h("section", { class: "card muted sheet" },
    skills.length ? h("p", {}, skills.map((s) => (s.level === true ? s.label : `${s.label} (${s.level})`)).join(", ")) : null,
    kits.length ? h("p", {}, kits.map((k) => `${k.label} × ${k.count}`).join(", ")) : null,
    traits.length ? h("p", { class: "traits" }, traits.map((trait) => `${trait.label} ${trait.value}`).join(" · ")) : null);
}

// "1 Coraje": what an action costs, named by the points it spends.
function costText(snap, action) {
  const costs = Object.entries(action.costs || {});
  if (!costs.length) return "";
  const label = (key) => (snap.points.find((point) => point.key === key) || { label: key }).label;
  return t("costs %(cost)s", { cost: costs.map(([key, amount]) => `${amount} ${label(key)}`).join(", ") });
}

// What the rules said back about a declaration: a blow the armour took, a reminder.
function outcomeOf(events) {
  const said = [];
  for (const event of events || []) {
    if (event.kind === "hit_result" && event.result === "protected") said.push(t("The armour absorbed the blow."));
    else if (event.kind === "hit_result" && event.result === "not_solid") said.push(t("A graze: no damage."));
    else if (event.kind === "reminder" && typeof event.text === "string") said.push(event.text);
  }
  return said.length ? said.join(" ") : null;
}

function historyList(rows) {
  if (!rows.length) return null;
  const time = (iso) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return h("section", { class: "card history" }, h("h2", {}, t("What happened")),
    h("ol", {}, rows.slice(0, 10).map((row) => h("li", {},
      h("span", { class: "muted" }, time(row.at)), " ", row.what,
      row.state_after && row.state_before !== row.state_after ? ` → ${row.state_after}` : ""))));
}

export async function show(root, { id, me, params, context }) {
  let snap = null;
  let history = [];
  let message = null;
  const character = me.characters.find((c) => c.id === id);

  const qr = h("div", { class: "qr", hidden: true },
    h("img", { src: `/api/characters/${id}/qr.svg`, alt: t("My QR code for a medic") }),
    h("p", { class: "code" }, character ? character.code : ""));

  let active = true;   // a late answer must not draw over the next screen
  let tools = null;    // the fight forms, built once the ruleset is known
  // Scanning an object: kept across redraws (its camera and fields live on).
  const objects = objectPanel({ characterId: id, code: params ? params.get("object") : null,
                                onDone: () => refresh() });
  // Asking the organisers: kept across redraws too (a snapshot must not wipe the question).
  const asks = askPanel(id, { send, t, h });
  const clarity = clarityPanel(id);
  let emergency = null;          // made once the event is known (from the snapshot)
  let heals = null;              // airsoft: healing a teammate (made at the first airsoft snapshot)
  // The action whose parameters are being filled in, and its form (kept across redraws).
  let openAction = null;
  const forms = new Map();

  async function loadTools() {
    if (tools !== null || !snap) return;
    tools = false;
    const answer = await get(`/api/rulesets/${snap.character.ruleset}/`).catch(() => null);
    if (answer && answer.ok) { tools = fightTools(answer.data.interactions, fight) || false; render(); } else tools = null;
  }

  async function fight(label, path, body, form) {
    const answer = await send(label, "POST", `/api/characters/${id}/${path}`, body);
    afterFight(answer, () => form.reset());
  }

  function afterFight(answer, onOk) {
    if (answer.queued) message = t("No network: saved, it will be sent when the network is back.");
    else if (!answer.ok) message = answer.data.detail || t("Refused.");
    else {
      message = answer.data.hit === false ? answer.data.detail : null;
      if (onOk) onOk();
      apply(answer.data.snapshot);
      return;
    }
    render();
  }

  const answerDuel = async (duel, body) =>
    afterFight(await send(t("Duel"), "POST", `/api/duels/${duel.id}/answer/`, body));
  const stopBeating = async (beating) =>
    afterFight(await send(t("Stop"), "POST", `/api/acharnements/${beating.id}/stop/`, {}));

  function render() {
    if (!active) return;
    if (!snap) {
      mount(root, h("p", { class: "card" }, t("Loading…")));
      return;
    }
    if (openAction && !snap.actions.some((action) => action.key === openAction)) closeForm();
    const actions = h("section", { class: "card actions", id: "actions" }, h("h2", {}, t("Declare")),
      snap.actions.map((action) => (action.params && action.params.length ? actionWithParams(action)
        : confirmButton(labelOf(action), t("Tap again: %(action)s", { action: labelOf(action) }),
          () => declare(action), { class: "action" }, action.label))),
      message ? h("p", { class: "message", role: "status" }, message) : null);
    const located = locationAction();
    const top = snap.body || snap.load
      ? [bodyCard(snap, located ? tapLimb : null, chosenLocation(located)), points(snap), loadCard(snap, dropItem), actions, effects(snap)]
      : [actions, effects(snap), points(snap)];
    objects.setLoad(snap.load);
    clarity.update(snap);
    if (!emergency) emergency = emergencyPanel(snap.character.event);
    const toolsCard = h("section", { class: "card tools" },
      h("button", { type: "button", onclick: () => { qr.hidden = !qr.hidden; } }, t("Show my QR code")),
      character && character.medic ? h("a", { class: "button", href: `#/medic/${id}` }, t("Treat a patient")) : null,
      h("button", { type: "button", onclick: enableNotifications }, t("Notifications")),
      qr);
    if (isAirsoft(snap)) {     // the club's airsoft day: its own top of the screen (js/airsoft.js)
      heals ||= healPanel(id, { patient: params ? params.get("patient") : null,
                                onAnswer: (answer) => apply(stamped(answer.data.snapshot, answer.data.server_time)) });
      mount(root, airsoftTop(snap, { heals, message, withParams: actionWithParams, button: (action) =>
        confirmButton(labelOf(action), t("Tap again: %(action)s", { action: labelOf(action) }),
          () => declare(action), { class: "action" }, action.label) }),
      abilities(withHealLimits(snap)), asks.element, toolsCard, historyList(history), emergency.element);
      keepAwake(Boolean(snap.next) || heals.busy(snap));
      return;
    }
    mount(root,
      stateCard(snap), fightsCard(snap, { answer: answerDuel, stop: stopBeating }), top,
      abilities(snap), clarity.element, objects.element, asks.element, tools || null,
      toolsCard, sheet(snap), historyList(history), emergency.element);
    keepAwake(Boolean(snap.next));
  }

  const labelOf = (action) => {
    const cost = costText(snap, action);
    return cost ? `${action.label} (${cost})` : action.label;
  };

  // First tap opens the form, its button declares: still two taps, one thumb.
  function actionWithParams(action) {
    const open = openAction === action.key;
    return h("div", { class: "action-with-params" },
      h("button", { type: "button", class: `action${open ? " open" : ""}`, "aria-expanded": String(open),
                    onclick: () => { if (open) closeForm(); else openForm(action); render(); } },
        labelOf(action), h("span", { class: "more", "aria-hidden": "true" }, open ? " ▴" : " ▾")),
      open ? formFor(action) : null);
  }

  function formFor(action) {
    const signature = JSON.stringify(action.params);
    const kept = forms.get(action.key);
    if (kept && kept.signature === signature) return kept.form;
    const form = h("form", { class: "action-form", dataset: { action: action.key } },
      action.params.map(paramField),
      h("div", { class: "row" },
        h("button", { type: "submit", class: "primary" }, t("Declare")),
        h("button", { type: "button", onclick: () => { closeForm(); render(); } }, t("Cancel"))));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      declare(action, paramValues(form, action.params));
    });
    // The body figure shows the place chosen in the list.
    form.addEventListener("change", (event) => { if (event.target.name === "location") render(); });
    forms.set(action.key, { form, signature });
    return form;
  }

  function openForm(action) {
    openAction = action.key;
    message = null;
  }

  function closeForm() {
    if (openAction) forms.delete(openAction);
    openAction = null;
  }

  // The action that asks where on the body (a hit), if the player may declare one now.
  function locationAction() {
    return snap.actions.find((action) => (action.params || []).some((param) =>
      param.key === "location" && (param.choices || []).length));
  }

  function chosenLocation(action) {
    const kept = action && openAction === action.key ? forms.get(action.key) : null;
    return kept && kept.form.elements.location ? kept.form.elements.location.value : null;
  }

  // A limb tapped on the figure: the hit's form opens with that place chosen.
  function tapLimb(location) {
    const action = locationAction();
    if (!action) return;
    const param = action.params.find((p) => p.key === "location");
    if (!param.choices.some((choice) => choice.key === location)) return;
    if (openAction !== action.key) { closeForm(); openForm(action); }
    const form = formFor(action);
    form.elements.location.value = location;
    render();
    form.scrollIntoView({ block: "nearest" });
  }

  async function dropItem(item) {
    const answer = await send(item.name, "POST", `/api/characters/${id}/items/${encodeURIComponent(item.code)}/drop/`, {});
    if (answer.queued) message = t("No network: saved, it will be sent when the network is back.");
    else if (!answer.ok) message = answer.data.detail || t("Refused.");
    else { message = null; refresh(); return; }
    render();
  }

  async function enableNotifications() {
    try {
      const { enablePush } = await import("./push.js");
      const result = await enablePush();
      message = { enabled: t("Notifications are on."), denied: t("Notifications were refused."),
                  unsupported: t("This phone cannot receive notifications.") }[result] || result;
    } catch {
      message = t("This phone cannot receive notifications.");
    }
    render();
  }

  async function declare(action, params = {}) {
    const answer = await send(action.label, "POST", `/api/characters/${id}/actions/`, { action: action.key, params });
    if (answer.queued) { message = t("No network: saved, it will be sent when the network is back."); closeForm(); }
    else if (!answer.ok) message = answer.data.detail || t("Refused.");
    else {
      message = outcomeOf(answer.data.events);
      if (openAction === action.key) closeForm();
      apply(stamped(answer.data.snapshot, answer.data.server_time));
      return;
    }
    render();
  }

  // The server's time of a snapshot sent inside another answer or message: the body's
  // deadlines, given in game seconds, are placed on the clock with it.
  const stamped = (fresh, serverTime) => (fresh && serverTime && !fresh.server_time ? { ...fresh, server_time: serverTime } : fresh);

  function apply(fresh, { fromCache = false, withHistory = true } = {}) {
    if (snap && fresh.version < snap.version) return;       // an older answer arrived late
    if (followEventLanguage(fresh.character.language)) return;   // reloads in the game's language
    const changed = snap && snap.state.key !== fresh.state.key;
    snap = fresh;
    loadTools();
    if (!fromCache) {
      remember(`character:${id}`, fresh);
      context.synced();
    }
    if (changed) alertNow();
    render();
    if (!fromCache && withHistory) loadHistory();
  }

  async function refresh() {
    try {
      const answer = await get(`/api/characters/${id}/`);
      if (answer.ok) apply(answer.data, { fromCache: answer.fromCache });
      if (answer.ok && !answer.fromCache) live.hold(answer.data);
    } catch { /* offline: keep showing the last snapshot */ }
  }

  async function loadHistory() {
    try {
      const answer = await get(`/api/characters/${id}/history/`);
      if (answer.ok) { history = answer.data.history; render(); }
    } catch { /* offline */ }
  }

  const saved = recall(`character:${id}`);
  if (saved) {
    snap = saved.value;
    context.synced(saved.savedAt);
  }
  render();
  const live = new Live(`character=${id}`, {
    onMessage: (msg) => {
      if (msg.type === "snapshot") apply(stamped(msg.snapshot, msg.server_time));
      // Not a history fetch per effect: a push to everyone would bring every phone at once.
      else if (msg.type === "effect" && snap) apply(withEffect(snap, msg.effect), { withHistory: false });
    },
    onStatus: (state) => { context.setOnline(state === "online"); if (state === "online") refresh(); },
    resync: refresh,
  });
  refresh();
  const stopTicking = startTicking(root, () => {
    if (refreshCounts(root)) refresh();   // airsoft: a count just ended
    const el = root.querySelector("#next-countdown");
    if (el && snap && snap.next && snap.clock.running) {
      warnBeforeDeadline(`${snap.next.key}:${snap.next.game_s}`, Number(el.dataset.left));
    }
  });
  return () => { active = false; live.close(); stopTicking(); keepAwake(false); objects.stop(); asks.stop(); if (heals) heals.release(); };
}
