"""Reading the fight steps of a rehearsal file (docs/rehearse.md): duels, unions,
acharnements, searches, heals and extractions, each played by a character and checked
against the ruleset's interactions and the characters of the file.

step_reading.StepReader hands the fight steps to read_fight; fight_playing.FightSteps
plays them.
"""
from __future__ import annotations

from combat.models import Heal
from combat.services.duels import WEAPONS
from combat.services.heals import STOP_REASONS

from rehearsals.script import NARRATOR, checked_mapping

# The ruleset's interaction each step needs (rulesets/data/*.yaml, `interactions`).
INTERACTIONS = {"duel": "duel", "answer_duel": "duel", "union": "union", "join_union": "union",
                "acharnement": "acharnement", "stop_acharnement": "acharnement",
                "search": "search", "heal": "heal", "stop_heal": "heal", "hit_by": "shot"}
ANSWERS = ("accept", "decline")
WEAPON_CHOICES = ("none", *WEAPONS)
HEAL_KINDS = (Heal.HEAL, Heal.EXTRACTION)


def read_fight(reader, kind: str, raw: dict) -> tuple[str, dict]:
    """`reader` is step_reading.StepReader (the ruleset and the characters of the file).
    Returns the character who plays the step and the step's normalised spec."""
    if raw.get("by", NARRATOR) == NARRATOR:
        raise ValueError(f"{kind} is played by a character: write 'by: <character key>'")
    by = character_key(reader, raw["by"], "by")
    if "on" in raw:
        raise ValueError(f"{kind} takes no 'on': the other characters are named inside it")
    wanted = INTERACTIONS[kind]
    if wanted not in reader.ruleset.interactions:
        raise ValueError(f"{kind}: the ruleset {reader.ruleset.key} has no {wanted}")
    return by, _READERS[kind](reader, raw[kind], raw)


def character_key(reader, key, where: str) -> str:
    if not isinstance(key, str):
        raise ValueError(f"{where}: a character key (characters: {', '.join(reader.characters)})")
    return reader.character(key, where)


def _keys(reader, value, where: str, *, required: bool) -> list[str]:
    keys = [value] if isinstance(value, str) else ([] if value is None else value)
    if not isinstance(keys, list) or (required and not keys):
        raise ValueError(f"{where}: a list of character keys")
    return [character_key(reader, key, where) for key in keys]


def _weapon(spec: dict, answer: str, where: str) -> str:
    weapon = spec.get("weapon_in_hand")
    if weapon is None:
        return "none"
    if weapon not in WEAPON_CHOICES:
        raise ValueError(f"{where}: one of {', '.join(WEAPON_CHOICES)}, not {weapon!r}")
    if answer != "accept":
        raise ValueError(f"{where} goes with an accepted duel (the defender's hand as the "
                         "fight starts)")
    return weapon


def _bool(spec: dict, key: str, where: str) -> bool:
    value = spec.get(key, False)
    if not isinstance(value, bool):
        raise ValueError(f"{where}.{key}: true or false")
    return value


def _read_duel(reader, value, raw) -> dict:
    spec = {"opponent": value} if isinstance(value, str) else \
        checked_mapping(value, "duel", {"opponent", "answer", "weapon_in_hand"})
    if "opponent" not in spec:
        raise ValueError("duel.opponent is required (a character key)")
    answer = spec.get("answer", "accept")
    if answer not in (*ANSWERS, "pending"):
        raise ValueError(f"duel.answer: accept, decline or pending, not {answer!r}")
    return {"opponent": character_key(reader, spec["opponent"], "duel.opponent"), "answer": answer,
            "weapon_in_hand": _weapon(spec, answer, "duel.weapon_in_hand")}


def _read_answer_duel(reader, value, raw) -> dict:
    if value not in ANSWERS:
        raise ValueError(f"answer_duel: accept or decline, not {value!r}")
    return {"answer": value, "weapon_in_hand": _weapon(raw, value, "weapon_in_hand")}


def _read_union(reader, value, raw) -> dict:
    spec = checked_mapping(value, "union", {"attackers", "defenders", "weapon_drawn"})
    return {"attackers": _keys(reader, spec.get("attackers"), "union.attackers", required=False),
            "defenders": _keys(reader, spec.get("defenders"), "union.defenders", required=True),
            "weapon_drawn": _bool(spec, "weapon_drawn", "union")}


def _read_join_union(reader, value, raw) -> dict:
    return {"defender": character_key(reader, value, "join_union (the key of a defender)")}


def _read_acharnement(reader, value, raw) -> dict:
    spec = checked_mapping(value, "acharnement", {"victim", "kind"})
    kinds = reader.ruleset.interactions["acharnement"]["kinds"]
    if not isinstance(spec.get("kind"), str) or spec["kind"] not in kinds:
        raise ValueError(f"acharnement.kind: one of {', '.join(kinds)}")
    return {"victim": character_key(reader, spec.get("victim"), "acharnement.victim"), "kind": spec["kind"]}


def _read_stop_acharnement(reader, value, raw) -> dict:
    if value is not True:
        raise ValueError("write 'stop_acharnement: true'")
    return {}


def _read_search(reader, value, raw) -> dict:
    spec = checked_mapping(value, "search", {"target", "location", "strip"})
    location = spec.get("location")
    if not isinstance(location, str) or not location.strip() or len(location) > 100:
        raise ValueError("search.location: where the searcher looks (1 to 100 characters)")
    return {"target": character_key(reader, spec.get("target"), "search.target"), "location": location,
            "strip": _bool(spec, "strip", "search")}


def _read_heal(reader, value, raw) -> dict:
    spec = {"patient": value} if isinstance(value, str) else \
        checked_mapping(value, "heal", {"patient", "kind"})
    kind = spec.get("kind", Heal.HEAL)
    if kind not in HEAL_KINDS:
        raise ValueError(f"heal.kind: one of {', '.join(HEAL_KINDS)}, not {kind!r}")
    return {"patient": character_key(reader, spec.get("patient"), "heal.patient"), "kind": kind}


def _read_stop_heal(reader, value, raw) -> dict:
    if value not in STOP_REASONS:
        raise ValueError(f"stop_heal: why the medic stops, one of {', '.join(STOP_REASONS)}")
    return {"reason": value}


def _read_hit_by(reader, value, raw) -> dict:
    """`hit_by: lea`, played by the one hit: who shot them."""
    if value == raw["by"]:
        raise ValueError("hit_by: the shooter is another character")
    return {"shooter": character_key(reader, value, "hit_by (the shooter's key)")}


_READERS = {"duel": _read_duel, "answer_duel": _read_answer_duel, "union": _read_union,
            "join_union": _read_join_union, "acharnement": _read_acharnement,
            "stop_acharnement": _read_stop_acharnement, "search": _read_search,
            "heal": _read_heal, "stop_heal": _read_stop_heal, "hit_by": _read_hit_by}
