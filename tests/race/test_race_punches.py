"""R02, punches: the survivor's phone scanning a balise's QR, an organiser typing a punch,
the finger readout imported as a CSV file. Duplicates are ignored (the first punch of a
balise counts); punches before the start or after the finish follow the options."""
from __future__ import annotations

import pytest

from fixtures import client_for
from players.models import JournalEntry
from race.models import Punch
from racekit import (at, balise, board, entry_of, finish, gear, make_course, make_race, punch,
                     register, start, survivor_api, view)

pytestmark = pytest.mark.django_db


@pytest.fixture
def lucie(enrol, organiser_api):
    entry = enrol("Lucie", 101)
    start(organiser_api, entry)
    return entry


def counted(api, entry) -> list[str]:
    return [p["checkpoint"]["code"] for p in view(api, entry)["punches"] if p["counted"]]


def test_the_phone_scans_a_balise_qr_and_the_punch_counts(clock, lucie, famille):
    phone = survivor_api(lucie)
    clock.advance(12 * 60)
    response = punch(phone, lucie, balise(famille, "32"), key="scan-32")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["punch"]["new"] is True
    assert body["found"] == 1 and body["checkpoints"] == 4
    assert body["punches"] == [{"id": body["punch"]["id"], "checkpoint": {"code": "32", "name": "Balise 32"},
                                "at": at(12).isoformat(), "source": "phone", "counted": True,
                                "reason": None}]
    # The retry of a lost answer gets the same answer and records nothing twice.
    again = punch(phone, lucie, balise(famille, "32"), key="scan-32")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert Punch.objects.filter(entry=lucie).count() == 1
    assert JournalEntry.objects.filter(character=lucie.character, what="punch").count() == 1


def test_a_phone_must_send_the_qr_not_the_number_printed_on_the_map(clock, lucie, famille):
    phone = client_for(lucie.character.user, "fr")
    response = punch(phone, lucie, "32")
    assert response.status_code == 400
    # The refusal says what to type instead (tests/race/test_race_printed_codes.py).
    assert response.json()["error"] == "balise_number_typed"
    assert response.json()["detail"] == ("32 est le numéro de la balise sur la carte : tapez les "
                                         "six caractères imprimés sous son QR, ou scannez le QR.")
    assert Punch.objects.count() == 0


def test_a_balise_of_another_course_is_recorded_but_does_not_count(clock, lucie, enfant, famille,
                                                                  organiser_api, race):
    """The finger beeps on any box: the punch is kept and the runner reads why it does not
    count; the score and the boards ignore it."""
    clock.advance(5 * 60)
    response = punch(client_for(lucie.character.user, "fr"), lucie, balise(enfant, "11"))
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["punches"] == [{"id": body["punch"]["id"], "checkpoint": {"code": "11", "name": "Balise 11"},
                                "at": at(5).isoformat(), "source": "phone", "counted": False,
                                "reason": "balise d'un autre parcours"}]
    assert body["found"] == 0 and body["breakdown"]["points"] == 0
    row, = board(organiser_api, race, famille)["unranked"]
    assert row["found"] == 0 and row["not_counted"] == {"not_on_course": 1}
    # An organiser typing a number only another course has: recorded the same way.
    typed = punch(organiser_api, lucie, "12")
    assert typed.status_code == 201 and typed.json()["punches"][-1]["counted"] is False
    # A code no course of the race has is still refused.
    assert punch(organiser_api, lucie, "77").status_code == 400
    assert Punch.objects.filter(entry=lucie).count() == 2


def test_an_organiser_types_a_punch_by_number_at_a_given_time(clock, lucie, organiser_api):
    clock.advance(30 * 60)
    response = punch(organiser_api, lucie, "33", at=at(25))
    assert response.status_code == 201, response.content
    assert response.json()["punches"][0]["source"] == "organiser"
    assert response.json()["punches"][0]["at"] == at(25).isoformat()


def test_duplicates_are_ignored_the_first_punch_counts(clock, lucie, famille, organiser_api):
    phone = survivor_api(lucie)
    clock.advance(10 * 60)
    punch(phone, lucie, balise(famille, "31"))
    clock.advance(5 * 60)
    second = punch(phone, lucie, balise(famille, "31"))
    assert second.status_code == 201
    shown = second.json()["punches"]
    assert [(p["at"], p["counted"], p["reason"]) for p in shown] == [
        (at(10).isoformat(), True, None), (at(15).isoformat(), False, "balise already punched")]
    assert second.json()["found"] == 1
    # A punch typed later with an earlier time becomes the first; the count stays one.
    punch(organiser_api, lucie, "31", at=at(8))
    assert counted(organiser_api, lucie) == ["31"]
    assert view(organiser_api, lucie)["punches"][0]["at"] == at(8).isoformat()


