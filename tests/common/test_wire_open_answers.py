"""Answers whose shape is not one fixed list of fields (tests/wire.py checks every answer
the API tests read): a document other apps add sections to, and a list that each reader
sees with their own fields."""
from __future__ import annotations

from wire import answer_errors

AT = "2026-06-01T10:00:00+00:00"
EXPORT = {"exported_at": AT, "event": {"id": 1, "name": "Nuit"}, "account": None,
          "characters": [], "memberships": [], "login_tokens": [], "journal": [
              {"id": 1, "at": AT, "game_s": 0.0, "who": "Ana", "kind": "heal", "what": "started",
               "about_another_character": True}]}
OWN_CALL = {"id": 1, "event": 1, "kind": "lost", "status": "open", "tapped_at": AT,
            "received_at": AT, "taken_by": None, "taken_at": None, "closed_at": None,
            "outcome": None}
RESPONDERS = {"note": "", "caller": "Ana", "character": None, "position": None,
              "plan_position": None, "closed_by": None, "outcome_note": ""}


def test_an_export_carries_the_sections_other_apps_add():
    path = "/api/characters/1/export/"
    assert answer_errors("POST", path, 200, {**EXPORT, "club": {"member": None}}) == []
    lost = {key: value for key, value in EXPORT.items() if key != "journal"}
    assert answer_errors("POST", path, 200, lost) == ["(top): 'journal' is a required property"]


def test_a_caller_reads_their_own_calls_without_the_responders_fields():
    path = "/api/events/1/help/"
    assert answer_errors("GET", path, 200, {"calls": [OWN_CALL], "organiser": False}) == []
    responder = {"calls": [{**OWN_CALL, **RESPONDERS}], "organiser": True}
    assert answer_errors("GET", path, 200, responder) == []
    taken = answer_errors("POST", "/api/help/1/take/", 200, OWN_CALL)
    assert "(top): 'caller' is a required property" in taken
