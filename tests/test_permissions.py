"""Who may see or do what: a player sees only their own character, narrators see only
their own events, a medic learns a patient's name but never the patient's health, and
anonymous callers reach nothing but the login endpoint. Every refusal changes nothing."""
from __future__ import annotations


import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from fixtures import MEDIC_SHEET, act, call, client_for, snapshot, start_treatment
from health.models import Treatment
from players.models import Character, Event, JournalEntry, LoginToken
from players.services import character_create, event_create

pytestmark = pytest.mark.django_db


def journal_length(event) -> int:
    return JournalEntry.objects.filter(event=event).count()


# --- a player on another character -------------------------------------------------------

OTHER_CHARACTER_CALLS = [
    ("get", "/api/characters/{other}/", None),
    ("post", "/api/characters/{other}/actions/", {"action": "hit_stunning", "params": {}}),
    ("post", "/api/characters/{other}/actions/", {"action": "hit_wounding", "params": {}}),
    ("get", "/api/characters/{other}/patients/{code}/", None),
    ("post", "/api/characters/{other}/treatments/",
     {"patient_code": "{code}", "action": "first_aid", "params": {}}),
]


@pytest.mark.parametrize("method,url,data", OTHER_CHARACTER_CALLS)
def test_player_cannot_see_or_act_on_another_character(method, url, data, player, other_player,
                                                       player_api, narrator_api):
    before = snapshot(narrator_api, other_player)
    journal = journal_length(player.event)
    target = url.format(other=other_player.pk, code=player.code)
    if data and "patient_code" in data:
        data = {**data, "patient_code": player.code}

    response = call(player_api, method, target, data)

    assert response.status_code == 404, response.content
    assert "Denis" not in response.content.decode()
    assert snapshot(narrator_api, other_player)["version"] == before["version"]
    assert snapshot(narrator_api, other_player)["state"]["key"] == "healthy"
    assert journal_length(player.event) == journal


def test_unknown_character_id_reads_like_another_players(player_api):
    assert player_api.get("/api/characters/999999/").status_code == 404


def test_player_still_reads_and_acts_on_their_own_character(player, player_api):
    assert snapshot(player_api, player)["character"]["name"] == "Alice"
    assert act(player_api, player, "hit_stunning").status_code == 200


# --- a player on the narrators' endpoints -------------------------------------------------

NARRATOR_CALLS = [
    ("get", "/api/events/{event}/characters/", None),
    ("post", "/api/events/{event}/characters/", {"name": "Intruder"}),
    ("post", "/api/events/{event}/clock/", {"action": "pause"}),
    ("get", "/api/events/{event}/journal/", None),
    ("get", "/api/events/{event}/journal.csv", None),
    ("post", "/api/events/{event}/effects/", {"text": "Effet : sommeil", "everyone": True}),
    ("post", "/api/characters/{own}/login-link/", None),
    ("post", "/api/characters/{other}/login-link/", None),
    ("post", "/api/characters/{own}/login-qr.svg", None),
    ("post", "/api/characters/{other}/login-qr.svg", None),
]


@pytest.mark.parametrize("method,url,data", NARRATOR_CALLS)
def test_player_cannot_use_narrator_endpoints(method, url, data, event, player, other_player,
                                              player_api):
    characters = Character.objects.filter(event=event).count()
    journal = journal_length(event)
    tokens = LoginToken.objects.count()
    version = snapshot(player_api, player)["version"]

    response = call(player_api, method, url.format(event=event.pk, own=player.pk,
                                                   other=other_player.pk), data)

    assert response.status_code in (403, 404), response.content
    assert response["Content-Type"].startswith("application/json")
    assert "error" in response.json()
    event.refresh_from_db()
    assert event.running  # the clock was not paused
    assert Character.objects.filter(event=event).count() == characters
    assert journal_length(event) == journal
    assert LoginToken.objects.count() == tokens
    assert snapshot(player_api, player)["effects"] == []
    assert snapshot(player_api, player)["version"] == version


def test_player_cannot_remove_an_effect(event, player, narrator_api, player_api):
    pushed = narrator_api.post(f"/api/events/{event.pk}/effects/",
                               {"text": "Effet : peur", "character_ids": [player.pk]},
                               format="json")
    assert pushed.status_code == 201, pushed.content
    effect_id = snapshot(player_api, player)["effects"][0]["id"]

    response = player_api.delete(f"/api/effects/{effect_id}/")

    assert response.status_code in (403, 404)
    assert [e["id"] for e in snapshot(player_api, player)["effects"]] == [effect_id]


def test_player_cannot_create_an_event(player_api):
    events = Event.objects.count()
    response = player_api.post("/api/events/", {"name": "Mine", "ruleset": "gn_fr"},
                               format="json")
    assert response.status_code == 403
    assert response.json()["error"]
    assert Event.objects.count() == events


