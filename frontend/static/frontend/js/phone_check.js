// "Is this phone ready for the game?": what the phone can find out about itself, one line
// per capability the game needs (the screen is js/phone_check_screen.js). Each check says
// whether it passed, a short `detail` for the narrators (why it failed, in no language),
// what it found and, when it failed, what to do, in the app's language.
//
// The keys and their order are the server's (players.models.PHONE_CHECKS).
import { get } from "./api.js";
import { clock } from "./clock.js";
import { t } from "./i18n.js";

export const CHECKS = ["secure_context", "offline", "camera", "notifications", "wake_lock", "clock", "storage", "battery"];
const CLOCK_TOLERANCE_MS = 60 * 1000;      // the app corrects it; a person reading the phone's clock does not
const BATTERY_LOW = 0.5;                   // a day on the field, the screen on, the camera now and then
const WORKER_WAIT_MS = 8000;               // a first visit's service worker is still installing

const NEEDS_HTTPS = () => t("It needs the secure address first (see the first line).");
const line = (ok, detail, found, fix = null) => ({ ok, detail, found, fix });

function secureContext() {
  if (window.isSecureContext) return line(true, "", t("The address is secure (https)."));
  return line(false, "http", t("This page is open at %(origin)s, which is not secure: offline mode, the camera, notifications and keeping the screen on are all blocked.", { origin: location.origin }),
    t("Open the https address the organisers gave you (not http://). If they ask you to, first install the event's certificate from their page (the field network guide says how), then log in again."));
}

async function within(promise, ms, fallback) {
  return Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve(fallback), ms))]);
}

async function offline() {
  if (!("serviceWorker" in navigator) || !window.caches) {
    return line(false, "no_service_worker", t("This phone cannot keep the app for when there is no network."), NEEDS_HTTPS());
  }
  // getRegistration, then ready with a bound: ready never settles where nothing registers.
  const registration = (await navigator.serviceWorker.getRegistration())
    && (await within(navigator.serviceWorker.ready, WORKER_WAIT_MS, null));
  if (!registration || !registration.active) {
    return line(false, "installing", t("The app is not yet kept on this phone for when there is no network."),
      t("Stay on the site's network for a minute with this page open, then check again."));
  }
  const shell = await caches.match("/");
  const script = await caches.match(new URL("./app.js", import.meta.url).pathname);
  if (!shell || !script) {
    return line(false, "not_cached", t("The app is only partly kept on this phone for when there is no network."),
      t("Stay on the site's network for a minute with this page open, then check again."));
  }
  return line(true, "", t("The app opens with no network."));
}

async function camera() {
  if (!navigator.mediaDevices || !navigator.mediaDevices.enumerateDevices) {
    return line(false, "no_api", t("This page cannot use the camera to scan QR codes."), NEEDS_HTTPS());
  }
  const permission = await permissionState("camera");
  if (permission === "denied") {
    return line(false, "denied", t("The camera was refused to this site."),
      t("Allow the camera for this site in the browser's settings (the padlock or the ⓘ beside the address), then check again."));
  }
  const devices = await navigator.mediaDevices.enumerateDevices().catch(() => []);
  if (!devices.some((device) => device.kind === "videoinput")) {
    return line(false, "no_camera", t("This phone shows no camera."),
      t("Without a camera, type the code printed under each QR code instead."));
  }
  return line(true, "", t("The camera can scan QR codes (the phone asks once, at the first scan)."));
}

async function permissionState(name) {
  try { return (await navigator.permissions.query({ name })).state; } catch { return "unknown"; }
}

function notifications() {
  if (!("Notification" in window)) {
    return line(false, "unsupported", t("This browser cannot show the game's notifications."),
      window.isSecureContext
        ? t("On an iPhone: add the app to the home screen (Share, then Add to Home Screen), open it from there and check again.")
        : NEEDS_HTTPS());
  }
  if (!window.isSecureContext) {
    return line(false, "unsupported", t("This browser cannot show the game's notifications."), NEEDS_HTTPS());
  }
  if (Notification.permission === "granted") return line(true, "", t("Notifications are allowed."));
  if (Notification.permission === "denied") {
    return line(false, "denied", t("Notifications were refused to this site."),
      t("Allow notifications for this site in the browser's settings, then check again."));
  }
  return line(false, "not_asked", t("Notifications are not allowed yet."), t("Tap “Allow notifications” below."));
}