def test_punches_before_the_start_and_after_the_finish_are_ignored_by_default(
        clock, enrol, famille, organiser_api):
    paul = enrol("Paul", 102)
    clock.advance(60)
    punch(organiser_api, paul, "31")                    # before his start
    clock.advance(60)
    start(organiser_api, paul)
    clock.advance(30 * 60)
    punch(organiser_api, paul, "32")
    clock.advance(60)
    finish(organiser_api, paul)
    clock.advance(60)
    punch(organiser_api, paul, "33")                    # walking home
    shown = view(client_for(paul.character.user, "fr"), paul)["punches"]
    assert [(p["checkpoint"]["code"], p["counted"], p["reason"]) for p in shown] == [
        ("31", False, "avant le départ"), ("32", True, None), ("33", False, "après l'arrivée")]


def test_the_options_may_count_punches_before_the_start_and_after_the_finish(
        clock, narrator_user, organiser_api):
    race = make_race(narrator_user, {"count_punches_before_start": True,
                                     "count_punches_after_finish": True})
    course = make_course(race, narrator_user)
    paul = entry_of(register(organiser_api, race, course, "Paul", 7))
    gear(organiser_api, paul, vest=True, light=True, phone=True)
    punch(organiser_api, paul, "31")
    clock.advance(60)
    start(organiser_api, paul)
    clock.advance(60)
    finish(organiser_api, paul)
    clock.advance(60)
    punch(organiser_api, paul, "33")
    assert counted(organiser_api, paul) == ["31", "33"]


def test_z7_punches_after_the_time_limit_count_unless_the_option_says_not(
        clock, narrator_user, organiser_api):
    for count_after, expected in ((True, ["31", "32"]), (False, ["31"])):
        race = make_race(narrator_user, {"count_punches_after_limit": count_after},
                         name=f"Course {count_after}")
        course = make_course(race, narrator_user)
        paul = entry_of(register(organiser_api, race, course, "Paul", 7))
        gear(organiser_api, paul, vest=True, light=True, phone=True)
        start(organiser_api, paul, at=clock.now)
        punch(organiser_api, paul, "31", at=clock.now)
        clock.advance(91 * 60)                           # the limit is 90 min
        punch(organiser_api, paul, "32")
        assert counted(organiser_api, paul) == expected


# --- the finger readout -----------------------------------------------------------------------

def upload(api, race, text, content_type="text/csv", key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/race/events/{race.pk}/punches/import/", data=text.encode(),
                    content_type=content_type, **headers)


@pytest.fixture
def starters(clock, enrol, organiser_api):
    """Lucie (finger 101) and the team (102) started at 22:00 in Rugles (20:00 UTC)."""
    lucie, team = enrol("Lucie", 101), enrol("Les Rescapés", 102, kind="team",
                                              members=["Marc", "Julie"])
    for entry in (lucie, team):
        start(organiser_api, entry)
    clock.advance(100 * 60)
    return lucie, team


def test_a_good_readout_is_imported_and_the_leaderboard_moves(starters, organiser_api, race,
                                                              famille):
    lucie, team = starters
    readout = ("finger,checkpoint,time\n"
               "101,31,22:10:05\n"
               "101,32,22:31:40\n"
               "101,32,22:33:00\n"                       # punched twice: the first counts
               "102,34,2026-06-06T22:20:00+02:00\n"
               "102,33,2026-06-06T20:45:00Z\n"
               "\n")
    response = upload(organiser_api, race, readout)
    assert response.status_code == 201, response.content
    assert response.json() == {"rows": 5, "imported": 5, "already_there": 0, "entries": 2,
                               "not_counted": [], "server_time": response.json()["server_time"]}
    assert counted(organiser_api, lucie) == ["31", "32"]
    assert [p["at"] for p in view(organiser_api, lucie)["punches"]][:2] == [
        at(10, 5).isoformat(), at(31, 40).isoformat()]
    assert counted(organiser_api, team) == ["34", "33"]
    found = {r["name"]: r["found"] for r in board(organiser_api, race, famille)["unranked"]}
    assert found == {"Lucie": 2, "Les Rescapés": 2}
    # The same file again adds nothing.
    again = upload(organiser_api, race, readout)
    assert again.json()["imported"] == 0 and again.json()["already_there"] == 5
    assert Punch.objects.count() == 5


def test_the_french_header_with_semicolons_and_a_night_past_midnight(clock, enrol, organiser_api,
                                                                     race):
    owl = enrol("Hibou", 103)
    clock.advance(110 * 60)                               # 23:50 in Rugles
    start(organiser_api, owl)
    clock.advance(30 * 60)
    response = upload(organiser_api, race, "Doigt;Balise;Heure;Nom\n103;31;00:05:00;Hibou\n")
    assert response.status_code == 201, response.content
    assert view(organiser_api, owl)["punches"][0]["at"] == at(125).isoformat()  # 00:05, the next day


