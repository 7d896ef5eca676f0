"""Spec §4.3 on an entry: start (R01, individual and mass), overtime (R07), finish (R08),
disqualification (R09), finger and deposit back (R11), carrier change (R12), DNF (R14)."""
from __future__ import annotations

import pytest

from fixtures import client_for
from players.models import JournalEntry
from race.models import Entry, Infraction
from racekit import (at, entry_url, finish, grab, post, punch, balise, start, survivor_api,
                     view)

pytestmark = pytest.mark.django_db


def test_r01_start_stores_the_deadline_and_the_survivor_sees_the_countdown(clock, enrol,
                                                                          organiser_api):
    lucie = enrol("Lucie", 101)
    assert view(survivor_api(lucie), lucie)["status"]["key"] == "registered"

    response = start(organiser_api, lucie)

    assert response.status_code == 200, response.content
    lucie.refresh_from_db()
    assert (lucie.status, lucie.started_at, lucie.deadline_at) == ("racing", at(0), at(90))
    clock.advance(30 * 60)
    mine = view(survivor_api(lucie), lucie)
    assert mine["status"]["key"] == "racing"
    assert mine["deadline_at"] == at(90).isoformat()
    assert mine["time_left_s"] == 60 * 60
    assert JournalEntry.objects.filter(character=lucie.character, what="entry:started").count() == 1


def test_a_start_read_off_a_watch_and_no_second_start(clock, enrol, organiser_api):
    lucie = enrol("Lucie", 101)
    clock.advance(45)
    assert start(organiser_api, lucie, at=at(0)).status_code == 200
    lucie.refresh_from_db()
    assert lucie.started_at == at(0) and lucie.deadline_at == at(90)
    again = start(organiser_api, lucie)
    assert again.status_code == 409 and again.json()["error"] == "race_already_started"
    future = start(organiser_api, enrol("Paul", 102), at=at(5))
    assert future.status_code == 400 and "future" in future.json()["detail"]


def test_mass_start_starts_the_ready_entries_and_names_the_others(clock, enrol, famille, enfant,
                                                                 narrator_user):
    api = client_for(narrator_user, "fr")
    ready = [enrol("Lucie", 101), enrol("Les Rescapés", 102, kind="team", members=["Marc", "Julie"])]
    late = enrol("Paul", 103, ready=False)
    post(api, entry_url(late, "gear"), vest=True, light=True)
    other_course = enrol("Zoé", 104, course=enfant)

    response = post(api, f"/api/race/courses/{famille.pk}/start/")

    assert response.status_code == 200, response.content
    body = response.json()
    assert [s["name"] for s in body["started"]] == ["Lucie", "Les Rescapés"]
    assert [(n["name"], n["error"]) for n in body["not_started"]] == [("Paul", "race_gear_missing")]
    assert "téléphone chargé" in body["not_started"][0]["detail"]
    for entry in ready:
        entry.refresh_from_db()
        assert (entry.status, entry.started_at, entry.deadline_at) == ("racing", at(0), at(90))
    late.refresh_from_db()
    other_course.refresh_from_db()
    assert late.status == other_course.status == "registered"
    famille.refresh_from_db()
    assert famille.mass_started_at == at(0)

    # Paul gets his phone checked and starts alone, later.
    clock.advance(4 * 60)
    post(api, entry_url(late, "gear"), phone=True)
    assert start(api, late).status_code == 200
    late.refresh_from_db()
    assert late.deadline_at == at(94)


def test_r07_overtime_is_read_against_the_clock_without_a_tick(clock, enrol, organiser_api):
    lucie = enrol("Lucie", 101)
    start(organiser_api, lucie)
    clock.advance(90 * 60 - 1)
    assert view(organiser_api, lucie)["status"]["key"] == "racing"
    clock.advance(1)
    seen = view(organiser_api, lucie)
    assert seen["status"]["key"] == "overtime"
    assert seen["time_left_s"] == 0
    clock.advance(1)
    assert view(organiser_api, lucie)["late_minutes"] == 1      # each started minute
    assert Entry.objects.get(pk=lucie.pk).status == "racing"    # nothing was written


def test_r08_finish_records_the_time_and_counts_the_flags(clock, enrol, organiser_api, zombie_api,
                                                         race):
    lucie = enrol("Lucie", 101)
    start(organiser_api, lucie)
    clock.advance(10 * 60)
    grab(zombie_api, race, lucie)
    clock.advance(60 * 60)

    response = finish(organiser_api, lucie, flags_on_belt=2)   # she re-attached a flag

    assert response.status_code == 200, response.content
    lucie.refresh_from_db()
    assert (lucie.status, lucie.finished_at) == ("finished", at(70))
    mismatch = Infraction.objects.get(entry=lucie)
    assert mismatch.kind == "belt_mismatch" and mismatch.penalty_points == 0
    assert response.json()["infractions"][0]["kind"] == "belt_mismatch"
    again = finish(organiser_api, lucie)
    assert again.status_code == 409 and again.json()["error"] == "race_not_racing"


def test_a_finish_before_the_start_or_before_starting_is_refused(clock, enrol, organiser_api):
    lucie = enrol("Lucie", 101)
    not_started = finish(organiser_api, lucie)
    assert not_started.status_code == 409 and not_started.json()["error"] == "race_not_racing"
    clock.advance(60)
    start(organiser_api, lucie)
    early = finish(organiser_api, lucie, at=at(0))
    assert early.status_code == 400 and "start" in early.json()["detail"]
    assert Entry.objects.get(pk=lucie.pk).status == "racing"


