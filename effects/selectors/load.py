"""Carga (septenario §5, §4.5): what a character carries and what it weighs. Reads only;
carrying and dropping are in services/carrying.py.

A character carries its sheet's starting gear (`sheet["carried"]`, written by the
organisers, no code) and the objects it picked up by scanning their label
(`Item.holder`). Up to the capacity it moves normally; up to capacity + margin it is
overloaded; beyond, it cannot move."""
# Rule codes: docs/rules/septenario_es-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.utils.translation import gettext_noop

from common.i18n import label
from players.models import Character

from ..models import Item

# What "Carga" is called when a ruleset has none (the refusal names it).
CARGA = gettext_noop("Carga (carrying load)")

# What each load status means for the one carrying (septenario §5).
STATUSES = {
    "normal": (gettext_noop("Normal load"), gettext_noop("You move normally.")),
    "overloaded": (gettext_noop("Overloaded"), gettext_noop(
        "You cannot move fast or use Evasion, and must act as if carrying a heavy weight.")),
    "immobile": (gettext_noop("Immobile (too much load)"), gettext_noop(
        "You carry too much: you cannot move. Drop something to move again.")),
}


def item_load(item: Item, rules) -> int:
    """An object's weight: its own, else the ruleset's default (S14)."""
    if item.load is not None:
        return item.load
    return int(rules.resolve(rules.ruleset.load["default_item_load"]))


def _sheet_gear(sheet: dict, default: int) -> list[dict]:
    """The starting gear as the sheet lists it. The sheet is free JSON typed by organisers:
    a malformed entry must not break every read of the character, so a bare string is a
    name and a missing or odd load is the default."""
    gear = []
    for entry in (sheet or {}).get("carried") or []:
        if isinstance(entry, str):
            entry = {"name": entry}
        if not isinstance(entry, dict):
            continue
        load = entry.get("load")
        valid = isinstance(load, int) and not isinstance(load, bool) and load >= 0
        gear.append({"name": str(entry.get("name") or "?"), "load": load if valid else default,
                     "code": None})
    return gear


def load_status(total: int, capacity: int, margin: int) -> str:
    if total <= capacity:
        return "normal"
    return "overloaded" if total <= capacity + margin else "immobile"


def load_view(character: Character, rules) -> dict | None:
    """What the character carries, the total against its capacity, and what that means.
    None when the ruleset has no Carga. The held objects come from `held_items` when
    characters_for_snapshot prefetched them, else from one query. An ability on the sheet
    may change the capacity for its bearer alone (`overrides`)."""
    spec = rules.ruleset.load
    if not spec:
        return None
    rules = rules.for_sheet(character.sheet)
    default = int(rules.resolve(spec["default_item_load"]))
    held = getattr(character, "held_items", None)
    if held is None:
        held = list(Item.objects.filter(holder=character).only("id", "name", "code", "load"))
    items = _sheet_gear(character.sheet, default) + [
        {"name": item.name, "load": item_load(item, rules), "code": item.code} for item in held]
    total = sum(item["load"] for item in items)
    capacity = int(rules.resolve(spec["capacity"]))
    overload_max = capacity + int(rules.resolve(spec["overload_margin"]))
    status = load_status(total, capacity, overload_max - capacity)
    return {"items": items, "total": total, "capacity": capacity, "overload_max": overload_max,
            "status": status, "label": label(STATUSES[status][0]),
            "meaning": label(STATUSES[status][1])}


def load_level(character: Character) -> str | None:
    """The character's load level, which takes running or any movement away from what its
    phone lists it can do (health/capabilities.py); None without Carga."""
    view = load_view(character, character.event.rules())
    return view["status"] if view else None
