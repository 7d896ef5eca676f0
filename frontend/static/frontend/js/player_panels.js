// Panels of the player's screen kept across redraws (a snapshot arriving must not close
// an explanation being read, nor wipe a reason being typed):
// - the Rasgos (abilities) of the sheet, and "Claridad": what everything in use on the
//   character means (abilities, active effects, state, load), asked of the server;
// - "Emergencia": a real-world emergency stops the game for everyone and calls the
//   organisers (every game has it).
import { get as apiGet, send as apiSend } from "./api.js";
import { t } from "./i18n.js";
import { said } from "./outcome.js";
import { confirmButton, h, mount } from "./util.js";

function explained(label, text, extra) {
  return h("li", {}, h("strong", {}, label), extra || null, text ? h("div", { class: "explains" }, text) : null);
}

export function clarityPanel(characterId, { get = apiGet } = {}) {
  const rasgos = h("div", { class: "rasgos" });
  const answer = h("div", { class: "clarity-answer", role: "status" });
  const root = h("section", { class: "card clarity", hidden: true },
    rasgos,
    h("button", { type: "button", id: "clarity-button", onclick: () => ask() }, t("Claridad: what applies to me")),
    answer);
  let shownAbilities = null;

  async function ask() {
    mount(answer, h("p", { class: "muted" }, t("Loading…")));
    let reply = null;
    try { reply = await get(`/api/characters/${characterId}/clarity/`); } catch { /* offline, never read */ }
    if (!reply || !reply.ok) {
      mount(answer, h("p", { class: "message" }, reply && reply.data.detail ? reply.data.detail : t("Not available offline.")));
      return;
    }
    const { state, abilities, effects, load } = reply.data;
    mount(answer,
      h("h2", {}, t("Claridad")),
      reply.fromCache ? h("p", { class: "muted" }, t("Saved earlier: it may be out of date.")) : null,
      h("p", {}, t("State:"), " ", h("strong", {}, state.label)),
      load ? h("p", {}, h("strong", {}, load.label), " — ", load.meaning) : null,
      effects.length ? [h("h3", {}, t("Active effects")), h("ul", { class: "clarity-list" },
        effects.map((effect) => explained(effect.label || effect.text, effect.explains,
          effect.label && effect.text && !effect.text.startsWith(effect.label) ? h("div", { class: "muted" }, effect.text) : null)))] : null,
      abilities.length ? [h("h3", {}, t("Rasgos")), h("ul", { class: "clarity-list" },
        abilities.map((ability) => explained(ability.label, ability.explains)))] : null,
      !effects.length && !abilities.length ? h("p", { class: "muted" }, t("No Rasgo and no effect in use.")) : null,
      h("button", { type: "button", class: "small", onclick: () => mount(answer) }, t("Close")));
  }

  // Shown for rulesets with Rasgos, a body map or a load (not in the French rules).
  function update(snap) {
    const abilities = (snap.sheet && snap.sheet.abilities) || [];
    root.hidden = !(snap.body || snap.load || abilities.length);
    const signature = JSON.stringify(abilities.map((a) => [a.key, a.label, a.explains]));
    if (signature === shownAbilities) return;
    shownAbilities = signature;
    mount(rasgos, abilities.length ? [h("h2", {}, t("Rasgos")), h("ul", { class: "rasgo-list" }, abilities.map((ability) =>
      h("li", {}, h("details", {}, h("summary", {}, ability.label), h("p", { class: "explains" }, ability.explains)))))] : null);
  }

  return { element: root, update };
}

export function emergencyPanel(eventId, { send = apiSend } = {}) {
  const status = h("p", { class: "emergency-status", role: "alert", hidden: true });
  const reason = h("input", { name: "reason", maxlength: 200, autocomplete: "off",
                              placeholder: t("What is happening? (optional)"), "aria-label": t("What is happening? (optional)") });
  const confirm = h("div", { class: "emergency-confirm", hidden: true },
    h("p", {}, t("Only for a real emergency (someone hurt, a danger): the game stops for everyone and the organisers are alerted.")),
    reason,
    confirmButton(t("Stop the game for everyone"), t("Tap again: emergency"), () => declare(), { class: "danger" }, "emergency"),
    h("button", { type: "button", onclick: () => { confirm.hidden = true; } }, t("Cancel")));
  const root = h("section", { class: "card emergency" },
    h("button", { type: "button", class: "danger emergency-button", onclick: () => { confirm.hidden = false; status.hidden = true; } },
      t("Emergency")),
    confirm, status);

  async function declare() {
    const answer = await send(t("Emergency"), "POST", `/api/events/${eventId}/emergency/`, { reason: reason.value.trim() });
    status.hidden = false;
    status.textContent = said(answer, {
      queued: t("No network: saved, it will be sent when the network is back. Shout for help too."),
      done: (data) => (data.paused_now ? t("Emergency declared: the game is paused for everyone and the organisers are alerted.")
        : t("Emergency declared: the organisers are alerted.")) });
    if (answer.ok) {
      confirm.hidden = true;
      reason.value = "";
    }
  }

  return { element: root };
}
