"""Septenario through the phones: a blow on the head, the neck or the hand holding a
weapon declared from the hit form [L29], the firearm's conditions that make a shot miss
[L30], and the unarmed Golpe Mortal's reading as an event option [L44]."""
from __future__ import annotations

import pytest

from effects.models import Item
from fixtures import act, client_for, snapshot, start_treatment
from players.models import JournalEntry
from players.services import character_create, event_create

pytestmark = pytest.mark.django_db


def fortaleza_with(narrator_user, **options):
    return event_create(name="La Fortaleza", ruleset="septenario_es", language="es",
                        by=narrator_user, start_clock=True, options=options)


@pytest.fixture
def fortaleza(clock, narrator_user):
    return fortaleza_with(narrator_user)


def person(event, narrator_user, name, lang="es", **sheet):
    character = character_create(event=event, name=name,
                                 sheet={"trauma": 2, "coraje": 1, **sheet}, by=narrator_user)
    return character, client_for(character.user, lang)


def body(snap) -> dict:
    return {loc["key"]: loc["status"] for loc in snap["body"]["locations"]}


def test_the_hit_form_offers_the_neck_and_the_hand_holding_a_weapon(fortaleza, narrator_user):
    lucia, api = person(fortaleza, narrator_user, "Lucía")
    hit = next(a for a in snapshot(api, lucia)["actions"] if a["key"] == "hit")
    where = next(p for p in hit["params"] if p["key"] == "location")
    keys = [c["key"] for c in where["choices"]]
    assert {"head", "neck", "left_weapon_hand", "right_weapon_hand"} <= set(keys)


@pytest.mark.parametrize("lang, words", [("es", "la mano que empuña un arma"),
                                         ("fr", "la main qui tient une arme"),
                                         ("en", "the hand holding a weapon")])
def test_a_melee_blow_on_the_sword_hand_is_refused_and_the_arm_still_works(
        fortaleza, narrator_user, lang, words):
    lucia, api = person(fortaleza, narrator_user, "Lucía", lang)
    before = snapshot(api, lucia)
    refused = act(api, lucia, "hit", location="right_weapon_hand", weapon="standard")
    assert refused.status_code in (400, 409)
    assert words in refused.json()["detail"]
    snap = snapshot(api, lucia)
    assert snap["version"] == before["version"] and body(snap)["right_arm"] == "ok"


def test_an_arrow_in_the_sword_hand_disables_the_arm(fortaleza, narrator_user):
    lucia, api = person(fortaleza, narrator_user, "Lucía")
    snap = act(api, lucia, "hit", location="right_weapon_hand", weapon="missile").json()["snapshot"]
    assert snap["state"]["key"] == "wounded" and body(snap)["right_arm"] == "useless"
    neck = act(api, lucia, "hit", location="neck", weapon="missile", key="n").json()["snapshot"]
    assert neck["state"]["key"] == "incapacitated"            # the neck as torso


def _armed_shooter(event, narrator_user):
    tomas, tomas_api = person(event, narrator_user, "Tomás")
    pistol = Item.objects.create(event=event, name="Pistola", kind=Item.FIREARM,
                                 holder=tomas, loaded=True)
    return tomas, tomas_api, pistol


def _shoot(api, shooter, pistol, victim, **more):
    return api.post(f"/api/characters/{shooter.pk}/firearms/{pistol.code}/shoot/",
                    {"victim_code": victim.code, "distance_m": 2, "obstacle": False, **more},
                    format="json")


@pytest.mark.parametrize("condition, words", [
    ("moving", "quien dispara se movía"), ("one_handed", "con una sola mano"),
    ("fighting", "atacaba o bloqueaba"), ("total_cover", "cobertura total")])
def test_a_shot_under_a_rulebook_condition_misses_and_spends_the_bullet(
        fortaleza, narrator_user, condition, words):
    tomas, tomas_api, pistol = _armed_shooter(fortaleza, narrator_user)
    lucia, api = person(fortaleza, narrator_user, "Lucía")
    shot = _shoot(tomas_api, tomas, pistol, lucia, conditions=[condition])
    assert shot.status_code == 200, shot.content
    assert shot.json()["hit"] is False and shot.json()["loaded"] is False
    assert words in shot.json()["detail"]
    assert snapshot(api, lucia)["state"]["key"] == "unharmed"
    missed = JournalEntry.objects.get(kind="firearm", what="missed", character=tomas)
    assert missed.detail["conditions"] == [condition]


@pytest.mark.parametrize("distance_m, hit", [(2, True), (3, True), (3.5, False), (10, False)])
def test_L30_a_shot_at_about_3_m_hits(fortaleza, narrator_user, distance_m, hit):
    tomas, tomas_api, pistol = _armed_shooter(fortaleza, narrator_user)
    lucia, api = person(fortaleza, narrator_user, "Lucía")
    shot = _shoot(tomas_api, tomas, pistol, lucia, distance_m=distance_m)
    assert shot.status_code == 200, shot.content
    assert shot.json()["hit"] is hit
    assert snapshot(api, lucia)["state"]["key"] == ("incapacitated" if hit else "unharmed")
    if not hit:   # "disparar a mayor distancia es un fallo": up to 3 m counts
        assert "hasta 3 m" in shot.json()["detail"]


def test_the_phone_is_told_the_conditions_and_an_unknown_one_is_refused(
        fortaleza, narrator_user):
    tomas, tomas_api, pistol = _armed_shooter(fortaleza, narrator_user)
    lucia, _ = person(fortaleza, narrator_user, "Lucía")
    rules = tomas_api.get("/api/rulesets/septenario_es/").json()
    assert set(rules["interactions"]["firearm"]["misses_if"]) == {
        "moving", "one_handed", "fighting", "total_cover"}
    bad = _shoot(tomas_api, tomas, pistol, lucia, conditions=["blindfolded"])
    assert bad.status_code == 400
    pistol.refresh_from_db()
    assert pistol.loaded is True                                  # nothing fired
    assert _shoot(tomas_api, tomas, pistol, lucia, conditions=[]).json()["hit"] is True


def test_the_organiser_may_count_the_half_minute_from_preparo(clock, narrator_user):
    event = fortaleza_with(narrator_user, golpe_mortal_unarmed_after_words=False)
    lucia, api = person(event, narrator_user, "Lucía")
    mateo, mateo_api = person(event, narrator_user, "Mateo")
    act(api, lucia, "hit", location="torso")
    started = start_treatment(mateo_api, mateo, lucia, "golpe_mortal", armed=False).json()
    assert started["duration_s"] == 30
    clock.advance(30)
    assert mateo_api.post(f"/api/treatments/{started['id']}/complete/").status_code == 200
    assert snapshot(api, lucia)["state"]["key"] == "dead"
