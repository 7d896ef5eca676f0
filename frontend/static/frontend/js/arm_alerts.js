// A page nobody has touched since it opened (a first login, a reload after a language
// switch or an update) may neither buzz nor beep: browsers allow both only after a tap.
// Under the top bar, before any alert is due, one tap allows them and buzzes once; a
// phone that cannot vibrate (Safari, Firefox) is told so, with what still reaches it.
import { alertsArmed, armAlerts } from "./alerts.js";
import { t } from "./i18n.js";
import { h } from "./util.js";

export function armControl() {
  const note = h("p", { class: "arm-note", hidden: true });
  const button = h("button", { type: "button", class: "arm-alerts", onclick: () => arm() },
    "🔔 ", t("Touch to turn on buzz and sound"));
  const box = h("div", { class: "arm-box", hidden: true }, button, note);

  function arm() {
    const can = armAlerts();
    button.hidden = true;
    if (can.vibration) { box.hidden = true; return; }
    note.hidden = false;
    note.textContent = t("This phone cannot vibrate: it will beep while the app is open; keep notifications on for a locked screen.");
  }
  // Any tap allows them as well: the offer goes once the page has been touched.
  window.addEventListener("pointerdown", (event) => {
    if (!button.hidden && !box.contains(event.target)) setTimeout(() => { if (alertsArmed()) box.hidden = true; }, 0);
  });

  return {
    element: box,
    // Offered on a screen of the game (logged in), not on the welcome page.
    show(loggedIn) { box.hidden = !loggedIn || button.hidden || alertsArmed(); },
  };
}
