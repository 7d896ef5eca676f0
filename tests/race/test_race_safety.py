"""Safety: the board of who is still out (and how overdue, with the phone number given at
registration), and the alert that rings at the organisers when an entry is still out
`overdue_alert_after_s` after its deadline: a task at that instant, and beat's sweeper
for a lost task. Time travels; nothing sleeps."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
import redis
from django.conf import settings

from players.models import JournalEntry
from race.models import Entry
from race.tasks import alert_overdue, sweep_overdue_alerts
from racekit import at, entry_url, finish, post, start

pytestmark = pytest.mark.django_db


def safety(api, race) -> dict:
    response = api.get(f"/api/race/events/{race.pk}/safety/")
    assert response.status_code == 200, response.content
    return response.json()


def alerts(entry) -> int:
    return JournalEntry.objects.filter(character=entry.character, what="entry:overdue_alert").count()


def test_the_alert_rings_at_deadline_plus_threshold_once(clock, enrol, organiser_api):
    lucie = enrol("Lucie", 101, phone="06 11 22 33 44")
    start(organiser_api, lucie)                    # famille: 90 min; threshold 15 min
    lucie.refresh_from_db()
    assert lucie.alert_at == at(105)

    clock.advance(105 * 60 - 1)
    assert alert_overdue(lucie.pk) is False        # a task delivered a second early
    assert sweep_overdue_alerts() == 0
    clock.advance(1)
    assert alert_overdue(lucie.pk) is True         # the task at the instant
    assert alerts(lucie) == 1
    line = JournalEntry.objects.get(character=lucie.character, what="entry:overdue_alert")
    assert line.actor_label == "system" and line.detail["overdue_s"] == 15 * 60
    # A second delivery, or the next sweep, rings nothing again.
    assert alert_overdue(lucie.pk) is False
    clock.advance(60)
    assert sweep_overdue_alerts() == 0
    assert alerts(lucie) == 1
    assert Entry.objects.get(pk=lucie.pk).alerted_at == at(105)


def test_the_sweeper_rings_what_a_lost_task_missed(clock, enrol, organiser_api):
    lucie, paul = enrol("Lucie", 101), enrol("Paul", 102)
    start(organiser_api, lucie)
    clock.advance(5 * 60)
    start(organiser_api, paul)
    clock.advance(100 * 60 + 20)                   # 105:20; Lucie due at 105, Paul at 110
    assert sweep_overdue_alerts() == 1
    assert (alerts(lucie), alerts(paul)) == (1, 0)
    clock.advance(5 * 60)
    assert sweep_overdue_alerts() == 1
    assert alerts(paul) == 1


def test_no_alert_for_an_entry_back_in_time_or_out_of_the_race(clock, enrol, organiser_api):
    back, out = enrol("Lucie", 101), enrol("Paul", 102)
    for entry in (back, out):
        start(organiser_api, entry)
    clock.advance(95 * 60)
    finish(organiser_api, back)                    # 5 min late, but back
    post(organiser_api, entry_url(out, "abandon"))  # brought back by the organisers
    clock.advance(60 * 60)
    assert sweep_overdue_alerts() == 0
    assert alert_overdue(back.pk) is False
    assert JournalEntry.objects.filter(what="entry:overdue_alert").count() == 0


def test_the_threshold_is_an_option(clock, narrator_user, organiser_api):
    from racekit import entry_of, gear, make_course, make_race, register
    race = make_race(narrator_user, {"overdue_alert_after_s": 300})
    course = make_course(race, narrator_user)
    paul = entry_of(register(organiser_api, race, course, "Paul", 1))
    gear(organiser_api, paul, vest=True, light=True, phone=True)
    start(organiser_api, paul)
    clock.advance(95 * 60)                         # 90 min + 5 min
    assert sweep_overdue_alerts() == 1


def test_the_safety_board_lists_who_is_out_and_overdue_with_phone_numbers(
        clock, race, famille, enfant, enrol, organiser_api):
    lucie = enrol("Lucie", 101, phone="06 11 22 33 44")
    team = enrol("Les Rescapés", 102, kind="team", members=["Marc", "Julie"], phone="07 55 66 77 88")
    home = enrol("Paul", 103)
    kid = enrol("Zoé", 104, course=enfant, phone="06 99 88 77 66")
    waiting = enrol("Inès", 105)
    for entry in (lucie, team, home, kid):
        start(organiser_api, entry)
    clock.advance(70 * 60)
    finish(organiser_api, home)
    clock.advance(30 * 60)                         # 100 min: famille 10 min over, enfant 40

    board = safety(organiser_api, race)

    assert board["still_out"] == 3 and board["alert_after_s"] == 900
    by_course = {c["course"]["name"]: c for c in board["courses"]}
    famille_out = by_course["famille"]
    assert (famille_out["still_out"], famille_out["overdue"]) == (2, 2)
    assert [(e["entry"]["name"], e["phone"], e["overdue_s"], e["alert"])
            for e in famille_out["entries"]] == [
        ("Les Rescapés", "07 55 66 77 88", 600, False), ("Lucie", "06 11 22 33 44", 600, False)]
    assert famille_out["entries"][0]["entry"]["carrier"] == "Marc"
    enfant_out = by_course["enfant"]["entries"]
    assert [(e["entry"]["name"], e["overdue_s"], e["alert"]) for e in enfant_out] == [
        ("Zoé", 2400, True)]
    names = [e["entry"]["name"] for c in board["courses"] for e in c["entries"]]
    assert "Paul" not in names and waiting.name not in names


def queued(broker) -> list[dict]:
    return [json.loads(raw)["headers"] for raw in broker.lrange("celery", 0, -1)
            if json.loads(raw)["headers"]["task"] == "race.tasks.alert_overdue"]


@pytest.mark.django_db(transaction=True)
def test_a_near_alert_gets_a_task_at_its_instant_and_a_far_one_from_the_sweeper(
        clock, race, enrol, organiser_api, narrator_user):
    from race.models import Course
    from racekit import entry_of, gear, make_race, register
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.delete("celery")
    sprint = Course.objects.get(pk=post(organiser_api, f"/api/race/events/{race.pk}/courses/",
                                        name="sprint", duration_s=60).json()["course"]["id"])
    short, long = enrol("Éclair", 1, course=sprint), enrol("Lucie", 2)
    start(organiser_api, short)                    # alert at 60 s + 15 min: beyond the horizon
    start(organiser_api, long)
    assert queued(broker) == []

    clock.advance(16 * 60 - settings.DEADLINE_TASK_HORIZON_S + 1)
    sweep_overdue_alerts()                         # queues the sprint's alert at its instant
    assert [(t["eta"], t["argsrepr"]) for t in queued(broker)] == [
        (at(16).isoformat(), f"({short.pk},)")]

    # A race alerting 30 s after a one-minute course: the task is queued at the start.
    broker.delete("celery")
    quick = make_race(narrator_user, {"overdue_alert_after_s": 30}, name="Éclair")
    course = Course.objects.get(pk=post(organiser_api, f"/api/race/events/{quick.pk}/courses/",
                                        name="sprint", duration_s=60).json()["course"]["id"])
    flash = entry_of(register(organiser_api, quick, course, "Flash", 9))
    gear(organiser_api, flash, vest=True, light=True, phone=True)
    start(organiser_api, flash)
    assert [(t["eta"], t["argsrepr"]) for t in queued(broker)] == [
        ((clock.now + timedelta(seconds=90)).isoformat(), f"({flash.pk},)")]
