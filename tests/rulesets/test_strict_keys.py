"""A misspelt key anywhere in a ruleset file fails the load, naming the file and the path
(rulesets/keys.py): each mapping with fixed keys has its list, and a copy of a shipped
ruleset with one key misspelt in that mapping is refused."""
from __future__ import annotations

import pytest
from ruleset_copies import load_error, node_at, ruleset_data

from rulesets import load_ruleset
from rulesets.loader import DATA_DIR


def misspell(mapping: dict, right: str, wrong: str) -> None:
    """Rename one key, keeping its value (a typo in the file)."""
    mapping[wrong] = mapping.pop(right)


# (ruleset, path of the mapping in the file, the key as it should be, as misspelt, path named)
CASES = [
    ("gn_fr", [], "interactions", "interacions", "(top)"),
    ("gn_fr", ["states", "tired"], "on_reenter", "on_renter", "states.tired"),
    ("gn_fr", ["timers", "recover"], "on_expire", "on_expiry", "timers.recover"),
    ("gn_fr", ["actions", "first_aid"], "kit", "kits", "actions.first_aid"),
    ("gn_fr", ["actions", "first_aid"], "duration_s", "duration_secs", "actions.first_aid"),
    ("gn_fr", ["actions", "surgery", "params", "calm_place"], "type", "kind",
     "actions.surgery.params.calm_place"),
    ("gn_fr", ["actions", "surgery", "requires", 0], "refusal", "refuse",
     "actions.surgery.requires[0]"),
    ("gn_fr", ["points", "combat_score"], "recovers_with", "recover_with", "points.combat_score"),
    ("gn_fr", ["capabilities", "fight"], "labels", "label", "capabilities.fight"),
    ("gn_fr", ["skills", "first_aid"], "levels", "level", "skills.first_aid"),
    ("gn_fr", ["kits", "kps"], "labels", "lables", "kits.kps"),
    ("septenario_es", ["abilities", "primeros_auxilios"], "skill", "skills",
     "abilities.primeros_auxilios"),
    ("septenario_es", ["catalogue", "muerte"], "explains", "explain", "catalogue.muerte"),
    ("septenario_es", ["body"], "zones", "zone", "body"),
    ("septenario_es", ["body", "zones", "head"], "counts_as", "count_as", "body.zones.head"),
    ("septenario_es", ["load"], "overload_margin", "overload", "load"),
    ("septenario_es", ["days"], "dawn", "dawns", "days"),
    ("gn_fr", ["interactions", "acharnement", "kinds"], None, None,
     "interactions.acharnement.kinds"),
    ("gn_fr", ["interactions", "duel"], "confirm_within_s", "confirm_in_s", "interactions.duel"),
]


@pytest.mark.parametrize("key, path, right, wrong, named", CASES,
                         ids=[f"{case[4]}:{case[3]}" for case in CASES])
def test_a_misspelt_key_fails_the_load_naming_file_and_path(tmp_path, key, path, right, wrong,
                                                            named):
    data = ruleset_data(key)
    mapping = node_at(data, path)
    if right is None:                         # inside each kind of an acharnement
        kind = next(iter(mapping))
        mapping, right, wrong, named = mapping[kind], "victim_in", "victims_in", f"{named}.{kind}"
    assert right in mapping                    # the shipped file has the key being misspelt
    misspell(mapping, right, wrong)

    message = load_error(tmp_path, data, f"{key}_typo.yaml")

    assert message.startswith(f"{key}_typo.yaml: {named}: "), message
    assert f"'{wrong}'" in message


def test_a_shot_that_misses_names_its_labels_only(tmp_path):
    data = ruleset_data("septenario_es")
    misses = data["interactions"]["firearm"]["misses_if"]
    name = next(iter(misses))
    misses[name]["label"] = misses[name]["labels"]
    message = load_error(tmp_path, data, "septenario_typo.yaml")
    assert message.startswith(f"septenario_typo.yaml: interactions.firearm.misses_if.{name}: "
                              "unknown key 'label'"), message


def test_labels_hold_the_three_languages_and_nothing_else(tmp_path):
    data = ruleset_data("gn_fr")
    data["states"]["wounded"]["labels"]["eng"] = "Wounded"
    message = load_error(tmp_path, data, "gn_fr_typo.yaml")
    assert message == ("gn_fr_typo.yaml: states.wounded.labels: unknown language 'eng' "
                       "(labels hold fr, es, en)")


def test_a_misspelt_option_fails_as_nothing_reads_it(tmp_path):
    """Options are names the file chooses: a misspelt one is an option that no rule reads
    (and the rule that read the right name names an unknown option)."""
    data = ruleset_data("gn_fr")
    misspell(data["options"]["timers"], "tired_inert_s", "tired_inert_secs")
    message = load_error(tmp_path, data, "gn_fr_typo.yaml")
    assert message.startswith("gn_fr_typo.yaml: "), message
    assert "tired_inert_s" in message


@pytest.mark.parametrize("key", ["gn_fr", "septenario_es", "airsoft_rats", "zombie_race"])
def test_every_shipped_ruleset_holds_only_known_keys(key):
    assert load_ruleset(DATA_DIR / f"{key}.yaml").key == key
