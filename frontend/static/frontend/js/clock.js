// The server's time on a phone whose own clock may be wrong. Every answer carries
// server_time; the offset kept is the one measured with the shortest round trip, the
// least distorted by the network. Countdowns are computed from absolute deadlines, so
// they stay right offline and after the screen was locked.
const KEY = "clock";

function load() {
  try { return JSON.parse(localStorage.getItem(KEY)) || null; } catch { return null; }
}

const saved = load();
let offsetMs = saved ? saved.offsetMs : 0;
let bestRttMs = Infinity;   // a fresh page trusts the saved offset until it measures one

export const clock = {
  now() { return Date.now() + offsetMs; },
  get offsetMs() { return offsetMs; },
  // sentMs and receivedMs are the phone's Date.now() around a request; serverTime in s.
  sample(sentMs, serverTimeS, receivedMs) {
    const rtt = receivedMs - sentMs;
    if (!(serverTimeS > 0) || rtt < 0) return;
    // Older measures lose weight slowly, so a phone whose clock was changed recovers.
    bestRttMs *= 1.02;
    if (rtt > bestRttMs) return;
    bestRttMs = rtt;
    offsetMs = serverTimeS * 1000 - (sentMs + receivedMs) / 2;
    localStorage.setItem(KEY, JSON.stringify({ offsetMs, at: Date.now() }));
  },
  // Seconds left before an ISO instant; null when there is none (the game is paused).
  secondsUntil(iso) {
    if (!iso) return null;
    return (Date.parse(iso) - this.now()) / 1000;
  },
};
