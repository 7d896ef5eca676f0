"""The phone's websocket: a snapshot on connect, then a new snapshot after every change,
and only what the user may see."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from channels.testing import WebsocketCommunicator
from fixtures import (act, client_for, comparable, connect, next_snapshot, snapshot,
                      start_treatment)

from config.asgi import application
from health.services import characters_sweep
from players.services import event_create
from phone_merge import apply_push

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_player_follows_wound_first_aid_and_coma_live(clock, event, player, medic,
                                                           player_api, medic_api, narrator_api):
    phone, connected, _ = await connect(player_api, f"character={player.pk}&lang=fr")
    assert connected
    first = await next_snapshot(phone)
    assert first["state"]["label"] == "En pleine forme"
    narrators, connected, _ = await connect(narrator_api, f"event={event.pk}")
    assert connected
    live = await narrators.receive_json_from(timeout=5)
    assert live["type"] == "event_snapshot"
    assert {c["character"]["name"] for c in live["characters"]} == {"Alice", "Bruno"}

    await sync_to_async(act)(player_api, player, "hit_wounding", key="hit-1")
    wounded = await next_snapshot(phone)
    assert wounded["state"]["label"] == "Blessé"
    assert wounded["version"] == first["version"] + 1
    assert wounded["next"]["leads_to"]["label"] == "Dans le coma"
    assert wounded["next"]["remaining_s"] == 900
    seen_by_narrators = await next_snapshot(narrators)
    assert seen_by_narrators["character"]["id"] == player.pk
    assert seen_by_narrators["state"]["key"] == "wounded"

    treatment = (await sync_to_async(start_treatment)(medic_api, medic, player, "first_aid")).json()
    # The patient's phone learns who treats them, and until when.
    being_treated = await next_snapshot(phone)
    assert [(t["by"], t["action"]["label"], t["remaining_s"], t["care"])
            for t in being_treated["treatments"]] == [(medic.name, "Premiers secours", 60, True)]
    await next_snapshot(narrators)
    clock.advance(60)
    done = await sync_to_async(medic_api.post)(f"/api/treatments/{treatment['id']}/complete/")
    assert done.status_code == 200
    treated = await next_snapshot(phone)
    assert treated["treatments"] == []
    assert treated["values"]["deadline_kind"] == "first_aid_novice_1h"
    assert treated["next"]["remaining_s"] == 3600
    await next_snapshot(narrators)

    clock.advance(3600)
    assert await sync_to_async(characters_sweep)() == 1
    coma = await next_snapshot(phone)
    assert coma["state"]["label"] == "Dans le coma"
    assert coma["version"] > treated["version"]

    # What the phone holds after applying every push equals a fresh fetch.
    french_api = await sync_to_async(client_for)(player.user, "fr")
    fresh = await sync_to_async(snapshot)(french_api, player)
    fresh.pop("server_time")
    assert coma == fresh
    await phone.disconnect()
    await narrators.disconnect()


async def test_player_never_receives_another_characters_changes(clock, player, other_player,
                                                                player_api, narrator_api):
    phone, connected, _ = await connect(player_api, f"character={player.pk}")
    assert connected
    await next_snapshot(phone)
    await sync_to_async(act)(narrator_api, other_player, "hit_wounding")
    assert await phone.receive_nothing(timeout=0.5)
    await phone.disconnect()


@pytest.mark.parametrize("query", ["character={other}", "event={event}", "character=abc", "",
                                   # longer than Python converts (4,300 digits) or an id holds
                                   pytest.param("character=" + "9" * 5000, id="character-5000-digits"),
                                   pytest.param("event=" + "9" * 5000, id="event-5000-digits"),
                                   "character=99999999999999999999"])
async def test_refused_subscriptions(clock, event, player, other_player, player_api, query):
    query = query.format(other=other_player.pk, event=event.pk)
    phone, connected, _ = await connect(player_api, query)
    assert await close_code(phone, connected) == 4403


async def test_anonymous_and_foreign_origin_are_refused(clock, player, player_api):
    phone, connected, _ = await connect(None, f"character={player.pk}")
    assert await close_code(phone, connected) == 4403
    _, connected, _ = await connect(player_api, f"character={player.pk}", origin=b"http://evil.example")
    assert not connected


async def close_code(phone, connected: bool) -> int:
    """The code the phone's close event shows: the handshake is accepted, then closed, so
    that the browser sees the code and not a bare network failure (1006)."""
    assert connected, "a refused subscription must open, then close with its code"
    closed = await phone.receive_output(timeout=5)
    assert closed["type"] == "websocket.close", closed
    return closed["code"]


async def refused(headers: list, query: str) -> tuple[bool, int]:
    phone = WebsocketCommunicator(application, f"/ws/live/?{query}", headers=headers)
    connected, code = await phone.connect(timeout=5)
    return connected, code


async def refusal_code(headers: list, query: str) -> int:
    phone = WebsocketCommunicator(application, f"/ws/live/?{query}", headers=headers)
    connected, _ = await phone.connect(timeout=5)
    return await close_code(phone, connected)


async def test_a_forged_or_ended_session_is_refused(clock, player, player_api):
    origin = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    forged = origin + [(b"cookie", b"sessionid=made-up-0123456789abcdefghijklmnopqrstuv")]
    assert await refusal_code(forged, f"character={player.pk}") == 4403
    session = player_api.cookies["sessionid"].value
    await database_sync_to_async(player_api.logout)()  # the server forgets the session
    ended = origin + [(b"cookie", f"sessionid={session}".encode())]
    assert await refusal_code(ended, f"character={player.pk}") == 4403


async def test_a_session_no_longer_true_for_its_user_is_refused(clock, player, player_api):
    """The player's user comes with the character's row (live/auth.py), and is checked as
    Django checks a session: a changed password or a deactivated user ends it."""
    origin = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    cookie = [(b"cookie", f"sessionid={player_api.cookies['sessionid'].value}".encode())]
    phone, connected, _ = await connect(player_api, f"character={player.pk}")
    assert connected and (await next_snapshot(phone))["character"]["id"] == player.pk
    await phone.disconnect()

    user = player.user
    user.is_active = False
    await database_sync_to_async(user.save)()
    assert await refusal_code(origin + cookie, f"character={player.pk}") == 4403

    user.is_active = True
    user.set_password("changed-after-the-login")
    await database_sync_to_async(user.save)()
    assert await refusal_code(origin + cookie, f"character={player.pk}") == 4403


@pytest.mark.parametrize("origin", [None, b"null", b"http://testserver.evil.example",
                                    b"https://evil.example", b"http://eviltestserver",
                                    b"https://testserver", b"http://testserver:8080",
                                    b"ftp://testserver"])
async def test_a_missing_or_foreign_origin_is_refused(origin, clock, player, player_api):
    """A page on another site cannot open the player's channel with their cookie."""
    headers = [(b"host", b"testserver"),
               (b"cookie", f"sessionid={player_api.cookies['sessionid'].value}".encode())]
    if origin is not None:
        headers.append((b"origin", origin))
    connected, _ = await refused(headers, f"character={player.pk}")
    assert not connected
    phone, connected, _ = await connect(player_api, f"character={player.pk}")
    assert connected  # the same session from the app's own origin is welcome
    await phone.disconnect()


