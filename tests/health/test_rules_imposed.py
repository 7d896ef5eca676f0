"""What the rules impose on a character (a beating that ends, a search) and a treatment
ended by the patient's death, as the narrators read them in the journal: which rule, with
what, because of what, and what came first at one instant."""
from __future__ import annotations

import pytest
from django.db import transaction
from django.utils import timezone

from fixtures import act, snapshot, start_treatment
from health.services import character_apply_rules, character_lock
from rulesets import ENDING

pytestmark = pytest.mark.django_db


def journal(narrator_api, event, character) -> list[dict]:
    response = narrator_api.get(f"/api/events/{event.pk}/journal/?character={character.pk}")
    assert response.status_code == 200, response.content
    return response.json()["entries"]


def impose(character, action, **kwargs) -> list[dict]:
    """As the combat app does once an interaction ends (combat/services/)."""
    with transaction.atomic():
        health = character_lock(character.pk)
        return character_apply_rules(health=health, event=health.event, action=action, by=None,
                                     now=timezone.now(), **kwargs)


def test_a_beating_that_ends_at_the_deadline_comes_before_it(
        clock, event, player, player_api, narrator_api):
    act(narrator_api, player, "hit_wounding")
    clock.advance(15 * 60)                 # five minutes of blows end at the deadline itself
    impose(player, "acharnement_wounding", detail={"beating": 41}, seen_by=ENDING)

    assert snapshot(player_api, player)["state"]["key"] == "coma"
    lines = journal(narrator_api, event, player)
    beaten = next(line for line in lines if line["what"] == "acharnement_wounding")
    # The beating put her in a coma, not the deadline: she was still wounded when it ended.
    assert (beaten["before"]["status"], beaten["after"]["status"]) == ("wounded", "coma")
    assert not [line for line in lines if line["kind"] == "timer" and "deadline" in line["what"]]
    assert beaten["kind"] == "action"
    assert beaten["detail"]["beating"] == 41 and beaten["detail"]["params"] == {}


def test_a_search_the_rules_impose_is_journalled_with_what_was_searched(
        clock, event, player, player_api, narrator_api):
    impose(player, "searched", params={"location": "the barn", "strip": True})
    assert snapshot(player_api, player)["values"]["naked"] is True
    searched, = [line for line in journal(narrator_api, event, player)
                 if line["what"] == "searched"]
    assert searched["detail"]["params"] == {"location": "the barn", "strip": True}


def test_a_treatment_cut_short_by_death_is_journalled_with_the_treatment_it_ended(
        clock, event, player, medic, medic_api, narrator_api):
    act(narrator_api, player, "hit_wounding")
    started = start_treatment(medic_api, medic, player, "first_aid").json()
    clock.advance(10)
    assert act(narrator_api, player, "set_state", state="dead").status_code == 200

    assert medic_api.get(f"/api/treatments/{started['id']}/").json()["status"] == "patient_died"
    died, = [line for line in journal(narrator_api, event, player)
             if line["what"] == "first_aid:patient_died"]
    assert died["kind"] == "treatment" and died["detail"] == {"treatment": started["id"]}
