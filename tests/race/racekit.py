"""Helpers of the race tests: building a race with the services, and calling the race API
as the organisers', zombies' and survivors' phones do."""
from __future__ import annotations

from datetime import timedelta

from fixtures import START, client_for
from players.services import event_create
from race.models import Checkpoint, Course, Entry
from race.services.courses import checkpoint_create, course_create, course_points_confirm


RUGLES = (48.8227, 0.7064)


def make_race(narrator_user, options=None, name="Rugles by Night"):
    return event_create(name=name, ruleset="zombie_race", language="fr", options=options or {},
                        by=narrator_user, start_clock=True)


def make_course(race, by, name="famille", codes=("31", "32", "33", "34"), points=20,
                confirm=True) -> Course:
    course = course_create(event=race, name=name, by=by)
    for i, code in enumerate(codes):
        # Balises along a street of Rugles, about 110 m apart.
        checkpoint_create(course=course, code=code, name=f"Balise {code}", by=by,
                          lat=RUGLES[0] + i * 0.001, lon=RUGLES[1])
    if confirm:
        course = course_points_confirm(course=course, points_per_checkpoint=points, by=by)
    return course


def register(api, race, course, name, finger, *, kind="solo", members=None, phone="06 12 34 56 78",
             deposit=True, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    body = {"name": name, "course": course.name, "kind": kind, "finger": finger, "phone": phone,
            "deposit_taken": deposit, **({"members": members} if members else {})}
    return api.post(f"/api/race/events/{race.pk}/entries/", body, format="json", **headers)


def entry_of(response) -> Entry:
    assert response.status_code == 201, response.content
    return Entry.objects.get(pk=response.json()["entry"]["id"])


def post(api, url, key=None, **body):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(url, body, format="json", **headers)


def entry_url(entry, action="") -> str:
    return f"/api/race/entries/{entry.pk}/{action + '/' if action else ''}"


def gear(api, entry, **items):
    return post(api, entry_url(entry, "gear"), **items)


def start(api, entry, at=None):
    return post(api, entry_url(entry, "start"), **({"at": at.isoformat()} if at else {}))


def finish(api, entry, at=None, **body):
    return post(api, entry_url(entry, "finish"), **({"at": at.isoformat()} if at else {}), **body)


def punch(api, entry, checkpoint, key=None, at=None):
    """`checkpoint`: a Checkpoint (its QR is sent, as a phone does) or a string as typed."""
    value = checkpoint.qr if isinstance(checkpoint, Checkpoint) else checkpoint
    extra = {"at": at.isoformat()} if at else {}
    return post(api, entry_url(entry, "punches"), key=key, checkpoint=value, **extra)


def balise(course, code) -> Checkpoint:
    return Checkpoint.objects.get(course=course, code=code)


def view(api, entry) -> dict:
    response = api.get(entry_url(entry))
    assert response.status_code == 200, response.content
    return response.json()


def board(api, race, course) -> dict:
    response = api.get(f"/api/race/events/{race.pk}/leaderboard/")
    assert response.status_code == 200, response.content
    return next(b for b in response.json()["courses"] if b["course"]["id"] == course.pk)


def at(minutes: float, seconds: float = 0):
    """An instant of the race night: START + minutes."""
    return START + timedelta(minutes=minutes, seconds=seconds)


ALL_CONFIRMED = ["not_fast_running", "not_near_checkpoint", "no_contact", "not_on_open_road",
                 "target_not_panicking"]


def grab(api, race, entry, confirmations=None, key=None, **where):
    return post(api, f"/api/race/events/{race.pk}/grabs/", key=key, code=entry.character.code,
                confirmations=ALL_CONFIRMED if confirmations is None else confirmations, **where)


def survivor_api(entry):
    return client_for(entry.character.user)
