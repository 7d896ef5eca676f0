"""Lives (R03-R06, R10) and infractions (R13, Z-A9): a zombie records a flag pulled by
scanning the bib and confirming the rules; marshals record exits from the zone and
forbidden paths; organisers void a wrong loss (the life comes back). Lives never go
below 0 and never come back otherwise."""
from __future__ import annotations

import pytest

from fixtures import client_for
from players.models import JournalEntry
from race.models import Infraction, LifeLoss
from racekit import (ALL_CONFIRMED, RUGLES, entry_of, entry_url, gear, grab, make_course,
                     make_race, post, register, start, survivor_api, view)

pytestmark = pytest.mark.django_db


@pytest.fixture
def lucie(enrol, organiser_api):
    entry = enrol("Lucie", 101)
    start(organiser_api, entry)
    return entry


def lives(api, entry) -> int:
    return view(api, entry)["lives"]["remaining"]


def test_the_zombie_scans_the_bib_and_reads_what_to_confirm(race, lucie, zombie_user):
    api = client_for(zombie_user, "fr")
    response = api.get(f"/api/race/events/{race.pk}/bibs/{lucie.character.code.lower()}/")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["entry"] == {"id": lucie.pk, "name": "Lucie", "code": lucie.character.code}
    assert (body["racing"], body["lives"]) == (True, 2)
    assert [c["key"] for c in body["confirmations"]] == ALL_CONFIRMED
    assert "à plus de 5 m de toute balise" in [c["label"] for c in body["confirmations"]]
    assert "phone" not in response.content.decode()
    unknown = api.get(f"/api/race/events/{race.pk}/bibs/ZZZZZZ/")
    assert unknown.status_code == 404


def test_r03_a_grab_with_every_confirmation_takes_a_life(clock, race, lucie, zombie_api,
                                                        organiser_api):
    clock.advance(15 * 60)
    response = grab(zombie_api, race, lucie, key="grab-1")
    assert response.status_code == 201, response.content
    assert response.json()["lives"] == 1
    assert "score" not in response.json()                # zombies read no score
    assert grab(zombie_api, race, lucie, key="grab-1")["Idempotent-Replayed"] == "true"
    assert lives(survivor_api(lucie), lucie) == 1
    loss = LifeLoss.objects.get(entry=lucie)
    assert (loss.cause, loss.took_life) == ("zombie_grab", True)
    assert JournalEntry.objects.filter(character=lucie.character, what="life:zombie_grab").count() == 1
    # -15 per life lost (§7): 0 found of 4 at 20 pts → -40, and the life → -55.
    assert view(organiser_api, lucie)["score"] == -55


def test_a_grab_without_every_confirmation_is_refused_naming_what_is_missing(race, lucie,
                                                                           zombie_user):
    api = client_for(zombie_user, "fr")
    response = grab(api, race, lucie, confirmations=["not_fast_running", "no_contact",
                                                     "not_on_open_road"])
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert "à plus de 5 m de toute balise" in detail
    assert "le survivant n'était ni paniqué ni trop effrayé" in detail
    assert "sans course rapide" not in detail
    assert LifeLoss.objects.count() == 0


def test_options_that_allow_a_thing_drop_its_confirmation(clock, narrator_user, organiser_api):
    race = make_race(narrator_user, {"zombie_contact_allowed": True,
                                     "zombie_checkpoint_exclusion_m": 10})
    course = make_course(race, narrator_user)
    paul = entry_of(register(organiser_api, race, course, "Paul", 7))
    gear(organiser_api, paul, vest=True, light=True, phone=True)
    start(organiser_api, paul)
    confirmations = organiser_api.get(
        f"/api/race/events/{race.pk}/bibs/{paul.character.code}/").json()["confirmations"]
    assert "no_contact" not in [c["key"] for c in confirmations]
    assert "more than 10 m from any balise" in [c["label"] for c in confirmations]
    without_contact = [c for c in ALL_CONFIRMED if c != "no_contact"]
    assert grab(organiser_api, race, paul, confirmations=without_contact).status_code == 201


