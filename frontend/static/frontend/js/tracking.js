// Position sharing during a race (docs/safety.md, "Tracking during a race"). When the
// organisers track races for safety and this runner's race is running, the phone says so
// under the top bar for as long as it shares, and sends its position at most once a
// minute. It learns whether to share from the server (GET /api/characters/<id>/position/)
// when the event's screen opens, when the race screen sees the race start or end, and
// every minute after, and stops as soon as the answer,
// or a refused position, says no (the race is over, or tracking went off). A position is
// never queued in the outbox: an old one is of little use, the next fix does better.
import { clock } from "./clock.js";
import { request } from "./api.js";
import { t } from "./i18n.js";
import { h, newKey } from "./util.js";

const SEND_EVERY_MS = 60 * 1000;
const ASK_EVERY_MS = 60 * 1000;

export function trackingControl() {
  let characterId = null;
  let sharing = false;       // the server says: share now
  let watching = null;       // the watchPosition id while sharing
  let denied = false;        // the phone gives no position (refused, or none)
  let lastSentAt = 0;
  let asker = null;
  const banner = h("p", { class: "tracking-banner", role: "status", hidden: true });
  const url = () => `/api/characters/${characterId}/position/`;
  // The race screen saw this runner's race start or end (js/race_survivor.js): ask now.
  window.addEventListener("race-status", () => ask());

  function draw() {
    banner.hidden = !sharing;
    banner.classList.toggle("tracking-denied", denied);
    banner.textContent = denied
      ? t("Your phone does not give its position: the organisers cannot see where you are.")
      : t("Your position is shared with the organisers for your safety until you finish.");
  }

  function stop() {
    sharing = false;
    if (watching !== null) navigator.geolocation.clearWatch(watching);
    watching = null;
    draw();
  }

  async function fix(found) {
    denied = false;
    draw();
    if (Date.now() - lastSentAt < SEND_EVERY_MS) return;
    lastSentAt = Date.now();
    // The fix's instant on the server's clock (the phone's own may be off).
    const at = new Date(clock.now() - Math.max(0, Date.now() - found.timestamp)).toISOString();
    const body = { latitude: found.coords.latitude, longitude: found.coords.longitude,
                   accuracy_m: found.coords.accuracy, at };
    try {
      const answer = await request("POST", url(), body, newKey());
      if (answer.status === 409) stop();    // the race is over, or tracking went off
    } catch { lastSentAt = 0; /* offline: dropped, the next fix tries again */ }
  }

  function start() {
    sharing = true;
    if (!("geolocation" in navigator)) denied = true;
    else if (watching === null && !denied) {
      watching = navigator.geolocation.watchPosition(fix, () => {
        denied = true;
        navigator.geolocation.clearWatch(watching);
        watching = null;
        draw();
      }, { enableHighAccuracy: true, maximumAge: 30000 });
    }
    draw();
  }

  async function ask() {
    if (!characterId) return;
    try {
      const answer = await request("GET", url());
      if (!answer.ok || answer.fromCache) return;    // offline: what is known stays
      if (answer.data.tracking) start(); else stop();
    } catch { /* offline: keep sharing as before; the next fix tries again */ }
  }

  return {
    banner,
    // This account's character in the event shown (null: none, or no event).
    setCharacter(id) {
      if (id === characterId) return;
      stop();
      denied = false;
      lastSentAt = 0;
      characterId = id || null;
      clearInterval(asker);
      asker = characterId ? setInterval(ask, ASK_EVERY_MS) : null;
      ask();
    },
  };
}
