"""Position tracking during a race: a runner's phone sends where it is only while the
organisers track races for safety and that runner's race runs; the responders see the last
position on the board (and the plan), players never do; it is in the person's export and
gone after their erasure and the event's retention."""
from __future__ import annotations

import math
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model

from fixtures import client_for, connect
from players.models import Membership
from players.privacy_services import events_personal_data_purge
from players.services import event_create, membership_grant
from race.models import Course, Entry
from race.services.courses import checkpoint_create, course_create, course_points_confirm
from race.services.entries import entry_gear_check, entry_register
from race.services.running import entry_abandon, entry_disqualify, entry_finish, entry_start
from safety.models import Contact

from test_site_plan import image_bytes, place, upload
from test_site_plan_placement import ground

pytestmark = pytest.mark.django_db
WHERE = {"latitude": 48.8227, "longitude": 0.7064, "accuracy_m": 12.0}


@pytest.fixture
def race(clock, narrator_user):
    race = event_create(name="Rugles by Night", ruleset="zombie_race", language="fr",
                        by=narrator_user, start_clock=True)
    course = course_create(event=race, name="famille", by=narrator_user)
    checkpoint_create(course=course, code="31", name="Balise 31", by=narrator_user,
                      lat=48.8227, lon=0.7064)
    course_points_confirm(course=course, points_per_checkpoint=20, by=narrator_user)
    return race


def runner(race, narrator_user, name, finger) -> Entry:
    entry = entry_register(event=race, course=Course.objects.get(event=race), name=name, kind="solo",
                           finger=finger, phone="06 12 34 56 78", by=narrator_user)
    return entry_gear_check(entry=entry, gear={"vest": True, "light": True, "phone": True},
                            by=narrator_user)


@pytest.fixture
def lucie(race, narrator_user) -> Entry:
    return runner(race, narrator_user, "Lucie", 101)


@pytest.fixture
def paul(race, narrator_user) -> Entry:
    return runner(race, narrator_user, "Paul", 102)


@pytest.fixture
def tracking(race, narrator_api):
    response = narrator_api.post(f"/api/events/{race.pk}/safety/settings/", {"race_tracking": True},
                                 format="json", HTTP_IDEMPOTENCY_KEY="tracking-on")
    assert response.status_code == 200 and response.json()["race_tracking"] is True, response.content


@pytest.fixture
def safety_api(race):
    user = get_user_model().objects.create_user(username="Sam")
    membership_grant(event=race, user=user, role=Membership.SAFETY)
    return client_for(user)


def send(entry, clock, *, key="fix-1", seconds_ago=0, api=None, language="en", **where):
    at = clock.now - timedelta(seconds=seconds_ago)
    body = {**WHERE, **where, "at": at.isoformat()}
    return (api or client_for(entry.character.user)).post(
        f"/api/characters/{entry.character_id}/position/", body, format="json",
        HTTP_IDEMPOTENCY_KEY=key, HTTP_ACCEPT_LANGUAGE=language)


def state(entry) -> dict:
    """What the runner's phone reads to know whether to share its position."""
    response = client_for(entry.character.user).get(f"/api/characters/{entry.character_id}/position/")
    assert response.status_code == 200, response.content
    return {k: response.json()[k] for k in ("tracking", "why_not")}


def stored(entry) -> tuple:
    contact = Contact.objects.filter(pk=entry.character_id).first()
    return (contact.latitude, contact.longitude, contact.accuracy_m) if contact else (None, None, None)


def positions(api, race) -> list[dict]:
    response = api.get(f"/api/events/{race.pk}/safety/")
    assert response.status_code == 200, response.content
    return response.json()["positions"]


def test_a_running_runner_s_position_is_kept_when_tracking_is_on(
        clock, race, lucie, tracking, narrator_user):
    entry_start(entry=lucie, by=narrator_user)
    assert state(lucie) == {"tracking": True, "why_not": None}
    response = send(lucie, clock, seconds_ago=3)
    assert response.status_code == 200, response.content
    assert response.json()["tracking"] is True
    assert stored(lucie) == (48.8227, 0.7064, 12.0)
    # The same write again (the phone retried): the same answer, nothing new.
    again = send(lucie, clock, seconds_ago=3)
    assert again.json()["position_at"] == response.json()["position_at"]
    assert stored(lucie)[0] == 48.8227


def test_an_older_fix_than_the_one_kept_is_ignored(clock, race, lucie, tracking, narrator_user):
    entry_start(entry=lucie, by=narrator_user)
    clock.advance(120)
    assert send(lucie, clock, key="new", latitude=48.83).status_code == 200
    late = send(lucie, clock, key="old", seconds_ago=60, latitude=48.80)
    assert late.status_code == 200, late.content
    assert stored(lucie)[0] == 48.83
    assert Contact.objects.get(pk=lucie.character_id).position_at == clock.now


def test_refused_while_tracking_is_off_and_nothing_is_kept(clock, race, lucie, narrator_user):
    entry_start(entry=lucie, by=narrator_user)
    response = send(lucie, clock)
    assert response.status_code == 409, response.content
    assert response.json()["error"] == "tracking_off"
    assert "position sharing" in response.json()["detail"]
    assert stored(lucie) == (None, None, None)
    assert state(lucie) == {"tracking": False, "why_not": "tracking_off"}