@pytest.fixture
def ws_users(event, narrator_user, player, other_player, medic):
    stranger = get_user_model().objects.create_user(username="narrator2", is_staff=True)
    event_create(name="Other GN", ruleset="gn_fr", by=stranger)
    return {"anonymous": None, "player": player.user, "other_player": other_player.user,
            "medic": medic.user, "stranger": stranger, "narrator": narrator_user}


@pytest.mark.parametrize("role,sees_character,sees_event", [
    ("anonymous", False, False), ("player", True, False), ("other_player", False, False),
    ("medic", False, False), ("stranger", False, False), ("narrator", True, True)])
async def test_who_may_subscribe_to_what(role, sees_character, sees_event, clock, event, player,
                                         ws_users):
    user = ws_users[role]
    # database_sync_to_async returns its thread's connection (to the pool on PostgreSQL).
    api = None if user is None else await database_sync_to_async(client_for)(user)
    for query, allowed in ((f"character={player.pk}", sees_character),
                           (f"event={event.pk}", sees_event)):
        phone, connected, _ = await connect(api, query)
        if allowed:
            assert connected, (role, query)
            first = await phone.receive_json_from(timeout=5)
            assert first["type"] in ("snapshot", "event_snapshot")
            await phone.disconnect()
        else:
            assert await close_code(phone, connected) == 4403, (role, query)


async def test_ping_returns_the_server_time_for_the_clock_offset(clock, player, player_api):
    phone, connected, _ = await connect(player_api, f"character={player.pk}")
    await next_snapshot(phone)
    await phone.send_json_to({"type": "ping", "client_time": 1234.5})
    pong = await phone.receive_json_from(timeout=5)
    assert pong["type"] == "pong"
    assert pong["client_time"] == 1234.5
    assert pong["server_time"] == pytest.approx(clock.now.timestamp())
    await phone.disconnect()


async def test_pause_pushes_frozen_countdowns(clock, event, player, player_api, narrator_api):
    phone, _, _ = await connect(player_api, f"character={player.pk}")
    await next_snapshot(phone)
    await sync_to_async(act)(player_api, player, "hit_wounding")
    await next_snapshot(phone)
    clock.advance(100)
    response = await sync_to_async(narrator_api.post)(f"/api/events/{event.pk}/clock/",
                                                      {"action": "pause"}, format="json")
    assert response.status_code == 200
    paused = await next_snapshot(phone)
    assert paused["clock"]["running"] is False
    assert paused["next"]["remaining_s"] == 800
    assert paused["next"]["at"] is None
    await phone.disconnect()


