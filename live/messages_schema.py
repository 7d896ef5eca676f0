"""The live wire format: what /ws/live/ sends a phone, one JSON Schema per message kind
(`MESSAGES`), and the character snapshot they carry, made of the sections the apps
register with their schema (live/snapshots.py `snapshot_section`).

The source of truth for the websocket's messages (docs/api.md points here). Objects are
closed: every field listed is required and no other is allowed, so a message that gains
or loses a field fails the tests that send it (tests/live_wire.py checks every message
sent or published while tests run) until its schema here says so too. Parts whose keys
come from the ruleset (a sheet, the values of a state, a point's costs) are objects of
any keys. Nothing is checked on the field: only the tests validate.
"""
from __future__ import annotations

import functools

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
# What live itself puts in every snapshot; the apps add the rest (snapshot_section).
CLOCK = fields(running=BOOLEAN, game_time_s=NUMBER,
               # The airsoft day's games (schedule/services/games.py), as announced.
               game=maybe(ANY_KEYS), next_game=maybe(ANY_KEYS))
SNAPSHOT_CORE = {
    "character": fields(id=INTEGER, name=STRING, code=STRING, team=maybe(STRING),
                        event=INTEGER, ruleset=STRING, language=STRING),
    "clock": CLOCK,
}


def snapshot_schema() -> dict:
    """A character's snapshot: live's part and each registered section's fields. A
    section registered without its schema fails here, loudly."""
    from live import snapshots
    properties = dict(SNAPSHOT_CORE)
    for section, schema in snapshots.section_schemas():
        if schema is None:
            raise LookupError(f"the snapshot section {section.__module__}.{section.__name__} "
                              "has no schema: give it one in snapshot_section(fn, schema=...)")
        properties.update(schema)
    return fields(**properties)


# -- the messages ---------------------------------------------------------------------
def sent(name: str, **properties) -> dict:
    """A message sent through the consumer, which stamps it with its server time."""
    return fields(type=kind(name), **properties, server_time=NUMBER)


# Spelt out by validator(): the sections are known once the apps are ready.
SNAPSHOT = {"$ref": "#/$defs/snapshot"}

EFFECT_PUSHED = fields(id={"type": "null"}, push=STRING, text=STRING, started_game_s=NUMBER,
                       duration_s=maybe(NUMBER), ends_game_s=maybe(NUMBER),
                       remaining_s=maybe(NUMBER), ends_at=maybe(INSTANT))

DAY = fields(id=INTEGER, kind=STRING, label=STRING, due_at=INSTANT, done_at=maybe(INSTANT),
             status={"enum": ["scheduled", "due", "running", "done"]},
             characters_changed=INTEGER)
UNTREATED = fields(character=fields(id=INTEGER, name=STRING, code=STRING),
                   state=KEYED,
                   # The body's wounds as the ruleset describes them.
                   wounds=ANY_KEYS)

HELP_CALL = fields(id=INTEGER, event=INTEGER, kind=STRING, note=STRING, status=STRING,
                   tapped_at=maybe(INSTANT), received_at=maybe(INSTANT), caller=STRING,
                   character=maybe(fields(id=INTEGER, name=STRING, team=maybe(STRING))),
                   position=maybe(fields(latitude=NUMBER, longitude=NUMBER,
                                         accuracy_m=maybe(NUMBER))),
                   plan_position=maybe(ANY_KEYS),
                   taken_by=maybe(STRING), taken_at=maybe(INSTANT),
                   closed_by=maybe(STRING), closed_at=maybe(INSTANT),
                   outcome=maybe(STRING), outcome_note=STRING)
OWN_HELP_CALL = fields(id=INTEGER, event=INTEGER, kind=STRING, status=STRING,
                       tapped_at=maybe(INSTANT), received_at=maybe(INSTANT),
                       taken_by=maybe(STRING), taken_at=maybe(INSTANT),
                       closed_at=maybe(INSTANT), outcome=maybe(STRING))

RACE_COURSE = fields(id=INTEGER, name=STRING, duration_s=INTEGER,
                     mass_started_at=maybe(INSTANT), points_confirmed=BOOLEAN,
                     points_per_checkpoint=INTEGER)
