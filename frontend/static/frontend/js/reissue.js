// A lost phone (issue: "Lost phones"): a narrator makes a new login QR code for one person
// from their row. The server revokes that person's older links and sheet at once, so the
// button asks for a second tap that says so. The code is shown in a dialog outside the
// screen's redraws (a snapshot may arrive while the player is scanning it).
// A stolen or lost phone still logged in is cut off with "Lost phone": every session of
// that login ends at once (its screen says it was logged out) and a new code is shown.
import { lang, t } from "./i18n.js";
import { confirmButton, cookie, h, newKey } from "./util.js";

// The SVG as a data: URL (the page's content security policy allows data: images only).
function dataUrl(blob) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

function showCode(name, src, said = t("Scan it with the player's phone. Their older links and printed sheet no longer log in.")) {
  const dialog = h("dialog", { class: "reissue-dialog", "aria-label": t("New login QR code of %(name)s", { name }) },
    h("h2", {}, t("New login QR code of %(name)s", { name })),
    h("img", { src, alt: t("Login QR code of %(name)s", { name }) }),
    h("p", {}, said),
    h("button", { type: "button", class: "primary", onclick: () => dialog.close() }, t("Done")));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

// The outcome, next to the button, outlives the row's redraws.
const notes = new Map();

export function reissueButton(character) {
  const status = h("span", { class: "reissue-status", role: "status" }, notes.get(character.id) || "");
  const say = (text) => { notes.set(character.id, text); status.textContent = text; };
  const button = confirmButton(t("New login QR"),
    t("Tap again: %(name)s's old links stop working", { name: character.name }), async () => {
      say("");
      let response;
      try {
        response = await fetch(`/api/characters/${character.id}/login-qr.svg`, {
          method: "POST", credentials: "same-origin", headers: { "X-CSRFToken": cookie("csrftoken") } });
      } catch {
        say(t("No network: the new code needs it. Try again in a moment."));
        return;
      }
      if (!response.ok) {
        const body = await response.json().catch(() => ({}));
        say(body.detail || t("The new code could not be made."));
        return;
      }
      showCode(character.name, await dataUrl(await response.blob()));
      say(t("New code made; the old links no longer work."));
    }, { class: "small" }, `reissue-${character.id}`);
  return h("div", { class: "reissue" }, button, lostPhoneButton(character, say), status);
}

// One key per cut-off: a retry after a lost answer is not a second cut-off (the new phone
// may have logged in meanwhile), it only brings a fresh code.
const cutKeys = new Map();

function lostPhoneButton(character, say) {
  const { name } = character;
  return confirmButton(t("Lost phone"),
    t("Tap again: every phone logged in as %(name)s is logged out", { name }), async () => {
      say("");
      if (!cutKeys.has(character.id)) cutKeys.set(character.id, newKey());
      let response;
      try {
        response = await fetch(`/api/characters/${character.id}/lost-phone/`, {
          method: "POST", credentials: "same-origin",
          headers: { "X-CSRFToken": cookie("csrftoken"), "Idempotency-Key": cutKeys.get(character.id),
                     Accept: "application/json", "Accept-Language": lang } });
      } catch {
        say(t("No network: the phone is not cut off yet. Try again in a moment."));
        return;
      }
      const body = await response.json().catch(() => ({}));
      if (!response.ok) {
        say(body.detail || t("The phone could not be cut off."));
        return;
      }
      cutKeys.delete(character.id);
      showCode(name, `data:image/svg+xml;charset=utf-8,${encodeURIComponent(body.login.qr_svg)}`,
        t("Every phone logged in as %(name)s is logged out. Scan this code with their new phone.", { name }));
      say(t("Phone cut off; a new code was made."));
    }, { class: "small danger" }, `lost-phone-${character.id}`);
}
