"""Before the race: courses with their durations and balises, the points per balise the
organiser must confirm (the rulebook gives none), registrations (solo and team) with
their finger, phone number, deposit and login, the gear check, the zombies' logins."""
from __future__ import annotations

import pytest

from fixtures import client_for
from players.models import Character, JournalEntry, LoginToken, Membership
from race.models import Checkpoint, Course, Entry
from racekit import (balise, entry_of, gear, make_course, make_race, post, register, start,
                     view)

pytestmark = pytest.mark.django_db


def courses(api, race):
    response = api.get(f"/api/race/events/{race.pk}/courses/")
    assert response.status_code == 200, response.content
    return {c["name"]: c for c in response.json()["courses"]}


def test_standard_courses_take_their_duration_from_the_options(race, organiser_api):
    for name in ("enfant", "famille", "sportif"):
        response = post(organiser_api, f"/api/race/events/{race.pk}/courses/", name=name)
        assert response.status_code == 201, response.content
    listed = courses(organiser_api, race)
    assert {n: c["duration_s"] for n, c in listed.items()} == {
        "enfant": 3600, "famille": 5400, "sportif": 7200}       # 1 h, 1 h 30, 2 h


def test_organisers_set_other_durations_by_option_or_for_a_free_course(clock, narrator_user,
                                                                      organiser_api):
    race = make_race(narrator_user, {"duration_enfant_s": 2700})
    post(organiser_api, f"/api/race/events/{race.pk}/courses/", name="enfant")
    free = post(organiser_api, f"/api/race/events/{race.pk}/courses/", name="Nocturne",
                duration_s=4000)
    assert free.status_code == 201
    assert {n: c["duration_s"] for n, c in courses(organiser_api, race).items()} == {
        "enfant": 2700, "Nocturne": 4000}
    refused = client_for(narrator_user, "fr").post(
        f"/api/race/events/{race.pk}/courses/", {"name": "Nocturne 2"}, format="json")
    assert refused.status_code == 400
    assert "duration_s" in refused.json()["detail"] and "Nocturne 2" in refused.json()["detail"]
    assert Course.objects.filter(event=race).count() == 2


def test_points_stay_unconfirmed_with_a_warning_until_the_organiser_confirms(race, organiser_api,
                                                                           narrator_user):
    course = make_course(race, narrator_user, confirm=False)
    listed = courses(client_for(narrator_user, "fr"), race)["famille"]
    assert listed["points_per_checkpoint"] == 0 and listed["points_confirmed"] is False
    assert [w["code"] for w in listed["warnings"]] == ["points_unconfirmed"]
    assert "non confirmés" in listed["warnings"][0]["text"]
    assert [c["code"] for c in listed["checkpoints"]] == ["31", "32", "33", "34"]
    assert all(c["qr"].startswith("RBN-") for c in listed["checkpoints"])

    confirmed = post(organiser_api, f"/api/race/courses/{course.pk}/points/",
                     points_per_checkpoint=25)
    assert confirmed.status_code == 200, confirmed.content
    listed = courses(organiser_api, race)["famille"]
    assert (listed["points_per_checkpoint"], listed["points_confirmed"]) == (25, True)
    assert listed["warnings"] == []
    assert JournalEntry.objects.filter(event=race, what="course:points_confirmed").count() == 1


def test_a_balise_number_is_unique_on_its_course_and_may_carry_its_own_points(race, famille,
                                                                             organiser_api):
    url = f"/api/race/courses/{famille.pk}/checkpoints/"
    again = post(organiser_api, url, code="31")
    assert again.status_code == 409 and again.json()["error"] == "race_checkpoint_exists"
    special = post(organiser_api, url, code="40", name="Église", lat=48.82, lon=0.70, points=50,
                   qr="RUGLES-40-SECRET")
    assert special.status_code == 201, special.content
    assert balise(famille, "40").points == 50
    bad = post(organiser_api, url, code="4 1", lat=123)
    assert bad.status_code == 400 and set(bad.json()["fields"]) == {"code", "lat"}
    assert Checkpoint.objects.filter(course=famille).count() == 5


