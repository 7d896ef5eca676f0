"""septenario_es: where a blow counts (Norma de combate [L29]: not the head, the neck or
the hand holding a weapon, but a ranged hit anywhere, the head as torso), the firearm's
conditions that make a shot miss [L30] and the unarmed Golpe Mortal's half minute after
the words [L44]. Times are game seconds."""
import pytest

from common.i18n import refusal_text
from rulesets import RuleRefused
from septenario_world import RS, SHEET, hit, incapacitated_at, make_rules, rules  # noqa: F401


@pytest.mark.parametrize("where", ["head", "neck", "left_weapon_hand", "right_weapon_hand"])
@pytest.mark.parametrize("weapon", ["standard", "heavy", "wooden"])
def test_L29_a_melee_blow_to_an_excluded_zone_does_not_count(rules, where, weapon):
    s = rules.initial_state()
    with pytest.raises(RuleRefused) as refused:
        rules.apply(s, SHEET, "hit", 100.0, params={"location": where, "weapon": weapon})
    assert refused.value.code == "hit_not_valid"
    assert rules.initial_state() == s                       # nothing changes, not the Conflict


def test_L29_the_refusal_names_the_zone_in_every_language(rules):
    with pytest.raises(RuleRefused) as refused:
        rules.apply(rules.initial_state(), SHEET, "hit", 1.0, params={"location": "right_weapon_hand"})
    assert "la mano que empuña un arma" in refusal_text(refused.value, "es")
    assert "la main qui tient une arme" in refusal_text(refused.value, "fr")
    assert "the hand holding a weapon" in refusal_text(refused.value, "en")
    with pytest.raises(RuleRefused) as neck:
        rules.apply(rules.initial_state(), SHEET, "hit", 1.0, params={"location": "neck"})
    assert "el cuello" in refusal_text(neck.value, "es")


@pytest.mark.parametrize("where, lands", [("head", "torso"), ("neck", "torso")])
def test_L29_a_ranged_hit_to_the_head_or_neck_counts_as_torso(rules, where, lands):
    s = hit(rules, rules.initial_state(), 100.0, location=where, weapon="missile")
    assert s.status == "incapacitated"
    assert [p["location"] for p in s.values["damage"]] == [lands]


@pytest.mark.parametrize("where, arm", [("left_weapon_hand", "left_arm"),
                                        ("right_weapon_hand", "right_arm")])
def test_L29_a_ranged_hit_on_the_weapon_hand_disables_its_arm(rules, where, arm):
    s = hit(rules, rules.initial_state(), 100.0, location=where, weapon="missile")
    assert s.status == "wounded"
    assert s.values["limbs"] == {arm: "useless"}


def test_L29_a_blow_on_the_free_arm_still_disables_it(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="left_arm", weapon="standard")
    assert s.status == "wounded" and s.values["limbs"] == {"left_arm": "useless"}


def test_L29_an_organiser_may_let_the_weapon_hand_count_as_the_arm():
    rules = make_rules(valid_melee_excludes=["head", "neck"])
    s = hit(rules, rules.initial_state(), 100.0, location="right_weapon_hand", weapon="standard")
    assert s.status == "wounded" and s.values["limbs"] == {"right_arm": "useless"}


def test_L29_the_phone_offers_every_zone_of_the_body():
    choices = RS.actions["hit"]["params"]["location"]["choices"]
    assert set(RS.body["zones"]) <= set(choices)
    assert {z["zone"] for z in RS.body["zones"].values()} == set(RS.options["valid_melee_excludes"])


def test_L30_the_firearm_names_the_conditions_that_make_it_miss():
    misses = RS.interactions["firearm"]["misses_if"]
    assert set(misses) == {"moving", "one_handed", "fighting", "total_cover"}
    assert misses["total_cover"]["labels"]["es"] == "el objetivo tenía cobertura total"


# -- TS7 / E11: the unarmed Golpe Mortal ----------------------------------------------------

def test_L44_unarmed_the_half_minute_follows_the_words(rules):
    assert RS.options["golpe_mortal_unarmed_after_words"] is True
    assert rules.duration("golpe_mortal", level=None, params={"armed": False}) == 32.0
    s = incapacitated_at(rules, 100.0)
    dead = rules.apply(s, SHEET, "golpe_mortal", 132.0, params={"armed": False}).state
    assert dead.status == "dead"


def test_L44_the_other_reading_counts_the_half_minute_from_preparo():
    rules = make_rules(golpe_mortal_unarmed_after_words=False)
    assert rules.duration("golpe_mortal", level=None, params={"armed": False}) == 30.0
    assert rules.duration("golpe_mortal", level=None, params={"armed": True}) == 2.0
