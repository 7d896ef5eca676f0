// The public results page reads itself again when the race's results change. Its socket
// says only "changed" (race/consumers.py); what it shows is the page as anyone reads it.
// Spectators are many: each waits a random moment before reading, so that a punch does
// not bring them all at the same instant, and a lost socket comes back with backoff
// (reading the page once back, for what changed meanwhile). Paper and readers without
// JavaScript keep the page as it was loaded.
(() => {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${scheme}//${location.host}/ws/race/${document.body.dataset.event}/results/`;
  const NOT_A_RACE = 4404;
  let pending = null;
  let backoffMs = 1000;

  async function readAgain() {
    pending = null;
    try {
      const response = await fetch(location.href, { cache: "no-store", credentials: "omit" });
      if (!response.ok) return;
      const fresh = new DOMParser().parseFromString(await response.text(), "text/html").querySelector("main");
      const shown = document.querySelector("main");
      if (fresh && shown) shown.replaceWith(fresh);
    } catch { /* no network: the next change or reconnection reads again */ }
  }

  function readSoon() {
    if (!pending) pending = setTimeout(readAgain, 300 + Math.random() * 1500);
  }

  function connect(afterLoss) {
    const socket = new WebSocket(url);
    socket.onopen = () => { backoffMs = 1000; if (afterLoss) readSoon(); };
    socket.onmessage = (message) => {
      try { if (JSON.parse(message.data).type === "results_changed") readSoon(); } catch { /* not ours */ }
    };
    socket.onclose = (closed) => {
      if (closed.code === NOT_A_RACE) return;
      setTimeout(() => connect(true), backoffMs * (1 + Math.random()));
      backoffMs = Math.min(backoffMs * 2, 60000);
    };
  }
  connect(false);
})();
