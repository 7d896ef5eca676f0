"""The REST wire format is written down in code: every answer of /api/schema/ names its
fields (an output serializer behind each), so that a phone's developer, the fuzz test
(tests/common/test_fuzz.py) and every API test (tests/wire.py) read the same contract."""
from __future__ import annotations

from wire import answer_errors, document

CLOCK = {"running": False, "game_time_s": 12.5, "game": None, "next_game": None}


def _bare(schema: dict) -> bool:
    """An object that names nothing: no fields, and any value under any key."""
    return (schema.get("type") == "object" and "properties" not in schema
            and schema.get("additionalProperties", {}) in ({}, True))


def test_no_answer_is_a_bare_object():
    bare = []
    for path, operations in document()["paths"].items():
        for method, operation in operations.items():
            for status, declared in operation.get("responses", {}).items():
                for media, content in declared.get("content", {}).items():
                    if _bare(content.get("schema", {})):
                        bare.append(f"{method.upper()} {path} {status} ({media})")
    assert not bare, f"{len(bare)} answers say only 'object':\n" + "\n".join(sorted(bare))


def test_an_answer_that_gains_or_loses_a_field_is_outside_its_schema():
    """The check every API test makes of what it reads (tests/wire.py)."""
    path = "/api/events/1/emergency/"
    assert answer_errors("POST", path, 200, {"clock": CLOCK, "paused_now": True}) == []
    gained = answer_errors("POST", path, 200, {"clock": {**CLOCK, "speed": 2}, "paused_now": True})
    assert gained == ["clock: Additional properties are not allowed ('speed' was unexpected)"]
    lost = answer_errors("POST", path, 200, {"clock": CLOCK})
    assert lost == ["(top): 'paused_now' is a required property"]
    wrong = answer_errors("POST", path, 200, {"clock": {**CLOCK, "running": "yes"}, "paused_now": True})
    assert wrong == ["clock/running: 'yes' is not of type 'boolean'"]


def test_a_game_announced_may_carry_the_options_of_its_ruleset():
    game = {"id": 3, "number": 2, "scenario": "capture", "start_at": "2026-06-01T10:00:00+00:00",
            "started_at": None, "status": "announced", "respawn": "camp", "changed": ["respawn"]}
    answer = {"clock": {**CLOCK, "next_game": game}, "paused_now": False}
    assert answer_errors("POST", "/api/events/1/emergency/", 200, answer) == []