def test_lives_never_go_below_zero_and_a_survivor_without_life_still_races(clock, race, lucie,
                                                                          zombie_api,
                                                                          organiser_api):
    assert grab(zombie_api, race, lucie).status_code == 201
    assert grab(zombie_api, race, lucie).status_code == 201
    third = grab(zombie_api, race, lucie)
    assert third.status_code == 409 and third.json()["error"] == "race_no_life_left"
    assert LifeLoss.objects.filter(entry=lucie).count() == 2
    seen = view(organiser_api, lucie)
    assert seen["lives"]["remaining"] == 0 and seen["status"]["key"] == "racing"   # [L11]


def test_a_grab_outside_the_race_is_refused(race, enrol, zombie_api, organiser_api):
    waiting = enrol("Paul", 102)
    response = grab(zombie_api, race, waiting)
    assert response.status_code == 409 and response.json()["error"] == "race_not_racing"
    assert LifeLoss.objects.count() == 0


def test_a_grab_said_to_be_near_a_balise_is_flagged_for_the_organisers(race, lucie, zombie_api,
                                                                       organiser_api):
    near = grab(zombie_api, race, lucie, lat=RUGLES[0] + 0.00002, lon=RUGLES[1])   # ~2 m from 31
    assert near.status_code == 201
    assert near.json()["grab"]["review"]["checkpoint"] == "31"
    assert near.json()["grab"]["review"]["distance_m"] == pytest.approx(2.2, abs=0.1)
    far = grab(zombie_api, race, lucie, lat=RUGLES[0] + 0.0005, lon=RUGLES[1])     # ~55 m
    assert far.json()["grab"]["review"] is None
    shown = view(organiser_api, lucie)["life_losses"]
    assert [bool(loss["review"]) for loss in shown] == [True, False]


def test_r04_a_marshal_takes_a_life_for_leaving_the_zone(race, lucie, narrator_user):
    api = client_for(narrator_user, "fr")
    response = post(api, entry_url(lucie, "zone-losses"), cause="out_of_zone",
                    note="vue rue de la Gare en fuyant")
    assert response.status_code == 201, response.content
    assert response.json()["life_loss"]["took_life"] is True
    assert response.json()["lives"]["remaining"] == 1
    assert response.json()["life_losses"][0]["cause"]["label"] == "sortie de la zone de course"


def test_r05_an_exit_with_no_life_left_is_logged_and_costs_the_option(clock, narrator_user,
                                                                      organiser_api):
    race = make_race(narrator_user, {"out_of_zone_penalty_without_life": 15})
    course = make_course(race, narrator_user)
    paul = entry_of(register(organiser_api, race, course, "Paul", 7))
    gear(organiser_api, paul, vest=True, light=True, phone=True)
    start(organiser_api, paul)
    for _ in range(3):
        post(organiser_api, entry_url(paul, "zone-losses"), cause="out_of_zone")
    third = LifeLoss.objects.filter(entry=paul).order_by("pk").last()
    assert (third.took_life, third.no_life_left) == (False, True)
    seen = view(organiser_api, paul)
    assert seen["lives"]["remaining"] == 0
    # 0 found: -10 × 4 = -40; two lives: -15 × 2 = -30; the exit without life: -15.
    assert seen["score"] == -85
    assert seen["breakdown"]["exits_without_life"] == -15


def test_r06_a_forbidden_path_costs_a_life_unless_the_option_says_not(clock, narrator_user,
                                                                     organiser_api):
    for costs, remaining in ((True, 1), (False, 2)):
        race = make_race(narrator_user, {"forbidden_path_costs_life": costs}, name=f"R {costs}")
        course = make_course(race, narrator_user)
        paul = entry_of(register(organiser_api, race, course, "Paul", 7))
        gear(organiser_api, paul, vest=True, light=True, phone=True)
        start(organiser_api, paul)
        response = post(organiser_api, entry_url(paul, "zone-losses"), cause="forbidden_path",
                        note="clôture du stade")
        assert response.status_code == 201
        assert response.json()["lives"]["remaining"] == remaining


