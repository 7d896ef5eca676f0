// Web Push from the page: ask the player, subscribe this phone, tell the server. The
// server then pushes each change of state and a warning one minute before a deadline
// (docs/push.md); sw-push.js shows them. It needs only the session (and its CSRF cookie).
import { cookie } from "./util.js";

const KEY_URL = "/api/push/key/";
const SUBSCRIPTIONS_URL = "/api/push/subscriptions/";

function supported() {
  // iOS has PushManager only in an app added to the home screen (16.4+).
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function fromBase64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function sameBytes(buffer, bytes) {
  if (!buffer) return false;
  const other = new Uint8Array(buffer);
  return other.length === bytes.length && other.every((b, i) => b === bytes[i]);
}

async function call(method, url, body) {
  const response = await fetch(url, {
    method, credentials: "same-origin",
    headers: { Accept: "application/json", "Content-Type": "application/json",
               "X-CSRFToken": cookie("csrftoken") },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: HTTP ${response.status}`);
  return response.status === 204 ? {} : response.json();
}

/**
 * Turn notifications on for this phone. Call it from a button: browsers ask for the
 * permission only during a user gesture. Resolves "enabled" | "denied" | "unsupported";
 * rejects when the server cannot be reached (offline), so the button can say so.
 */
export async function enablePush() {
  if (!supported()) return "unsupported";
  const permission = Notification.permission === "granted"
    ? "granted" : await Notification.requestPermission();
  if (permission !== "granted") return "denied";
  const registration = await navigator.serviceWorker.ready;
  const { public_key: publicKey } = await call("GET", KEY_URL);
  const key = fromBase64url(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameBytes(subscription.options.applicationServerKey, key)) {
    // The server's key changed (a new VAPID key): the old subscription is refused now.
    await subscription.unsubscribe();
    subscription = null;
  }
  if (!subscription) {
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true,
                                                              applicationServerKey: key });
  }
  // Sent every time: idempotent on the server, and it moves the phone to whoever is
  // logged in now.
  await call("POST", SUBSCRIPTIONS_URL, subscription.toJSON());
  return "enabled";
}

/**
 * Where this phone stands, without asking anything: "enabled" | "off" (never asked, or
 * not subscribed) | "denied" | "unsupported".
 */
export async function pushState() {
  if (!supported()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  if (Notification.permission !== "granted") return "off";
  // getRegistration, not ready: ready never settles on a page with no service worker.
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = registration && (await registration.pushManager.getSubscription());
  return subscription ? "enabled" : "off";
}
