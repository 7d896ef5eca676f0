"""Carga (septenario §5, §4.5): what a character carries and what it weighs. Reads only;
carrying and dropping are in services/carrying.py.

A character carries its sheet's starting gear (`sheet["carried"]`, written by the
organisers, no code) and the objects it picked up by scanning their label
(`Item.holder`). Up to the capacity it moves normally; up to capacity + margin it is
overloaded; beyond, it cannot move."""
from __future__ import annotations

from players.models import Character

from ..models import Item

# What "Carga" is called when a ruleset has none (the refusal names it).
CARGA = {"en": "Carga (carrying load)", "fr": "Carga (charge portée)", "es": "Carga"}

STATUSES = {
    "normal": {
        "label": {"en": "Normal load", "fr": "Charge normale", "es": "Carga normal"},
        "meaning": {"en": "You move normally.",
                    "fr": "Vous vous déplacez normalement.",
                    "es": "Te mueves con normalidad."},
    },
    "overloaded": {
        "label": {"en": "Overloaded", "fr": "Surcharge", "es": "Sobrecarga"},
        "meaning": {"en": "You cannot move fast or use Evasion, and must act as if carrying "
                          "a heavy weight.",
                    "fr": "Vous ne pouvez ni vous déplacer vite ni utiliser Évasion, et devez "
                          "simuler que vous portez un grand poids.",
                    "es": "No puedes moverte rápido ni usar Evasión, y has de simular que "
                          "cargas un gran peso."},
    },
    "immobile": {
        "label": {"en": "Immobile (too much load)", "fr": "Immobilisé (trop chargé)",
                  "es": "Inmóvil (demasiada carga)"},
        "meaning": {"en": "You carry too much: you cannot move. Drop something to move again.",
                    "fr": "Vous portez trop : vous ne pouvez plus bouger. Posez quelque chose "
                          "pour pouvoir repartir.",
                    "es": "Llevas demasiado: no puedes moverte. Suelta algo para poder "
                          "moverte de nuevo."},
    },
}


def item_load(item: Item, rules) -> int:
    """An object's weight: its own, else the ruleset's default (S14)."""
    if item.load is not None:
        return item.load
    return int(rules.option(rules.ruleset.load["default_item_load"]))


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
    default = int(rules.option(spec["default_item_load"]))
    held = getattr(character, "held_items", None)
    if held is None:
        held = list(Item.objects.filter(holder=character).only("id", "name", "code", "load"))
    items = _sheet_gear(character.sheet, default) + [
        {"name": item.name, "load": item_load(item, rules), "code": item.code} for item in held]
    total = sum(item["load"] for item in items)
    capacity = int(rules.option(spec["capacity"]))
    overload_max = capacity + int(rules.option(spec["overload_margin"]))
    status = load_status(total, capacity, overload_max - capacity)
    return {"items": items, "total": total, "capacity": capacity, "overload_max": overload_max,
            "status": status, **STATUSES[status]}
