// The live channel: one websocket, reconnected with jittered backoff. On connect the
// server sends a full snapshot; afterwards one per change, numbered by `version` (a
// snapshot is the whole state: a jump in its number loses nothing). A reconnect means
// something may have been missed: the screen fetches a fresh snapshot.
// An effect arrives as itself (the same message for everyone it reaches): it moves the
// number by one unless the snapshot held already has it (same `push`).
// The heartbeat (every 30 s, and when the server asks with `check` because Redis lost its
// data) carries the versions held; the server re-joins this socket's groups and sends a
// fresh snapshot of whatever is behind. A refused subscription (close code 4403: logged
// out, or not allowed) is not retried. A server busy with a crowd of phones says after
// how long to come back (`{"type": "busy", "retry_after_ms": n}`) and closes with 4013:
// the phone waits that long (plus a little jitter) instead of its own backoff, and shows
// that it is reconnecting, nothing more.
import { outboxOldest } from "./api.js";
import { clock } from "./clock.js";
import { lang } from "./i18n.js";

export class Live {
  // `onCheck`: the server asked for a heartbeat (Redis lost its data): what is not in a
  // snapshot (the narrators' requests) must be read again.
  constructor(query, { onMessage, onStatus, onCheck }) {
    this.query = query;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.onCheck = onCheck || (() => {});
    this.versions = new Map();
    this.pushes = new Map();   // character id -> push ids of the effects it holds
    this.attempt = 0;
    this.notBefore = 0;        // Date.now() before which the busy server asked not to return
    this.closed = false;
    this.connect();
    this.pinger = setInterval(() => this.ping({ heartbeat: true }), 30000);
    // A phone that slept or lost signal reconnects at once instead of waiting its backoff.
    // Not before the time a busy server gave: the whole crowd wakes up at once too.
    const wake = () => { if (!this.closed && !this.isOpen() && Date.now() >= this.notBefore) this.connect(); };
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") wake(); });
    window.addEventListener("online", wake);
  }

  isOpen() { return this.socket && this.socket.readyState === WebSocket.OPEN; }

  close() {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.pinger);
    if (this.socket) this.socket.close();
  }

  connect() {
    clearTimeout(this.retry);
    if (this.socket && this.socket.readyState <= WebSocket.OPEN) this.socket.close();
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/live/?${this.query}&lang=${lang}`);
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.notBefore = 0;
      this.onStatus("online");
      for (let i = 0; i < 3; i += 1) setTimeout(() => this.ping(), i * 700);
    };
    socket.first = true;
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "busy") { socket.busyMs = message.retry_after_ms; return; }
      this.receive(message, socket.first);
      socket.first = false;
    };
    socket.onclose = (event) => {
      if (this.socket !== socket || this.closed) return;
      if (event.code === 4403) {
        this.close();
        this.onStatus("refused");
        window.dispatchEvent(new CustomEvent("live-refused"));
        return;
      }
      const hint = busyHint(event, socket.busyMs);
      if (hint !== null) {
        // Told when to come back: not a failure of this phone, its backoff is not raised.
        this.notBefore = Date.now() + hint;
        window.dispatchEvent(new CustomEvent("live-busy", { detail: { until: this.notBefore } }));
        this.onStatus("reconnecting");
        this.retry = setTimeout(() => this.connect(), hint + HINT_JITTER_MS * Math.random());
        return;
      }
      this.onStatus("offline");
      const delay = Math.min(30000, 1000 * 2 ** this.attempt) * (0.5 + Math.random());
      this.attempt += 1;
      this.retry = setTimeout(() => this.connect(), delay);
    };
  }

  // The heartbeat also says what the outbox holds: the server's proof that this phone
  // was connected with nothing older waiting, which bounds the taps it sends late.
  async ping({ heartbeat = false } = {}) {
    if (!this.isOpen()) return;
    const ping = { type: "ping", client_time: Date.now() };
    if (heartbeat) {
      ping.versions = Object.fromEntries(this.versions);
      const oldest = await outboxOldest();
      if (oldest) ping.outbox_oldest = oldest;
      if (!this.isOpen()) return;
      ping.client_time = Date.now();
    }
    this.socket.send(JSON.stringify(ping));
  }

  receive(message, first = false) {
    if (message.type === "pong") {
      clock.sample(message.client_time, message.server_time, Date.now());
      return;
    }
    if (message.type === "safety") {
      // Real-world safety (js/help.js, js/safety.js) listens on every screen's socket.
      window.dispatchEvent(new CustomEvent("live-safety", { detail: message }));
    }
    if (message.type === "check") {
      this.ping({ heartbeat: true });
      this.onCheck();
      return;
    }
    if (message.type === "snapshot") {
      const { id } = message.snapshot.character;
      const last = this.versions.get(id);
      // A heartbeat's fresh snapshot may overtake one still on its way: never go back.
      if (!first && last !== undefined && message.snapshot.version < last) return;
      this.hold(message.snapshot);
    } else if (message.type === "event_snapshot") {
      for (const snap of message.characters) this.hold(snap);
    } else if (message.type === "effect") {
      const named = message.characters === "all" ? [...this.pushes.keys()]
        : message.characters || [message.character];
      const fresh = named.filter((id) => this.pushes.has(id) && !this.pushes.get(id).has(message.effect.push));
      if (!fresh.length) return;
      for (const id of fresh) {
        this.pushes.get(id).add(message.effect.push);
        this.versions.set(id, this.versions.get(id) + 1);
      }
      message = { ...message, characters: fresh };
    }
    this.onMessage(message);
  }

  // Snapshots answered by the REST API count too: call this for them as well.
  hold(snapshot) {
    this.versions.set(snapshot.character.id, snapshot.version);
    this.pushes.set(snapshot.character.id, new Set(snapshot.effects.map((e) => e.push)));
  }
}

// Added to the server's delay: its own jitter spreads the crowd, this keeps phones told
// the same delay from landing in the same millisecond.
const HINT_JITTER_MS = 500;
const HINT_MAX_MS = 120000;

// The delay a busy server gave before its close (code 4013; 1013, "Try Again Later", from
// a server or proxy that may use it): in its `busy` message (`told`), else in the close
// reason {"retry_after_ms": n}. In ms, or null: any other close, or a delay this phone
// cannot read.
export function busyHint(event, told) {
  if (event.code !== 4013 && event.code !== 1013) return null;
  try {
    const ms = told !== undefined ? told : JSON.parse(event.reason).retry_after_ms;
    return Number.isFinite(ms) && ms >= 0 ? Math.min(ms, HINT_MAX_MS) : null;
  } catch {
    return null;
  }
}

// What a screen holds of one character after a message that Live passed on: a snapshot
// replaces it, an effect is added to it. The tests run this very code on the server's
// messages (tests/phone_merge.py).
export function merge(held, message) {
  if (message.type === "snapshot") return stamped(message.snapshot, message.server_time);
  if (message.type === "effect" && held) return withEffect(held, message.effect);
  return held;
}

export function withEffect(snapshot, effect) {
  if (snapshot.effects.some((e) => e.push === effect.push)) return snapshot;
  return { ...snapshot, version: snapshot.version + 1, effects: [...snapshot.effects, effect] };
}

// The server's time of a snapshot sent inside another answer or message: the body's
// deadlines, given in game seconds, are placed on the clock with it.
export const stamped = (fresh, serverTime) => (fresh && serverTime && !fresh.server_time ? { ...fresh, server_time: serverTime } : fresh);
