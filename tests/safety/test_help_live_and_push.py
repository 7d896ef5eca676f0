"""A call for help live: the organisers' open screens get it at once, the caller's phone
sees it received and then who is coming, another player's phone gets nothing. On a
locked phone it is a Web Push that says who and what kind of help, nothing of the game."""
from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async

from fixtures import act, client_for, connect, next_snapshot
from pushkit import Browser, PushService, push_settings
from safety.alerts import help_push


async def safety_message(phone) -> dict:
    """The next safety message, past any snapshot the call's journal or others sent."""
    while True:
        message = await phone.receive_json_from(timeout=5)
        if message["type"] == "safety":
            return message


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_organisers_see_the_call_live_and_the_caller_sees_who_is_coming(
        clock, event, player, other_player, player_api, narrator_api):
    narrators, connected, _ = await connect(narrator_api, f"event={event.pk}")
    assert connected
    assert (await narrators.receive_json_from(timeout=5))["type"] == "event_snapshot"
    caller, connected, _ = await connect(player_api, f"character={player.pk}")
    assert connected
    await next_snapshot(caller)
    other_api = await sync_to_async(client_for)(other_player.user)
    other, connected, _ = await connect(other_api, f"character={other_player.pk}")
    assert connected
    await next_snapshot(other)

    answer = await sync_to_async(player_api.post)(
        f"/api/events/{event.pk}/help/", {"kind": "lost", "note": "by the big oak",
                                          "position": {"latitude": 45.1, "longitude": 4.2}},
        format="json")
    assert answer.status_code == 201
    told = (await safety_message(narrators))["call"]
    assert (told["kind"], told["note"], told["character"]["name"]) == ("lost", "by the big oak", "Alice")
    assert told["position"]["latitude"] == 45.1
    received = (await safety_message(caller))["own_call"]
    assert (received["status"], received["taken_by"]) == ("open", None)
    assert "position" not in received and "note" not in received

    await sync_to_async(narrator_api.post)(f"/api/help/{told['id']}/take/")
    assert (await safety_message(narrators))["call"]["taken_by"] == "narrator"
    coming = (await safety_message(caller))["own_call"]
    assert (coming["status"], coming["taken_by"]) == ("taken", "narrator")

    # Another player's phone heard nothing of it, and the game goes on for everyone.
    assert await other.receive_nothing(timeout=0.5)
    await sync_to_async(act)(narrator_api, other_player, "hit_wounding")
    assert (await next_snapshot(other))["clock"]["running"] is True
    for phone in (narrators, caller, other):
        await phone.disconnect()


@pytest.fixture
def push_service(settings, tmp_path, monkeypatch):
    push_settings(settings, tmp_path, monkeypatch)
    service = PushService()
    yield service
    service.close()


def test_the_push_of_a_call_names_who_and_what_and_nothing_of_the_game(
        clock, event, player, player_api, narrator_user, narrator_api, push_service):
    organiser_phone, caller_phone = Browser(), Browser()
    organiser_phone.subscribe(narrator_user, push_service.url("/organiser"))
    caller_phone.subscribe(player.user, push_service.url("/caller"))
    assert act(narrator_api, player, "hit_wounding").status_code == 200   # a game state to keep secret
    push_service.received.clear()               # the player's own state notification
    call_id = player_api.post(f"/api/events/{event.pk}/help/",
                              {"kind": "injured", "note": "bleeding knee",
                               "position": {"latitude": 45.1, "longitude": 4.2}},
                              format="json").json()["id"]

    assert help_push(call_id=call_id) == 1
    request, = push_service.received
    assert request.path == "/organiser"         # the organisers only, not the caller
    shown = organiser_phone.read(request)
    assert set(shown) == {"title", "body", "tag", "url", "kind", "urgent"}
    assert shown["kind"] == "help_call"
    assert shown["title"] == "Aide demandée (réel)"             # the event's language
    assert shown["body"] == "Alice : blessé(e). Ouvrez le tableau de sécurité."
    assert shown["url"] == f"/#/safety/{event.pk}" and shown["urgent"] is True
    everything = json.dumps(shown, ensure_ascii=False).lower()
    for secret in ("bless\u00e9", "wounded", "coma", "bleeding", "45.1", "timer", "game"):
        if secret == "bless\u00e9":
            # the kind of help may say "blessé(e)" (real); never the game's "Blessé" state label
            assert "blessé(e)" in everything and everything.count("bless") == 1
            continue
        assert secret not in everything
