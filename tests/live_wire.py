"""The live wire format, checked where messages leave the server (while tests run only):
every message a phone's websocket is sent (the consumer's `send`), and every message
published for phones (the channel layer's `group_send` to a live socket's group, the
process broadcast of live/broadcast.py, with what it delivers to some characters' phones), as the consumer would send it, must match its
kind's schema in live/messages_schema.py, strictly: a field gained or lost, or a kind with
no schema, fails the test that sent it. Published messages are turned into what the phone
gets by the consumer's own handlers, run on a stand-in socket."""
from __future__ import annotations

import functools
import json
import os

from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer

from live import broadcast
from live.consumers import LiveConsumer
from live.messages_schema import message_errors

# The groups a /ws/live/ socket joins (live/publish.py); others (the race results page's)
# belong to other consumers.
LIVE_GROUPS = ("character-", "event-", "user-")
# Messages to the sockets themselves, of which the phone is sent nothing.
TOLD_NOTHING = {"access.check"}


class WrongLiveMessage(AssertionError):
    pass


def check(message: dict) -> None:
    # LIVE_WIRE_RECORD=path: every message is written to that file, one JSON line each,
    # instead of checked: what a new kind's schema is drafted from.
    record = os.environ.get("LIVE_WIRE_RECORD")
    if record:
        with open(record, "a") as out:
            out.write(json.dumps(message, default=str) + "\n")
        return
    errors = message_errors(message)
    if errors:
        raise WrongLiveMessage(f"live message {message.get('type')!r} does not match its "
                               f"schema (live/messages_schema.py): " + "; ".join(errors[:5]))


def _as_sent(handler_name: str, message: dict, character_id: int | None = None) -> None:
    """Run the consumer's handler of a published message on a stand-in socket whose sends
    are checked: what each phone of the group would be sent."""
    phone = LiveConsumer.__new__(LiveConsumer)
    phone.admitted, phone.lang, phone.character_id = True, "en", character_id

    async def send(text_data=None, bytes_data=None, close=False):
        check(json.loads(text_data))
    phone.send = send
    handler = getattr(phone, handler_name, None)
    if handler is None:
        raise WrongLiveMessage(f"no handler of the live consumer for {message.get('type')!r}")
    steps = handler(message)
    try:
        steps.send(None)        # the stand-in's sends never wait: one step runs it all
    except StopIteration:
        return
    steps.close()
    raise WrongLiveMessage(f"{handler_name} waited on something")


def _checking_group_send(group_send):
    @functools.wraps(group_send)
    async def checked(self, group, message):
        if group.startswith(LIVE_GROUPS) and message["type"] not in TOLD_NOTHING:
            character = int(group.split("-")[1]) if group.startswith("character-") else None
            _as_sent(message["type"].replace(".", "_"), message, character)
        return await group_send(self, group, message)
    return checked


def _checking_publish(publish):
    @functools.wraps(publish)
    def checked(event_id, message, characters=None):
        if "snapshots" in message:
            for character, snapshot in message["snapshots"].items():
                _as_sent("snapshot_message", {"snapshot": snapshot}, int(character))
        elif "deliver" in message:
            delivered = message["deliver"]
            if delivered["type"] not in TOLD_NOTHING:
                for character in characters or [None]:
                    _as_sent(delivered["type"].replace(".", "_"), delivered, character)
        else:
            # Everyone of the event (None): any phone stands for them.
            for character in characters or [0]:
                _as_sent("broadcast_message", message, character)
        return publish(event_id, message, characters)
    return checked


def _checking_send(send):
    @functools.wraps(send)
    async def checked(self, text_data=None, bytes_data=None, close=False):
        if text_data is not None:
            check(json.loads(text_data))
        return await send(self, text_data=text_data, bytes_data=bytes_data, close=close)
    return checked


def _checking_send_json(send_json):
    @functools.wraps(send_json)
    async def checked(self, content, close=False):
        check(content)
        return await send_json(self, content, close=close)
    return checked


def install() -> None:
    """Check every live message from now on (once per test run). The consumer writes its
    text itself (`send`); Channels' `send_json` goes around it, so both are checked."""
    if getattr(LiveConsumer.send, "live_wire", False):
        return
    LiveConsumer.send = _checking_send(LiveConsumer.send)
    LiveConsumer.send_json = _checking_send_json(LiveConsumer.send_json)
    for layer in (RedisChannelLayer, InMemoryChannelLayer):
        layer.group_send = _checking_group_send(layer.group_send)
    broadcast.publish = _checking_publish(broadcast.publish)
    LiveConsumer.send.live_wire = True
