"""Septenario de Normas through the API, as the players' phones use it: a hit declared
with where it landed and with what, the body map and points on the snapshot, Coraje
spent to survive, First Aid and the Golpe Mortal given by scanning another character,
and a pistol that misfires."""
from __future__ import annotations

import pytest

from effects.models import Item
from fixtures import act, client_for, snapshot, start_treatment
from players.models import JournalEntry
from players.services import character_create, event_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def fortaleza(clock, narrator_user):
    return event_create(name="La Fortaleza", ruleset="septenario_es", language="es",
                        by=narrator_user, start_clock=True)


@pytest.fixture
def person(fortaleza, narrator_user):
    def make(name, **sheet):
        character = character_create(event=fortaleza, name=name,
                                     sheet={"trauma": 2, "coraje": 1, **sheet}, by=narrator_user)
        return character, client_for(character.user, "es")
    return make


def body(snap) -> dict:
    return {loc["key"]: loc["status"] for loc in snap["body"]["locations"]}


def points(snap) -> dict:
    return {p["key"]: p["value"] for p in snap["points"]}


def test_a_hit_on_an_armoured_arm_is_absorbed_then_the_next_makes_it_useless(person, clock):
    lucia, api = person("Lucía", armour="light")
    first = act(api, lucia, "hit", key="h1", location="left_arm", weapon="standard")
    assert first.status_code == 200, first.content
    snap = first.json()["snapshot"]
    assert snap["state"]["key"] == "unharmed" and body(snap)["left_arm"] == "ok"
    assert snap["body"]["armour"]["left_now"] == 0
    clock.advance(10)
    snap = act(api, lucia, "hit", key="h2", location="left_arm").json()["snapshot"]
    assert snap["state"] == {**snap["state"], "key": "wounded", "label": "Herido"}
    assert body(snap)["left_arm"] == "useless"
    assert snap["body"]["armour"]["next_conflict"] == 0     # worn for future Conflicts (S7)
    again = act(api, lucia, "hit", key="h2", location="left_arm")   # the same tap, resent
    assert again.status_code == 200
    assert snapshot(api, lucia)["body"]["damage_points"] == 1


def test_a_melee_blow_to_the_head_is_refused_in_spanish_and_changes_nothing(person):
    lucia, api = person("Lucía")
    before = snapshot(api, lucia)
    refused = act(api, lucia, "hit", location="head", weapon="standard")
    assert refused.status_code in (400, 409)
    assert "cabeza" in refused.json()["detail"]
    bad = act(api, lucia, "hit", location="tail")
    assert bad.status_code == 400 and "left_arm" in bad.json()["detail"]
    assert snapshot(api, lucia)["version"] == before["version"]


def test_the_dying_player_spends_coraje_to_become_grave(person, clock):
    lucia, api = person("Lucía", coraje=1)
    snap = act(api, lucia, "hit", location="torso").json()["snapshot"]
    assert snap["state"]["key"] == "incapacitated"
    assert snap["next"]["leads_to"]["key"] == "dead" and snap["next"]["remaining_s"] == 300
    assert "choose_death" in [a["key"] for a in snap["actions"]]   # torso wound (S17b)
    spend = next(a for a in snap["actions"] if a["key"] == "spend_coraje")
    assert spend["costs"] == {"coraje": 1}
    clock.advance(60)
    snap = act(api, lucia, "spend_coraje").json()["snapshot"]
    assert snap["state"]["key"] == "grave" and snap["next"] is None
    assert points(snap) == {"coraje": 0, "trauma": 1}


def test_without_coraje_the_spend_is_refused_by_name(person):
    lucia, api = person("Lucía", coraje=0)
    act(api, lucia, "hit", location="torso")
    refused = act(api, lucia, "spend_coraje")
    assert refused.status_code == 409 and "Coraje" in refused.json()["detail"]
    assert snapshot(api, lucia)["state"]["key"] == "incapacitated"


def test_first_aid_takes_half_a_minute_and_an_incapacitated_first_aider_cannot(person, clock):
    lucia, api = person("Lucía")
    ines, ines_api = person("Inés", abilities=["primeros_auxilios"])
    act(api, lucia, "hit", location="torso")
    scan = ines_api.get(f"/api/characters/{ines.pk}/patients/{lucia.code}/").json()
    offered = {t["key"]: t["duration_s"] for t in scan["treatments"]}
    assert offered == {"first_aid": 30, "golpe_mortal": 2}
    started = start_treatment(ines_api, ines, lucia, "first_aid", key="fa")
    assert started.status_code == 201, started.content
    clock.advance(30)
    done = ines_api.post(f"/api/treatments/{started.json()['id']}/complete/")
    assert done.status_code == 200, done.content
    assert snapshot(api, lucia)["state"]["key"] == "grave"
    act(ines_api, ines, "hit", location="torso")     # now Inés falls
    refused = start_treatment(ines_api, ines, lucia, "first_aid")
    assert refused.status_code == 409 and "Incapacitado" in refused.json()["detail"]


def test_a_golpe_mortal_without_a_weapon_takes_the_words_then_thirty_seconds(person, clock):
    lucia, api = person("Lucía")
    mateo, mateo_api = person("Mateo")
    not_yet = start_treatment(mateo_api, mateo, lucia, "golpe_mortal", armed=False)
    assert not_yet.status_code == 409                 # Lucía is unharmed
    act(api, lucia, "hit", location="torso")
    started = start_treatment(mateo_api, mateo, lucia, "golpe_mortal", armed=False).json()
    assert started["duration_s"] == 32                # [L44] the half minute after the words
    clock.advance(31)
    early = mateo_api.post(f"/api/treatments/{started['id']}/complete/")
    assert early.status_code == 409
    clock.advance(1)
    assert mateo_api.post(f"/api/treatments/{started['id']}/complete/").status_code == 200
    snap = snapshot(api, lucia)
    assert snap["state"]["key"] == "dead" and snap["timers"][0]["key"] == "corpse"


