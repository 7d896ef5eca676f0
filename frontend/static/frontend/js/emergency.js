// Urgence / Emergencia, from every screen (js/app.js puts its button in the top bar): a real
// emergency (someone hurt, a danger) stops the game for everyone and alerts the
// organisers. One tap opens the confirmation, which says what will happen; a second tap
// on it declares. Anyone in the event may (POST /api/events/<id>/emergency/).
import { send as apiSend } from "./api.js";
import { t } from "./i18n.js";
import { said } from "./outcome.js";
import { h } from "./util.js";

export function emergencyControl({ send = apiSend } = {}) {
  let eventId = null;
  const status = h("p", { class: "emergency-status", role: "alert", hidden: true });
  const reason = h("input", { name: "reason", maxlength: 200, autocomplete: "off",
                              placeholder: t("What is happening? (optional)"), "aria-label": t("What is happening? (optional)") });
  const declareButton = h("button", { type: "button", class: "danger emergency-confirm-button", onclick: () => declare() },
    t("Stop the game for everyone"));
  // The sheet opens with the focus on "Cancel": a keyboard's Enter must not stop the game.
  const cancel = h("button", { type: "button", autofocus: true, onclick: () => close() }, t("Cancel"));
  const done = h("button", { type: "button", hidden: true, onclick: () => close() }, t("Close"));
  const dialog = h("dialog", { class: "emergency-sheet", "aria-label": t("Emergency") },
    h("h2", {}, t("Emergency")),
    h("p", {}, t("Only for a real emergency (someone hurt, a danger): the game stops for everyone and the organisers are alerted.")),
    reason, h("div", { class: "row" }, declareButton, cancel, done), status);
  document.body.append(dialog);
  const button = h("button", { type: "button", class: "danger emergency-button", hidden: true, onclick: () => open() },
    t("Emergency"));

  function open() {
    status.hidden = true;
    declareButton.hidden = false;
    cancel.hidden = false;
    done.hidden = true;
    if (typeof dialog.showModal === "function") dialog.showModal(); else dialog.setAttribute("open", "");
  }

  function close() {
    if (typeof dialog.close === "function") dialog.close(); else dialog.removeAttribute("open");
  }

  async function declare() {
    declareButton.disabled = true;
    const answer = await send(t("Emergency"), "POST", `/api/events/${eventId}/emergency/`, { reason: reason.value.trim() });
    declareButton.disabled = false;
    status.hidden = false;
    status.textContent = said(answer, {
      queued: t("No network: saved, it will be sent when the network is back. Shout for help too."),
      done: (data) => (data.paused_now ? t("Emergency declared: the game is paused for everyone and the organisers are alerted.")
        : t("Emergency declared: the organisers are alerted.")) });
    if (answer.ok || answer.queued) {
      reason.value = "";
      declareButton.hidden = true;
      cancel.hidden = true;
      done.hidden = false;
    }
  }

  return {
    button,
    // The event of the screen shown (null: none, the button hides).
    setEvent(id) {
      eventId = id || null;
      button.hidden = !eventId;
    },
  };
}
