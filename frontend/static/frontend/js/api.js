// Talking to the server. Reads go straight to it (the service worker answers from cache
// when offline); writes go through the outbox and are replayed when the network returns.
import { clock } from "./clock.js";
import { lang } from "./i18n.js";
import * as outbox from "./outbox.js";
import { cookie, newKey } from "./util.js";

export class Offline extends Error {}

// What the outbox holds, told with every request so that the server can bound the taps
// this phone sends late (live/phone_contact.py): "none", or the instant on the server's
// clock of the oldest write waiting (its tap, or when it was queued).
export async function outboxOldest() {
  try {
    return oldestOf(await outbox.pending());
  } catch {
    return null;   // no IndexedDB (a private window): the request proves nothing
  }
}

function oldestOf([oldest]) {
  if (!oldest) return "none";
  return (oldest.body && oldest.body.tapped_at) || new Date(oldest.created + clock.offsetMs).toISOString();
}

// `oldest`: what the outbox holds, when the caller has just read it (the outbox's own
// round); otherwise it is read here.
// Reads made before the service worker controlled the page (a first visit) were not kept
// for offline use: once it does, they are read again through it, quietly, with the same
// headers (js/app.js). Nothing on screen changes.
const readBeforeControl = new Set();

export function rereadThroughWorker() {
  for (const url of readBeforeControl) {
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json", "Accept-Language": lang } })
      .catch(() => {});
  }
  readBeforeControl.clear();
}

export async function request(method, url, body, key, oldest = undefined) {
  const headers = { Accept: "application/json", "Accept-Language": lang };
  if (oldest === undefined) oldest = await outboxOldest();
  if (oldest) headers["X-Outbox-Oldest"] = oldest;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") headers["X-CSRFToken"] = cookie("csrftoken");
  if (key) headers["Idempotency-Key"] = key;
  if (method === "GET" && "serviceWorker" in navigator && !navigator.serviceWorker.controller) readBeforeControl.add(url);
  const sent = Date.now();
  let response;
  try {
    response = await fetch(url, { method, headers, credentials: "same-origin",
                                  body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    throw new Offline(String(error));
  }
  const received = Date.now();
  const fromCache = response.headers.get("X-Offline-Cache") === "1";
  let data = {};
  try { data = await response.json(); } catch { /* an empty or non-JSON answer */ }
  // The login of this phone has ended (an organiser cut off a lost phone): app.js says so.
  if (response.status === 401 && data && data.error === "logged_out") {
    window.dispatchEvent(new CustomEvent("logged-out"));
  }
  const replayed = response.headers.get("Idempotent-Replayed") === "true";
  if (!fromCache && !replayed && data && data.server_time) clock.sample(sent, data.server_time, received);
  const retryAfter = Number(response.headers.get("Retry-After")) || 0;   // seconds
  return { ok: response.ok, status: response.status, data, fromCache, retryAfter };
}

export const get = (url) => request("GET", url);

// -- the outbox ----------------------------------------------------------------------
const listeners = new Set();
const answers = new Map();
let flushing = null;

// Returns how to stop listening (a screen that closes).
export function onOutbox(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function notify(answered) {
  const items = await outbox.pending();
  for (const listener of listeners) listener(items, answered);
}

// Queue a write and try to send it now. Resolves with the server's answer, or with
// {queued: true} when the phone is offline (the write leaves when the network is back).
// `note`: what the screen keeps with the waiting write (a declaration's expected outcome);
// `first`: it leaves before every other waiting write (a call for help, js/help.js).
export async function send(label, method, url, body, note = null, { first = false } = {}) {
  const item = { key: newKey(), label, method, url, body, note, created: Date.now(), first };
  await outbox.put(item);
  // The write leaves before the screens redraw for it (a player's whole screen may):
  // a call for help must not wait for a repaint to reach the organisers.
  const sent = flush({ fresh: true });
  await notify();
  await sent;
  if (answers.has(item.key)) {
    const answer = answers.get(item.key);
    answers.delete(item.key);
    return answer;
  }
  return { queued: true, key: item.key };
}

// One round at a time. `fresh`: a write was just queued; if a round is under way it may
// have read the outbox too early, so one more round, right after, takes it (rather than
// the 15-second one).
let again = null;

export function flush({ fresh = false } = {}) {
  if (flushing && !fresh) return flushing;
  if (flushing) {
    again ||= flushing.catch(() => {}).then(() => { again = null; return flush(); });
    return again;
  }
  flushing = (async () => {
    try {
      const items = await outbox.pending();
      for (const [index, item] of items.entries()) {
        let answer;
        try {
          answer = await request(item.method, item.url, item.body, item.key, oldestOf(items.slice(index)));
        } catch (error) {
          if (!(error instanceof Offline)) throw error;
          unreachableRetry();                     // keep it, and everything after it
          return;
        }
        if (answer.status >= 500) {              // the server is restarting: try later
          // Kept. A server that says when (503 database_unavailable, Retry-After) is asked
          // again then; otherwise the 15-second round or the network's return sends it.
          if (answer.retryAfter > 0) setTimeout(() => flush(), answer.retryAfter * 1000);
          return;
        }
        if (answer.status === 409 && answer.data && answer.data.error === "idempotency_in_progress") {
          // Its first try is still being worked on, and its answer will be kept: ask again.
          setTimeout(() => flush(), 1000);
          return;
        }
        await outbox.remove(item.key);           // answered: the server's word wins
        answers.set(item.key, answer);
        await notify({ item, answer });
      }
    } finally {
      flushing = null;
    }
  })();
  return flushing;
}

// A phone that believes it has a network and cannot reach the server: the laptop is what
// is missing (restarting, out of the Wi-Fi's reach). It asks again about every second, one
// retry at a time, so that what waits leaves as soon as the laptop is back, not at the
// 15-second round. A failed attempt costs the server nothing: it is not there. Without a
// network, the browser's "online" event sends it.
const UNREACHABLE_RETRY_MS = 1000;
let unreachableTimer = null;

function unreachableRetry() {
  if (unreachableTimer || (typeof navigator !== "undefined" && navigator.onLine === false)) return;
  unreachableTimer = setTimeout(() => { unreachableTimer = null; flush(); },
    UNREACHABLE_RETRY_MS * (0.5 + Math.random()));
}

export const pendingWrites = () => outbox.pending();

window.addEventListener("online", () => flush());
setInterval(() => flush(), 15000);