def test_a_solo_and_a_team_register_with_a_login_each(race, famille, organiser_api):
    solo = entry_of(register(organiser_api, race, famille, "Lucie", 101))
    team = entry_of(register(organiser_api, race, famille, "Les Rescapés", 102, kind="team",
                             members=["Marc", "Julie", "Tom"], phone="+33 6 98 76 54 32"))
    assert (solo.kind, solo.members, solo.carrier) == ("solo", [], "")
    assert (team.members, team.carrier) == (["Marc", "Julie", "Tom"], "Marc")
    assert team.deposit_taken_at is not None
    for entry in (solo, team):
        character = Character.objects.get(pk=entry.character_id)
        assert character.event == race and character.name == entry.name
        assert Membership.objects.filter(user=character.user, role="player").exists()
    # The survivor's phone logs in with a link, like in every game.
    link = organiser_api.post(f"/api/characters/{team.character_id}/login-link/")
    assert link.status_code == 201 and "/login/" in link.json()["url"]
    assert LoginToken.objects.filter(user=team.character.user).count() == 1
    mine = view(client_for(team.character.user), team)
    assert mine["entry"]["name"] == "Les Rescapés" and mine["lives"] == {"remaining": 2, "initial": 2}
    assert "phone" not in mine["entry"]


@pytest.mark.parametrize("body,field", [
    ({"kind": "team", "members": ["Seul"]}, "membre"),
    ({"kind": "solo", "members": ["A", "B"]}, "seul"),
    ({"phone": "pas de numéro"}, "téléphone"),
    ({"course": "marathon"}, "marathon"),
    ({"finger": 0}, "finger"),
])
def test_bad_registrations_are_refused_and_change_nothing(body, field, race, famille,
                                                         narrator_user):
    api = client_for(narrator_user, "fr")
    journal = JournalEntry.objects.count()
    payload = {"name": "X", "course": "famille", "finger": 7, "phone": "0612345678", **body}
    response = api.post(f"/api/race/events/{race.pk}/entries/", payload, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()["detail"]
    assert Entry.objects.count() == 0 and Character.objects.filter(event=race).count() == 0
    assert JournalEntry.objects.count() == journal


def test_a_finger_is_given_once_per_race(race, famille, organiser_api):
    entry_of(register(organiser_api, race, famille, "Lucie", 101))
    again = register(organiser_api, race, famille, "Paul", 101)
    assert again.status_code == 409
    assert again.json()["error"] == "race_finger_taken" and "Lucie" in again.json()["detail"]
    assert Entry.objects.count() == 1
    # Another race may use the same finger numbers.
    other = make_race(race.memberships.get(role="narrator").user, name="Autre course")
    other_course = make_course(other, None)
    assert register(organiser_api, other, other_course, "Paul", 101).status_code == 201


def test_registration_is_idempotent(race, famille, organiser_api):
    first = register(organiser_api, race, famille, "Lucie", 101, key="inscription-lucie")
    again = register(organiser_api, race, famille, "Lucie", 101, key="inscription-lucie")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert Entry.objects.count() == 1


def test_the_start_is_refused_naming_the_gear_not_checked(race, famille, narrator_user):
    api = client_for(narrator_user, "fr")
    entry = entry_of(register(api, race, famille, "Lucie", 101))
    gear(api, entry, vest=True)
    refused = start(api, entry)
    assert refused.status_code == 409 and refused.json()["error"] == "race_gear_missing"
    detail = refused.json()["detail"]
    assert "lampe" in detail and "téléphone chargé" in detail and "gilet" not in detail
    entry.refresh_from_db()
    assert entry.status == Entry.REGISTERED and entry.started_at is None

    assert gear(api, entry, light=True, phone=True).json()["entry"]["gear"] == {
        "vest": True, "light": True, "phone": True}
    assert start(api, entry).status_code == 200


def test_organisers_create_zombies_with_a_login_link(race, organiser_api):
    response = post(organiser_api, f"/api/race/events/{race.pk}/zombies/", name="Igor le Zombie")
    assert response.status_code == 201, response.content
    assert "/login/" in response.json()["url"]
    zombie = Membership.objects.get(event=race, role=Membership.ZOMBIE).user
    assert zombie.first_name == "Igor le Zombie"
    assert not Character.objects.filter(user=zombie).exists()     # no score, no survivor


def test_a_race_api_refuses_an_event_of_another_game(event, narrator_api):
    assert narrator_api.get(f"/api/race/events/{event.pk}/courses/").status_code == 404
    assert narrator_api.get(f"/race/{event.pk}/results/").status_code == 404
