"""Objects in a rehearsal file (docs/rehearse.md, "Objects: firearms and Carga"; "Tags,
medicines and locks"): the `items:` of the header, the steps on them (a firearm taken,
loaded, fired; an object carried, given, dropped; a tag read, a medicine ingested, a
padlock locked or unlocked) and the `items` of an `expect:`, checked before anything is
played. item_playing.ItemSteps plays them.
"""
from __future__ import annotations

from effects.models import Item

from rehearsals.script import (CLOCK, ITEMS, MEMBERS, NARRATOR, REPLICAS, SAFETY,
                               checked_mapping, is_number, is_whole, parse_time)

ITEM_KEYS = {"name", "kind", "holder", "loaded", "load", "tag", "effect", "secret", "duration",
             "set_state", "closed"}
ITEM_CHECKS = {"holder", "loaded", "bullets", "closed", "used", "used_by"}
KINDS = tuple(kind for kind, _ in Item.KINDS)
EFFECT_FIELDS = {"tag": "tag_text", "effect": "effect_text", "secret": "secret_text"}
FIRE_KEYS = {"weapon", "target", "distance", "obstacle", "misfire", "conditions"}


def read_items(raw, ruleset, characters: dict) -> dict:
    """key -> {name, kind, holder, loaded, load}. A firearm needs the ruleset's firearm
    interaction; a weight (`load`) its Carga."""
    out = {}
    for key, spec in checked_mapping(raw, "items").items():
        where = f"items.{key}"
        if not isinstance(key, str) or key in (NARRATOR, CLOCK, SAFETY, ITEMS, MEMBERS, REPLICAS) \
                or key in characters:
            raise ValueError(f"{where}: '{key}' cannot be an object's key (reserved, or "
                             "already a character's)")
        spec = checked_mapping(spec, where, ITEM_KEYS)
        kind = spec.get("kind", Item.TAG)
        if kind not in KINDS:
            raise ValueError(f"{where}.kind: one of {', '.join(KINDS)} (an object to carry: tag)")
        if kind == Item.FIREARM and "firearm" not in ruleset.interactions:
            raise ValueError(f"{where}: the ruleset {ruleset.key} has no firearms")
        holder = spec.get("holder")
        if holder is not None and holder not in characters:
            raise ValueError(f"{where}.holder: unknown character {holder!r}")
        if "loaded" in spec and (kind != Item.FIREARM or not isinstance(spec["loaded"], bool)):
            raise ValueError(f"{where}.loaded: true or false, for a firearm")
        if "load" in spec and (not ruleset.load or not is_whole(spec["load"], 0, 100)):
            raise ValueError(f"{where}.load: a whole weight (0 to 100), in a ruleset with Carga")
        if kind != Item.FIREARM and holder is not None and not ruleset.load:
            raise ValueError(f"{where}.holder: only a firearm is held in a ruleset without Carga")
        out[key] = {"name": str(spec.get("name") or key), "kind": kind, "holder": holder,
                    "loaded": bool(spec.get("loaded", False)), "load": spec.get("load"),
                    "fields": _effect_fields(spec, kind, ruleset, where)}
    return out


def _effect_fields(spec: dict, kind: str, ruleset, where: str) -> dict:
    """What the organisers type on the object's sheet: its tag, its effect (or the back of
    the tag), how long the effect lasts, the state it sets; a lock's loop. Whether they go
    together is the service's to say (item_create: bad_input)."""
    fields = {}
    for key, column in EFFECT_FIELDS.items():
        if key in spec:
            if not isinstance(spec[key], str) or not spec[key].strip():
                raise ValueError(f"{where}.{key}: a text")
            fields[column] = spec[key]
    if "duration" in spec:
        fields["effect_duration_s"] = parse_time(spec["duration"], f"{where}.duration")
    if "set_state" in spec:
        if spec["set_state"] not in ruleset.states:
            raise ValueError(f"{where}.set_state: unknown state '{spec['set_state']}' "
                             f"(states: {', '.join(ruleset.states)})")
        fields["effect_set_state"] = spec["set_state"]
    if "closed" in spec:
        if kind != Item.LOCK or not isinstance(spec["closed"], bool):
            raise ValueError(f"{where}.closed: true (the red loop) or false (the green one), "
                             "for a lock")
        fields["closed"] = spec["closed"]
    return fields


