"""Personal data has an end: a race's phone numbers and the people of a past event are
purged once its retention period (90 days by default) has run from its end, by beat's
daily task; club members still playing in a newer event keep their record
(docs/operations.md, "Personal data")."""
from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction

from club.models import Member
from club.services.sanctions import sanction_record
from fixtures import START, check_in, client_for, database_text, new_member, same_club
from health.models import HealthState
from players.models import Character, Event, JournalEntry
from players.privacy_services import events_personal_data_purge
from players.services import event_create
from players.tasks import purge_personal_data
from race.models import Entry
from race.services.courses import checkpoint_create, course_create
from race.services.entries import entry_register, zombie_create
from schedule.services.days import day_schedule

pytestmark = pytest.mark.django_db

DAY = 24 * 3600
LUCIE_PHONE, TEAM_PHONE = "06 11 22 33 44", "06 99 88 77 66"


@pytest.fixture
def race(clock, narrator_user):
    """A night race run at START: a solo survivor, a team of two and a zombie."""
    race = event_create(name="Rugles by Night", ruleset="zombie_race", by=narrator_user,
                        start_clock=True)
    course = course_create(event=race, name="famille", by=narrator_user)
    checkpoint_create(course=course, code="31", by=narrator_user)
    entry_register(event=race, course=course, name="Lucie Petit", kind="solo", finger=11,
                   phone=LUCIE_PHONE, by=narrator_user)
    entry_register(event=race, course=course, name="Les Rescapés", kind="team", finger=12,
                   phone=TEAM_PHONE, members=["Alice Roy", "Benoît Roy"], carrier="Alice Roy",
                   by=narrator_user)
    zombie_create(event=race, name="Igor Lemort", by=narrator_user)
    return race


RACE_PEOPLE = ["Lucie Petit", "Alice Roy", "Benoît Roy", "Igor Lemort", "igor-lemort",
               LUCIE_PHONE, TEAM_PHONE]


def game_facts(event) -> list:
    return list(JournalEntry.objects.filter(event=event).exclude(kind="privacy").order_by("id")
                .values_list("id", "kind", "what", "at", "game_s", "before__status",
                             "after__status"))


def test_a_race_is_kept_89_days_after_its_end_and_purged_at_91(clock, race):
    facts = game_facts(race)
    states = list(HealthState.objects.filter(event=race).values_list("pk", "status"))

    clock.advance(89 * DAY)
    assert purge_personal_data() == 0
    assert sorted(Entry.objects.values_list("phone", flat=True)) == [LUCIE_PHONE, TEAM_PHONE]
    assert all(word in database_text() for word in RACE_PEOPLE)

    clock.advance(2 * DAY)
    assert purge_personal_data() == 1

    text = database_text()
    for word in RACE_PEOPLE:
        assert word not in text, word
    entries = {e.finger: e for e in Entry.objects.all()}
    assert {e.phone for e in entries.values()} == {""}
    team = entries[12]
    assert team.members == [f"{team.name} 1", f"{team.name} 2"] and team.carrier == team.members[0]
    assert entries[11].name.startswith("Personne ") and entries[11].status == "registered"
    assert game_facts(race) == facts
    assert list(HealthState.objects.filter(event=race).values_list("pk", "status")) == states
    zombie = get_user_model().objects.get(memberships__event=race, memberships__role="zombie")
    assert not zombie.is_active and zombie.first_name == ""
    race.refresh_from_db()
    assert race.personal_data_purged_at == START + timedelta(days=91)
    purged = JournalEntry.objects.get(event=race, kind="privacy")
    assert (purged.what, purged.detail["retention_days"], purged.detail["persons"]) == (
        "personal_data_purged", 90, 3)


def test_the_purge_happens_once(clock, race):
    clock.advance(91 * DAY)
    assert events_personal_data_purge() == 1
    text, lines = database_text(), JournalEntry.objects.count()

    clock.advance(DAY)
    assert events_personal_data_purge() == 0
    assert database_text() == text and JournalEntry.objects.count() == lines


@pytest.fixture
def games(clock, narrator_user, narrator_api):
    """An airsoft game at START where Karim and Denis played; Denis plays a newer one,
    60 days later."""
    old = event_create(name="Partie de juin", ruleset="airsoft_rats", by=narrator_user,
                       start_clock=True)
    karim = new_member(old, narrator_user)
    denis = new_member(old, narrator_user, name="Denis Morel", licence="RAT-0077", nickname="")
    for licence in ("RAT-0042", "RAT-0077"):
        assert check_in(narrator_api, old, licence).status_code == 201
    clock.advance(60 * DAY)
    new = event_create(name="Partie d'août", ruleset="airsoft_rats", by=narrator_user,
                       start_clock=True)
    same_club(new, old, narrator_user)  # the August desk checks in from the same register
    # A fresh session: the first one expired meanwhile.
    assert check_in(client_for(narrator_user), new, "RAT-0077").status_code == 201
    return {"old": old, "new": new, "karim": karim, "denis": denis}


