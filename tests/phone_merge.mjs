// A phone's live channel in Node: js/live.js's own Live (which messages it lets through,
// which it drops as stale or already held) and its `merge` (what the screen then holds),
// fed the server's messages one JSON line at a time on stdin. Each line is
// {"phone": name, "held": [snapshot, ...] (optional: a phone starting with these),
//  "message": {...}, "first": bool, "forget": bool (the phone is done)}; the answer, one
// line on stdout, is the snapshots the message changed on that phone:
// {"changed": [snapshot, ...]} or {"error": "..."}.
// The browser's globals live.js and its imports touch are stood in for.
import { createInterface } from "node:readline";

globalThis.setTimeout = () => 0;
globalThis.clearTimeout = () => {};
globalThis.setInterval = () => 0;
globalThis.clearInterval = () => {};
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { protocol: "https:", host: "game.example" };
globalThis.document = { documentElement: { lang: "en" }, cookie: "", visibilityState: "visible",
  addEventListener: () => {} };
globalThis.window = { addEventListener: () => {}, dispatchEvent: () => {} };
globalThis.CustomEvent = class { constructor(type, init) { this.type = type; this.detail = (init || {}).detail; } };
globalThis.WebSocket = class { constructor() { this.readyState = 0; } close() { this.readyState = 3; } };
globalThis.WebSocket.OPEN = 1;

const { Live, merge } = await import(process.argv[2]);

// One phone per name, as on a real phone: its Live receives the messages in order, and
// what its screen holds of each character is merged with live.js's `merge`.
const phones = new Map();

function phone(name, held) {
  const holding = new Map();
  const touched = new Set();
  const live = new Live("character=0", {
    onMessage: (passed) => {
      if (passed.type === "event_snapshot") {
        for (const snapshot of passed.characters) {
          holding.set(snapshot.character.id, snapshot);
          touched.add(snapshot.character.id);
        }
      } else if (passed.type === "snapshot") {
        const { id } = passed.snapshot.character;
        holding.set(id, merge(holding.get(id), passed));
        touched.add(id);
      } else if (passed.type === "effect") {
        for (const id of passed.characters) {
          holding.set(id, merge(holding.get(id), passed));
          touched.add(id);
        }
      }
    },
  });
  // Snapshots it holds already (read over HTTP): Live counts them as a fetch's (`hold`).
  for (const snapshot of held) {
    holding.set(snapshot.character.id, snapshot);
    live.hold(snapshot);
  }
  live.close();     // no socket: the messages are handed to `receive`
  const made = { live, holding, touched };
  phones.set(name, made);
  return made;
}

// The snapshots of the characters the message changed on that phone.
function received({ phone: name, held, message, first, forget }) {
  const found = held !== undefined || !phones.has(name) ? phone(name, held || []) : phones.get(name);
  found.touched.clear();
  if (message) found.live.receive(message, Boolean(first));
  const changed = [...found.touched].map((id) => found.holding.get(id));
  if (forget) phones.delete(name);
  return changed;
}

for await (const line of createInterface({ input: process.stdin })) {
  let answer;
  try {
    answer = { changed: received(JSON.parse(line)) };
  } catch (error) {
    answer = { error: String(error && error.stack || error) };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
