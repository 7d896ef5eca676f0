"""The `fights` a character's phone shows, in a rehearsal's `expect:` (docs/rehearse.md):
read with the file, then compared with the character's snapshot after each step.
"""
from __future__ import annotations

from combat.models import Acharnement, Duel, Heal, Union
from combat.selectors import HEAL_REASONS, REASONS

from rehearsals.fight_reading import HEAL_KINDS, character_key
from rehearsals.script import checked_mapping, parse_time

FIGHT_FIELDS = {"kind", "role", "status", "result", "other", "reason", "type", "attackers",
                "defenders", "ends_in", "can_answer"}
FIGHT_CHOICES = {
    "kind": ("duel", "union", "acharnement", "heal"),
    "role": ("challenger", "defender", "attackers", "defenders", "attacker", "victim",
             "medic", "patient"),
    "status": tuple(dict.fromkeys(s for model in (Duel, Union, Acharnement, Heal)
                                  for s, _ in model.STATUSES)),
    "result": (Duel.WON, Duel.LOST, Duel.TIE, None),
    "reason": (*dict.fromkeys([*REASONS, *HEAL_REASONS]), None),
}


def read_fight_checks(reader, where: str, value) -> None:
    """`fights: [{kind: duel, result: lost}, ...]`, in the snapshot's order; [] for none."""
    if not isinstance(value, list):
        raise ValueError(f"{where}: a list of fights, e.g. [{{kind: duel, result: lost}}] "
                         "([] for none)")
    for number, entry in enumerate(value, start=1):
        at = f"{where}[{number}]"
        entry = checked_mapping(entry, at, FIGHT_FIELDS)
        for field, choices in FIGHT_CHOICES.items():
            if field in entry and entry[field] not in choices:
                raise ValueError(f"{at}.{field}: one of "
                                 f"{', '.join('null' if c is None else c for c in choices)}")
        if "other" in entry:
            character_key(reader, entry["other"], f"{at}.other")
        kinds = [*reader.ruleset.interactions.get("acharnement", {}).get("kinds", {}),
                 *(HEAL_KINDS if "heal" in reader.ruleset.interactions else ())]
        if "type" in entry and (not isinstance(entry["type"], str) or entry["type"] not in kinds):
            raise ValueError(f"{at}.type: one of {', '.join(kinds)}")
        for field in ("attackers", "defenders"):
            if field in entry and (not isinstance(entry[field], int) or isinstance(entry[field], bool)):
                raise ValueError(f"{at}.{field}: a number of characters")
        if "can_answer" in entry and not isinstance(entry["can_answer"], bool):
            raise ValueError(f"{at}.can_answer: true or false")
        if entry.get("ends_in") is not None:
            parse_time(entry["ends_in"], f"{at}.ends_in")


def fights_diff(key: str, want: list, views: list, names: dict, compare) -> list[str]:
    """Compare the snapshot's fights with the file's, entry by entry (counted from 1),
    on the fields the file gives only. `names`: character key -> name."""
    seen = [_seen(view) for view in views]
    if len(want) != len(seen):
        shown = "; ".join(_words(s) for s in seen) or "none"
        return [f"{key}.fights: expected {len(want)} fight(s), got {len(seen)}: {shown}"]
    lines = []
    for number, (wanted, got) in enumerate(zip(want, seen), start=1):
        for field, value in wanted.items():
            if field == "other":
                value = names.get(value, value)
            lines += compare(f"{key}.fights[{number}].{field}", value, got.get(field),
                             time=field == "ends_in")
    return lines


def _seen(view: dict) -> dict:
    codes = HEAL_REASONS if view["kind"] == "heal" else REASONS
    reason = next((code for code, labels in codes.items() if labels == view.get("reason")), None)
    return {"kind": view["kind"], "role": view.get("role"), "status": view.get("status"),
            "result": view.get("result"), "other": view.get("other"), "reason": reason,
            "type": (view.get("type") or {}).get("key"), "attackers": view.get("attackers"),
            "defenders": view.get("defenders"), "can_answer": view.get("can_answer"),
            "ends_in": (view.get("ends") or {}).get("remaining_s")}


def _words(seen: dict) -> str:
    words = [seen["kind"], seen["type"], seen["role"], seen["status"], seen["result"],
             seen["reason"] and f"({seen['reason']})",
             seen["other"] and f"with {seen['other']}"]
    return " ".join(w for w in words if w)