def test_refused_before_the_start_and_after_the_end_of_the_race(
        clock, race, lucie, paul, tracking, narrator_user):
    before = send(lucie, clock, key="before", language="fr")
    assert (before.status_code, before.json()["error"]) == (409, "tracking_not_racing")
    assert "pendant votre course" in before.json()["detail"]     # in the runner's language
    entry_start(entry=lucie, by=narrator_user)
    entry_start(entry=paul, by=narrator_user)
    clock.advance(600)
    entry_finish(entry=lucie, by=narrator_user)
    entry_abandon(entry=paul, by=paul.character.user)
    for entry in (lucie, paul):
        after = send(entry, clock, key="after")
        assert (after.status_code, after.json()["error"]) == (409, "tracking_not_racing"), entry
        assert stored(entry) == (None, None, None)
    assert state(lucie) == {"tracking": False, "why_not": "tracking_not_racing"}


def test_refused_for_a_disqualified_runner(clock, race, lucie, tracking, narrator_user):
    entry_start(entry=lucie, by=narrator_user)
    entry_disqualify(entry=lucie, by=narrator_user, reason="coups")
    assert send(lucie, clock).json()["error"] == "tracking_not_racing"


def test_another_player_cannot_send_or_read_for_a_runner(
        clock, race, lucie, paul, tracking, narrator_user, narrator_api):
    entry_start(entry=lucie, by=narrator_user)
    paul_api = client_for(paul.character.user)
    assert send(lucie, clock, api=paul_api).status_code == 404
    assert paul_api.get(f"/api/characters/{lucie.character_id}/position/").status_code == 404
    # An organiser does not send a runner's position either.
    assert send(lucie, clock, api=narrator_api, key="n").status_code == 403
    assert stored(lucie) == (None, None, None)


def test_the_responders_see_the_last_positions_and_players_never_do(
        clock, race, lucie, paul, tracking, narrator_user, narrator_api, safety_api):
    entry_start(entry=lucie, by=narrator_user)
    entry_start(entry=paul, by=narrator_user)
    assert send(lucie, clock, seconds_ago=30).status_code == 200
    for api in (narrator_api, safety_api):
        only, = positions(api, race)
        assert only["character"]["name"] == "Lucie"
        assert (only["latitude"], only["longitude"], only["accuracy_m"], only["age_s"]) == (
            48.8227, 0.7064, 12.0, 30)
    paul_api = client_for(paul.character.user)
    assert paul_api.get(f"/api/events/{race.pk}/safety/").status_code == 404
    calls = paul_api.get(f"/api/events/{race.pk}/help/")
    assert calls.status_code == 200 and "48.8227" not in calls.content.decode()
    own = client_for(lucie.character.user).get(f"/api/characters/{lucie.character_id}/position/")
    assert "48.8227" not in own.content.decode()
    # Tracking turned off: the board shows no position any more.
    narrator_api.post(f"/api/events/{race.pk}/safety/settings/", {"race_tracking": False},
                      format="json", HTTP_IDEMPOTENCY_KEY="tracking-off")
    assert positions(narrator_api, race) == []


def test_a_position_is_in_the_export_and_gone_after_erasure_and_retention(
        clock, race, lucie, paul, tracking, narrator_user, narrator_api):
    entry_start(entry=lucie, by=narrator_user)
    entry_start(entry=paul, by=narrator_user)
    send(lucie, clock, seconds_ago=5)
    send(paul, clock, seconds_ago=5)
    document = narrator_api.post(f"/api/characters/{lucie.character_id}/export/", {},
                                 format="json").json()
    contact, = document["safety_contacts"]
    assert contact["last_position"] == {**WHERE, "at": (clock.now - timedelta(seconds=5)).isoformat()}
    erased = narrator_api.post(f"/api/characters/{lucie.character_id}/erase/", {"confirm": True},
                               format="json")
    assert erased.status_code == 200, erased.content
    assert not Contact.objects.filter(latitude__isnull=False, pk=lucie.character_id).exists()
    assert stored(paul)[0] == 48.8227
    clock.advance(timedelta(days=race.retention_days + 1).total_seconds())
    assert events_personal_data_purge() == 1
    assert not Contact.objects.filter(latitude__isnull=False).exists()


def test_the_site_plan_shows_where_a_runner_was_last(clock, race, lucie, tracking, narrator_user,
                                                    narrator_api):
    assert upload(narrator_api, race, image_bytes()).status_code == 201
    assert place(narrator_api, race).status_code == 200
    entry_start(entry=lucie, by=narrator_user)
    latitude, longitude = ground(150, 50)
    assert send(lucie, clock, latitude=latitude, longitude=longitude, accuracy_m=20).status_code == 200
    where = positions(narrator_api, race)[0]["plan_position"]
    assert math.dist((where["x"], where["y"]), (400, 600)) < 2        # 150 m east, 50 m north
    assert where["radius_px"] == pytest.approx(40, abs=0.5) and where["inside"] is True


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_no_phone_socket_hears_of_a_position(clock, race, lucie, paul, tracking, narrator_user):
    """Positions are never published: the board reads them; a player's socket, the
    runner's own included, carries nothing of them."""
    await sync_to_async(entry_start)(entry=lucie, by=narrator_user)
    sockets = []
    for entry in (lucie, paul):
        api = await sync_to_async(lambda e: client_for(e.character.user))(entry)
        socket, connected, _ = await connect(api, f"character={entry.character_id}")
        assert connected
        await socket.receive_json_from(timeout=5)        # its snapshot
        sockets.append(socket)
    answer = await sync_to_async(send)(lucie, clock)
    assert answer.status_code == 200, answer.content
    for socket in sockets:
        assert await socket.receive_nothing(timeout=0.5)
        await socket.disconnect()