async function wakeLock() {
  if (!("wakeLock" in navigator)) {
    return line(false, "unsupported", t("This browser cannot keep the screen on during a countdown."),
      window.isSecureContext ? t("Set the screen to stay on for 5 minutes or more in the phone's settings.") : NEEDS_HTTPS());
  }
  try {
    const lock = await navigator.wakeLock.request("screen");
    await lock.release();
    return line(true, "", t("The screen can stay on during a countdown."));
  } catch {
    return line(false, "refused", t("The phone refused to keep the screen on."),
      t("Turn the battery saver off, then check again."));
  }
}

// `measured`: whether the phone reached the server just now (the offset is fresh).
function clockLine(measured) {
  if (!measured && !localStorage.getItem("clock")) {
    return line(false, "unknown", t("The phone has not yet compared its clock with the game's."),
      t("Check again once connected to the site's network."));
  }
  const offset = clock.offsetMs;
  const seconds = Math.round(Math.abs(offset) / 1000);
  const amount = seconds < 120 ? t("%(n)s s", { n: seconds }) : t("%(n)s min", { n: Math.round(seconds / 60) });
  if (Math.abs(offset) <= CLOCK_TOLERANCE_MS) {
    return line(true, "", t("The phone's clock is right (within %(amount)s of the game's).", { amount }));
  }
  return line(false, offset < 0 ? "ahead" : "behind",
    offset < 0 ? t("The phone's clock is %(amount)s ahead of the game's.", { amount })
      : t("The phone's clock is %(amount)s behind the game's.", { amount }),
    t("The countdowns are corrected, but set the date and time to automatic in the phone's settings."));
}

async function storage() {
  if (!navigator.storage || !navigator.storage.persisted) {
    return line(false, "no_api", t("This page cannot ask to keep its data on the phone."), NEEDS_HTTPS());
  }
  const kept = (await navigator.storage.persisted()) || (await navigator.storage.persist().catch(() => false));
  if (kept) return line(true, "", t("The phone keeps the app's data (what waits to be sent is safe)."));
  return line(false, "not_persisted", t("The phone may clear the app's data when it runs short of space."),
    t("Add the app to the home screen (the browser's menu: Install, or Add to Home Screen), open it from there and check again."));
}

async function battery() {
  const state = navigator.getBattery ? await navigator.getBattery().catch(() => null) : null;
  if (!state) {
    return { ...line(true, "unknown", t("This browser does not tell the battery level: charge the phone fully before the game.")), level: null };
  }
  const percent = Math.round(state.level * 100);
  if (state.level >= BATTERY_LOW || state.charging) {
    return { ...line(true, "", state.charging ? t("Battery %(n)s %, charging.", { n: percent }) : t("Battery %(n)s %.", { n: percent })),
             level: state.level };
  }
  return { ...line(false, "low", t("Battery %(n)s %.", { n: percent }),
    t("Charge the phone fully before the game, and bring a power bank.")), level: state.level };
}

// Every line, in CHECKS' order, each `{key, ok, detail, found, fix}`; plus the clock's offset
// and the battery's level for the report.
export async function runChecks() {
  let measured = false;
  try { measured = (await get("/api/me/")).fromCache === false; } catch { /* offline */ }
  const results = {
    secure_context: secureContext(), offline: await offline(), camera: await camera(),
    notifications: notifications(), wake_lock: await wakeLock(), clock: clockLine(measured),
    storage: await storage(), battery: await battery(),
  };
  return {
    lines: CHECKS.map((key) => ({ key, ...results[key] })),
    clockOffsetMs: measured || localStorage.getItem("clock") ? Math.round(clock.offsetMs) : null,
    batteryLevel: results.battery.level,
  };
}
