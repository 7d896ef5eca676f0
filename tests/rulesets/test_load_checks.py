"""The load checks of the sections only some rulesets have (rulesets/checks.py
check_extras: abilities, catalogue, body, load, days, effect_default), and what the loader
reads of them: a broken copy of a shipped ruleset is refused with the file, the exact
path and the problem; an unbroken one keeps each section as the file wrote it."""
from __future__ import annotations

import pytest
from ruleset_copies import LANGUAGES, drop, loaded, put, refusal, ruleset_data

from rulesets import get_ruleset
from rulesets.checks import data_reads
from rulesets.contracts import FEATURES, Feature, features_of


# -- each broken section is refused, naming its exact path -----------------------------

SECTIONS = [
    # abilities (Rasgos): labels, explanation, the skill granted, the options overridden
    (put("abilities", "primeros_auxilios", "skill", "juggling"),
     "abilities.primeros_auxilios.skill: unknown skill 'juggling'"),
    (drop("abilities", "fuerza", "labels"), "abilities.fuerza: missing field 'labels'"),
    (drop("abilities", "fuerza", "explains"), "abilities.fuerza: missing field 'explains'"),
    (drop("abilities", "fuerza", "labels", "es"), f"abilities.fuerza.labels: {LANGUAGES}"),
    (drop("abilities", "fuerza", "explains", "en"), f"abilities.fuerza.explains: {LANGUAGES}"),
    (put("abilities", "tirador", "overrides", {"firearm_rang_m": 15}),
     "abilities.tirador.overrides: unknown option 'firearm_rang_m'"),
    # the effects catalogue: each entry's state or action exists
    (put("catalogue", "muerte", "action", "muerto"), "catalogue.muerte.action: unknown action 'muerto'"),
    (put("catalogue", "derribo", "set_state", "tumbado"),
     "catalogue.derribo.set_state: unknown state 'tumbado'"),
    (drop("catalogue", "derribo", "labels"), "catalogue.derribo: missing field 'labels'"),
    (drop("catalogue", "derribo", "explains", "fr"), f"catalogue.derribo.explains: {LANGUAGES}"),
    # the body map: locations, the values it keeps, the zones that count as a location
    (drop("body", "locations"), "body: missing field 'locations'"),
    (put("body", "locations", ["torso", "left_arm"]), "body.locations: must be a dict"),
    (drop("body", "locations", "torso", "es"), f"body.locations.torso: {LANGUAGES}"),
    (drop("body", "limbs_value"), "body: missing field 'limbs_value'"),
    (drop("body", "damage_value"), "body: missing field 'damage_value'"),
    (put("body", "limbs_value", "arms_and_legs"), "body.limbs_value: unknown value 'arms_and_legs'"),
    (put("body", "damage_value", "harm"), "body.damage_value: unknown value 'harm'"),
    (drop("body", "zones", "head", "labels"), "body.zones.head: missing field 'labels'"),
    (drop("body", "zones", "head", "labels", "fr"), f"body.zones.head.labels: {LANGUAGES}"),
    (drop("body", "zones", "neck", "zone"), "body.zones.neck: missing field 'zone'"),
    (put("body", "zones", "neck", "zone", 3), "body.zones.neck.zone: must be a str"),
    (drop("body", "zones", "head", "counts_as"), "body.zones.head: missing field 'counts_as'"),
    (put("body", "zones", "head", "counts_as", "belly"),
     "body.zones.head.counts_as: unknown location 'belly'"),
    # Carga: capacity, margin and default load name options; what each level forbids
    (drop("load", "capacity"), "load: missing field 'capacity'"),
    (drop("load", "default_item_load"), "load: missing field 'default_item_load'"),
    (put("load", "overload_margin", "$carga_margin"),
     "load.overload_margin: unknown option 'carga_margin'"),
    (put("load", "cannot", "flying", ["run"]),
     "load.cannot.flying: a load level: normal, overloaded, immobile"),
    (put("load", "cannot", "overloaded", ["run", "fly"]),
     "load.cannot.overloaded: a list of capabilities of this ruleset"),
    (put("load", "cannot", "immobile", "run"),
     "load.cannot.immobile: a list of capabilities of this ruleset"),
    # days: the actions the organisers' schedule runs
    (put("days", "dawn", "sunrise"), "days.dawn: 'sunrise' must be an action declared_by rules"),
    (put("days", "day_end", "hit"), "days.day_end: 'hit' must be an action declared_by rules"),
    # the standard duration of an effect
    (put("effect_default", "forever"), "effect_default: either absent (until removed) or 'conflict'"),
]


@pytest.mark.parametrize("change, expected", SECTIONS, ids=[e.split(": ")[0] + ": " + e.split(": ")[1]
                                                            for _, e in SECTIONS])
def test_a_broken_section_is_refused_naming_its_exact_path_and_problem(tmp_path, change, expected):
    assert refusal(tmp_path, "septenario_es", change) == expected


