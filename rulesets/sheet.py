"""A character sheet as the ruleset declares it: which fields it has and what each holds.

The fields come from the ruleset's own sections, so a new ruleset file brings its sheet
with it: each point's `base` (a whole number: `combat_base`, `coraje`, `trauma`), each
skill (a level among the skill's `levels`, or simply held), each psychological trait
(`psych`, a whole number from -100 to 100), the Rasgos (`abilities`, a list), the armour
when the body map has one, and the kits (`kits`, whole numbers).

`sheet_check` is the one check of a sheet, used by every writer of characters (the API,
the admin, the roster import). `sheet_from_columns` reads the cells of one spreadsheet
row into a sheet, then checks it with `sheet_check`. Pure: no Django.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .body import ARMOUR_OPTIONS
from .engine import Rules
from .messages import RuleRefused

TRAIT_RANGE = (-100, 100)
POINTS_MAX = 1000           # a sheet's score, whatever the ruleset: far above any rulebook's
KITS_MAX = 1000
HELD = {"1", "x", "yes", "y", "true", "oui", "o", "si", "sí", "s"}
NOT_HELD = {"", "0", "no", "n", "false", "non", "none", "-"}
LIST_SPLIT = re.compile(r"[,;|\s]+")
KIT_ITEM = re.compile(r"^([A-Za-z_][\w]*)\s*[:=]\s*(-?\d+)$")


@dataclass(frozen=True)
class Field:
    key: str            # the column's name in a roster file
    kind: str           # "number", "skill", "trait", "abilities", "armour", "kits", "kit"
    low: int = 0
    high: int = POINTS_MAX
    choices: tuple = ()


def sheet_fields(rules: Rules) -> dict[str, Field]:
    """{column name: field} of the ruleset's sheet (aliases included, e.g. `combat`)."""
    ruleset, fields = rules.ruleset, {}
    for point in ruleset.points.values():
        base = point.get("base")
        if base:
            low, high = _bounds(rules, base, point)
            fields[base] = Field(base, "number", low, high)
            if base.endswith("_base"):      # `combat` for `combat_base`
                fields[base[:-5]] = fields[base]
    for skill, spec in ruleset.skills.items():
        fields[skill] = Field(skill, "skill", choices=tuple(spec.get("levels") or ()))
    for trait in ruleset.traits:
        fields[trait] = Field(trait, "trait", *TRAIT_RANGE)
    if ruleset.abilities:
        fields["abilities"] = Field("abilities", "abilities")
    if rules.has("body_hits"):
        fields["armour"] = Field("armour", "armour", choices=("none", *ARMOUR_OPTIONS))
    if ruleset.kits:
        fields["kits"] = Field("kits", "kits", high=KITS_MAX)
        for kit in ruleset.kits:
            fields[kit] = Field(kit, "kit", high=KITS_MAX)
    return fields


def _bounds(rules: Rules, base: str, point: dict) -> tuple[int, int]:
    """A score's bounds: the ruleset's options for the combat base (gn_fr), else its
    point's `max` (Coraje), else 0 to a number no rulebook reaches."""
    if base == "combat_base" and rules.has("combat_base"):
        return int(rules.option("combat_base_min")), int(rules.option("combat_base_max"))
    high = rules.resolve(point["max"]) if point.get("max") is not None else POINTS_MAX
    return 0, int(high)


def _number(field: str, value, low: int, high: int) -> int:
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d{1,9}\s*", value):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RuleRefused("sheet_number", field=field, value=str(value)[:40], low=str(low),
                          high=str(high))
    return value


def _choice(field: str, value, choices) -> str:
    if value not in choices:
        raise RuleRefused("sheet_choice", field=field, value=str(value)[:40],
                          choices=", ".join(choices))
    return value


def sheet_check(rules: Rules, sheet: dict, kits: dict | None = None) -> None:
    """Refuse (RuleRefused) a sheet whose declared fields hold what the ruleset cannot
    read: a score out of its bounds, a skill level the skill lacks, a trait out of range,
    an unknown armour, a negative or unknown kit. Keys the ruleset does not declare (the
    objects carried, notes) are the event's own and left alone."""
    fields = sheet_fields(rules)
    for key, value in sheet.items():
        field = fields.get(key)
        if field is not None and field.kind == "number" and field.key == key:
            _number(key, value, field.low, field.high)
    for skill, level in (sheet.get("skills") or {}).items():
        field = fields.get(skill)
        if field is not None and field.kind == "skill" and field.choices and level is not True:
            _choice(skill, level, field.choices)
    for trait, value in (sheet.get("psych") or {}).items():
        _number(trait, value, *TRAIT_RANGE)
    if "armour" in fields and sheet.get("armour") is not None:
        _choice("armour", sheet["armour"], fields["armour"].choices)
    declared = rules.ruleset.kits
    for kit, count in (kits or {}).items():
        if declared:
            _choice("kits", kit, tuple(declared))
        _number(kit, count, 0, KITS_MAX)


def sheet_from_columns(rules: Rules, cells: dict[str, str]) -> tuple[dict, dict]:
    """(sheet, kits) from one row's cells {column: text}, every column a field of
    `sheet_fields`; an empty cell leaves its field out. Refused as `sheet_check` does."""
    fields, sheet, kits = sheet_fields(rules), {}, {}
    for column, raw in cells.items():
        field, text = fields[column], (raw or "").strip()
        if not text:
            continue
        if field.kind == "number":
            sheet[field.key] = _number(column, text, field.low, field.high)
        elif field.kind == "trait":
            sheet.setdefault("psych", {})[field.key] = _number(column, text, field.low, field.high)
        elif field.kind == "skill":
            level = _skill(column, text, field.choices)
            if level is not None:
                sheet.setdefault("skills", {})[field.key] = level
        elif field.kind == "abilities":
            sheet["abilities"] = [a for a in LIST_SPLIT.split(text) if a]
        elif field.kind == "armour":
            sheet["armour"] = _choice(column, text.lower(), field.choices)
        elif field.kind == "kit":
            kits[field.key] = _number(column, text, 0, KITS_MAX)
        else:
            kits.update(_kits(text, rules))
    sheet_check(rules, sheet, kits)
    return sheet, kits


def _skill(column: str, text: str, levels: tuple):
    lowered = text.lower()
    if lowered in NOT_HELD:
        return None
    if levels:
        return _choice(column, lowered, levels)
    if lowered in HELD:
        return True
    raise RuleRefused("sheet_choice", field=column, value=text[:40],
                      choices=", ".join(sorted({"yes", "no", "x", "1", "0"})))


def _kits(text: str, rules: Rules) -> dict:
    """`kps:3 koc:1` (or `kps=3; koc=1`)."""
    kits = {}
    for item in re.split(r"[,;|]+|\s+(?=[A-Za-z_])", text):
        item = item.strip()
        if not item:
            continue
        match = KIT_ITEM.match(item)
        if match is None:
            raise RuleRefused("sheet_choice", field="kits", value=item[:40],
                              choices=", ".join(f"{k}:N" for k in rules.ruleset.kits))
        kits[match.group(1)] = _number(match.group(1), match.group(2), 0, KITS_MAX)
    return kits
