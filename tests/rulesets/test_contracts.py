"""Declared contracts (rulesets/contracts.py): every option a ruleset offers is read by its
rules or by a feature it has, every key a feature relies on exists, and the code reads
options only through Rules.option, which refuses one the ruleset does not declare."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rulesets import Rules, RulesetError, UnknownOption, get_ruleset, load_ruleset
from rulesets.contracts import FEATURES
from rulesets.loader import DATA_DIR

ROOT = Path(__file__).resolve().parents[2]
APP_DIRS = ("rulesets", "effects", "combat", "players", "race", "health", "push")


def _data(key: str) -> dict:
    return yaml.safe_load((DATA_DIR / f"{key}.yaml").read_text(encoding="utf-8"))


def _load(tmp_path, key: str, data: dict):
    path = tmp_path / f"{key}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return load_ruleset(path)


def test_an_option_nothing_reads_fails_the_load_naming_it_and_the_file(tmp_path):
    data = _data("zombie_race")
    data["options"]["race"]["zombies_wear_masks"] = True
    with pytest.raises(RulesetError, match=r"^zombie_race\.yaml: options\.zombies_wear_masks: "
                                           r"declared but nothing reads it"):
        _load(tmp_path, "zombie_race", data)


def test_an_option_of_a_feature_the_ruleset_lacks_is_unread(tmp_path):
    data = _data("gn_fr")
    data["features"].remove("psych_traits")
    with pytest.raises(RulesetError, match=r"gn_fr\.yaml: options\.psych_traits: declared but "
                                           r"nothing reads it"):
        _load(tmp_path, "gn_fr", data)


def test_a_key_a_feature_relies_on_fails_the_load_when_missing(tmp_path):
    data = _data("airsoft_rats")
    del data["actions"]["game_started"]
    with pytest.raises(RulesetError, match=r"airsoft_rats\.yaml: actions\.game_started: missing: "
                                           r"the 'games' feature \(schedule/services/games\.py, schedule/selectors\.py\) relies on it"):
        _load(tmp_path, "airsoft_rats", data)


def test_a_missing_option_of_a_feature_fails_the_load(tmp_path):
    data = _data("zombie_race")
    del data["options"]["race"]["time_zone"]
    with pytest.raises(RulesetError, match=r"options\.time_zone: missing: the 'race' feature"):
        _load(tmp_path, "zombie_race", data)


def test_an_unknown_feature_fails_the_load(tmp_path):
    data = _data("zombie_race")
    data["features"].append("jetpacks")
    with pytest.raises(RulesetError, match=r"features: unknown feature 'jetpacks'"):
        _load(tmp_path, "zombie_race", data)


def test_a_feature_is_had_by_its_section_or_by_name():
    assert get_ruleset("septenario_es").has("body_hits")        # its `body` section
    assert get_ruleset("airsoft_rats").has("heals")             # interactions.heal
    assert get_ruleset("zombie_race").has("race")               # named under features
    assert not get_ruleset("gn_fr").has("race")


def test_reading_an_undeclared_option_names_it_and_the_ruleset():
    rs = get_ruleset("gn_fr")
    rules = Rules(rs, rs.merged_options({}))
    assert rules.option("never_improve") is True and rules.option("$never_improve") is True
    with pytest.raises(UnknownOption, match="ruleset gn_fr has no option 'lives_initial'"):
        rules.option("lives_initial")


def _source(module: str) -> str:
    path = ROOT / module
    assert path.exists(), f"rulesets/contracts.py names {module}, which is not there: update used_by"
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(FEATURES))
def test_each_feature_names_modules_that_use_its_keys(name):
    """The table stays honest: every key a feature declares is named in a module it says
    uses it, and those modules read options through the accessor."""
    feature = FEATURES[name]
    sources = {module: _source(module) for module in feature.used_by}
    for kind in ("options", "states", "actions", "values"):
        for key in getattr(feature, kind):
            assert any(re.search(rf"[\"'`]{key}[\"'`]", text) for text in sources.values()), \
                f"{name}: {kind[:-1]} '{key}' is named in none of {', '.join(feature.used_by)}"
    if feature.options:
        assert any(".option" in text for text in sources.values()), \
            f"{name}: none of {', '.join(feature.used_by)} reads options through Rules.option"


def test_no_app_code_reads_options_with_a_silent_default():
    silent = re.compile(r"options\.get\(|\.options\[")
    found = [f"{path.relative_to(ROOT)}:{n}"
             for folder in APP_DIRS for path in (ROOT / folder).rglob("*.py")
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if silent.search(line) and "migrations" not in path.parts]
    # The accessors themselves (Rules.option, Ruleset.default) are the places that index them.
    accessors = ("rulesets/engine.py:", "rulesets/loader.py:")
    assert all(place.startswith(accessors) for place in found), found


def test_a_worsening_entry_needs_the_never_improve_option(tmp_path):
    data = _data("gn_fr")
    del data["options"]["combat"]["never_improve"]
    with pytest.raises(RulesetError, match=r"enter\.worsening: reads the option 'never_improve'"):
        _load(tmp_path, "gn_fr", data)
