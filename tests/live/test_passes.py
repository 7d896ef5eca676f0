"""A player's phone that has proven its session once reconnects on a pass (live/passes.py):
no database, the same snapshot a fresh read gives, and never once its access is gone."""
from __future__ import annotations

import asyncio

import pytest
import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from fixtures import act, comparable, connect, next_snapshot, snapshot

from live import passes
from players.access_services import character_login_cut
from test_queries import EveryQuery

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def first_message(api, character) -> tuple[dict | int, int]:
    """(the snapshot, or the close code, of a fresh connect; the queries it made before)."""
    with EveryQuery() as queries:
        phone, connected, _ = await connect(api, f"character={character.pk}")
        assert connected
        message = await phone.receive_output(timeout=5)
        counted = queries.count
    await phone.disconnect()
    if message["type"] == "websocket.close":
        return message["code"], counted
    import json
    return json.loads(message["text"])["snapshot"], counted


async def proven(api, character) -> None:
    """The first connect proves the session; the second rides on the pass."""
    await first_message(api, character)
    first, queries = await first_message(api, character)
    assert isinstance(first, dict) and queries == 0, (first, queries)


async def test_a_reconnect_on_a_pass_shows_what_a_fresh_read_shows(clock, player, player_api,
                                                                     narrator_api):
    await proven(player_api, player)
    await sync_to_async(act)(narrator_api, player, "hit_wounding")   # published: kept ready
    clock.advance(42)
    first, queries = await first_message(player_api, player)
    fresh = await sync_to_async(snapshot)(player_api, player)
    assert queries == 0 and first["state"]["key"] == "wounded"
    assert comparable(first) == comparable(fresh)
    assert [t["remaining_s"] for t in first["timers"]] == [t["remaining_s"] for t in fresh["timers"]]


async def test_an_effect_merged_by_the_phones_is_read_again_on_the_next_connect(
        clock, event, player, player_api, narrator_api):
    """An effect travels as a small message, not a new snapshot: what was kept ready no
    longer holds, and the next connect reads the database (and the effect with it)."""
    await proven(player_api, player)
    pushed = await sync_to_async(narrator_api.post)(
        f"/api/events/{event.pk}/effects/", {"text": "Brouillard", "duration_s": 600, "everyone": True},
        format="json", HTTP_IDEMPOTENCY_KEY="fog")
    assert pushed.status_code == 201
    first, queries = await first_message(player_api, player)
    assert queries > 0 and [e["text"] for e in first["effects"]] == ["Brouillard"]
    assert comparable(first) == comparable(await sync_to_async(snapshot)(player_api, player))


async def test_after_a_message_to_everyone_the_next_reads_ride_on_the_pass_again(
        clock, event, player, player_api, narrator_api):
    """The push voids the snapshots kept before it (one key for the event), not the pass:
    the connect that reads the database keeps a snapshot that holds from then on."""
    await proven(player_api, player)
    pushed = await sync_to_async(narrator_api.post)(
        f"/api/events/{event.pk}/effects/", {"text": "Brouillard", "everyone": True},
        format="json", HTTP_IDEMPOTENCY_KEY="fog")
    assert pushed.status_code == 201
    await first_message(player_api, player)                 # the long way, kept again
    first, queries = await first_message(player_api, player)
    fresh = await sync_to_async(snapshot)(player_api, player)
    assert queries == 0 and [e["text"] for e in first["effects"]] == ["Brouillard"]
    assert comparable(first) == comparable(fresh)


async def test_a_redis_that_forgot_its_scripts_still_serves_the_pass(clock, player, player_api):
    """A restarted Redis has no script cached: the reconnect's read sends it again."""
    await proven(player_api, player)
    redis.Redis.from_url(settings.REDIS_URL).script_flush()
    first, queries = await first_message(player_api, player)
    assert queries == 0 and first["character"]["id"] == player.pk


async def test_a_snapshot_past_the_instant_it_changes_by_itself_is_read_again(
        clock, player, player_api, narrator_api):
    await sync_to_async(act)(narrator_api, player, "hit_wounding")
    await proven(player_api, player)
    deadline = (await first_message(player_api, player))[0]["next"]["remaining_s"]
    clock.advance(deadline + 1)          # past it, before any sweep has published
    first, queries = await first_message(player_api, player)
    assert queries > 0 and first["state"]["key"] != "wounded"


async def test_a_pass_opens_only_its_own_character(clock, player, other_player, player_api):
    await proven(player_api, player)
    assert (await first_message(player_api, other_player))[0] == 4403


async def test_logging_out_voids_the_pass(clock, player, player_api):
    await proven(player_api, player)
    cookie = player_api.cookies["sessionid"].value
    await sync_to_async(player_api.logout)()
    player_api.cookies["sessionid"] = cookie        # the old cookie, replayed
    assert (await first_message(player_api, player))[0] == 4403


async def test_a_lost_phone_cut_off_voids_the_pass(clock, player, player_api, narrator_user):
    await proven(player_api, player)
    await sync_to_async(character_login_cut)(character=player, by=narrator_user)
    assert (await first_message(player_api, player))[0] == 4403


async def test_a_character_given_to_someone_else_voids_the_pass(clock, player, other_player,
                                                                  player_api):
    """From the admin (a plain save of the row), not through a service."""
    await proven(player_api, player)
    player.user = other_player.user
    await sync_to_async(player.save)()
    assert (await first_message(player_api, player))[0] == 4403


async def test_a_pass_never_outlives_its_session(clock, player, player_api):
    def shorten():
        session = player_api.session
        session.set_expiry(120)
        session.save()
        return session
    session = await sync_to_async(shorten)()
    await first_message(player_api, player)
    key = passes._pass_key(session.session_key)
    ttl = redis.Redis.from_url(settings.REDIS_URL).ttl(key)
    assert 0 < ttl <= 120


async def test_a_phone_connected_on_its_pass_is_still_seen(clock, player, player_api, settings):
    """Its contact (the safety team's last seen) is noted with the others of that second."""
    from django.utils import timezone

    from safety.models import Contact
    settings.LIVE_CONTACTS_EVERY_S = 0
    await proven(player_api, player)
    clock.advance(120)                  # a minute later: a new contact to write
    assert isinstance((await first_message(player_api, player))[0], dict)

    def last_seen():
        return Contact.objects.get(character=player).last_seen_at
    for _ in range(100):
        if await sync_to_async(last_seen)() == timezone.now():
            break
        await asyncio.sleep(0.02)
    assert await sync_to_async(last_seen)() == timezone.now()