def test_referees_may_act_as_marshals_but_survivors_and_zombies_may_not(race, lucie, enrol,
                                                                        zombie_api):
    from django.contrib.auth import get_user_model
    from players.models import Membership
    marshal = get_user_model().objects.create_user(username="signaleur")
    Membership.objects.create(event=race, user=marshal, role=Membership.REFEREE)
    response = post(client_for(marshal), entry_url(lucie, "zone-losses"), cause="out_of_zone")
    assert response.status_code == 201
    assert set(response.json()) >= {"entry", "life_loss"} and "lives" not in response.json()
    other = enrol("Paul", 102)
    for api in (zombie_api, survivor_api(lucie), survivor_api(other)):
        assert post(api, entry_url(lucie, "zone-losses"), cause="out_of_zone").status_code == 404
    assert LifeLoss.objects.count() == 1


def test_r10_an_organiser_voids_a_loss_and_the_life_comes_back(clock, race, lucie, zombie_api,
                                                              organiser_api):
    grab(zombie_api, race, lucie)
    loss = LifeLoss.objects.get(entry=lucie)
    refused = post(organiser_api, f"/api/race/life-losses/{loss.pk}/void/")
    assert refused.status_code == 400 and "reason" in refused.json()["fields"]

    response = post(organiser_api, f"/api/race/life-losses/{loss.pk}/void/",
                    reason="arrachée à 2 m de la balise 31")

    assert response.status_code == 200, response.content
    assert response.json()["lives"]["remaining"] == 2
    assert response.json()["life_losses"][0]["voided"] is True
    assert response.json()["breakdown"]["lives"] == 0
    line = JournalEntry.objects.get(character=lucie.character, what="life:voided")
    assert line.detail["reason"] == "arrachée à 2 m de la balise 31"
    again = post(organiser_api, f"/api/race/life-losses/{loss.pk}/void/", reason="encore")
    assert again.status_code == 409 and again.json()["error"] == "race_loss_already_voided"
    assert lives(organiser_api, lucie) == 2                    # never above the initial two
    zombie_void = post(zombie_api, f"/api/race/life-losses/{loss.pk}/void/", reason="moi")
    assert zombie_void.status_code == 404


def test_infractions_are_logged_and_only_organisers_give_points(race, lucie, zombie_api,
                                                               organiser_api):
    reported = post(zombie_api, entry_url(lucie, "infractions"), kind="lives_hidden",
                    note="drapeau glissé dans la poche")
    assert reported.status_code == 201, reported.content
    assert "score" not in reported.json()
    with_points = post(zombie_api, entry_url(lucie, "infractions"), kind="transport",
                       penalty_points=20)
    assert with_points.status_code == 400
    penalised = post(organiser_api, entry_url(lucie, "infractions"), kind="transport",
                     note="trottinette", penalty_points=20)
    assert penalised.status_code == 201
    assert [i.kind for i in Infraction.objects.filter(entry=lucie)] == ["lives_hidden", "transport"]
    # 0 found: -40; the scooter: -20.
    assert view(organiser_api, lucie)["score"] == -60
    assert post(survivor_api(lucie), entry_url(lucie, "infractions"),
                kind="other").status_code == 404


def test_r03_r04_overtime_still_costs_lives_but_no_exit_is_recorded_outside_the_race(
        clock, race, enrol, zombie_api, organiser_api):
    waiting = enrol("Paul", 102)
    refused = post(organiser_api, entry_url(waiting, "zone-losses"), cause="out_of_zone")
    assert refused.status_code == 409 and refused.json()["error"] == "race_not_racing"
    lucie = enrol("Lucie", 101)
    start(organiser_api, lucie)
    clock.advance(91 * 60)                                 # famille: 1 h 30, now overtime
    assert view(organiser_api, lucie)["status"]["key"] == "overtime"
    assert grab(zombie_api, race, lucie).json()["lives"] == 1
    exit_ = post(organiser_api, entry_url(lucie, "zone-losses"), cause="forbidden_path")
    assert exit_.status_code == 201 and exit_.json()["lives"]["remaining"] == 0
    assert post(organiser_api, entry_url(lucie, "finish")).status_code == 200
    after = post(organiser_api, entry_url(lucie, "zone-losses"), cause="out_of_zone")
    assert after.status_code == 409 and after.json()["error"] == "race_not_racing"
    assert LifeLoss.objects.filter(entry=lucie).count() == 2
    assert LifeLoss.objects.filter(entry=waiting).count() == 0


