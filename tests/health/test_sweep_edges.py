"""The sweeper and the safety board at their edges: a sweep takes a burst a batch of the
size it is given per transaction (each batch reaches the phones before the next is
claimed), a deadline it applies reads the character's own sheet, and the board of one
game lists only its own characters out for real."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fixtures import act, client_for, personaje, septenario_event, snapshot
from health.models import HealthState
from health.services import character_act, characters_sweep
from players.models import JournalEntry
from players.services import character_create, characters_create, event_create

pytestmark = pytest.mark.django_db


def hold(api, character, reason):
    response = api.post(f"/api/characters/{character.pk}/out-for-real/",
                        {"out": True, "reason": reason}, format="json")
    assert response.status_code == 200, response.content


def test_a_sweep_takes_a_burst_a_batch_of_the_given_size_at_a_time(clock, event, narrator_user):
    team = characters_create(event=event, by=narrator_user, rows=[
        {"name": f"Runner {i}", "sheet": {"combat_base": 2}, "kits": {}, "team": None}
        for i in range(5)])
    for character in team:
        character_act(character=character, action="hit_wounding", params={}, by=None,
                      as_narrator=True)
    clock.advance(15 * 60)

    with CaptureQueriesContext(connection) as sweep:
        assert characters_sweep(batch=2) == 5
    # Two, two, then the last one: three batches, each with its own journal insert.
    inserts = [q for q in sweep if 'INSERT INTO "players_journalentry"' in q["sql"]]
    assert len(inserts) == 3
    assert set(HealthState.objects.filter(pk__in=[c.pk for c in team])
               .values_list("status", flat=True)) == {"coma"}
    assert JournalEntry.objects.filter(kind="timer", character__in=team).count() == 5


def test_the_safety_board_lists_only_its_own_games_characters_out_for_real(
        clock, event, player, narrator_user, narrator_api):
    other = event_create(name="Other GN", ruleset="gn_fr", by=narrator_user, start_clock=True)
    zoe = character_create(event=other, name="Zoé", sheet={"combat_base": 2}, by=narrator_user)
    hold(narrator_api, player, "sprained ankle")
    hold(narrator_api, zoe, "wasp sting")

    rows = narrator_api.get(f"/api/events/{event.pk}/safety/").json()["rows"]
    assert [(r["character"]["name"], r["out_for_real"]) for r in rows] == [
        ("Alice", {"reason": "sprained ankle"})]
    rows = narrator_api.get(f"/api/events/{other.pk}/safety/").json()["rows"]
    assert [(r["character"]["name"], r["out_for_real"]) for r in rows] == [
        ("Zoé", {"reason": "wasp sting"})]


@pytest.mark.parametrize("coraje, status, left", [(2, "grave", 1), (0, "dead", 0)])
def test_S5_the_sweep_spends_the_characters_own_coraje_when_the_agony_ends(
        clock, narrator_user, coraje, status, left):
    """The organisers chose the automatic Coraje: a deadline applied by the sweeper reads
    the character's own sheet, as one applied by a declaration does."""
    event = septenario_event(narrator_user, coraje_auto_spend=True)
    lucia = personaje(event, narrator_user, coraje=coraje)
    api = client_for(lucia.user, "es")
    assert act(api, lucia, "hit", location="torso").json()["snapshot"]["state"]["key"] == \
        "incapacitated"
    clock.advance(5 * 60)                                # the five minutes of agony are over
    assert characters_sweep() == 1
    snap = snapshot(api, lucia)
    assert snap["state"]["key"] == status
    assert {p["key"]: p["value"] for p in snap["points"]}["coraje"] == left
