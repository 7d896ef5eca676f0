// Getting attention in a pocket or at arm's length: vibration and a short sound on a
// state change and one minute before a deadline, and the screen kept awake while a
// countdown is shown.
import { announce } from "./announce.js";
import { t } from "./i18n.js";

let audio = null;
let wakeLock = null;
let wantAwake = false;
// Refused (no fresh gesture on Safari, a battery saver): asked again only at the next tap
// or when the page is shown again, not at every redraw. Asking: one request at a time.
let wakeRefused = false;
let wakeAsking = false;
const warned = new Set();

// Browsers only allow sound after a tap, and some (Firefox, Safari) suspend it again:
// it is made on the first tap and resumed on every one.
function wakeAudio() {
  if (!audio && window.AudioContext) audio = new AudioContext();
  if (audio && audio.state === "suspended") audio.resume().catch(() => {});
}
// A wake lock refused without a fresh gesture (Safari) is asked for again on the next tap.
window.addEventListener("pointerdown", () => { wakeAudio(); requestWakeLock(); });

function beep(times) {
  if (!audio) return;
  for (let i = 0; i < times; i += 1) {
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = 880;
    gain.gain.value = 0.15;
    oscillator.connect(gain).connect(audio.destination);
    const start = audio.currentTime + i * 0.3;
    oscillator.start(start);
    oscillator.stop(start + 0.18);
  }
}

// `kind`: what it means (haptics.js): each its own vibration and number of beeps.
export function alertNow(kind) {
  const pattern = self.HAPTICS[kind] || self.HAPTICS.state;
  if (navigator.vibrate) navigator.vibrate(pattern);
  beep(self.HAPTIC_BEEPS[kind] || 2);
}

// A page nobody has touched since it loaded (a fresh login, a reload) may neither buzz
// nor beep: the app offers one tap that allows both (js/app.js) before anything is due.
export function alertsArmed() {
  return !navigator.userActivation || navigator.userActivation.hasBeenActive;
}

// The tap that arms them: sound ready, and one buzz so the player knows it works. Says
// what this phone cannot do (no vibration in Safari and Firefox).
export function armAlerts() {
  wakeAudio();
  requestWakeLock();
  if (navigator.vibrate) navigator.vibrate(self.HAPTICS.state);
  beep(1);
  return { vibration: Boolean(navigator.vibrate), sound: Boolean(audio) };
}

// Called at every countdown refresh: fires once per deadline when a minute is left (a
// buzz, a beep and its words, `what`: "Coma in 0:59"), and says the last thirty seconds.
export function warnBeforeDeadline(key, secondsLeft, what = "") {
  if (secondsLeft === null || secondsLeft <= 0) return false;
  if (secondsLeft <= 30 && warned.has(key) && !warned.has(`${key}:30`)) {
    warned.add(`${key}:30`);
    announce(t("30 seconds left: %(what)s", { what }));
  }
  if (secondsLeft > 60 || warned.has(key)) return false;
  warned.add(key);
  if (secondsLeft <= 30) warned.add(`${key}:30`);
  alertNow("minute");
  announce(t("1 minute left: %(what)s", { what }));
  return true;
}

async function requestWakeLock() {
  if (!wantAwake || wakeLock || wakeAsking || !("wakeLock" in navigator)
      || document.visibilityState !== "visible") return;
  wakeAsking = true;
  try {
    wakeLock = await navigator.wakeLock.request("screen");
    wakeRefused = false;
    wakeLock.addEventListener("release", () => { wakeLock = null; });
  } catch {
    wakeRefused = true;     // the countdown still runs
  } finally {
    wakeAsking = false;
  }
}

export function keepAwake(on) {
  wantAwake = on;
  if (on && !wakeRefused) requestWakeLock();
  if (!on && wakeLock) wakeLock.release();
}

// The lock is dropped whenever the page is hidden; take it again when it comes back.
document.addEventListener("visibilitychange", requestWakeLock);