def test_an_exit_from_the_zone_costs_no_life_when_the_option_says_not(clock, narrator_user,
                                                                     organiser_api):
    race = make_race(narrator_user, {"out_of_zone_costs_life": False})
    course = make_course(race, narrator_user)
    paul = entry_of(register(organiser_api, race, course, "Paul", 7))
    gear(organiser_api, paul, vest=True, light=True, phone=True)
    start(organiser_api, paul)
    response = post(organiser_api, entry_url(paul, "zone-losses"), cause="out_of_zone")
    assert response.status_code == 201
    assert response.json()["life_loss"] == {"id": response.json()["life_loss"]["id"],
                                            "took_life": False, "no_life_left": False}
    assert response.json()["lives"]["remaining"] == 2
    assert response.json()["breakdown"]["lives"] == 0
    assert response.json()["breakdown"]["exits_without_life"] == 0


def test_L10_an_exit_with_no_life_left_is_left_on_the_desk_for_review(clock, narrator_user,
                                                                     organiser_api):
    """R05 (Z4: "the infraction is logged for organiser review"): a marshal's out-of-zone
    call on a survivor who has no life left takes nothing, and is still an infraction on
    the entry's desk, marked for the organisers to decide."""
    race = make_race(narrator_user)
    course = make_course(race, narrator_user)
    paul = entry_of(register(organiser_api, race, course, "Paul", 7))
    gear(organiser_api, paul, vest=True, light=True, phone=True)
    start(organiser_api, paul)
    for _ in range(2):
        post(organiser_api, entry_url(paul, "zone-losses"), cause="out_of_zone")
    assert Infraction.objects.filter(entry=paul).count() == 0     # the lives paid for those
    third = post(organiser_api, entry_url(paul, "zone-losses"), cause="out_of_zone",
                 note="vu derrière le lavoir")
    assert third.status_code == 201, third.content
    assert third.json()["life_loss"]["took_life"] is False
    seen = third.json()
    assert [(i["kind"], i["note"]) for i in seen["infractions"]] == [
        ("out_of_zone", "vu derrière le lavoir")]
    assert [bool(loss["review"]) for loss in seen["life_losses"]] == [False, False, True]
    assert "no life left" in seen["life_losses"][2]["review"]["text"]
    assert seen["breakdown"]["exits_without_life"] == 0           # no points unless decided


def test_L30_a_forbidden_path_that_takes_no_life_is_left_on_the_desk_for_review(
        clock, narrator_user, organiser_api):
    """"Les passages dans les zones interdites ... sont strictement interdits": with
    `forbidden_path_costs_life: false` the call takes no life, and is still an infraction
    on the desk, for review; the marshal's API cannot type those kinds by hand."""
    race = make_race(narrator_user, {"forbidden_path_costs_life": False})
    course = make_course(race, narrator_user)
    paul = entry_of(register(organiser_api, race, course, "Paul", 7))
    gear(organiser_api, paul, vest=True, light=True, phone=True)
    start(organiser_api, paul)
    response = post(organiser_api, entry_url(paul, "zone-losses"), cause="forbidden_path",
                    note="clôture du stade")
    assert response.status_code == 201, response.content
    seen = response.json()
    assert seen["lives"]["remaining"] == 2
    assert [(i["kind"], i["penalty_points"]) for i in seen["infractions"]] == [
        ("forbidden_path", 0)]
    assert "costs no life" in seen["life_losses"][0]["review"]["text"]
    typed = post(organiser_api, entry_url(paul, "infractions"), kind="forbidden_path")
    assert typed.status_code == 400