async def test_an_effect_for_everyone_is_one_message_each_phone_merges(
        clock, event, player, other_player, player_api, narrator_api):
    """A push to everyone travels as the effect itself, not a snapshot per phone; what a
    phone holds after merging it equals a fresh fetch, and narrators get one message."""
    alice, _, _ = await connect(player_api, f"character={player.pk}&lang=fr")
    held = await next_snapshot(alice)
    other_api = await sync_to_async(client_for)(other_player.user)
    # In the same language: the text made once for both, each with its own character.
    bruno, _, _ = await connect(other_api, f"character={other_player.pk}&lang=fr")
    await next_snapshot(bruno)
    narrators, _, _ = await connect(narrator_api, f"event={event.pk}")
    await narrators.receive_json_from(timeout=5)

    answer = await sync_to_async(narrator_api.post)(
        f"/api/events/{event.pk}/effects/",
        {"text": "Effet : la nuit tombe", "duration_s": 600, "everyone": True}, format="json")
    assert answer.status_code == 201

    message = await alice.receive_json_from(timeout=5)
    assert message["type"] == "effect" and message["character"] == player.pk
    assert message["effect"]["text"] == "Effet : la nuit tombe"
    assert "characters" not in message           # a player is not told who else got it
    bruno_message = await bruno.receive_json_from(timeout=5)
    assert bruno_message["character"] == other_player.pk
    to_narrators = await narrators.receive_json_from(timeout=5)
    assert (to_narrators["type"], to_narrators["characters"]) == ("effect", "all")

    merged = apply_push(held, message)
    fresh = await sync_to_async(snapshot)(await sync_to_async(client_for)(player.user, "fr"), player)
    assert comparable(merged) == comparable(fresh)
    assert merged["version"] == held["version"] + 1
    # The same effect again (a snapshot fetched after the push already holds it) changes nothing.
    assert apply_push(merged, message) == merged
    for phone in (alice, bruno, narrators):
        assert await phone.receive_nothing(timeout=0.2)
        await phone.disconnect()


async def test_an_effect_for_one_character_reaches_only_that_phone(
        clock, event, player, other_player, player_api, narrator_api):
    alice, _, _ = await connect(player_api, f"character={player.pk}")
    await next_snapshot(alice)
    other_api = await sync_to_async(client_for)(other_player.user)
    bruno, _, _ = await connect(other_api, f"character={other_player.pk}")
    await next_snapshot(bruno)
    narrators, _, _ = await connect(narrator_api, f"event={event.pk}")
    await narrators.receive_json_from(timeout=5)

    await sync_to_async(narrator_api.post)(
        f"/api/events/{event.pk}/effects/",
        {"text": "Effet : un secret", "character_ids": [other_player.pk]}, format="json")

    message = await bruno.receive_json_from(timeout=5)
    assert (message["type"], message["effect"]["text"]) == ("effect", "Effet : un secret")
    to_narrators = await narrators.receive_json_from(timeout=5)
    assert to_narrators["characters"] == [other_player.pk]
    assert await alice.receive_nothing(timeout=0.3)
    for phone in (alice, bruno, narrators):
        await phone.disconnect()


async def test_narrators_of_a_big_event_get_its_view_in_parts_small_enough_to_send(
        event, player, player_api, narrator_api):
    """daphne closes a websocket whose message would exceed 1 MiB: 700 characters in one
    view did, and the narrators of a big event had no live view at all."""
    import json

    from players.services import character_create
    await sync_to_async(lambda: [character_create(event=event, name=f"Joueur {i:03d}", sheet={"combat_base": 2})
                                 for i in range(249)])()
    await sync_to_async(act)(player_api, player, "hit_wounding", key="hit-1")
    narrators, connected, _ = await connect(narrator_api, f"event={event.pk}")
    assert connected
    first = await narrators.receive_json_from(timeout=10)
    assert (first["type"], len(first["characters"]), first.get("parts")) == ("event_snapshot", 100, 3)
    parts = [first] + [await narrators.receive_json_from(timeout=10) for _ in range(2)]
    assert [(m["type"], m["part"], m["parts"]) for m in parts] == [("event_snapshot", n, 3) for n in range(3)]
    assert [len(m["characters"]) for m in parts] == [100, 100, 50]
    assert all(len(json.dumps(m)) < 1024 * 1024 / 4 for m in parts)
    names = [c["character"]["name"] for m in parts for c in m["characters"]]
    assert len(set(names)) == 250 and names[0] == "Alice"    # soonest deadline first, across the parts

    # The live channel goes on after the parts.
    await sync_to_async(act)(player_api, player, "hit_wounding", key="hit-2")
    assert (await next_snapshot(narrators))["character"]["id"] == player.pk
    await narrators.disconnect()
