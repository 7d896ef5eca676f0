"""A phone retries a write after a lost answer, or replays its offline outbox: the same
Idempotency-Key applies the write once and answers as the first time."""
from __future__ import annotations

import pytest

from fixtures import act, client_for, snapshot, start_treatment
from health.models import Treatment
from players.models import JournalEntry
from common.models import IdempotencyRecord

pytestmark = pytest.mark.django_db


def action_lines(event, character=None) -> list[JournalEntry]:
    rows = JournalEntry.objects.filter(event=event, kind="action")
    if character is not None:
        rows = rows.filter(character=character)
    return list(rows)


def journal_length(event) -> int:
    return JournalEntry.objects.filter(event=event).count()


def test_same_key_twice_applies_a_stunning_hit_once(clock, event, player, player_api):
    first = act(player_api, player, "hit_stunning", key="stun-1")
    assert first.status_code == 200, first.content
    assert "Idempotent-Replayed" not in first
    assert first.json()["snapshot"]["values"]["combat_loss"] == 1

    clock.advance(5)  # the retry comes a little later
    again = act(player_api, player, "hit_stunning", key="stun-1")

    assert again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    state = snapshot(player_api, player)
    assert state["values"]["combat_loss"] == 1  # not 2
    assert state["state"]["key"] == "healthy"
    assert state["version"] == first.json()["snapshot"]["version"]
    lines = action_lines(event, player)
    assert [(line.what, line.actor_label) for line in lines] == [("hit_stunning", "Alice")]


def test_two_different_keys_apply_twice(clock, event, player, player_api):
    assert act(player_api, player, "hit_stunning", key="a").status_code == 200
    second = act(player_api, player, "hit_stunning", key="b")
    assert "Idempotent-Replayed" not in second
    assert snapshot(player_api, player)["state"]["key"] == "tired"  # combat_base 2, two hits
    assert len(action_lines(event, player)) == 2


def test_a_write_without_key_is_applied_each_time(clock, event, player, player_api):
    act(player_api, player, "hit_stunning")
    act(player_api, player, "hit_stunning")
    assert len(action_lines(event, player)) == 2


def test_same_key_with_a_different_body_is_refused(clock, event, player, player_api):
    first = act(player_api, player, "hit_stunning", key="k-1")
    assert first.status_code == 200
    version = snapshot(player_api, player)["version"]
    journal = journal_length(event)

    conflict = act(player_api, player, "hit_wounding", key="k-1")

    assert conflict.status_code == 422, conflict.content
    assert conflict.json()["error"] == "idempotency_conflict"
    assert "already used for a different request" in conflict.json()["detail"]
    state = snapshot(player_api, player)
    assert state["state"]["key"] == "healthy"
    assert state["version"] == version
    assert journal_length(event) == journal


def test_same_key_on_another_endpoint_is_a_conflict(clock, event, player, medic, player_api,
                                                    medic_api):
    act(player_api, player, "hit_wounding")
    assert act(medic_api, medic, "hit_stunning", key="shared").status_code == 200
    response = start_treatment(medic_api, medic, player, "first_aid", key="shared")
    assert response.status_code == 422
    assert response.json()["error"] == "idempotency_conflict"
    assert Treatment.objects.count() == 0


def test_conflict_is_answered_in_the_callers_language(clock, player):
    api = client_for(player.user, "fr")
    act(api, player, "hit_stunning", key="k")
    conflict = act(api, player, "hit_firearm", key="k")
    assert conflict.status_code == 422
    assert conflict.json()["detail"] == "Cette clé d'idempotence a déjà servi pour une autre requête."


def test_a_refused_request_replayed_gets_the_same_refusal(clock, event, player, player_api):
    version = snapshot(player_api, player)["version"]
    journal = journal_length(event)

    refused = act(player_api, player, "set_state", key="bad-1", state="dead")
    assert refused.status_code == 403, refused.content
    assert refused.json()["error"] == "not_declarable"

    again = act(player_api, player, "set_state", key="bad-1", state="dead")

    assert again.status_code == 403
    assert again.json() == refused.json()
    assert again["Idempotent-Replayed"] == "true"
    assert snapshot(player_api, player)["version"] == version
    assert snapshot(player_api, player)["state"]["key"] == "healthy"
    assert journal_length(event) == journal


def test_a_refused_treatment_replayed_stays_refused_and_changes_nothing(clock, event, player,
                                                                       medic, medic_api,
                                                                       player_api):
    version = snapshot(player_api, player)["version"]
    refused = start_treatment(medic_api, medic, player, "first_aid", key="fa-1")
    assert refused.status_code == 409  # the patient is Healthy
    again = start_treatment(medic_api, medic, player, "first_aid", key="fa-1")
    assert (again.status_code, again.json()) == (409, refused.json())
    assert again["Idempotent-Replayed"] == "true"
    assert Treatment.objects.count() == 0
    assert snapshot(player_api, player)["version"] == version
    medic.refresh_from_db()
    assert medic.kits == {"kps": 2, "koc": 1}


