// The medic's screen: identify the patient (camera scan of their QR code, js/scanner.js,
// or the short code typed), choose among the treatments the medic's sheet allows, run the treatment's
// timer on screen, then confirm or abort. The patient's health is never shown here unless
// the rules reveal it (an analysis, or a treatment whose result they decide: a surgery).
import { get, onOutbox, pendingWrites, send } from "./api.js";
import { alertNow, keepAwake } from "./alerts.js";
import { clock } from "./clock.js";
import { countdownElement, countdownPhrase, secondsLeft, startTicking } from "./countdown.js";
import { colon, t } from "./i18n.js";
import { said } from "./outcome.js";
import { paramField, paramValues } from "./params.js";
import { startScanner } from "./scanner.js";
import { confirmButton, h, mount } from "./util.js";

const RECHECK_MS = 5000;

// A scanned QR holds a link with ?patient=CODE; a typed code is the code itself.
export function codeFrom(text) {
  const value = String(text || "").trim();
  try {
    const fromUrl = new URL(value).searchParams.get("patient");
    if (fromUrl) return fromUrl.toUpperCase();
  } catch { /* not a link */ }
  return value.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

export async function show(root, { id, params, context }) {
  const key = `treatment:${id}`;
  let patient = null;
  let options = [];
  let treatment = JSON.parse(localStorage.getItem(key) || "null");
  let message = null;
  let result = null;
  let scanning = null;
  let readyAlerted = false;

  function setTreatment(value) {
    treatment = value;
    readyAlerted = false;
    if (value && value.status === "running") localStorage.setItem(key, JSON.stringify(value));
    else localStorage.removeItem(key);
  }

  async function lookup(code) {
    message = null;
    result = null;
    if (!code) return;
    try {
      const answer = await get(`/api/characters/${id}/patients/${encodeURIComponent(code)}/`);
      if (answer.ok) {
        patient = answer.data.patient;
        options = answer.data.treatments;
      } else {
        message = answer.data.detail || t("Unknown code.");
      }
    } catch {
      message = t("No network: identifying a patient needs the network.");
    }
    render();
  }

  async function start(option, chosen) {
    const answer = await send(option.label, "POST", `/api/characters/${id}/treatments/`,
      { patient_code: patient.code, action: option.key, params: chosen });
    message = said(answer, { refused: null });
    if (answer.ok) { setTreatment(answer.data); context.synced(); }
    render();
  }

  // Over: the screen says what happened and waits for the next patient (a scan or a
  // code), rather than listing this one's treatments with the kits it had before.
  function closed(data) {
    result = data;
    setTreatment(null);
    patient = null;
    options = [];
  }

  // A confirmation carries its tap: sent late from a dead zone, the server judges it at
  // the tap (a first aid confirmed before the coma beats it).
  async function finish(verb) {
    const body = verb === "complete" ? { tapped_at: new Date(clock.now()).toISOString() } : undefined;
    const url = `/api/treatments/${treatment.id}/${verb}/`;
    const answer = await send(treatment.label, "POST", url, body);
    if (answer.queued) waiting.add(url);
    answered(answer);
  }

  function answered(answer, late = false) {
    message = said(answer, { refused: null, done: late ? () => t("Sent: the server recorded it.") : null });
    if (answer.ok) closed(answer.data);
    render();
  }

  // A confirmation or abort that waited for the network: the screen says what came of it
  // as soon as the outbox has the server's answer (also one queued before a reload).
  const waiting = new Set();
  pendingWrites().then((items) => {
    for (const item of items) if (item.url.startsWith("/api/treatments/")) waiting.add(item.url);
  });
  const stopListening = onOutbox((items, done) => {
    if (done && waiting.delete(done.item.url)) answered(done.answer, true);
  });

  // The patient may die while the medic works on them (their agony runs out, a Golpe
  // Mortal, a narrator): the server closes the treatment, and this screen asks now and
  // then so that the medic learns it before confirming.
  let lastAsked = 0;
  async function recheck() {
    if (!treatment || Date.now() - lastAsked < RECHECK_MS) return;
    lastAsked = Date.now();
    const asked = treatment.id;
    const answer = await get(`/api/treatments/${asked}/`).catch(() => null);
    if (!answer || !answer.ok || !treatment || treatment.id !== asked) return;
    if (answer.data.status !== "running") { message = null; closed(answer.data); render(); }
  }

  async function scan() {
    stopScan();
    message = null;
    try {
      scanning = await startScanner((text) => { scanning = null; lookup(codeFrom(text)); });
      if (!scanning) message = t("This phone cannot scan: type the code printed under the QR code.");
    } catch {
      message = t("The camera could not start: type the code.");
    }
    render();
  }

  function stopScan() {
    if (scanning) scanning.stop();
    scanning = null;
  }

  function identify() {
    const input = h("input", { id: "patient-code", autocomplete: "off", autocapitalize: "characters",
                               placeholder: t("Patient code"), "aria-label": t("Patient code") });
    return h("section", { class: "card" }, h("h2", {}, t("Patient")),
      h("button", { type: "button", class: "primary", onclick: scan }, t("Scan the patient's QR code")),
      scanning ? h("div", { class: "scanner" }, scanning.video) : null,
      h("form", { onsubmit: (e) => { e.preventDefault(); lookup(codeFrom(input.value)); } },
        input, h("button", { type: "submit" }, t("Find"))));
  }

  function choices() {
    return h("section", { class: "card" }, h("h2", {}, t("Treat %(name)s", { name: patient.name })),
      options.length ? options.map((option) => {
        // Every parameter, each shown at its default (a Golpe Mortal is "armed" unless
        // unticked); a parameter without one starts unticked or empty.
        const params = option.params || [];
        const form = h("form", { class: "treatment-option", dataset: { action: option.key }, onsubmit: (e) => {
          e.preventDefault();
          start(option, paramValues(form, params));
        } },
        h("strong", {}, option.label), " ", h("span", { class: "muted" }, option.level === "yes" || option.level === true ? "" : option.level),
        option.kit ? h("div", { class: "muted" }, t("Kits left: %(n)s", { n: option.kits_left })) : null,
        params.map(paramField), h("button", { type: "submit", class: "primary" }, t("Start")));
        return form;
      }) : h("p", {}, t("Your sheet allows no treatment.")));
  }

  function running() {
    const frozen = { clock: { running: Boolean(treatment.ready_at) } };
    const timer = { at: treatment.ready_at, remaining_s: treatment.remaining_s };
    // Drawn already disabled when time is left: a button enabled until the next tick
    // could be tapped at once, and the server would refuse it as not finished.
    const ready = secondsLeft(timer, frozen) <= 0;
    return h("section", { class: "card" },
      h("h2", {}, `${treatment.label} — ${treatment.patient.name}`),
      h("p", {}, countdownElement("span", timer, frozen, { id: "treatment-countdown", class: "big-timer" })),
      h("p", { class: "muted" }, t("Play the whole treatment, then confirm.")),
      h("button", { type: "button", id: "confirm-treatment", class: "primary", disabled: !ready,
                    onclick: () => finish("complete") }, t("Confirm: treatment done")),
      confirmButton(t("Abort"), t("Tap again to abort"), () => finish("abort"), { class: "danger" }));
  }

  // What happened, in words: done (the patient's state when the rules decide it, e.g. a
  // surgery; otherwise only the patient's phone knows it), aborted, or the patient died.
  function outcome() {
    if (!result) return null;
    const values = { action: result.label, name: result.patient.name };
    const found = result.result || {};
    const revealed = found.revealed && found.revealed.state;
    const words = { completed: t("%(action)s done on %(name)s.", values),
                    aborted: t("%(action)s on %(name)s aborted: nothing applied, no kit used.", values),
                    patient_died: t("%(action)s stopped: %(name)s died. Nothing applied.", values) }[result.status];
    return h("section", { class: "card treatment-outcome", role: "status" },
      h("p", {}, h("strong", {}, words || `${result.label} — ${result.patient.name}${colon()}${result.status}`)),
      found.state ? knownState(found) : null,
      result.status === "completed" && !found.state && !revealed
        ? h("p", { class: "muted" }, t("Their phone shows their new state and countdown.")) : null,
      revealed ? h("p", { class: "state-label" }, t("Health level: %(state)s", { state: revealed.label })) : null);
  }

  // "Alice: Tired — Healthy in 29:59", phrased as every countdown of the app.
  function knownState(found) {
    const frozen = { clock: { running: found.timers.every((timer) => timer.at) } };
    return h("p", { class: "state-label" }, t("%(name)s:", { name: result.patient.name }), " ", h("strong", {}, found.state.label),
      found.timers.map((timer) => h("span", {}, " — ", timer.leads_to ? countdownPhrase("span", timer, frozen)
        : [countdownElement("span", timer, frozen), ` ${timer.label}`])));
  }

  let active = true;   // a late answer must not draw over the next screen

  function render() {
    if (!active) return;
    mount(root,
      treatment ? running() : [identify(), patient ? choices() : null],
      outcome(),
      message ? h("p", { class: "card message", role: "alert" }, message) : null);
    keepAwake(Boolean(treatment));
  }

  render();
  if (params.get("patient")) lookup(codeFrom(params.get("patient")));
  const stopTicking = startTicking(root, () => {
    recheck();
    const button = root.querySelector("#confirm-treatment");
    const el = root.querySelector("#treatment-countdown");
    if (!button || !el) return;
    const ready = Number(el.dataset.left) <= 0;
    button.disabled = !ready;
    if (ready && !readyAlerted) { readyAlerted = true; alertNow("medic_done"); }
  });
  return () => { active = false; stopTicking(); stopListening(); stopScan(); keepAwake(false); };
}
