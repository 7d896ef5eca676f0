"""What the live consumer (live/consumers.py) reads from a phone's messages, and how it
cuts the narrators' first message into parts small enough to send."""
from __future__ import annotations

import math

from common.numbers import whole_number

# A ping is about 50 characters; with the versions of 3,000 characters (a narrators'
# view), about 40,000.
MAX_MESSAGE_CHARS = 65_536
MAX_HELD = 5_000
# The narrators' view on connect goes in parts of this many characters: daphne refuses to
# send a websocket message over 1 MiB (`websocket_max_message_size`) and closes the
# connection, and a snapshot weighs 1.5 to 5 KB, so 700 characters in one message would
# leave the narrators of a big event without a live view at all.
EVENT_SNAPSHOT_PART = 100


def event_snapshot_parts(view: dict) -> list[dict]:
    """The narrators' first message as `parts` messages numbered by `part` (from 0): the
    screen starts afresh at part 0 and adds the characters of the others."""
    characters = view["characters"]
    chunks = [characters[i:i + EVENT_SNAPSHOT_PART]
              for i in range(0, len(characters), EVENT_SNAPSHOT_PART)] or [[]]
    return [{**view, "characters": chunk, "part": number, "parts": len(chunks)}
            for number, chunk in enumerate(chunks)]


def _number(value) -> float | None:
    """Echo only a finite number: the pong stays small and valid JSON."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return value
    return None


def _held(value) -> dict[int, int]:
    """The heartbeat's {character id: version}, keeping only well-formed entries."""
    if not isinstance(value, dict):
        return {}
    held = {}
    for key, version in list(value.items())[:MAX_HELD]:
        if (isinstance(key, str) and key.isascii() and key.isdigit() and len(key) < 12
                and isinstance(version, int) and not isinstance(version, bool)):
            held[int(key)] = version
    return held


def _int(params: dict, name: str) -> int | None:
    return whole_number(params.get(name, [""])[0])
