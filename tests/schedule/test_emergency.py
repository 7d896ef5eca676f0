"""Emergencia: anyone in the game, a player too, stops it for a real-world reason. The
clock pauses for everyone (every countdown freezes), the journal says who and why, the
narrators are alerted live, and only narrators resume."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model

from fixtures import act, client_for, snapshot
from players.models import JournalEntry
from players.services import event_create
from fixtures import connect

pytestmark = pytest.mark.django_db


def emergency(api, event, reason=None, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    body = {} if reason is None else {"reason": reason}
    return api.post(f"/api/events/{event.pk}/emergency/", body, format="json", **headers)


def test_a_player_stops_the_game_for_everyone(clock, event, player, other_player, player_api,
                                              narrator_api):
    act(narrator_api, other_player, "hit_wounding")
    clock.advance(30)
    before = snapshot(narrator_api, other_player)["next"]["remaining_s"]

    response = emergency(player_api, event, reason="Denis s'est tordu la cheville pour de vrai")

    assert response.status_code == 200, response.content
    assert response.json()["paused_now"] is True
    assert response.json()["clock"]["running"] is False
    clock.advance(600)                        # ten real minutes of first aid
    frozen = snapshot(narrator_api, other_player)
    assert frozen["clock"]["running"] is False
    assert frozen["next"]["remaining_s"] == before
    assert snapshot(player_api, player)["clock"]["running"] is False
    line = JournalEntry.objects.get(event=event, kind="emergency")
    assert (line.actor_label, line.what) == ("Alice", "declared")
    assert line.detail == {"reason": "Denis s'est tordu la cheville pour de vrai", "paused": True}
    paused = JournalEntry.objects.get(event=event, kind="clock")
    assert (paused.what, paused.actor_label) == ("paused", "Alice")


def test_an_emergency_while_paused_pauses_nothing_more(clock, event, player, medic, player_api,
                                                       medic_api):
    assert emergency(player_api, event).status_code == 200
    event.refresh_from_db()
    elapsed = event.clock_elapsed_s
    clock.advance(60)

    second = emergency(medic_api, event, reason="Un autre blessé")

    assert second.status_code == 200, second.content
    assert second.json()["paused_now"] is False
    event.refresh_from_db()
    assert not event.running and event.clock_elapsed_s == elapsed
    assert JournalEntry.objects.filter(event=event, kind="clock").count() == 1
    assert list(JournalEntry.objects.filter(event=event, kind="emergency")
                .values_list("actor_label", "detail__paused")) == [("Alice", True),
                                                                   ("Bruno", False)]


def test_a_retry_with_the_same_key_is_one_emergency(clock, event, player, player_api):
    first = emergency(player_api, event, reason="feu", key="emergencia-1")
    again = emergency(player_api, event, reason="feu", key="emergencia-1")
    assert first.json()["paused_now"] is True
    assert again.json()["paused_now"] is True
    assert again["Idempotent-Replayed"] == "true"
    assert JournalEntry.objects.filter(event=event, kind="emergency").count() == 1


def test_only_narrators_resume(clock, event, player, player_api, narrator_api):
    emergency(player_api, event)

    refused = player_api.post(f"/api/events/{event.pk}/clock/", {"action": "resume"},
                              format="json")
    assert refused.status_code == 404
    event.refresh_from_db()
    assert not event.running

    resumed = narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "resume"},
                                format="json")
    assert resumed.status_code == 200
    assert snapshot(player_api, player)["clock"]["running"] is True


def test_a_narrator_may_declare_it_too(clock, event, narrator_api):
    response = emergency(narrator_api, event, reason="orage")
    assert response.status_code == 200
    assert response.json()["paused_now"] is True


def test_outsiders_cannot_stop_someone_elses_game(clock, event, player):
    stranger = get_user_model().objects.create_user(username="narrator2", is_staff=True)
    event_create(name="Other GN", ruleset="gn_fr", by=stranger, start_clock=True)
    journal = JournalEntry.objects.count()

    assert emergency(client_for(stranger), event).status_code == 404
    assert emergency(client_for(get_user_model().objects.create_user(username="nobody")),
                     event).status_code == 404
    assert client_for(player.user).post("/api/events/999999/emergency/", {},
                                        format="json").status_code == 404
    event.refresh_from_db()
    assert event.running
    assert JournalEntry.objects.count() == journal


def test_a_too_long_reason_is_refused_and_changes_nothing(clock, event, player, player_api):
    response = emergency(player_api, event, reason="x" * 201)
    assert response.status_code == 400
    assert "reason" in response.json()["fields"]
    event.refresh_from_db()
    assert event.running
    assert not JournalEntry.objects.filter(kind="emergency").exists()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_narrators_are_alerted_live(clock, event, player, player_api, narrator_api):
    narrators, connected, _ = await connect(narrator_api, f"event={event.pk}")
    assert connected
    assert (await narrators.receive_json_from(timeout=5))["type"] == "event_snapshot"

    response = await sync_to_async(emergency)(player_api, event, reason="malaise")
    assert response.status_code == 200

    seen = []
    while not any(m["type"] == "emergency" for m in seen):
        seen.append(await narrators.receive_json_from(timeout=5))
    alert = seen[-1]["emergency"]
    assert alert["who"] == "Alice"
    assert alert["character"] == {"id": player.pk, "name": "Alice"}
    assert alert["reason"] == "malaise"
    assert alert["paused"] is True and alert["running"] is False
    # The pause reached the narrators' view of every character too.
    assert any(m["type"] == "snapshot" and m["snapshot"]["clock"]["running"] is False
               for m in seen)
    await narrators.disconnect()
