// "I need help (real)", from every screen of every event (js/app.js puts its button in
// the top bar, beside Emergencia): a real-world problem that must reach the organisers
// without stopping anyone's game. Two steps: the kind of help, then "Send the call" (a
// note and the phone's position are optional). The call goes through the outbox with the
// instant of the tap, ahead of every other waiting write; offline, the sheet says plainly
// that it has not been sent. Then it shows that it was received and who is coming (the
// caller's socket says so at once, js/live.js; a read every 10 s covers a screen without
// one). The same sheet lets a player say they left the field. It also reports the phone's
// battery where the browser tells it (safety board, docs/safety.md).
import { alertNow } from "./alerts.js";
import { get, onOutbox, pendingWrites, request, send } from "./api.js";
import { clock } from "./clock.js";
import { t } from "./i18n.js";
import { h, mount, newKey } from "./util.js";

export const KINDS = () => [["injured", t("Injured")], ["lost", t("Lost")], ["unwell", t("Unwell")], ["other", t("Other")]];
export const kindLabel = (key) => (KINDS().find(([k]) => k === key) || [key, key])[1];
const timeOf = (iso) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
const BATTERY_EVERY_MS = 5 * 60 * 1000;
const POSITION_WAIT_MS = 4000;

// The phone's position, if its user allows it, within a few seconds; null otherwise (the
// call never waits longer for it).
function position() {
  if (!("geolocation" in navigator)) return Promise.resolve(null);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), POSITION_WAIT_MS + 500);
    navigator.geolocation.getCurrentPosition(
      (found) => { clearTimeout(timer); resolve({ latitude: found.coords.latitude, longitude: found.coords.longitude, accuracy_m: found.coords.accuracy }); },
      () => { clearTimeout(timer); resolve(null); },
      { enableHighAccuracy: true, timeout: POSITION_WAIT_MS, maximumAge: 60000 });
  });
}