def test_a_member_still_playing_in_a_newer_event_keeps_their_record(clock, games):
    clock.advance(31 * DAY)  # 91 days after the old game, 31 after the new one

    assert events_personal_data_purge() == 1

    karim, denis = (Member.objects.get(pk=games[who].pk) for who in ("karim", "denis"))
    assert karim.name.startswith("Personne ")  # the pseudonym of the account he played with
    assert (karim.phone, karim.licence_number, karim.nickname) == ("", f"ERASED-{karim.pk}", "")
    assert (denis.name, denis.phone, denis.licence_number) == (
        "Denis Morel", "+33 6 12 34 56 78", "RAT-0077")
    # The old game's characters are pseudonymised, the new game's is not.
    assert not Character.objects.filter(event=games["old"], name__contains="Morel").exists()
    assert Character.objects.get(event=games["new"]).name == "Denis Morel"
    text = database_text()
    for word in ("Karim", "Benali", "Kaïman", "RAT-0042"):
        assert word not in text, word
    games["new"].refresh_from_db()
    assert games["new"].personal_data_purged_at is None


def test_a_banned_member_stays_on_the_register(clock, games, narrator_user):
    # Banned at the August game's desk (the register is the club's): the ban must still
    # find him when the June game's retention ends.
    sanction_record(event=games["new"], member=games["karim"], kind="permanent_ban",
                    reason="violence", by=narrator_user)
    clock.advance(31 * DAY)

    assert events_personal_data_purge() == 1

    karim = Member.objects.get(pk=games["karim"].pk)
    assert (karim.name, karim.licence_number) == ("Karim Benali", "RAT-0042")
    assert not Character.objects.filter(event=games["old"], name="Karim Benali").exists()


def test_the_end_is_the_last_day_still_to_come_and_an_export_does_not_move_it(
        clock, narrator_user, narrator_api):
    larp = event_create(name="Septenario", ruleset="septenario_es", language="es",
                        by=narrator_user, start_clock=True)
    alice = Character.objects.get(pk=narrator_api.post(
        f"/api/events/{larp.pk}/characters/", {"name": "Lucía Vera"},
        format="json").json()["id"])
    day_schedule(event=larp, kind="dawn", due_at=START + timedelta(days=10), by=narrator_user)
    clock.advance(95 * DAY)
    narrator_api = client_for(narrator_user)  # the first session expired meanwhile
    assert narrator_api.post(f"/api/characters/{alice.pk}/export/", {},
                             format="json").status_code == 200
    shown = narrator_api.get(f"/api/events/{larp.pk}/personal-data/").json()
    assert shown["ended_at"] == (START + timedelta(days=10)).isoformat()
    assert shown["purge_due_at"] == (START + timedelta(days=100)).isoformat()

    assert events_personal_data_purge() == 0  # 95 days after START, 85 after the dawn
    clock.advance(5 * DAY)
    assert events_personal_data_purge() == 1
    assert Character.objects.get(pk=alice.pk).name.startswith("Persona ")


def test_the_organisers_set_the_retention_of_their_event(clock, race, narrator_user,
                                                        narrator_api):
    url = f"/api/events/{race.pk}/personal-data/"
    response = narrator_api.post(url, {"retention_days": 30}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["retention_days"] == 30
    assert response.json()["purge_due_at"] == (START + timedelta(days=30)).isoformat()

    clock.advance(31 * DAY)
    assert events_personal_data_purge() == 1
    response = client_for(narrator_user).post(url, {"retention_days": 365}, format="json")
    assert response.status_code == 409
    assert response.json()["error"] == "personal_data_purged"


@pytest.mark.parametrize("lang, words", [("fr", "nombre entier de jours de 1 à 3650"),
                                         ("es", "número entero de días de 1 a 3650"),
                                         ("en", "whole number of days from 1 to 3650")])
@pytest.mark.parametrize("days", [0, 3651, 2.5, "90", True, None])
def test_a_retention_period_is_a_whole_number_of_days(lang, words, days, race, narrator_user):
    response = client_for(narrator_user, lang).post(
        f"/api/events/{race.pk}/personal-data/", {"retention_days": days}, format="json")

    assert response.status_code == 400, response.content
    assert response.json()["error"] == "retention_days_invalid"
    assert words in response.json()["detail"]
    assert Event.objects.get(pk=race.pk).retention_days == 90


def test_beat_runs_the_purge_daily():
    entry = settings.CELERY_BEAT_SCHEDULE["purge-personal-data"]
    assert entry["task"] == purge_personal_data.name == "players.tasks.purge_personal_data"
    assert entry["schedule"].hour == {settings.PERSONAL_DATA_PURGE_HOUR_UTC}


@pytest.mark.django_db(transaction=True)
def test_an_event_another_worker_is_purging_is_left_to_it(clock, race):
    clock.advance(91 * DAY)
    held, release = threading.Event(), threading.Event()

    def other_worker():
        with transaction.atomic():
            Event.objects.select_for_update().get(pk=race.pk)
            held.set()
            release.wait(10)
        connection.close()

    worker = threading.Thread(target=other_worker)
    worker.start()
    assert held.wait(10)
    try:
        assert events_personal_data_purge() == 0  # skipped, not waited for
    finally:
        release.set()
        worker.join(10)
    assert events_personal_data_purge() == 1