RACE_BREAKDOWN = fields(points=INTEGER, unfound=INTEGER, lives=INTEGER, late=INTEGER,
                        infractions=INTEGER, exits_without_life=INTEGER)
# A survivor sees their entry; the organisers see it with its phone, gear and warnings.
SURVIVOR_ENTRY = dict(
    entry=fields(id=INTEGER, name=STRING, kind=STRING, code=STRING, finger=INTEGER,
                 carrier=STRING, members=list_of(STRING)),
    course=RACE_COURSE, status=KEYED, started_at=maybe(INSTANT), finished_at=maybe(INSTANT),
    deadline_at=maybe(INSTANT), time_left_s=maybe(NUMBER), late_minutes=INTEGER,
    checkpoints=INTEGER, found=INTEGER, punches=list_of(ANY_KEYS),
    lives=fields(initial=INTEGER, remaining=INTEGER), life_losses=list_of(ANY_KEYS),
    score=INTEGER, breakdown=RACE_BREAKDOWN)
ORGANISER_ENTRY = fields(**{
    **SURVIVOR_ENTRY,
    "entry": fields(id=INTEGER, name=STRING, kind=STRING, code=STRING, finger=INTEGER,
                    carrier=STRING, members=list_of(STRING), character=INTEGER,
                    phone=STRING, gear=ANY_KEYS, gear_checked_at=maybe(INSTANT),
                    deposit_taken_at=maybe(INSTANT), deposit_returned_at=maybe(INSTANT),
                    finger_returned_at=maybe(INSTANT), ended_at=maybe(INSTANT),
                    end_reason=STRING, alerted_at=maybe(INSTANT)),
    "infractions": list_of(ANY_KEYS), "warnings": list_of(ANY_KEYS)})
RANKED = fields(entry=fields(id=INTEGER, name=STRING, kind=STRING, finger=INTEGER,
                             members=list_of(STRING)),
                name=STRING, rank=maybe(INTEGER), classified=BOOLEAN,
                unclassified=maybe(KEYED), status=KEYED, score=INTEGER,
                elapsed_s=maybe(NUMBER), checkpoints=INTEGER, found=INTEGER,
                late_minutes=INTEGER, lives_lost=INTEGER, not_counted=ANY_KEYS,
                breakdown=RACE_BREAKDOWN)
RACE = one_of(
    sent("race", kind=kind("entries"), entries=list_of(ORGANISER_ENTRY)),
    sent("race", kind=kind("leaderboard"), course=RACE_COURSE, ranking=list_of(RANKED),
         unranked=list_of(RANKED), warnings=list_of(ANY_KEYS)),
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
    "day": sent("day", day=DAY, untreated=list_of(UNTREATED)),
    "emergency": sent("emergency", emergency=fields(
        journal=INTEGER, at=INSTANT, who=STRING,
        character=maybe(fields(id=INTEGER, name=STRING)), reason=STRING, paused=BOOLEAN,
        running=BOOLEAN)),
    "request": sent("request", request=fields(
        id=INTEGER, character=ANY_KEYS, text=STRING, status=STRING, created_game_s=NUMBER,
        created_at=INSTANT, answer=maybe(STRING), answered_by=maybe(STRING),
        answered_game_s=maybe(NUMBER), effect=maybe(INTEGER))),
    "phone": sent("phone", phone=fields(
        character=INTEGER, reported=BOOLEAN, ready=BOOLEAN, failing=list_of(STRING),
        checked_at=maybe(INSTANT), battery_level=maybe(NUMBER), clock_offset_ms=maybe(NUMBER))),
    # Real-world safety: a call to responders, a caller's own call, or "the board moved".
    "safety": one_of(sent("safety", call=HELP_CALL), sent("safety", own_call=OWN_HELP_CALL),
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
    """The validator of the message kind `name` (its snapshots spelt out), None if it has
    none. Built once: the sections are all registered once the apps are ready."""
    import jsonschema          # only the tests validate

    schema = MESSAGES.get(name)
    if schema is None:
        return None
    return jsonschema.Draft202012Validator({**schema, "$defs": {"snapshot": snapshot_schema()}})


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
