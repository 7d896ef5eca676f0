"""What a phone holds after a live message, worked out by the phone's own code: one Node
process for the whole test run runs frontend/static/frontend/js/live.js (tests/phone_merge.mjs)
on the server's real messages, so a test that compares the result with a fresh fetch checks
the merge the phones run, not a copy of it."""
from __future__ import annotations

import atexit
import itertools
import json
import subprocess
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIVE_JS = ROOT / "frontend" / "static" / "frontend" / "js" / "live.js"
HARNESS = Path(__file__).with_name("phone_merge.mjs")

_lock = threading.Lock()       # the fault tests' phones merge from threads of their own
_node: subprocess.Popen | None = None


def _process() -> subprocess.Popen:
    global _node
    if _node is None or _node.poll() is not None:
        _node = subprocess.Popen(["node", str(HARNESS), LIVE_JS.as_uri()], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True, bufsize=1)
        atexit.register(_node.kill)
    return _node


def _ask(request: dict) -> list[dict]:
    line = json.dumps(request)
    with _lock:
        node = _process()
        node.stdin.write(line + "\n")
        node.stdin.flush()
        answer = node.stdout.readline()
    if not answer:
        raise RuntimeError(f"node stopped (exit {node.poll()}) on {line[:200]}")
    answer = json.loads(answer)
    if "error" in answer:
        raise RuntimeError(f"live.js failed on {line[:200]}: {answer['error']}")
    return answer["changed"]


class PhoneInNode:
    """One phone's live channel, kept in the Node process: its Live receives the messages
    in order, as the phone's own would; `receive` answers the snapshots each one changed."""

    def __init__(self):
        self.name = next(_names)
        _ask({"phone": self.name, "held": []})

    def receive(self, message: dict, first: bool = False) -> list[dict]:
        return _ask({"phone": self.name, "message": message, "first": first})

    def forget(self) -> None:
        _ask({"phone": self.name, "forget": True})


_names = (f"phone-{number}" for number in itertools.count())


def apply_push(held: dict | None, message: dict, first: bool = False) -> dict:
    """What a character's phone that holds `held` (its snapshot) holds after `message`."""
    changed = _ask({"phone": next(_names), "held": [held] if held is not None else [],
                    "message": message, "first": first, "forget": True})
    assert len(changed) <= 1, changed
    return changed[0] if changed else held
