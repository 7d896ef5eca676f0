// Healing a teammate on the airsoft player's screen (js/airsoft_player.js): in medic mode a
// player heals or extracts a teammate from here ("Soigner un coéquipier"); while they heal,
// their own screen says so in large type with "J'arrête le soin" and "J'ai tiré".
import { send } from "./api.js";
import { bigCount, healDuration, runningHeal } from "./airsoft.js";
import { countdownElement } from "./countdown.js";
import { colon, t } from "./i18n.js";
import { codeFromLink } from "./items.js";
import { said } from "./outcome.js";
import { startScanner } from "./scanner.js";
import { h, mount } from "./util.js";

const STATUS = () => ({ completed: t("completed"), stopped: t("stopped"), aborted: t("interrupted") });

// Kept across redraws (the code being typed, the camera). `onAnswer(answer)` applies the
// medic's fresh snapshot the server answers with.
// `patient`: a code to start with (a teammate's QR opened by the phone's camera app).
export function healPanel(characterId, { onAnswer, patient = null }) {
  let message = null;
  let scanner = null;
  let lastCode = null;       // the patient of an extraction, to heal them in place after
  let shownFor = null;
  const wanted = patient;
  const input = h("input", { id: "heal-code", name: "code", autocomplete: "off", autocapitalize: "characters",
                             "aria-label": t("Teammate's code"), placeholder: t("Teammate's code"),
                             value: wanted ? codeFromLink(wanted, "patient") : "" });
  const status = h("p", { class: "message", role: "alert", hidden: true });
  const scanBox = h("div", { class: "scanner" });
  const form = h("div", { class: "heal-form", hidden: !wanted },
    h("p", { class: "muted" }, t("Scan or type the code under your teammate's QR code, then choose.")),
    h("button", { type: "button", onclick: () => scan() }, t("Scan their QR code")), scanBox,
    h("label", {}, t("Teammate's code"), input),
    h("div", { class: "heal-buttons" },
      h("button", { type: "button", class: "primary huge", id: "heal-start", onclick: () => start("heal") }, t("Heal (both hands)")),
      h("button", { type: "button", class: "huge", id: "extraction-start", onclick: () => start("extraction") }, t("Extraction"))));
  const toggle = h("button", { type: "button", class: "action heal-toggle", "aria-expanded": String(!form.hidden),
    onclick: () => { form.hidden = !form.hidden; toggle.setAttribute("aria-expanded", String(!form.hidden)); if (form.hidden) release(); } },
  t("Heal a teammate"));
  const last = h("p", { class: "muted last-heal" });
  const element = h("section", { class: "card heal-tool", id: "heal-tool", hidden: true }, toggle, form, status, last);

  function say(text) {
    message = text || null;
    status.textContent = message || "";
    status.hidden = !message;
  }

  function outcome(answer) {
    say(said(answer));
    if (answer.ok) onAnswer(answer);
    return answer.ok;
  }

  async function start(kind, code = codeFromLink(input.value, "patient")) {
    if (!code) { say(t("Type or scan your teammate's code.")); return; }
    lastCode = code;
    const answer = await send(kind === "heal" ? t("Heal (both hands)") : t("Extraction"), "POST",
      `/api/characters/${characterId}/heals/`, { patient_code: code, kind });
    if (outcome(answer)) { input.value = ""; form.hidden = true; toggle.setAttribute("aria-expanded", "false"); }
  }

  async function stop(fight, reason) {
    outcome(await send(t("I stop the heal"), "POST", `/api/heals/${fight.id}/stop/`, { reason }));
  }

  async function scan() {
    release();
    try {
      scanner = await startScanner((text) => { scanner = null; mount(scanBox); input.value = codeFromLink(text, "patient"); });
      if (!scanner) say(t("This phone cannot scan: type the code printed under the QR code."));
      else mount(scanBox, scanner.video);
    } catch {
      say(t("The camera could not start: type the code."));
    }
  }

  function release() {
    if (scanner) scanner.stop();
    scanner = null;
    mount(scanBox);
  }

  // The medic's heal or extraction going on, in large type; null when there is none.
  function runningCard(snap) {
    const fight = runningHeal(snap, "medic");
    if (!fight) return null;
    const extraction = fight.type.key === "extraction";
    const name = fight.other;
    return h("section", { class: "card heal-running", id: "heal-running", dataset: { heal: fight.id } },
      h("h2", {}, fight.type.label),
      h("p", { class: "heal-who" }, extraction ? t("You are extracting %(name)s", { name })
        : t("You are healing %(name)s: both hands on them, all the time", { name })),
      !extraction && fight.ends ? h("div", { class: "count-block" },
        h("p", { class: "count-label" }, t("%(name)s counts", { name })),
        bigCount(fight.ends, snap, { spoken: fight.count, duration: healDuration(fight), id: "medic-count" }),
        h("p", { class: "muted" }, t("Time left:"), " ", countdownElement("span", fight.ends, snap))) : null,
      h("p", { class: fight.can_shoot ? "yes shoot-note" : "no shoot-note" },
        fight.can_shoot ? t("You may shoot.") : t("Do not shoot: a shot would not count and would stop the heal.")),
      fight.can_stop ? h("div", { class: "heal-buttons" },
        h("button", { type: "button", class: "danger huge", id: "heal-stop", onclick: () => stop(fight, "hands_off") },
          extraction ? t("I stop the extraction") : t("I stop the heal")),
        extraction ? null : h("button", { type: "button", class: "danger", id: "heal-fired", onclick: () => stop(fight, "fired") },
          t("I fired")),
        extraction && lastCode ? h("button", { type: "button", class: "primary huge", onclick: () => start("heal", lastCode) },
          t("Heal now (both hands)")) : null) : null,
      message ? h("p", { class: "message", role: "alert" }, message) : null);
  }

  // Shown while the player could heal: in play, in a game with medic mode.
  function update(snap) {
    const game = snap.clock.game;
    const can = snap.state.can.some((c) => c.key === "heal") && !(game && game.medic_mode === false);
    element.hidden = !can || Boolean(runningHeal(snap, "medic"));
    if (element.hidden) release();
    const done = (snap.fights || []).filter((f) => f.kind === "heal" && f.role === "medic" && f.status !== "running")
      .sort((a, b) => b.id - a.id)[0];
    const signature = done ? `${done.id}:${done.status}` : null;
    if (signature !== shownFor) {
      shownFor = signature;
      last.textContent = done ? `${done.type.label} — ${done.other}${colon()}${done.reason || STATUS()[done.status] || done.status}` : "";
    }
  }

  const busy = (snap) => Boolean(runningHeal(snap, "medic") || runningHeal(snap, "patient"));

  return { element, runningCard, update, busy, release };
}

// What the player can and cannot do, with what a heal they give forbids (no shooting).
export function withHealLimits(snap) {
  const heal = runningHeal(snap, "medic");
  if (!heal || !(heal.cannot || []).length) return snap;
  const barred = new Set(heal.cannot.map((c) => c.key));
  return { ...snap, state: { ...snap.state, can: snap.state.can.filter((c) => !barred.has(c.key)),
                             cannot: [...heal.cannot, ...snap.state.cannot.filter((c) => !barred.has(c.key))] } };
}

