"""The phone's buzz vocabulary (frontend/static/frontend/haptics.js), read as Node reads the
file: one pattern per meaning, no two alike, every kind the app or a Web Push names is in
the table, and the table is the one documented for players and organisers."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "frontend" / "static" / "frontend"
HAPTICS_JS = STATIC / "haptics.js"


def table() -> tuple[dict, dict]:
    script = (f"globalThis.self = globalThis; require({json.dumps(str(HAPTICS_JS))});"
              "console.log(JSON.stringify([self.HAPTICS, self.HAPTIC_BEEPS]));")
    out = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True).stdout
    patterns, beeps = json.loads(out)
    return patterns, beeps


def test_each_meaning_has_its_own_pattern():
    patterns, beeps = table()
    assert len(patterns) >= 8
    seen = {}
    for kind, pattern in patterns.items():
        assert pattern and all(isinstance(ms, int) and 0 < ms <= 2000 for ms in pattern), kind
        assert tuple(pattern) not in seen, f"{kind} buzzes like {seen.get(tuple(pattern))}"
        seen[tuple(pattern)] = kind
    assert set(beeps) == set(patterns)


def test_every_kind_the_app_and_the_server_name_is_in_the_table():
    patterns, _ = table()
    named = set()
    for path in (STATIC / "js").glob("*.js"):
        named |= set(re.findall(r'alertNow\("(\w+)"\)', path.read_text()))
    for path in ROOT.glob("*/*.py"):
        named |= set(re.findall(r'\bkind="(\w+)"', path.read_text())) & {"minute", "help_call", "help_coming"}
    named |= {"grave", "state"}        # push/services.state_alert_kind, js/banners.js
    assert named, "no alert found"
    assert named <= set(patterns), named - set(patterns)
    # No screen buzzes with a pattern of its own outside the table.
    for path in list((STATIC / "js").glob("*.js")) + [STATIC / "sw-push.js"]:
        assert not re.search(r"vibrate\(\[", path.read_text()), path.name


def test_the_vocabulary_is_documented():
    patterns, _ = table()
    doc = (ROOT / "docs" / "phone-app.md").read_text()
    for kind in patterns:
        assert f"`{kind}`" in doc, kind