def test_staff_narrator_can_create_an_event(narrator_api):
    response = narrator_api.post("/api/events/", {"name": "Another GN", "ruleset": "gn_fr"},
                                 format="json")
    assert response.status_code == 201, response.content
    assert response.json()["name"] == "Another GN"


# --- anonymous ------------------------------------------------------------------------------

ANONYMOUS_CALLS = [
    ("get", "/api/me/", None),
    ("get", "/api/rulesets/gn_fr/", None),
    ("get", "/api/events/", None),
    ("post", "/api/events/", {"name": "X", "ruleset": "gn_fr"}),
    ("get", "/api/events/{event}/characters/", None),
    ("post", "/api/events/{event}/characters/", {"name": "X"}),
    ("post", "/api/events/{event}/clock/", {"action": "pause"}),
    ("get", "/api/events/{event}/journal/", None),
    ("get", "/api/events/{event}/journal.csv", None),
    ("post", "/api/events/{event}/effects/", {"text": "Effet", "everyone": True}),
    ("delete", "/api/effects/{effect}/", None),
    ("get", "/api/characters/{player}/", None),
    ("post", "/api/characters/{player}/actions/", {"action": "hit_stunning"}),
    ("post", "/api/characters/{player}/login-link/", None),
    ("post", "/api/characters/{player}/login-qr.svg", None),
    ("get", "/api/characters/{medic}/patients/{code}/", None),
    ("post", "/api/characters/{medic}/treatments/",
     {"patient_code": "{code}", "action": "first_aid"}),
    ("get", "/api/treatments/{treatment}/", None),
    ("post", "/api/treatments/{treatment}/complete/", None),
    ("post", "/api/treatments/{treatment}/abort/", None),
]


@pytest.fixture
def running_treatment(clock, player, medic, player_api, medic_api):
    assert act(player_api, player, "hit_wounding").status_code == 200
    started = start_treatment(medic_api, medic, player, "first_aid")
    assert started.status_code == 201, started.content
    return Treatment.objects.get(pk=started.json()["id"])


@pytest.mark.parametrize("method,url,data", ANONYMOUS_CALLS)
def test_anonymous_gets_403_everywhere(method, url, data, event, player, medic,
                                       running_treatment, narrator_api):
    pushed = narrator_api.post(f"/api/events/{event.pk}/effects/",
                               {"text": "Effet : froid", "character_ids": [player.pk]},
                               format="json")
    assert pushed.status_code == 201, pushed.content
    effect_id = snapshot(narrator_api, player)["effects"][0]["id"]
    version = snapshot(narrator_api, player)["version"]
    journal = journal_length(event)
    if data and data.get("patient_code"):
        data = {**data, "patient_code": player.code}
    target = url.format(event=event.pk, player=player.pk, medic=medic.pk, code=player.code,
                        treatment=running_treatment.pk, effect=effect_id)

    response = call(APIClient(), method, target, data)

    assert response.status_code == 403, (target, response.status_code, response.content)
    assert snapshot(narrator_api, player)["version"] == version
    assert journal_length(event) == journal
    running_treatment.refresh_from_db()
    assert running_treatment.status == Treatment.RUNNING
    assert snapshot(narrator_api, player)["effects"]


def test_anonymous_may_reach_the_login_endpoint(event):
    response = APIClient().post("/api/login/", {"token": "not-a-real-token"}, format="json")
    assert response.status_code == 400  # refused for the token, not for being anonymous
    assert response.json()["error"] == "invalid_login"


# --- a narrator of another event ---------------------------------------------------------------

@pytest.fixture
def stranger_api(clock):
    stranger = get_user_model().objects.create_user(username="narrator2", is_staff=True)
    own_event = event_create(name="Other GN", ruleset="gn_fr", by=stranger, start_clock=True)
    character_create(event=own_event, name="Zoé", by=stranger)
    return client_for(stranger)


STRANGER_CALLS = [
    ("get", "/api/events/{event}/characters/", None),
    ("post", "/api/events/{event}/characters/", {"name": "Spy"}),
    ("post", "/api/events/{event}/clock/", {"action": "pause"}),
    ("get", "/api/events/{event}/journal/", None),
    ("get", "/api/events/{event}/journal.csv", None),
    ("post", "/api/events/{event}/effects/", {"text": "Effet : sommeil", "everyone": True}),
    ("get", "/api/characters/{player}/", None),
    ("post", "/api/characters/{player}/actions/", {"action": "set_state",
                                                     "params": {"state": "dead"}}),
    ("post", "/api/characters/{player}/login-link/", None),
    ("post", "/api/characters/{player}/login-qr.svg", None),
]


