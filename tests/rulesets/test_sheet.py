"""The one check of a character sheet (rulesets/sheet.py): its fields come from the
ruleset's own sections, and every writer of characters refuses the same values."""
from __future__ import annotations

import pytest

from rulesets import RuleRefused, Rules, get_ruleset
from rulesets.sheet import sheet_check, sheet_fields, sheet_from_columns


def rules_of(key: str, options: dict | None = None) -> Rules:
    ruleset = get_ruleset(key)
    return Rules(ruleset, ruleset.merged_options(options or {}))


def test_the_fields_follow_the_rulesets_sections():
    assert set(sheet_fields(rules_of("gn_fr"))) >= {"combat", "combat_base", "first_aid", "humeur", "kits", "kps"}
    assert set(sheet_fields(rules_of("septenario_es"))) == {
        "coraje", "trauma", "first_aid", "treatment", "abilities", "armour"}
    assert set(sheet_fields(rules_of("zombie_race"))) == set()


def test_the_bounds_are_the_events_options():
    wider = rules_of("gn_fr", {"combat_base_max": 8})
    assert sheet_from_columns(wider, {"combat": "7"}) == ({"combat_base": 7}, {})
    with pytest.raises(RuleRefused) as refused:
        sheet_from_columns(rules_of("gn_fr"), {"combat": "7"})
    assert refused.value.code == "sheet_number" and refused.value.params["high"] == "5"


@pytest.mark.parametrize("sheet,kits", [
    ({"combat_base": True}, {}),
    ({"skills": {"surgery": "master"}}, {}),
    ({"psych": {"humeur": 101}}, {}),
    ({}, {"kps": -1}),
    ({}, {"bandage": 1}),
])
def test_what_a_ruleset_cannot_read_is_refused(sheet, kits):
    with pytest.raises(RuleRefused):
        sheet_check(rules_of("gn_fr"), sheet, kits)


def test_the_events_own_keys_are_left_alone():
    sheet_check(rules_of("septenario_es"), {"carried": [{"name": "Espada", "load": 1}],
                                            "abilities": ["a_rasgo_of_this_event"], "armour": "heavy"})


def test_cells_read_as_an_organiser_writes_them():
    sheet, kits = sheet_from_columns(rules_of("gn_fr"), {
        "first_aid": "Expert", "read_write": "oui", "load_firearm": "", "kits": "kps=3; koc=1", "empathie": "-20"})
    assert sheet == {"skills": {"first_aid": "expert", "read_write": True}, "psych": {"empathie": -20}}
    assert kits == {"kps": 3, "koc": 1}
