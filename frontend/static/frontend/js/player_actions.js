// What the player may declare (js/player.js): a two-tap button per action, or, for an
// action with parameters (where a hit landed, with what), a small form kept across
// redraws. A limb tapped on the body figure opens the hit's form with that place chosen.
// `current()`: the snapshot shown; `say(text)`: the screen's message; `apply(snapshot)`
// and `render()`: the screen's; `tapped(action, params)`: what a tap adds to the request
// (`body`: the instant of the tap), keeps with it while it waits (`note`) and is told
// when it waits (`queued(key)`) (js/declared_offline.js).
import { send } from "./api.js";
import { t } from "./i18n.js";
import { stamped } from "./live.js";
import { said } from "./outcome.js";
import { paramField, paramValues } from "./params.js";
import { costText, outcomeOf } from "./player_cards.js";
import { confirmButton, h } from "./util.js";

export function declarations(id, { current, say, apply, render, tapped = null }) {
  let openAction = null;     // the action whose parameters are being filled in
  const forms = new Map();   // and its form

  const labelOf = (action) => {
    const cost = costText(current(), action);
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
    say(null);
  }

  function closeForm() {
    if (openAction) forms.delete(openAction);
    openAction = null;
  }

  // The action that asks where on the body (a hit), if the player may declare one now.
  function locationAction() {
    return current().actions.find((action) => (action.params || []).some((param) =>
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

  const button = (action) => confirmButton(labelOf(action), t("Tap again: %(action)s", { action: labelOf(action) }),
    () => declare(action), { class: "action" }, action.label);

  // The "Declare" card of every game but those with their own (js/panels.js).
  function card(snap, message) {
    return h("section", { class: "card actions", id: "actions" }, h("h2", {}, t("Declare")),
      snap.actions.map((action) => (action.params && action.params.length ? actionWithParams(action) : button(action))),
      message ? h("p", { class: "message", role: "status" }, message) : null);
  }

  // A form left open for an action the player may no longer declare is closed.
  function sync(snap) {
    if (openAction && !snap.actions.some((action) => action.key === openAction)) closeForm();
  }

  async function declare(action, params = {}) {
    const tap = tapped ? tapped(action, params) : { body: {}, note: null };
    const answer = await send(action.label, "POST", `/api/characters/${id}/actions/`,
                              { action: action.key, params, ...tap.body }, tap.note);
    say(said(answer, { done: (data) => outcomeOf(data.events) }));
    if (answer.queued) closeForm();
    if (answer.queued && tap.queued) tap.queued(answer.key);
    if (!answer.ok) { render(); return; }
    if (openAction === action.key) closeForm();
    apply(stamped(answer.data.snapshot, answer.data.server_time));
  }

  // The body figure's: where a tap goes (null: no hit to declare now), the place chosen
  // and the places the hit may name (head, neck, a hand holding a weapon...).
  function figure() {
    const located = locationAction();
    const where = located ? located.params.find((p) => p.key === "location") : null;
    return { onTap: located ? tapLimb : null, chosen: chosenLocation(located), places: where ? where.choices : [] };
  }

  return { card, button, withParams: actionWithParams, sync, figure };
}
