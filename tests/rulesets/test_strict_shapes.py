"""A ruleset file with a value of the wrong shape (a section written as a list, a condition
as a number) fails the load with a RulesetError naming the file and the path, never with a
Python error from deep inside the loader (rulesets/keys.py, checks.Checker.element_shapes)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from ruleset_copies import put, ruleset_data

from rulesets import RulesetError
from rulesets.loader import available_rulesets, ruleset_from_data


def containers(node, path=()):
    """(path, value) of every mapping and list inside the file."""
    children = node.items() if isinstance(node, dict) else enumerate(node)
    for step, value in children:
        if isinstance(value, (dict, list)):
            yield path + (step,), value
            yield from containers(value, path + (step,))


def replaced(data: dict, path: tuple, value) -> dict:
    copy = json.loads(json.dumps(data))
    put(*path, value)(copy)
    return copy


def load_or_refusal(key: str, data: dict) -> str | None:
    try:
        ruleset_from_data(Path(f"{key}_shape.yaml"), data)
    except RulesetError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("key", available_rulesets())
def test_every_mapping_or_list_written_in_another_shape_is_refused_by_name(key):
    """Each mapping written as a list and each list as a mapping; the outer ones (a
    section, an entry, a field) also as a number."""
    data = ruleset_data(key)
    crashes, tried = [], 0
    for path, value in containers(data):
        other = ["x"] if isinstance(value, dict) else {"x": 1}
        for wrong in (other, 3) if len(path) <= 3 else (other,):
            tried += 1
            try:
                message = load_or_refusal(key, replaced(data, path, wrong))
            except Exception as exc:  # noqa: BLE001 (what the test is looking for)
                crashes.append(f"{'.'.join(map(str, path))} = {wrong!r}: {exc!r}")
                continue
            assert message is None or message.startswith(f"{key}_shape.yaml: "), message
    assert tried > 40
    assert crashes == []


@pytest.mark.parametrize("path, wrong, message", [
    (("days",), ["dawn"], "(top).days: must be a dict"),
    (("interactions",), ["union"], "(top).interactions: must be a dict"),
    (("abilities",), "valor", "(top).abilities: must be a dict"),
    (("flags",), ["fatigued"], "(top).flags: must be a dict"),
    (("inert_cannot",), "run", "(top).inert_cannot: must be a list"),
    (("states", "grave"), ["wounded"], "states.grave: must be a mapping"),
    (("states", "grave", "can"), "speak", "states.grave.can: must be a list"),
    (("points", "coraje", "zero_in"), "dead", "points.coraje.zero_in: must be a list"),
    (("points", "coraje", "base"), ["$coraje_base"], "points.coraje.base: must be a int or float or str"),
    (("abilities", "tirador", "overrides"), 3, "abilities.tirador.overrides: must be a dict"),
    (("body", "zones", "head"), "torso", "body.zones.head: must be a mapping"),
    (("load", "cannot"), ["run"], "load.cannot: must be a dict"),
    (("timers", "paralysis", "on_expire"), ["x"], "timers.paralysis.on_expire: must be a dict"),
])
def test_a_section_or_field_of_the_wrong_shape_names_its_path(path, wrong, message):
    data = ruleset_data("septenario_es")
    replaced_data = replaced(data, path, wrong)
    assert load_or_refusal("septenario_es", replaced_data) == f"septenario_es_shape.yaml: {message}"


def test_an_empty_section_stands_for_none():
    data = ruleset_data("septenario_es")
    data["traits"] = None
    assert load_or_refusal("septenario_es", data) is None


def test_a_condition_or_a_name_given_in_the_wrong_shape_names_its_element():
    data = ruleset_data("septenario_es")
    knocked_out = data["timers"]["knockout"]["on_expire"]["unconscious"]
    index, element = next((i, e) for i, e in enumerate(knocked_out)
                          if isinstance(e, dict) and "when_value_is" in next(iter(e.values())))
    name = next(iter(element))
    condition = replaced(data, ("timers", "knockout", "on_expire", "unconscious", index, name,
                                "when_value_is"), 3)
    assert load_or_refusal("septenario_es", condition) == (
        f"septenario_es_shape.yaml: timers.knockout.on_expire.unconscious[{index}]"
        f".{name}.when_value_is: must be a dict")

    death = data["timers"]["death"]["on_expire"]["incapacitated"]
    index = next(i for i, e in enumerate(death) if isinstance(e, dict) and "enter" in e)
    state = replaced(data, ("timers", "death", "on_expire", "incapacitated", index, "enter"),
                     ["dead"])
    assert load_or_refusal("septenario_es", state) == (
        f"septenario_es_shape.yaml: timers.death.on_expire.incapacitated[{index}]"
        ".enter.state: must be a str")