def test_a_file_with_bad_rows_imports_nothing_and_lists_every_bad_row(starters, narrator_user,
                                                                      race):
    api = client_for(narrator_user, "fr")
    readout = ("finger,checkpoint,time\n"
               "101,31,22:10:05\n"                        # good
               "999,31,22:11:00\n"                        # line 3: unknown finger
               "101,77,22:12:00\n"                        # line 4: not a balise of famille
               "102,33,vers dix heures\n"                 # line 5: bad time
               "abc,31,22:13:00\n"                        # line 6: not a number
               "101,32\n"                                 # line 7: a value missing
               "101,33,25:61:00\n")                       # line 8: no such time
    journal = JournalEntry.objects.count()

    response = upload(api, race, readout)

    assert response.status_code == 400, response.content
    body = response.json()
    assert body["error"] == "csv_rejected"
    assert "6" in body["detail"] and "rien n'est importé" in body["detail"]
    assert [row["line"] for row in body["rows"]] == [3, 4, 5, 6, 7, 8]
    reasons = {row["line"]: row["reason"] for row in body["rows"]}
    assert reasons[3] == "aucun inscrit n'a le doigt 999"
    assert reasons[4] == "la balise « 77 » n'est pas sur le parcours famille du doigt 101"
    assert "vers dix heures" in reasons[5] and "HH:MM:SS" in reasons[5]
    assert "abc" in reasons[6]
    assert reasons[7] == "3 valeurs attendues, 2 trouvées"
    assert "25:61:00" in reasons[8]
    assert Punch.objects.count() == 0
    assert JournalEntry.objects.count() == journal


@pytest.mark.parametrize("text,reason", [
    ("doigt,heure\n101,22:10:00\n", "finger, checkpoint, time"),
    ("", "no punch"),
    ("finger,checkpoint,time\n\n", "no punch"),
])
def test_a_file_without_the_columns_or_punches_is_refused(text, reason, starters, organiser_api,
                                                          race):
    response = upload(organiser_api, race, text)
    assert response.status_code == 400
    assert reason in (response.json().get("rows") or [{"reason": response.json()["detail"]}])[0]["reason"]
    assert Punch.objects.count() == 0


def test_the_readout_may_come_as_json_or_as_a_file(starters, organiser_api, race):
    as_json = organiser_api.post(f"/api/race/events/{race.pk}/punches/import/",
                                 {"csv": "finger,checkpoint,time\n101,31,22:10:05\n"}, format="json")
    assert as_json.status_code == 201, as_json.content
    from django.core.files.uploadedfile import SimpleUploadedFile
    readout = SimpleUploadedFile("readout.csv", "doigt;balise;heure\r\n102;34;22:40:00\r\n"
                                 .encode("cp1252"), content_type="text/csv")
    as_file = organiser_api.post(f"/api/race/events/{race.pk}/punches/import/", {"file": readout},
                                 format="multipart")
    assert as_file.status_code == 201, as_file.content
    assert Punch.objects.count() == 2


def test_only_organisers_import(starters, race):
    lucie, _ = starters
    response = upload(survivor_api(lucie), race, "finger,checkpoint,time\n101,31,22:10:05\n")
    assert response.status_code == 404
    assert Punch.objects.count() == 0


def test_stray_punches_of_a_readout_are_imported_not_counted_with_their_reason(
        starters, narrator_user, race, famille, enfant):
    """The finger records every box punched: a balise of another course (11 is on enfant)
    and a row earlier than the finger's row before it are imported, marked not counted;
    only the rows that cannot be read refuse the file."""
    lucie, _ = starters
    organiser_api = client_for(narrator_user, "fr")
    readout = ("finger,checkpoint,time\n"
               "101,31,22:10:05\n"
               "101,11,22:20:00\n"                       # line 3: enfant's balise
               "101,32,22:31:40\n"
               "101,33,22:05:00\n"                       # line 5: back in time
               "101,34,22:40:00\n")
    response = upload(organiser_api, race, readout)
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["rows"], body["imported"]) == (5, 5)
    assert body["not_counted"] == [{"line": 3, "reason": "balise d'un autre parcours"},
                                   {"line": 5, "reason": "antérieur au pointage précédent du doigt"}]
    shown = [(p["checkpoint"]["code"], p["counted"], p["reason"])
             for p in view(organiser_api, lucie)["punches"]]
    assert shown == [("33", False, "antérieur au pointage précédent du doigt"),
                     ("31", True, None), ("11", False, "balise d'un autre parcours"),
                     ("32", True, None), ("34", True, None)]
    row = next(r for r in board(organiser_api, race, famille)["unranked"] if r["name"] == "Lucie")
    assert row["found"] == 3
    assert row["not_counted"] == {"not_on_course": 1, "out_of_sequence": 1}
    # The same file again adds nothing; a box number no course has still refuses the file.
    assert upload(organiser_api, race, readout).json()["imported"] == 0
    refused = upload(organiser_api, race, readout + "101,77,22:50:00\n")
    assert refused.status_code == 400 and [r["line"] for r in refused.json()["rows"]] == [7]
    assert Punch.objects.filter(entry=lucie).count() == 5