export function helpControl() {
  let eventId = null;
  let characterId = null;     // this account's character in the event (battery, check-out)
  let kind = null;
  let calls = [];             // this person's own calls (the server's caller view)
  let waiting = [];           // their calls still in the outbox
  let batteryTimer = null;
  let poller = null;
  let checkedOut = null;
  let refusal = null;         // the server refused the last call (its words)

  const button = h("button", { type: "button", class: "help-button", hidden: true, onclick: () => open() }, t("I need help (real)"));
  const banner = h("p", { class: "help-banner", role: "status", hidden: true });
  const body = h("div", { class: "help-body" });
  const dialog = h("dialog", { class: "help-sheet", "aria-label": t("I need help (real)") },
    h("h2", {}, t("I need help (real)")),
    h("p", {}, t("A real problem, not the game: the organisers are alerted at once. The game does not stop.")),
    body);
  document.body.append(dialog);

  const url = () => `/api/events/${eventId}/help/`;
  const open = () => { kind = null; draw(); if (typeof dialog.showModal === "function") dialog.showModal(); else dialog.setAttribute("open", ""); };
  const close = () => { if (typeof dialog.close === "function") dialog.close(); else dialog.removeAttribute("open"); };

  function statusWords(call) {
    if (call.status === "closed") return t("Closed at %(time)s.", { time: timeOf(call.closed_at) });
    if (call.status === "taken") return t("Received. %(name)s is coming.", { name: call.taken_by });
    return t("Received by the organisers at %(time)s. Waiting for someone to take it.", { time: timeOf(call.received_at) });
  }

  // What the caller sees of their calls: those still waiting for the network, loudly,
  // then the last one the server has.
  function statusLines() {
    const lines = waiting.map((item) => h("p", { class: "help-unsent", role: "alert" },
      t("NOT SENT YET (no network): your call for help, tapped at %(time)s, leaves first when the network is back. Shout, or ask someone near you.",
        { time: timeOf(item.body.tapped_at) })));
    if (refusal) lines.push(h("p", { class: "help-unsent", role: "alert" }, refusal));
    const last = calls[0];
    if (last && (last.status !== "closed" || Date.now() - Date.parse(last.closed_at) < 15 * 60 * 1000)) {
      lines.push(h("p", { class: `help-status help-${last.status}`, role: "status", dataset: { call: last.id } },
        h("strong", {}, kindLabel(last.kind)), " — ", statusWords(last)));
    }
    return lines;
  }

  function draw() {
    const note = h("input", { name: "note", maxlength: 500, autocomplete: "off", placeholder: t("Where, what (optional)"), "aria-label": t("Where, what (optional)") });
    const share = h("input", { type: "checkbox", name: "share-position", checked: true });
    const choose = kind === null;
    mount(body,
      statusLines(),
      choose
        ? h("div", { class: "help-kinds" }, KINDS().map(([key, label]) =>
          h("button", { type: "button", class: "help-kind", dataset: { kind: key }, onclick: () => { kind = key; draw(); } }, label)))
        : h("div", { class: "help-confirm" },
          h("p", {}, h("strong", {}, kindLabel(kind))),
          note,
          h("label", { class: "help-share" }, share, " ", t("Share my position with the organisers")),
          h("div", { class: "row" },
            h("button", { type: "button", class: "danger help-send", onclick: (e) => call(e.target, note.value, share.checked) }, t("Send the call")),
            h("button", { type: "button", onclick: () => { kind = null; draw(); } }, t("Back")))),
      characterId ? h("p", { class: "help-checkout" }, checkedOut
        ? t("You left the field at %(time)s.", { time: timeOf(checkedOut) })
        : h("button", { type: "button", class: "help-leave", onclick: () => checkOut() }, t("I left the field"))) : null,
      h("div", { class: "row" }, h("button", { type: "button", autofocus: true, onclick: () => close() }, t("Close"))));
  }

  async function call(sendButton, note, share) {
    sendButton.disabled = true;
    const tappedAt = new Date(clock.now()).toISOString();   // the server's clock, not the phone's
    const where = share ? await position() : null;
    const payload = { kind, note: note.trim(), tapped_at: tappedAt };
    if (where) payload.position = where;
    const answer = await send(t("Call for help"), "POST", url(), payload, null, { first: true });
    refusal = answer.ok || answer.queued ? null : (answer.data && answer.data.detail) || t("Refused.");
    if (!refusal) kind = null;
    if (answer.ok) calls = [answer.data, ...calls.filter((c) => c.id !== answer.data.id)];
    draw();
    follow();
  }

  async function checkOut() {
    const answer = await send(t("I left the field"), "POST", `/api/characters/${characterId}/check-out/`, { out: true });
    if (answer.ok) checkedOut = answer.data.checked_out_at;
    else if (answer.queued) checkedOut = new Date(clock.now()).toISOString();
    draw();
  }

  async function load() {
    if (!eventId) return;
    try {
      const answer = await get(url());
      if (answer.ok && !answer.fromCache && !answer.data.organiser) calls = answer.data.calls;
    } catch { /* offline: what is known stays */ }
    refresh();
  }

  // A call not closed is followed until it is (the socket is faster; this is the floor).
  function follow() {
    clearInterval(poller);
    poller = calls.some((c) => c.status !== "closed") || waiting.length ? setInterval(load, 10000) : null;
  }

  function refresh() {
    const last = calls[0];
    const open = last && last.status !== "closed";
    banner.hidden = !(waiting.length || open);
    mount(banner, statusLines());
    if (dialog.open) draw();
    follow();
  }

  onOutbox((items, done) => {
    waiting = items.filter((item) => eventId && item.url === url() && item.method === "POST");
    if (done && done.item.url === url() && done.answer.ok) calls = [done.answer.data, ...calls.filter((c) => c.id !== done.answer.data.id)];
    refresh();
  });
  // An organiser on another screen of the event (the narrators' view) hears of calls too.
  const alerts = new Map();
  const alertBox = h("div", { class: "help-alerts" });
  function drawAlerts() {
    mount(alertBox, [...alerts.values()].filter((c) => c.status === "open").map((c) =>
      h("p", { class: "help-alert", role: "alert", dataset: { call: c.id } },
        h("strong", {}, t("Help needed (real)")), " — ", c.character ? c.character.name : c.caller, ", ", kindLabel(c.kind), " ",
        h("a", { href: `#/safety/${c.event}` }, t("Open the safety board")))));
  }
  window.addEventListener("live-safety", (event) => {
    const told = event.detail.call;
    if (told && !location.hash.startsWith("#/safety/")) {
      if (!alerts.has(told.id)) alertNow("help_call");
      alerts.set(told.id, told);
      drawAlerts();
    }
    const mine = event.detail.own_call;
    if (!mine || mine.event !== eventId) return;
    calls = [mine, ...calls.filter((c) => c.id !== mine.id)];
    if (mine.status === "taken") alertNow("help_coming");
    refresh();
  });

  // The battery, where the browser tells it (not Safari, not Firefox): at start, when its
  // level changes by a step, and every 5 minutes. Never queued: an old reading is no use.
  async function watchBattery() {
    clearInterval(batteryTimer);
    if (!characterId || !navigator.getBattery) return;
    const battery = await navigator.getBattery().catch(() => null);
    if (!battery) return;
    const report = () => request("POST", `/api/characters/${characterId}/battery/`,
      { level: battery.level, charging: battery.charging }, newKey()).catch(() => {});
    report();
    batteryTimer = setInterval(report, BATTERY_EVERY_MS);
  }

  return {
    button,
    banner,
    alerts: alertBox,
    // The event of the screen shown and this account's character in it (null: none).
    async setEvent(id, character = null) {
      const changed = id !== eventId || character !== characterId;
      eventId = id || null;
      characterId = character || null;
      button.hidden = !eventId;
      if (!changed) return;
      calls = [];
      waiting = eventId ? (await pendingWrites()).filter((item) => item.url === url()) : [];
      refresh();
      load();
      watchBattery();
    },
  };
}
