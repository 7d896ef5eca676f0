"""The race's answers whose shape depends on who reads them, against their schema
(race/answers.py, race/action_answers.py): tests/wire.py checks what the other tests read."""
from __future__ import annotations

from wire import answer_errors

MARSHAL_ZONE_LOSS = {"entry": {"id": 4, "name": "Les Lents"},
                     "life_loss": {"id": 9, "took_life": True, "no_life_left": False}}


def test_a_marshal_reads_what_they_did_not_the_survivors_race():
    path = "/api/race/entries/4/zone-losses/"
    assert answer_errors("POST", path, 201, MARSHAL_ZONE_LOSS) == []
    with_phone = {**MARSHAL_ZONE_LOSS, "entry": {**MARSHAL_ZONE_LOSS["entry"], "phone": "0600"}}
    assert answer_errors("POST", path, 201, with_phone) != []
    infraction = {"entry": {"id": 4, "name": "Les Lents"}, "infraction": {"id": 2}}
    assert answer_errors("POST", "/api/race/entries/4/infractions/", 201, infraction) == []


def test_an_iof_import_answers_what_its_message_held():
    path = "/api/race/events/1/iof/import/"
    entries = {"message": "EntryList", "imported": 1, "entries": [
        {"id": 1, "name": "Ana", "finger": 12, "course": "sportif", "code": "AB12"}]}
    courses = {"message": "CourseData", "imported": 1,
               "courses": [{"id": 3, "name": "sportif", "balises": 12}],
               "classes": {"sportif": ["H21", "D21"]}}
    assert answer_errors("POST", path, 201, entries) == []
    assert answer_errors("POST", path, 201, courses) == []
    assert answer_errors("POST", path, 201, {**courses, "message": "ResultList"}) != []