def test_treatment_start_retried_starts_one_treatment(clock, event, player, medic, player_api,
                                                      medic_api):
    act(player_api, player, "hit_wounding")
    first = start_treatment(medic_api, medic, player, "first_aid", key="start-1")
    assert first.status_code == 201, first.content
    again = start_treatment(medic_api, medic, player, "first_aid", key="start-1")
    assert again.status_code == 201
    assert again.json()["id"] == first.json()["id"]
    assert again["Idempotent-Replayed"] == "true"
    assert Treatment.objects.count() == 1
    assert JournalEntry.objects.filter(event=event, what="first_aid:started").count() == 1


def test_treatment_complete_retried_uses_one_kit(clock, event, player, medic, player_api,
                                                 medic_api):
    act(player_api, player, "hit_wounding")
    treatment = start_treatment(medic_api, medic, player, "first_aid").json()
    clock.advance(60)

    done = medic_api.post(f"/api/treatments/{treatment['id']}/complete/",
                          HTTP_IDEMPOTENCY_KEY="done-1")
    assert done.status_code == 200, done.content
    assert done.json()["status"] == "completed"
    version = snapshot(player_api, player)["version"]

    clock.advance(2)
    again = medic_api.post(f"/api/treatments/{treatment['id']}/complete/",
                           HTTP_IDEMPOTENCY_KEY="done-1")

    assert again.status_code == 200  # not "already completed": the first answer again
    assert again.json() == done.json()
    assert again["Idempotent-Replayed"] == "true"
    medic.refresh_from_db()
    assert medic.kits == {"kps": 1, "koc": 1}
    assert snapshot(player_api, player)["version"] == version
    assert JournalEntry.objects.filter(event=event, what="first_aid:completed").count() == 1


def test_treatment_complete_retried_without_key_is_refused_and_uses_no_second_kit(
        clock, player, medic, player_api, medic_api):
    act(player_api, player, "hit_wounding")
    treatment = start_treatment(medic_api, medic, player, "first_aid").json()
    clock.advance(60)
    assert medic_api.post(f"/api/treatments/{treatment['id']}/complete/").status_code == 200
    again = medic_api.post(f"/api/treatments/{treatment['id']}/complete/")
    assert again.status_code == 409
    assert again.json()["detail"] == "This treatment is already completed."
    medic.refresh_from_db()
    assert medic.kits["kps"] == 1


def test_different_users_may_use_the_same_key(clock, event, player, other_player, player_api):
    other_api = client_for(other_player.user)

    mine = act(player_api, player, "hit_stunning", key="same-key")
    theirs = act(other_api, other_player, "hit_stunning", key="same-key")

    assert mine.status_code == theirs.status_code == 200
    assert "Idempotent-Replayed" not in theirs
    assert snapshot(player_api, player)["values"]["combat_loss"] == 1
    assert snapshot(other_api, other_player)["values"]["combat_loss"] == 1
    assert len(action_lines(event, player)) == 1
    assert len(action_lines(event, other_player)) == 1
    assert IdempotencyRecord.objects.filter(key="same-key").count() == 2


def test_effect_push_retried_pushes_once(clock, event, player, narrator_api, player_api):
    body = {"text": "Effet : sommeil", "duration_s": 300, "character_ids": [player.pk]}
    first = narrator_api.post(f"/api/events/{event.pk}/effects/", body, format="json",
                              HTTP_IDEMPOTENCY_KEY="push-1")
    assert first.status_code == 201, first.content
    again = narrator_api.post(f"/api/events/{event.pk}/effects/", body, format="json",
                              HTTP_IDEMPOTENCY_KEY="push-1")
    assert again.status_code == 201
    assert again.json()["push_id"] == first.json()["push_id"]
    assert len(snapshot(player_api, player)["effects"]) == 1
    assert JournalEntry.objects.filter(event=event, kind="effect").count() == 1


def test_clock_pause_retried_pauses_once(clock, event, narrator_api):
    url = f"/api/events/{event.pk}/clock/"
    first = narrator_api.post(url, {"action": "pause"}, format="json", HTTP_IDEMPOTENCY_KEY="p")
    assert first.status_code == 200, first.content
    again = narrator_api.post(url, {"action": "pause"}, format="json", HTTP_IDEMPOTENCY_KEY="p")
    assert again.status_code == 200  # not "already paused"
    assert again["Idempotent-Replayed"] == "true"
    assert JournalEntry.objects.filter(event=event, kind="clock").count() == 1


def test_a_key_longer_than_100_characters_is_refused(clock, event, player, player_api):
    response = act(player_api, player, "hit_stunning", key="x" * 101)
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["detail"]
    assert snapshot(player_api, player)["values"]["combat_loss"] == 0
    assert action_lines(event, player) == []
