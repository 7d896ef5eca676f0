// A phone's live channel in Node: js/live.js's own Live (which messages it lets through,
// which it drops as stale or already held) and its `merge` (what the screen then holds),
// fed the server's messages one JSON line at a time on stdin. Each line is
// {"held": [snapshot, ...], "message": {...}, "first": bool}; the answer, one line on
// stdout, is what the phone holds afterwards: {"held": [snapshot, ...]} or {"error": "..."}.
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

// The phone's state is what it holds: a Live rebuilt from it (as after a fetch, `hold`)
// knows the same versions and effects as the one that received the earlier messages.
function phoneAfter(heldList, message, first) {
  const held = new Map(heldList.map((snapshot) => [snapshot.character.id, snapshot]));
  const live = new Live("character=0", {
    onMessage: (passed) => {
      if (passed.type === "event_snapshot") {
        for (const snapshot of passed.characters) held.set(snapshot.character.id, snapshot);
      } else if (passed.type === "snapshot") {
        const { id } = passed.snapshot.character;
        held.set(id, merge(held.get(id), passed));
      } else if (passed.type === "effect") {
        for (const id of passed.characters) held.set(id, merge(held.get(id), passed));
      }
    },
  });
  for (const snapshot of held.values()) live.hold(snapshot);
  live.receive(message, first);
  live.close();
  return [...held.values()];
}

for await (const line of createInterface({ input: process.stdin })) {
  let answer;
  try {
    const { held, message, first } = JSON.parse(line);
    answer = { held: phoneAfter(held, message, Boolean(first)) };
  } catch (error) {
    answer = { error: String(error && error.stack || error) };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