def test_an_ability_or_catalogue_entry_may_leave_out_what_it_names(tmp_path):
    """`skill`, `set_state`, `action` are checked only when given (Fuerza grants no skill)."""
    def change(data):
        del data["abilities"]["primeros_auxilios"]["skill"]
        del data["catalogue"]["muerte"]["action"]
    rs = loaded(tmp_path, "septenario_es", change)
    assert "skill" not in rs.abilities["primeros_auxilios"]
    assert "action" not in rs.catalogue["muerte"]


def test_a_body_without_zones_loads(tmp_path):
    rs = loaded(tmp_path, "septenario_es", drop("body", "zones"))
    assert set(rs.body["locations"]) == {"left_arm", "right_arm", "left_leg", "right_leg", "torso"}


def test_load_without_levels_it_forbids_loads(tmp_path):
    rs = loaded(tmp_path, "septenario_es", drop("load", "cannot"))
    assert rs.load["capacity"] == "$carga_capacity"


# -- what the loader keeps of them --------------------------------------------------------

@pytest.mark.parametrize("section", ["abilities", "catalogue", "body", "load", "days",
                                     "effect_default"])
def test_the_loaded_ruleset_keeps_each_section_as_the_file_wrote_it(section):
    written = ruleset_data("septenario_es")[section]
    assert written                                     # the shipped file has the section
    assert getattr(get_ruleset("septenario_es"), section) == written


def test_a_ruleset_without_those_sections_loads_them_empty():
    rs = get_ruleset("gn_fr")
    assert (rs.abilities, rs.catalogue, rs.body, rs.load, rs.days) == ({}, {}, {}, {}, {})
    assert rs.effect_default is None



# -- the options the rules read (checks.data_reads, check_contracts) ----------------------

@pytest.mark.parametrize("node, reads", [
    ("$union_ratio", {"union_ratio"}),
    ("$a", {"a"}),                                     # a one-letter option is an option
    ("$1st", set()),                                   # not a name: not an option
    ("$", set()),
    ("plain", set()),
    (["$x", {"after": {"by_level": {"novice": "$y"}}}], {"x", "y"}),
    ({"when_option": "never_improve"}, {"never_improve"}),
    ({"unless_option": "o1", "states_option": "o2", "enabled_by": "o3"}, {"o1", "o2", "o3"}),
    ({"when_option": {"not": "a name"}}, set()),
    ({"enter": "coma"}, set()),                        # a state entered is no option
    ({"remember": "recovery_held", "timer": "recover"}, set()),
    ({"when_option_is": {"first_aid_stack": "max", "tired_retrigger": "restart"}},
     {"first_aid_stack", "tired_retrigger"}),
    ({"when_option_has": {"o1": "x"}, "unless_option_has": {"o2": "y"}}, {"o1", "o2"}),
    ({"when_option_is": "first_aid_stack"}, set()),
    ({"set_values": {"combat_loss": 0, "naked": False}}, set()),   # values set are no options
    ({"when_value_is": {"knockout_return": "unharmed"}}, set()),
    ({"enter": {"state": "tired", "worsening": True}}, {"never_improve"}),
    ({"enter": {"state": "tired", "worsening": False}}, set()),
])
def test_the_options_a_rule_reads_are_its_dollar_names_and_option_conditions(node, reads):
    assert data_reads(node) == reads


def test_the_options_read_add_to_those_already_found():
    found = {"before"}
    assert data_reads({"x": "$after"}, found) == {"before", "after"}
    assert found == {"before", "after"}


UNREAD = ("declared but nothing reads it: no rule in this file and no feature of this "
          "ruleset (rulesets/contracts.py)")


@pytest.mark.parametrize("option", ["coma", "naked", "recovery_held", "combat_base"])
def test_an_option_named_like_a_state_or_value_the_rules_use_is_still_unread(tmp_path, option):
    assert refusal(tmp_path, "gn_fr", put("options", "misc", option, 1)) == f"options.{option}: {UNREAD}"


@pytest.mark.parametrize("group", ["when_option_is", "worsening", "when_option"])
def test_the_options_section_reads_no_option_whatever_its_groups_are_named(tmp_path, group):
    """Only the rules read options: a group of options named like a condition reads none."""
    def change(data):
        data["options"][group] = {"spare_option": 1}
    assert refusal(tmp_path, "gn_fr", change) == f"options.spare_option: {UNREAD}"


def test_an_option_default_naming_another_option_does_not_read_it(tmp_path):
    """`$name` in the options (or among their choices) is a default, not a rule reading it."""
    def change(data):
        data["options"]["misc"]["spare_option"] = 1
        data["options"]["timers"]["tired_recovery_from"] = "$spare_option"
        data["option_choices"]["tired_recovery_from"] = ["$spare_option", "entry", "inert_end"]
    assert refusal(tmp_path, "gn_fr", change) == f"options.spare_option: {UNREAD}"