def read_item_step(reader, kind: str, raw: dict) -> tuple[str, dict]:
    """Played by a character, as from its phone (it scans the object's label)."""
    by = raw.get("by")
    if by is None or by == NARRATOR or by not in reader.characters:
        raise ValueError(f"{kind} is played by a character: write 'by: <character key>'")
    if "on" in raw:
        raise ValueError(f"{kind} takes no 'on'")
    value = raw[kind]
    if kind == "fire":
        spec = checked_mapping(value, "fire", FIRE_KEYS)
        target = spec.get("target")
        if target not in reader.characters or target == by:
            raise ValueError("fire.target: the character shot at (another character's key)")
        distance = spec.get("distance")
        if not is_number(distance) or distance < 0:
            raise ValueError("fire.distance: metres from the shooter to the target")
        for flag in ("obstacle", "misfire"):
            if not isinstance(spec.get(flag, False), bool):
                raise ValueError(f"fire.{flag}: true or false")
        # What the shooter declares (Septenario: moving, one_handed...): the service checks
        # them against the ruleset's firearm conditions, as it does for the phone.
        conditions = spec.get("conditions", [])
        if not isinstance(conditions, list) or not all(isinstance(c, str) for c in conditions):
            raise ValueError("fire.conditions: a list of the firearm's conditions")
        return by, {"item": _item(reader, spec.get("weapon"), "fire.weapon", firearm=True),
                    "target": target, "distance": float(distance),
                    "obstacle": spec.get("obstacle", False), "misfire": spec.get("misfire", False),
                    "conditions": conditions}
    if kind == "ingest":
        spec = {"item": value} if isinstance(value, str) else \
            checked_mapping(value, "ingest", {"item", "target"})
        target = spec.get("target", by)
        if target not in reader.characters:
            raise ValueError("ingest.target: who swallows it (a character key; yourself when "
                             "left out)")
        return by, {"item": _item(reader, spec.get("item"), "ingest.item"), "target": target}
    if kind in ("read_tag", "lock", "unlock"):
        return by, {"item": _item(reader, value, kind)}
    if kind == "give":
        spec = checked_mapping(value, "give", {"item", "to"})
        if spec.get("to") not in reader.characters or spec["to"] == by:
            raise ValueError("give.to: the character who takes the object (a character key)")
        return by, {"item": _item(reader, spec.get("item"), "give.item"), "to": spec["to"]}
    firearm = kind in ("take_firearm", "load_firearm")
    if not firearm and not reader.ruleset.load:
        raise ValueError(f"{kind}: the ruleset {reader.ruleset.key} has no Carga")
    return by, {"item": _item(reader, value, kind, firearm=firearm)}


def _item(reader, key, where: str, *, firearm: bool = False) -> str:
    items = reader.items
    if key not in items:
        raise ValueError(f"{where}: unknown object {key!r} (items: {', '.join(items) or 'none'})")
    if firearm and items[key]["kind"] != Item.FIREARM:
        raise ValueError(f"{where}: '{key}' is not a firearm")
    return key


def read_item_checks(reader, raw) -> None:
    """`items: {pistol: {loaded: false, bullets: 0, holder: alice}}`."""
    for key, checks in checked_mapping(raw, "expect.items").items():
        where = f"expect.items.{key}"
        _item(reader, key, where)
        checks = checked_mapping(checks, where, ITEM_CHECKS)
        if checks.get("holder") is not None and checks["holder"] not in reader.characters:
            raise ValueError(f"{where}.holder: a character key, or null (nobody)")
        if "loaded" in checks and not isinstance(checks["loaded"], bool):
            raise ValueError(f"{where}.loaded: true or false")
        if "bullets" in checks and not is_whole(checks["bullets"], 0, 1):
            raise ValueError(f"{where}.bullets: 0 or 1 (a firearm holds one shot)")
        for flag in ("closed", "used"):
            if flag in checks and not isinstance(checks[flag], bool):
                raise ValueError(f"{where}.{flag}: true or false")
        if checks.get("used_by") is not None and checks["used_by"] not in reader.characters:
            raise ValueError(f"{where}.used_by: a character key, or null (nobody yet)")