def test_a_misfire_keeps_the_bullet_and_a_shot_hits_the_torso_for_two(person, fortaleza):
    tomas, tomas_api = person("Tomás")
    lucia, api = person("Lucía", trauma=3)
    pistol = Item.objects.create(event=fortaleza, name="Pistola", kind=Item.FIREARM)
    url = f"/api/characters/{tomas.pk}/firearms/{pistol.code}"
    assert tomas_api.post(f"{url}/take/").status_code == 200
    assert tomas_api.post(f"{url}/load/").json()["loaded"] is True
    shot = {"victim_code": lucia.code, "distance_m": 2, "obstacle": False}
    misfire = tomas_api.post(f"{url}/shoot/", {**shot, "misfire": True}, format="json").json()
    assert misfire["hit"] is False and misfire["loaded"] is True
    assert tomas_api.post(f"{url}/shoot/", shot, format="json").json()["hit"] is True
    snap = snapshot(api, lucia)
    assert snap["state"]["key"] == "incapacitated"             # torso: Incapacitado
    assert snap["body"]["damage_points"] == 2 and points(snap)["trauma"] == 2
    misfired = JournalEntry.objects.filter(kind="firearm", what="misfired")
    assert {e.character_id for e in misfired} == {tomas.pk, lucia.pk}   # in both journals


def test_a_marksman_hits_beyond_three_metres(person, fortaleza):
    tomas, tomas_api = person("Tomás", abilities=["tirador"])
    lucia, api = person("Lucía")
    pistol = Item.objects.create(event=fortaleza, name="Pistola", kind=Item.FIREARM,
                                 holder=tomas, loaded=True)
    shot = tomas_api.post(f"/api/characters/{tomas.pk}/firearms/{pistol.code}/shoot/",
                          {"victim_code": lucia.code, "distance_m": 8, "obstacle": False},
                          format="json").json()
    assert shot["hit"] is True
    assert snapshot(api, lucia)["state"]["key"] == "incapacitated"


def test_a_first_aid_on_a_patient_killed_by_a_golpe_mortal_ends_as_the_patient_died(person, clock):
    lucia, api = person("Lucía")
    ines, ines_api = person("Inés", abilities=["primeros_auxilios"])
    mateo, mateo_api = person("Mateo")
    act(api, lucia, "hit", location="torso")
    first_aid = start_treatment(ines_api, ines, lucia, "first_aid").json()
    blow = start_treatment(mateo_api, mateo, lucia, "golpe_mortal").json()
    clock.advance(2)
    assert mateo_api.post(f"/api/treatments/{blow['id']}/complete/").status_code == 200
    seen = ines_api.get(f"/api/treatments/{first_aid['id']}/").json()
    assert seen["status"] == "patient_died"
    clock.advance(28)
    late = ines_api.post(f"/api/treatments/{first_aid['id']}/complete/")
    assert late.status_code == 409 and "el paciente ha muerto" in late.json()["detail"]
    assert JournalEntry.objects.filter(kind="treatment", what="first_aid:patient_died",
                                       character=lucia).count() == 1


def test_a_first_aid_still_running_when_the_agony_ends_ends_as_the_patient_died(person, clock):
    from health.services import characters_sweep
    lucia, api = person("Lucía")
    ines, ines_api = person("Inés", abilities=["primeros_auxilios"])
    act(api, lucia, "hit", location="torso")
    clock.advance(290)
    first_aid = start_treatment(ines_api, ines, lucia, "first_aid").json()
    clock.advance(10)                  # the five minutes of agony are over (TS1)
    assert characters_sweep() == 1
    assert snapshot(api, lucia)["state"]["key"] == "dead"
    assert ines_api.get(f"/api/treatments/{first_aid['id']}/").json()["status"] == "patient_died"


def test_a_narrator_killing_the_patient_closes_the_treatment_and_a_completed_one_stays(
        person, clock, narrator_api):
    lucia, api = person("Lucía")
    ines, ines_api = person("Inés", abilities=["primeros_auxilios"])
    act(api, lucia, "hit", location="torso")
    done = start_treatment(ines_api, ines, lucia, "first_aid").json()
    clock.advance(30)
    assert ines_api.post(f"/api/treatments/{done['id']}/complete/").status_code == 200
    act(api, lucia, "hit", location="torso")           # Grave, then Incapacitado again
    running = start_treatment(ines_api, ines, lucia, "first_aid").json()
    killed = act(narrator_api, lucia, "set_state", state="dead")
    assert killed.status_code == 200, killed.content
    assert ines_api.get(f"/api/treatments/{running['id']}/").json()["status"] == "patient_died"
    assert ines_api.get(f"/api/treatments/{done['id']}/").json()["status"] == "completed"


def test_romper_refuses_a_dagger_and_a_late_shout_and_flags_the_broken_weapon(person):
    lucia, api = person("Lucía")
    by_dagger = act(api, lucia, "weapon_broken", breaker="dagger")
    assert by_dagger.status_code == 409
    assert "de asta" in by_dagger.json()["detail"] and "Una daga" in by_dagger.json()["detail"]
    late = act(api, lucia, "weapon_broken", breaker="standard", shouted_s_before=0)
    assert late.status_code == 409 and "1 s" in late.json()["detail"]
    assert snapshot(api, lucia)["values"]["weapon_broken"] is False
    assert act(api, lucia, "weapon_broken", breaker="heavy", shouted_s_before=1).status_code == 200
    assert snapshot(api, lucia)["values"]["weapon_broken"] is True
