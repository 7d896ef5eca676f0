"""The live wire format (live/messages_schema.py) holds: while tests run, a message sent
to a phone or published for phones that gains a field, or loses one, fails the test that
sent it, and so does a kind of message with no schema, or a snapshot section that the
snapshot's answer (live/snapshot_answers.py) does not declare."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from channels.layers import get_channel_layer

from fixtures import snapshot
from live import snapshots
from live.consumers import LiveConsumer
from live.messages_schema import MESSAGES, message_errors
from live.publish import character_phones_send, narrators_group
from live_wire import WrongLiveMessage

ROOT = Path(__file__).resolve().parents[2]

EMERGENCY = {"journal": 1, "at": "2026-06-06T20:00:00+00:00", "who": "Marion",
             "character": None, "reason": "a real injury", "paused": True, "running": False}


def sent_snapshot(fresh: dict) -> dict:
    return {"type": "snapshot", "snapshot": fresh, "server_time": 1780776000.0}


@pytest.mark.django_db
def test_a_snapshot_with_a_field_gained_or_lost_is_refused(clock, player, player_api):
    fresh = snapshot(player_api, player)
    fresh.pop("server_time")        # the API's answer carries it; a live snapshot, beside it
    assert message_errors(sent_snapshot(fresh)) == []

    gained = {**fresh, "mood": "cheerful"}
    assert message_errors(sent_snapshot(gained)) == [
        "snapshot: Additional properties are not allowed ('mood' was unexpected)"]
    lost = {**fresh, "state": {k: v for k, v in fresh["state"].items() if k != "inert"}}
    assert message_errors(sent_snapshot(lost)) == ["snapshot/state: 'inert' is a required property"]
    effect = {"type": "effect", "character": player.pk, "server_time": 1780776000.0,
              "effect": {"id": None, "push": "p-1", "text": "Fog", "started_game_s": 0.0,
                         "duration_s": None, "ends_game_s": None, "remaining_s": None,
                         "ends_at": None}}
    assert message_errors(effect) == []
    assert message_errors({**effect, "effect": {**effect["effect"], "colour": "grey"}}) == [
        "effect: Additional properties are not allowed ('colour' was unexpected)"]


@pytest.mark.asyncio
async def test_a_published_message_that_does_not_match_is_refused_before_it_leaves():
    layer = get_channel_layer()
    await layer.group_send(narrators_group(1), {"type": "emergency.message", "emergency": EMERGENCY})
    with pytest.raises(WrongLiveMessage, match="'paused' is a required property"):
        await layer.group_send(narrators_group(1), {"type": "emergency.message", "emergency": {
            k: v for k, v in EMERGENCY.items() if k != "paused"}})
    with pytest.raises(WrongLiveMessage, match="'seen_by' was unexpected"):
        character_phones_send([1], {"type": "safety.message", "safety": {
            "board": True, "seen_by": "Marion"}})


@pytest.mark.asyncio
async def test_what_the_consumer_sends_is_checked_too():
    phone = LiveConsumer.__new__(LiveConsumer)
    sent = []

    async def base_send(message):
        sent.append(message)
    phone.base_send = base_send
    await phone.send_json({"type": "pong", "client_time": 12.5, "server_time": 13.0})
    with pytest.raises(WrongLiveMessage, match="'lag_ms' was unexpected"):
        await phone.send_json({"type": "pong", "client_time": 12.5, "server_time": 13.0,
                               "lag_ms": 3})
    assert len(sent) == 1


@pytest.mark.asyncio
async def test_what_the_consumer_encodes_itself_is_checked_too():
    phone = LiveConsumer.__new__(LiveConsumer)
    phone.admitted, phone.lang, phone.character_id = True, "en", 7
    sent = []

    async def base_send(message):
        sent.append(message)
    phone.base_send = base_send
    await phone._send({"type": "pong", "client_time": 12.5})
    with pytest.raises(WrongLiveMessage, match="'lag_ms' was unexpected"):
        await phone._send({"type": "pong", "client_time": 12.5, "lag_ms": 3})
    with pytest.raises(WrongLiveMessage, match="effect"):
        await phone.broadcast_message({"effect": {"text": "no id, no push"}})
    assert len(sent) == 1


@pytest.mark.asyncio
async def test_a_kind_without_a_schema_fails_loudly():
    phone = LiveConsumer.__new__(LiveConsumer)
    with pytest.raises(WrongLiveMessage, match="no schema for the live message kind 'gossip'"):
        await phone.send_json({"type": "gossip", "server_time": 13.0})
    with pytest.raises(WrongLiveMessage, match="no handler of the live consumer"):
        await get_channel_layer().group_send(narrators_group(1), {"type": "gossip.message"})


def test_every_kind_the_server_sends_has_a_schema():
    """Each `"type": "..."` the live socket's code writes is a kind with a schema."""
    written = set()
    for module in ("live/consumers.py", "live/consumer_reads.py", "live/admission.py"):
        written |= set(re.findall(r'"type": "(\w+)"', (ROOT / module).read_text()))
    assert {"snapshot", "event_snapshot", "safety_snapshot", "effect", "day", "emergency",
            "request", "phone", "safety", "race", "check", "pong", "busy"} <= written
    assert written - {"ping"} <= set(MESSAGES)   # a ping is what the phone sends


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_messages_sent_while_tests_run_are_checked(clock, player, player_api):
    """The check is installed for every test (tests/conftest.py): a snapshot section that
    adds a field the snapshot's answer (live/snapshot_answers.py) does not declare fails
    the first test that connects a phone."""
    from fixtures import connect

    def mood_section(character, now):
        return {"mood": "cheerful"}
    snapshots.snapshot_section(mood_section)
    try:
        phone, connected, _ = await connect(player_api, f"character={player.pk}")
        assert connected
        with pytest.raises(WrongLiveMessage, match="snapshot: Additional properties are not "
                                                   "allowed \\('mood' was unexpected\\)"):
            await phone.receive_json_from(timeout=5)
    finally:
        snapshots._sections.remove(mood_section)