@pytest.mark.parametrize("method,url,data", STRANGER_CALLS)
def test_narrator_of_another_event_cannot_see_this_one(method, url, data, event, player,
                                                       stranger_api, narrator_api):
    version = snapshot(narrator_api, player)["version"]
    journal = journal_length(event)
    characters = Character.objects.filter(event=event).count()

    response = call(stranger_api, method, url.format(event=event.pk, player=player.pk), data)

    assert response.status_code == 404, response.content
    assert "Alice" not in response.content.decode()
    after = snapshot(narrator_api, player)
    assert after["version"] == version
    assert after["state"]["key"] == "healthy"
    assert after["effects"] == []
    assert journal_length(event) == journal
    assert Character.objects.filter(event=event).count() == characters
    event.refresh_from_db()
    assert event.running


def test_narrator_of_another_event_sees_only_their_events(event, stranger_api):
    events = stranger_api.get("/api/events/").json()["events"]
    assert [e["name"] for e in events] == ["Other GN"]


# --- the medic's patient lookup ---------------------------------------------------------------

def _keys(obj):
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield key
            yield from _keys(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from _keys(value)


def test_patient_lookup_never_reveals_the_patients_health(clock, player, medic, player_api,
                                                         medic_api):
    assert act(player_api, player, "hit_wounding").status_code == 200

    response = medic_api.get(f"/api/characters/{medic.pk}/patients/{player.code}/")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["patient"] == {"id": player.pk, "name": "Alice", "code": player.code}
    assert {t["key"] for t in body["treatments"]} == {"first_aid", "surgery",
                                                      "metabolic_analysis"}
    keys = set(_keys(body))
    assert not keys & {"state", "status", "timers", "next", "values", "version", "health"}
    text = response.content.decode()
    assert "ounded" not in text and "coma" not in text.lower()


def test_patient_lookup_accepts_a_lowercase_code(player, medic, medic_api):
    response = medic_api.get(f"/api/characters/{medic.pk}/patients/{player.code.lower()}/")
    assert response.status_code == 200
    assert response.json()["patient"]["name"] == "Alice"


def test_player_cannot_use_another_characters_id_as_the_medic(clock, player, medic, other_player,
                                                              player_api, narrator_api):
    for url in (f"/api/characters/{medic.pk}/patients/{other_player.code}/",):
        response = player_api.get(url)
        assert response.status_code in (403, 404)
        assert "Denis" not in response.content.decode()

    assert act(narrator_api, other_player, "hit_wounding").status_code == 200
    version = snapshot(narrator_api, other_player)["version"]
    journal = journal_length(player.event)
    response = start_treatment(player_api, medic, other_player, "first_aid")
    assert response.status_code in (403, 404)
    assert Treatment.objects.count() == 0
    assert snapshot(narrator_api, other_player)["version"] == version
    assert journal_length(player.event) == journal
    medic.refresh_from_db()
    assert medic.kits == {"kps": 2, "koc": 1}


def test_narrator_cannot_treat_in_a_medics_name(clock, player, medic, narrator_api):
    assert act(narrator_api, player, "hit_wounding").status_code == 200
    lookup = narrator_api.get(f"/api/characters/{medic.pk}/patients/{player.code}/")
    assert lookup.status_code == 403
    response = start_treatment(narrator_api, medic, player, "first_aid")
    assert response.status_code == 403
    assert Treatment.objects.count() == 0


# --- a medic on another medic's treatment ----------------------------------------------------

@pytest.fixture
def second_medic(event, narrator_user):
    return character_create(event=event, name="Chloé", sheet=MEDIC_SHEET,
                            kits={"kps": 2, "koc": 1}, by=narrator_user)


@pytest.mark.parametrize("verb", ["complete", "abort"])
def test_medic_cannot_close_another_medics_treatment(verb, clock, player, medic, second_medic,
                                                    running_treatment, narrator_api):
    clock.advance(60)  # the treatment could be completed by its own medic
    version = snapshot(narrator_api, player)["version"]
    journal = journal_length(player.event)
    other = client_for(second_medic.user)

    assert other.get(f"/api/treatments/{running_treatment.pk}/").status_code == 404
    response = other.post(f"/api/treatments/{running_treatment.pk}/{verb}/")

    assert response.status_code == 404, response.content
    running_treatment.refresh_from_db()
    assert running_treatment.status == Treatment.RUNNING
    assert snapshot(narrator_api, player)["version"] == version
    assert journal_length(player.event) == journal
    for character in (medic, second_medic):
        character.refresh_from_db()
        assert character.kits == {"kps": 2, "koc": 1}


def test_patient_cannot_close_their_medics_treatment(clock, player, running_treatment,
                                                    player_api):
    clock.advance(60)
    assert player_api.post(f"/api/treatments/{running_treatment.pk}/complete/").status_code == 404
    running_treatment.refresh_from_db()
    assert running_treatment.status == Treatment.RUNNING
