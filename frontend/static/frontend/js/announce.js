// What a screen reader says, once each: a state change (the player's own too), a minute
// and thirty seconds before a deadline, an effect, a banner. The screen itself is not a
// live region: its countdowns change four times a second (role="timer" keeps them
// silent), and a redraw must not read the whole screen again. One status element, outside
// the screen, says each announcement once; "read my time" asks for the countdown aloud.
const REPEAT_MS = 1500;   // the same words twice within this are one announcement
let region = null;
let last = { text: "", at: 0 };

function theRegion() {
  if (region && region.isConnected) return region;
  region = document.getElementById("announcer");
  if (!region) {
    region = document.createElement("p");
    Object.assign(region, { id: "announcer", className: "visually-hidden" });
    region.setAttribute("role", "status");
    region.setAttribute("aria-live", "polite");
    region.setAttribute("aria-atomic", "true");
    document.body.append(region);
  }
  return region;
}

export function announce(text) {
  if (!text) return;
  const now = Date.now();
  if (text === last.text && now - last.at < REPEAT_MS) return;
  last = { text, at: now };
  const el = theRegion();
  // Words equal to the previous ones are only said again if the region changes in
  // between: emptied first, filled on the next frame.
  el.textContent = "";
  requestAnimationFrame(() => { el.textContent = text; });
}
