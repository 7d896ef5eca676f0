"""The phone's reconnect backoff, run in Node with the browser's globals stood in for: a
busy server's delay (a `busy` message or the reason of its close 4013) is honoured, any other close keeps the
phone's own jittered backoff, and a refusal (4403) stops it."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

LIVE_JS = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend" / "js" / "live.js"

# Stands in for what live.js meets in a browser, then opens it and reports what the phone
# did after each close: the delays it set, the statuses it showed, the events it raised.
HARNESS = """
const timers = [];
const events = [];
const statuses = [];
const listeners = {};
globalThis.setTimeout = (fn, ms) => { timers.push({ fn, ms }); return timers.length; };
globalThis.clearTimeout = () => {};
globalThis.setInterval = () => 0;
globalThis.clearInterval = () => {};
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.location = { protocol: "https:", host: "game.example" };
globalThis.document = { documentElement: { lang: "en" }, cookie: "", visibilityState: "visible",
  addEventListener: (name, fn) => { listeners[name] = fn; } };
globalThis.window = { addEventListener: (name, fn) => { listeners["window-" + name] = fn; },
  dispatchEvent: (event) => events.push({ type: event.type, detail: event.detail }) };
globalThis.CustomEvent = class { constructor(type, init) { this.type = type; this.detail = (init || {}).detail; } };
const sockets = [];
globalThis.WebSocket = class { constructor(url) { this.url = url; this.readyState = 0; sockets.push(this); }
  close() { this.readyState = 3; } };
globalThis.WebSocket.OPEN = 1;
const random = Number(process.argv[2]);
Math.random = () => random;
const { Live } = await import(process.argv[1]);
const live = new Live("character=7", { onMessage: () => {}, onStatus: (s) => statuses.push(s) });
const report = [];
for (const close of JSON.parse(process.argv[3])) {
  const socket = sockets[sockets.length - 1];
  socket.readyState = 3;
  const before = timers.length;
  if (close.busy !== undefined) socket.onmessage({ data: JSON.stringify({ type: "busy", retry_after_ms: close.busy }) });
  socket.onclose(close);
  const woke = sockets.length;
  listeners["visibilitychange"]();          // the phone is picked up meanwhile
  report.push({ delays: timers.slice(before).map((t) => t.ms), status: statuses[statuses.length - 1],
                reconnected_on_wake: sockets.length > woke, events: events.splice(0) });
  timers[timers.length - 1] && timers[timers.length - 1].fn();   // the delay passes
}
console.log(JSON.stringify(report));
"""


def phone_after(closes: list[dict], random: float = 0.5) -> list[dict]:
    done = subprocess.run(["node", "--input-type=module", "-e", HARNESS, LIVE_JS.as_uri(),
                           str(random), json.dumps(closes)],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def busy(ms) -> dict:
    return {"code": 4013, "reason": json.dumps({"retry_after_ms": ms})}


def test_a_busy_server_is_left_alone_for_the_delay_it_gave():
    told = phone_after([busy(7300), busy(7300)], random=0.5)
    for after in told:
        # The delay given plus a little jitter (random() = 0.5: half of 500 ms).
        assert after["delays"] == [7550]
        assert after["status"] == "reconnecting"
        assert [e["type"] for e in after["events"]] == ["live-busy"]
        # Picking the phone up does not make it knock again before its time.
        assert not after["reconnected_on_wake"]


def test_the_delay_is_read_from_the_busy_message_when_the_close_has_no_reason():
    # daphne sends no close reason: the message before the close carries the delay.
    after = phone_after([{"code": 4013, "reason": "", "busy": 6000}], random=0)[0]
    assert after["delays"] == [6000]
    assert after["status"] == "reconnecting"


def test_jitter_stays_small_and_the_delay_is_never_shortened():
    low, high = phone_after([busy(2000)], random=0)[0], phone_after([busy(2000)], random=0.999)[0]
    assert low["delays"] == [2000]
    assert 2000 < high["delays"][0] <= 2500


def test_other_closes_keep_the_phones_own_backoff():
    after = phone_after([{"code": 1006, "reason": ""}, {"code": 4013, "reason": "not json"},
                         {"code": 1011, "reason": busy(9000)["reason"]}], random=0.5)
    # 1 s, 2 s, 4 s times (0.5 + random()): a reason it cannot read, or a hint on another
    # code, is an ordinary drop.
    assert [a["delays"] for a in after] == [[1000], [2000], [4000]]
    assert {a["status"] for a in after} == {"offline"}
    assert all(a["reconnected_on_wake"] for a in after)


def test_a_refusal_is_not_retried():
    after = phone_after([{"code": 4403, "reason": ""}])[0]
    assert after["delays"] == []
    assert after["status"] == "refused"
    assert [e["type"] for e in after["events"]] == ["live-refused"]