def test_an_unknown_feature_is_refused_naming_those_known(tmp_path):
    known = ", ".join(sorted(FEATURES))
    assert refusal(tmp_path, "gn_fr", lambda data: data["features"].append("jetpacks")) == (
        f"features: unknown feature 'jetpacks' (known: {known})")


BODY_HITS = "the 'body_hits' feature (rulesets/body.py, health/body.py, rulesets/sheet.py) relies on it"


@pytest.mark.parametrize("change, expected", [
    (drop("values", "conflict_until"), f"values.conflict_until: missing: {BODY_HITS}"),
    (drop("options", "combat", "armour_heavy"), f"options.armour_heavy: missing: {BODY_HITS}"),
    (drop("options", "combat", "misfire_keeps_bullet"),
     "options.misfire_keeps_bullet: missing: the 'misfires' feature (combat/services/firearms.py) relies on it"),
    (drop("actions", "set_state"),
     "actions.set_state: missing: the 'stated_state' feature (effects/services/effects.py) relies on it"),
])
def test_a_key_a_feature_of_the_ruleset_relies_on_must_be_declared(tmp_path, change, expected):
    assert refusal(tmp_path, "septenario_es", change) == expected


@pytest.fixture
def bites(monkeypatch):
    """A feature relying on a state, an action, a value and an option (none does yet)."""
    monkeypatch.setitem(FEATURES, "bites", Feature(used_by=("race/options.py",), states=("bitten",),
                                                   actions=("bite",), values=("bites",),
                                                   options=("bite_s",)))


def with_bites(data):
    """Names the 'bites' feature and declares every key it relies on."""
    data["features"].append("bites")
    data["states"]["bitten"] = {"labels": dict(data["states"]["dead"]["labels"]), "severity": 5}
    data["actions"]["bite"] = {"labels": dict(data["states"]["dead"]["labels"]),
                               "declared_by": ["rules"], "outcomes": {}}
    data["values"]["bites"] = 0
    data["options"]["misc"]["bite_s"] = 10           # read by the feature alone


@pytest.mark.parametrize("kind, key", [("states", "bitten"), ("actions", "bite"),
                                       ("values", "bites"), ("options", "bite_s")])
def test_each_kind_of_key_a_feature_relies_on_must_be_declared(tmp_path, bites, kind, key):
    def change(data):
        with_bites(data)
        drop(*(["options", "misc"] if kind == "options" else [kind]), key)(data)
    assert refusal(tmp_path, "gn_fr", change) == (
        f"{kind}.{key}: missing: the 'bites' feature (race/options.py) relies on it")


def test_a_ruleset_with_every_key_of_a_feature_has_it_and_its_options_are_read(tmp_path, bites):
    assert loaded(tmp_path, "gn_fr", with_bites).has("bites")


@pytest.mark.parametrize("data, features", [
    ({}, set()),
    ({"features": ["race", "games"]}, {"race", "games"}),
    ({"body": {"locations": {}}, "days": {"dawn": "dawn"}, "effect_default": "conflict"},
     {"body_hits", "days", "conflicts"}),
    ({"body": {}, "days": None, "effect_default": None}, set()),
    ({"interactions": {"heal": {"duration_s": 10}}}, {"heals"}),
    ({"interactions": {"heal": {}}}, set()),
    ({"interactions": {"duel": {"score": "combat_score"}}}, set()),
    ({"interactions": ["heal"]}, set()),                 # not a mapping: no interaction in it
    ({"interactions": "heal"}, set()),
    ({"interactions": None}, set()),
])
def test_a_ruleset_has_the_features_of_its_sections_and_those_it_names(data, features):
    assert features_of(data) == features


# -- where a timer leads (Ruleset.leads_to) ----------------------------------------------------

def test_a_timer_leads_to_the_state_its_expiry_enters_for_that_state():
    rs = get_ruleset("gn_fr")
    assert rs.leads_to("deadline", "wounded") == "coma"
    assert rs.leads_to("deadline", "coma") == "dead"
    assert rs.leads_to("corpse", "dead") is None            # sets a value, enters nothing
    assert rs.leads_to("deadline", "tired") is None          # no expiry for that state
    assert rs.leads_to("inert", "tired") is None             # no expiry at all
    assert rs.leads_to("combat_recovery", "wounded") is None  # "*" only sets a value


def test_a_timer_expiry_for_any_state_leads_where_no_state_of_its_own_is_listed(tmp_path):
    def change(data):
        data["timers"]["deadline"]["on_expire"]["*"] = [{"set_values": {"naked": False}},
                                                        {"enter": "dead"}]
    rs = loaded(tmp_path, "gn_fr", change)
    assert rs.leads_to("deadline", "tired") == "dead"
    assert rs.leads_to("deadline", "wounded") == "coma"      # its own entry wins