def test_r11_the_finger_comes_back_and_the_deposit_is_returned_as_its_own_step(clock, enrol,
                                                                              organiser_api):
    lucie = enrol("Lucie", 101)
    early = post(organiser_api, entry_url(lucie, "finger-return"))
    assert early.status_code == 409 and early.json()["error"] == "race_not_ended"
    start(organiser_api, lucie)
    clock.advance(80 * 60)
    finish(organiser_api, lucie)
    assert view(organiser_api, lucie)["entry"]["deposit_returned_at"] is None

    response = post(organiser_api, entry_url(lucie, "finger-return"))

    assert response.status_code == 200
    assert response.json()["entry"]["finger_returned_at"] == at(80).isoformat()
    assert response.json()["entry"]["deposit_returned_at"] == at(80).isoformat()
    twice = post(organiser_api, entry_url(lucie, "finger-return"))
    assert twice.status_code == 409 and twice.json()["error"] == "race_already_returned"


def test_r09_disqualification_takes_the_finger_and_the_score(clock, enrol, organiser_api, famille):
    brute = enrol("Brutus", 101)
    start(organiser_api, brute)
    punch(organiser_api, brute, "31")
    refused = post(organiser_api, entry_url(brute, "disqualify"))
    assert refused.status_code == 400 and "reason" in refused.json()["fields"]

    response = post(organiser_api, entry_url(brute, "disqualify"), reason="insultes à un zombie")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"]["key"] == "disqualified"
    assert body["entry"]["finger_returned_at"] == at(0).isoformat()
    assert body["score"] is None
    later = punch(survivor_api(brute), brute, balise(famille, "32"))
    assert later.status_code == 409 and later.json()["error"] == "race_disqualified"
    # Z11: the deposit is returned once the finger is back, by default.
    assert post(organiser_api, entry_url(brute, "finger-return")).status_code == 200


def test_z11_a_disqualified_entrys_deposit_may_be_kept(clock, narrator_user, organiser_api):
    from racekit import entry_of, gear, make_course, make_race, register
    race = make_race(narrator_user, {"dq_deposit_returned": False})
    course = make_course(race, narrator_user)
    brute = entry_of(register(organiser_api, race, course, "Brutus", 5))
    gear(organiser_api, brute, vest=True, light=True, phone=True)
    start(organiser_api, brute)
    post(organiser_api, entry_url(brute, "disqualify"), reason="coups")
    kept = post(organiser_api, entry_url(brute, "finger-return"))
    assert kept.status_code == 409 and kept.json()["error"] == "race_deposit_kept"
    assert Entry.objects.get(pk=brute.pk).deposit_returned_at is None


def test_r12_a_team_changes_carrier_from_its_phone_journalled(clock, enrol, organiser_api):
    team = enrol("Les Rescapés", 102, kind="team", members=["Marc", "Julie", "Tom"])
    start(organiser_api, team)
    phone = survivor_api(team)

    response = post(phone, entry_url(team, "carrier"), carrier="julie")

    assert response.status_code == 200, response.content
    assert response.json()["entry"]["carrier"] == "Julie"
    line = JournalEntry.objects.get(character=team.character, what="entry:carrier_changed")
    assert line.detail["before"] == "Marc" and line.detail["after"] == "Julie"
    stranger = post(phone, entry_url(team, "carrier"), carrier="Igor")
    assert stranger.status_code == 400 and "Marc, Julie, Tom" in stranger.json()["detail"]
    solo = enrol("Lucie", 101)
    alone = post(organiser_api, entry_url(solo, "carrier"), carrier="Lucie")
    assert alone.status_code == 409 and alone.json()["error"] == "race_not_team"


def test_r12_no_carrier_change_once_the_team_has_finished(clock, enrol, organiser_api):
    team = enrol("Les Rescapés", 102, kind="team", members=["Marc", "Julie"])
    start(organiser_api, team)
    clock.advance(30 * 60)
    assert finish(organiser_api, team).status_code == 200
    late = post(survivor_api(team), entry_url(team, "carrier"), carrier="Julie")
    assert late.status_code == 409 and late.json()["error"] == "race_not_racing"
    team.refresh_from_db()
    assert team.carrier == "Marc"


def test_r14_dnf_by_an_organiser_takes_the_finger_back(clock, enrol, organiser_api):
    lucie = enrol("Lucie", 101)
    start(organiser_api, lucie)
    clock.advance(20 * 60)
    response = post(organiser_api, entry_url(lucie, "abandon"), reason="cheville tordue")
    assert response.status_code == 200
    body = response.json()
    assert body["status"]["key"] == "dnf" and body["entry"]["end_reason"] == "cheville tordue"
    assert body["entry"]["finger_returned_at"] == at(20).isoformat()
    twice = post(organiser_api, entry_url(lucie, "abandon"))
    assert twice.status_code == 409 and twice.json()["error"] == "race_already_ended"


def test_r14_a_survivor_abandons_from_the_phone_and_stays_out_until_back(clock, enrol,
                                                                        organiser_api, race):
    lucie = enrol("Lucie", 101)
    start(organiser_api, lucie)
    clock.advance(20 * 60)
    response = post(survivor_api(lucie), entry_url(lucie, "abandon"), reason="trop peur",
                    finger_back=True)   # a phone cannot say the finger is back
    assert response.status_code == 200
    assert response.json()["status"]["key"] == "dnf"
    assert "phone" not in response.json()["entry"]
    safety = organiser_api.get(f"/api/race/events/{race.pk}/safety/").json()
    assert safety["still_out"] == 1
    assert post(organiser_api, entry_url(lucie, "finger-return")).status_code == 200
    assert organiser_api.get(f"/api/race/events/{race.pk}/safety/").json()["still_out"] == 0
