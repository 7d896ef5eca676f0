"""The phone's outbox, run in Node with the browser's globals stood in for (an in-memory
IndexedDB, fetch): a write answered 503 `database_unavailable` stays in the outbox and is
sent again after the Retry-After the server gave, with the same Idempotency-Key, until it
is answered."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

API_JS = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend" / "js" / "api.js"

HARNESS = """
const timers = [];
globalThis.setTimeout = (fn, ms) => { timers.push({ fn, ms }); return timers.length; };
globalThis.setInterval = () => 0;
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.document = { documentElement: { lang: "en" }, cookie: "csrftoken=t",
  createElement: () => ({}), head: { append: () => {} }, querySelector: () => null };
globalThis.window = { addEventListener: () => {} };
// IndexedDB, in memory: what outbox.js uses of it.
const rows = new Map();
const done = (request, result) => { request.result = result; };
globalThis.indexedDB = { open() {
  const request = {};
  const db = { createObjectStore() {}, transaction() {
    const tx = {};
    const store = {
      put(item) { const r = {}; rows.set(item.key, structuredClone(item)); done(r, item.key); return r; },
      delete(key) { const r = {}; rows.delete(key); done(r, undefined); return r; },
      getAll() { const r = {}; done(r, [...rows.values()]); return r; },
    };
    tx.objectStore = () => store;
    queueMicrotask(() => tx.oncomplete && tx.oncomplete());
    return tx;
  } };
  queueMicrotask(() => { request.result = db; request.onsuccess(); });
  return request;
} };
// The server: 503 with Retry-After twice, then the answer.
const sent = [];
const answers = JSON.parse(process.argv[2]);
globalThis.fetch = async (url, init) => {
  sent.push({ url, key: init.headers["Idempotency-Key"] });
  const [status, retryAfter] = answers[Math.min(sent.length - 1, answers.length - 1)];
  if (status === 0) throw new TypeError("Failed to fetch");   // the server out of reach
  const headers = new Map([["retry-after", retryAfter]]);
  return { ok: status < 400, status, headers: { get: (name) => headers.get(name.toLowerCase()) || null },
           json: async () => status === 503 ? { error: "database_unavailable" } : { paused_now: true } };
};
const api = await import(process.argv[1]);
const report = [];
const first = await api.send("Emergencia", "POST", "/api/events/1/emergency/", { reason: "chute" });
report.push({ queued: first.queued === true, waiting: (await api.pendingWrites()).length,
              delays: timers.map((t) => t.ms) });
while (timers.length) {
  const timer = timers.shift();
  timer.fn();
  await api.flush();
  report.push({ waiting: (await api.pendingWrites()).length, delays: timers.map((t) => t.ms) });
}
console.log(JSON.stringify({ report, sent }));
"""


def outbox_after(answers: list, offline: bool = False) -> dict:
    # `offline`: the browser says the phone has no network (navigator.onLine false).
    harness = ("Object.defineProperty(globalThis, 'navigator', { value: { onLine: false } });\n"
               if offline else "") + HARNESS
    done = subprocess.run(["node", "--input-type=module", "-e", harness, API_JS.as_uri(), json.dumps(answers)],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_write_answered_503_is_kept_and_sent_again_after_retry_after():
    seen = outbox_after([[503, "5"], [503, "7"], [200, None]])
    report, sent = seen["report"], seen["sent"]
    assert report[0] == {"queued": True, "waiting": 1, "delays": [5000]}   # kept, retried in 5 s
    assert report[1] == {"waiting": 1, "delays": [7000]}                   # again, as told
    assert report[2] == {"waiting": 0, "delays": []}                       # answered: gone
    assert len(sent) == 3 and len({s["key"] for s in sent}) == 1           # the same key each time
    assert {s["url"] for s in sent} == {"/api/events/1/emergency/"}


def test_a_5xx_without_retry_after_is_kept_for_the_next_round():
    seen = outbox_after([[500, None]])
    assert seen["report"][0] == {"queued": True, "waiting": 1, "delays": []}


def test_a_write_that_cannot_reach_the_server_is_tried_again_within_two_seconds():
    """The phone has a network and the laptop is out of reach: asked again about every
    second (one retry at a time), not at the 15-second round, until it is answered."""
    seen = outbox_after([[0, None], [0, None], [200, None]])
    report, sent = seen["report"], seen["sent"]
    assert report[0]["queued"] and report[0]["waiting"] == 1
    for round_ in report[:2]:
        (delay,) = round_["delays"]                  # one retry, never a pile of them
        assert 500 <= delay <= 1500
    assert report[2] == {"waiting": 0, "delays": []}
    assert len(sent) == 3 and len({s["key"] for s in sent}) == 1


def test_a_phone_without_a_network_waits_for_the_browser_to_say_it_is_back():
    seen = outbox_after([[0, None]], offline=True)
    assert seen["report"] == [{"queued": True, "waiting": 1, "delays": []}]


# A round held by a slow server while a call for help is tapped (the same stand-ins).
ROUND_UNDER_WAY = HARNESS[:HARNESS.index("// The server:")] + """
const log = [];
let release = null;
globalThis.fetch = async (url, init) => {
  log.push(`fetch ${url}`);
  if (url === "/slow/") await new Promise((resolve) => { release = resolve; });
  return { ok: true, status: 200, headers: { get: () => null }, json: async () => ({}) };
};
const api = await import(process.argv[1]);
api.onOutbox((items, done) => { if (!done) log.push(`told ${items.length}`); });
const slow = api.send("Declared", "POST", "/slow/", {});
while (!release) await Promise.resolve();
const help = api.send("Call for help", "POST", "/help/", { kind: "lost" }, null, { first: true });
for (let i = 0; i < 50; i += 1) await Promise.resolve();
release();
const answered = await help;
await slow;
console.log(JSON.stringify({ log, queued: answered.queued === true, waiting: (await api.pendingWrites()).length }));
"""


def test_a_write_leaves_before_the_screens_redraw_and_a_round_under_way_does_not_hold_it():
    """A call for help tapped while the outbox is sending something else leaves right after
    it, not at the next 15-second round; and every write's request starts before the
    screens are told of it (a player's screen redraws whole)."""
    done = subprocess.run(["node", "--input-type=module", "-e", ROUND_UNDER_WAY, API_JS.as_uri()],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["log"][:2] == ["fetch /slow/", "told 1"]
    assert "fetch /help/" in seen["log"]
    assert (seen["queued"], seen["waiting"]) == (False, 0)
