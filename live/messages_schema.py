"""The live wire format: what /ws/live/ sends a phone, one JSON Schema per message kind
(`MESSAGES`).

The source of truth for the websocket's messages (docs/api.md points here). What a message
shares with a REST answer (a character's snapshot, the clock) points at that answer's
output serializer (common/wire.py), described once. Objects are
closed: every field listed is required and no other is allowed, so a message that gains
or loses a field fails the tests that send it (tests/live_wire.py checks every message
sent or published while tests run) until its schema here says so too. Parts whose keys
come from the ruleset (a sheet, the values of a state, a point's costs) are objects of
any keys. Nothing is checked on the field: only the tests validate.
"""
from __future__ import annotations

import functools

from common.wire import answer, components

# -- building blocks -------------------------------------------------------------------
STRING = {"type": "string"}
INTEGER = {"type": "integer"}
NUMBER = {"type": "number"}
BOOLEAN = {"type": "boolean"}
INSTANT = {"type": "string", "format": "date-time"}
ANY_KEYS = {"type": "object"}      # keys given by the ruleset or the game


def fields(**properties) -> dict:
    """An object with exactly these fields."""
    return {"type": "object", "properties": properties, "required": list(properties),
            "additionalProperties": False}


def maybe(schema: dict) -> dict:
    """The schema, or null."""
    return {"anyOf": [schema, {"type": "null"}]}


def list_of(schema: dict) -> dict:
    return {"type": "array", "items": schema}


def one_of(*schemas: dict) -> dict:
    return {"oneOf": list(schemas)}


def kind(name: str) -> dict:
    return {"const": name}


KEYED = fields(key=STRING, label=STRING)        # a ruleset's key with its text


# -- the snapshot ---------------------------------------------------------------------
# The same as the REST answer's (live/snapshot_answers.py, each app adding its section's
# fields there): described once, for both.
SNAPSHOT = answer("CharacterSnapshotAnswer")
CLOCK = answer("ClockAnswer")


# -- the messages ---------------------------------------------------------------------
def sent(name: str, **properties) -> dict:
    """A message sent through the consumer, which stamps it with its server time."""
    return fields(type=kind(name), **properties, server_time=NUMBER)


EFFECT_PUSHED = fields(id={"type": "null"}, push=STRING, text=STRING, started_game_s=NUMBER,
                       duration_s=maybe(NUMBER), ends_game_s=maybe(NUMBER),
                       remaining_s=maybe(NUMBER), ends_at=maybe(INSTANT))

# A survivor's entry, sent as the message itself (the organisers' come as `entries`).
SURVIVOR_ENTRY = dict(
    entry=fields(id=INTEGER, name=STRING, kind=STRING, code=STRING, finger=INTEGER,
                 carrier=STRING, members=list_of(STRING)),
    course=answer("RaceCourseAnswer"), status=KEYED, started_at=maybe(INSTANT),
    finished_at=maybe(INSTANT),
    deadline_at=maybe(INSTANT), time_left_s=maybe(NUMBER), late_minutes=INTEGER,
    checkpoints=INTEGER, found=INTEGER, punches=list_of(ANY_KEYS),
    lives=fields(initial=INTEGER, remaining=INTEGER), life_losses=list_of(ANY_KEYS),
    score=INTEGER, breakdown=answer("RaceBreakdownAnswer"))
RACE = one_of(
    sent("race", kind=kind("entries"), entries=list_of(answer("RaceEntryAnswer"))),
    sent("race", kind=kind("leaderboard"), course=answer("RaceCourseAnswer"),
         ranking=list_of(answer("RaceRowAnswer")), unranked=list_of(answer("RaceRowAnswer")),
         warnings=list_of(ANY_KEYS)),
    sent("race", kind=kind("entry"), **SURVIVOR_ENTRY),
    sent("race", kind=kind("overdue_alert"),
         entry=fields(id=INTEGER, name=STRING, kind=STRING, carrier=STRING, finger=INTEGER),
         course=fields(id=INTEGER, name=STRING), phone=STRING, deadline_at=INSTANT,
         overdue_s=NUMBER, alerted_at=INSTANT, text=STRING))

MESSAGES: dict[str, dict] = {
    # The first message of a character's socket, then one per change (or heartbeat).
    "snapshot": sent("snapshot", snapshot=SNAPSHOT),
    # The narrators' first message, in parts numbered from 0 (live/consumers.py).
    "event_snapshot": sent("event_snapshot", event=fields(id=INTEGER, name=STRING, ruleset=STRING),
                           clock=CLOCK, characters=list_of(SNAPSHOT), part=INTEGER,
                           parts=INTEGER),
    # The safety team's first message: connected, nothing of the game.
    "safety_snapshot": sent("safety_snapshot", event=INTEGER),
    # An effect: to a player's phone for its character, to narrators with who it reached.
    "effect": one_of(sent("effect", character=INTEGER, effect=EFFECT_PUSHED),
                     sent("effect", characters={"anyOf": [kind("all"), list_of(INTEGER)]},
                          effect=EFFECT_PUSHED)),
    "day": sent("day", day=answer("DayAnswer"), untreated=list_of(answer("UntreatedAnswer"))),
    "emergency": sent("emergency", emergency=fields(
        journal=INTEGER, at=INSTANT, who=STRING,
        character=maybe(fields(id=INTEGER, name=STRING)), reason=STRING, paused=BOOLEAN,
        running=BOOLEAN)),
    "request": sent("request", request=answer("OrganiserRequestAnswer")),
    "phone": sent("phone", phone=answer("PhoneReadiness")),
    # Real-world safety: a call to responders, a caller's own call, or "the board moved".
    "safety": one_of(sent("safety", call=answer("HelpCallAnswer")),
                     sent("safety", own_call=answer("OwnHelpCallAnswer")),
                     sent("safety", board={"const": True})),
    "race": RACE,
    # Redis lost the groups: the phone answers with a heartbeat.
    "check": sent("check"),
    "pong": sent("pong", client_time=maybe(NUMBER)),
    # Sent before a close 4013, without the server's time (live/admission.py).
    "busy": fields(type=kind("busy"), retry_after_ms=INTEGER),
}


@functools.cache
def validator(name: str):
    """The validator of the message kind `name`, None if it has none. Built once, with
    the answers' components its snapshots and calls point into."""
    import jsonschema          # only the tests validate

    schema = MESSAGES.get(name)
    if schema is None:
        return None
    return jsonschema.Draft202012Validator({**schema, "components": components()})


def message_errors(message) -> list[str]:
    """What in this message its kind's schema does not allow; a kind without a schema is
    an error too."""
    name = message.get("type") if isinstance(message, dict) else None
    check = validator(name) if isinstance(name, str) else None
    if check is None:
        return [f"no schema for the live message kind {name!r} (live/messages_schema.py)"]
    return [_said(error) for error in check.iter_errors(message)]


def _said(error) -> str:
    """Where and what; of a message that may take several shapes (oneOf), what is wrong
    in the closest one rather than only "none matched"."""
    if error.context:
        branches: dict = {}
        for inner in error.context:
            branches.setdefault(inner.schema_path[0], []).append(inner)
        return "; ".join(_said(inner) for inner in min(branches.values(), key=len))
    return f"{'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message}"
