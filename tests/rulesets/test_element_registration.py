"""A rule element added for a new ruleset (rulesets/elements.py `@element`) is checked like the
shipped ones when a ruleset file is loaded, and runs when the file says so: its main
parameter may be written alone, a missing or unknown parameter fails at load with the
place it is written, a list of elements it takes is checked too, and an element whose
parameters are value names accepts only declared values.

The shipped elements are registered when the package is imported, before any test runs;
these register theirs in the test, and remove them after it."""
import json

import pytest
import yaml

from rulesets import Rules, RulesetError, load_ruleset
from rulesets.elements import ELEMENTS, element, run_elements, set_values
from rulesets.loader import DATA_DIR

SHEET = {"combat_base": 2}


@pytest.fixture
def new_elements():
    """`raise_flag: value` sets a flag, then runs its `then` list; `note` sets declared
    values, as `set_values` does."""
    @element("raise_flag", primary="value", required={"value"}, optional={"then"},
             nested={"then"})
    def raise_flag(work, value, then=None):
        set_values(work, **{value: True})
        run_elements(work, then or [])

    @element("note", free_params=True)
    def note(work, **values):
        set_values(work, **values)

    yield
    ELEMENTS.pop("raise_flag", None)
    ELEMENTS.pop("note", None)


def gn_fr_with(*elements) -> dict:
    """gn_fr.yaml as plain data, a stunning hit on a healthy character also running `elements`."""
    data = json.loads(json.dumps(yaml.safe_load((DATA_DIR / "gn_fr.yaml").read_text(encoding="utf-8"))))
    data["actions"]["hit_stunning"]["outcomes"]["healthy"] += list(elements)
    return data


def load(tmp_path, data, name="gn_fr_new_elements.yaml"):
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return load_ruleset(path)


def load_error(tmp_path, data) -> str:
    with pytest.raises(RulesetError) as refused:
        load(tmp_path, data)
    return str(refused.value)


WHERE = "actions.hit_stunning.outcomes.healthy[2]"   # after the two elements gn_fr has there


def test_a_new_element_loads_and_runs_as_the_file_writes_it(tmp_path, new_elements):
    ruleset = load(tmp_path, gn_fr_with(
        {"raise_flag": "out_of_game"},                                   # its main parameter
        {"raise_flag": {"value": "naked", "then": [{"note": {"wearing_koc": True}}]}}))
    rules = Rules(ruleset, ruleset.merged_options({}))
    s = rules.apply(rules.initial_state(), SHEET, "hit_stunning", 100.0).state
    assert s.values["out_of_game"] is True and s.values["naked"] is True
    assert s.values["wearing_koc"] is True


def test_a_new_element_without_its_required_parameter_fails_at_load(tmp_path, new_elements):
    message = load_error(tmp_path, gn_fr_with({"raise_flag": {"then": []}}))
    assert f"{WHERE}.raise_flag" in message and "missing parameter 'value'" in message


def test_a_new_element_with_an_unknown_parameter_fails_at_load(tmp_path, new_elements):
    message = load_error(tmp_path, gn_fr_with({"raise_flag": {"value": "naked", "loudly": True}}))
    assert f"{WHERE}.raise_flag" in message and "unknown parameter 'loudly'" in message


def test_the_list_a_new_element_takes_is_checked_at_load(tmp_path, new_elements):
    message = load_error(tmp_path, gn_fr_with(
        {"raise_flag": {"value": "naked", "then": [{"raise_flagg": "naked"}]}}))
    assert f"{WHERE}.raise_flag.then[0]" in message
    assert "unknown rule element 'raise_flagg'" in message


def test_a_new_element_that_sets_values_accepts_only_declared_ones(tmp_path, new_elements):
    message = load_error(tmp_path, gn_fr_with({"note": {"wearing_koc": True, "cloak": True}}))
    assert f"{WHERE}.note" in message and "unknown value 'cloak'" in message
