"""R09, R14: after a disqualification ("la récupération de votre doigt électronique") or an
abandon, no punch counts, whatever the options; the boards and the public results say
why the entry is not ranked (its status and the organiser's reason)."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from fixtures import client_for
from racekit import (at, balise, board, entry_of, entry_url, gear, make_course, make_race, post,
                     punch, register, start)

pytestmark = pytest.mark.django_db

READOUT = "finger,checkpoint,time\n101,31,22:10:00\n101,32,22:40:00\n"


def readout(api, race):
    response = api.post(f"/api/race/events/{race.pk}/punches/import/", data=READOUT.encode(),
                        content_type="text/csv")
    assert response.status_code == 201, response.content
    return response


def shown(api, entry) -> list:
    return [(p["checkpoint"]["code"], p["counted"], p["reason"])
            for p in api.get(entry_url(entry)).json()["punches"]]


def test_no_punch_counts_after_a_disqualification_and_the_results_say_why(
        clock, enrol, narrator_user, race, famille):
    api = client_for(narrator_user, "fr")
    brute = enrol("Brute", 101)
    start(api, brute)
    clock.advance(30 * 60)
    post(api, entry_url(brute, "disqualify"), reason="insultes à un zombie")
    clock.advance(30 * 60)
    readout(api, race)                           # the finger, read back at the tent
    assert shown(api, brute) == [("31", True, None),
                                 ("32", False, "après la disqualification")]
    row, = board(api, race, famille)["unranked"]
    assert row["found"] == 1 and row["score"] is None
    assert row["not_counted"] == {"after_disqualification": 1}
    assert row["unclassified"]["key"] == "disqualified"
    assert row["unclassified"]["reason"] == "insultes à un zombie"
    assert row["unclassified"]["at"] == at(30).isoformat()
    page = APIClient().get(f"/race/{race.pk}/results/").content.decode()
    assert "insultes à un zombie" in page
    csv = APIClient().get(f"/race/{race.pk}/results.csv").content.decode()
    assert "— insultes à un zombie" in csv


def test_no_punch_counts_after_an_abandon_even_when_the_options_count_after_the_finish(
        clock, narrator_user):
    api = client_for(narrator_user, "fr")
    race = make_race(narrator_user, {"count_punches_after_finish": True,
                                     "count_punches_after_limit": True})
    course = make_course(race, narrator_user)
    lucie = entry_of(register(api, race, course, "Lucie", 101))
    gear(api, lucie, vest=True, light=True, phone=True)
    start(api, lucie)
    clock.advance(30 * 60)
    post(api, entry_url(lucie, "abandon"), reason="cheville tordue")
    clock.advance(30 * 60)
    readout(api, race)
    assert shown(api, lucie) == [("31", True, None), ("32", False, "après l'abandon")]
    row, = board(api, race, course)["unranked"]
    assert row["found"] == 1
    assert row["unclassified"]["key"] == "dnf"
    assert row["unclassified"]["reason"] == "cheville tordue"
    # The elapsed time stops at the abandon too: 30 minutes, not the readout's hour.
    assert row["elapsed_s"] == 30 * 60
    csv = APIClient().get(f"/race/{race.pk}/results.csv").content.decode()
    assert "— cheville tordue" in csv


def test_a_phone_scan_after_an_abandon_is_kept_but_does_not_count(clock, enrol, narrator_user,
                                                                 famille):
    api = client_for(narrator_user, "fr")
    lucie = enrol("Lucie", 101)
    start(api, lucie)
    clock.advance(20 * 60)
    phone = client_for(lucie.character.user, "fr")
    post(phone, entry_url(lucie, "abandon"), reason="trop peur")
    clock.advance(5 * 60)
    response = punch(phone, lucie, balise(famille, "33"))
    assert response.status_code == 201, response.content
    assert response.json()["punches"][-1]["reason"] == "après l'abandon"
    assert response.json()["found"] == 0
