// The screen "Is this phone ready for the game?" (#/check): shown once after the first
// login on a phone, and from the top bar whenever the player wants. Every line says what
// it found and, when it failed, what to do (js/phone_check.js). The result is reported
// for each of the user's characters (POST /api/characters/<id>/readiness/, through the
// outbox: a phone checked in a dead zone reports when the network is back), so the
// narrators know which phones are not ready.
import { send } from "./api.js";
import { clock } from "./clock.js";
import { followEventLanguage, t } from "./i18n.js";
import { displayChooser, textSizeChooser } from "./display.js";
import { runChecks } from "./phone_check.js";
import { enablePush } from "./push.js";
import { h, mount } from "./util.js";

const SEEN_KEY = "phone_checked";

// Whether this phone has shown its check once already (first login: not yet).
export function checkedBefore() {
  try { return Boolean(localStorage.getItem(SEEN_KEY)); } catch { return true; }
}

const TITLES = () => ({
  secure_context: t("Secure address"), offline: t("Works with no network"), camera: t("Camera for scanning"),
  notifications: t("Notifications"), wake_lock: t("Screen stays on"), clock: t("Clock"),
  storage: t("Data kept on the phone"), battery: t("Battery"),
});

// `leave()`: back to the game (the screen the phone would have opened).
export async function show(root, { me, params, leave }) {
  try { localStorage.setItem(SEEN_KEY, String(Date.now())); } catch { /* private mode */ }
  const first = params.get("first") === "1";
  // The check speaks the game's language, as the game's screens do (unless the player chose).
  const event = me.events.find((e) => me.characters.some((c) => c.event === e.id)) || me.events[0];
  if (event && followEventLanguage(event.language)) return () => {};

  let result = null;
  let reported = null;
  let active = true;

  async function check() {
    result = null;
    render();
    result = await runChecks();
    if (!active) return;
    render();
    reported = await report(result);
    if (active) render();
  }

  async function report({ lines, clockOffsetMs, batteryLevel }) {
    const checks = Object.fromEntries(lines.map((item) => [item.key, { ok: item.ok, detail: item.detail }]));
    const body = { checks, checked_at: new Date(clock.now()).toISOString(), clock_offset_ms: clockOffsetMs,
                   battery_level: batteryLevel };
    const answers = await Promise.all(me.characters.map((character) =>
      send(t("Phone check"), "POST", `/api/characters/${character.id}/readiness/`, body)));
    if (answers.some((answer) => answer.queued)) return "queued";
    return answers.every((answer) => answer.ok) ? "sent" : "refused";
  }

  async function allowNotifications() {
    await enablePush().catch(() => null);   // the permission is what counts here
    check();
  }

  function lineElement(item) {
    const titles = TITLES();
    return h("li", { class: `check-line ${item.ok ? "check-ok" : "check-failed"}`, dataset: { check: item.key } },
      h("span", { class: "check-mark", "aria-hidden": "true" }, item.ok ? "✓" : "✗"),
      h("span", { class: "check-words" },
        h("strong", {}, titles[item.key], " — ", item.ok ? t("OK") : t("Not ready")),
        h("span", { class: "check-found" }, item.found),
        item.fix ? h("span", { class: "check-fix" }, item.fix) : null,
        item.key === "notifications" && item.detail === "not_asked"
          ? h("button", { type: "button", class: "primary", onclick: allowNotifications }, t("Allow notifications")) : null));
  }

  function render() {
    if (!active) return;
    const failed = result ? result.lines.filter((item) => !item.ok).length : 0;
    mount(root, h("section", { class: "card phone-check" },
      h("h1", {}, t("Is this phone ready for the game?")),
      !result ? h("p", { role: "status" }, t("Checking…"))
        : h("p", { class: `check-summary ${failed ? "check-failed" : "check-ok"}`, role: "status" },
          failed ? t("Things to fix before the game: %(n)s.", { n: failed }) : t("This phone is ready for the game.")),
      result ? h("ul", { class: "check-lines" }, result.lines.map(lineElement)) : null,
      reported === "sent" ? h("p", { class: "muted check-reported" }, t("The organisers can see this result.")) : null,
      reported === "queued" ? h("p", { class: "muted check-reported" }, t("The result will reach the organisers when the network is back.")) : null,
      displayChooser(),
      textSizeChooser(),
      h("div", { class: "check-actions" },
        h("button", { type: "button", onclick: check, disabled: !result }, t("Check again")),
        h("button", { type: "button", class: first ? "primary" : "", onclick: leave }, t("Continue to the game")))));
  }

  check();
  return () => { active = false; };
}
