// Panels of the player's screen kept across redraws (a snapshot arriving must not close
// an explanation being read): the Rasgos (abilities) of the sheet, and "Claridad": what everything in use on the
// character means (abilities, active effects, state, load), asked of the server.
// (Emergencia is in the top bar of every screen: js/emergency.js.)
import { get as apiGet } from "./api.js";
import { t } from "./i18n.js";
import { h, mount } from "./util.js";

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
