"""septenario_es: what a character can and cannot do, as the phone lists it: its state's
lists (the agony still uses objects and crawls [L41]), its inert minute (a paralysis takes
everything), its hunger (weak: no running [L15]) and its Carga (overloaded: no running;
beyond: no moving at all [L26]). Times are game seconds."""
import pytest

from septenario_world import RS, act, hit, rules  # noqa: F401 (rules is a fixture)


def able(rules, state, at, **more):
    can, cannot = rules.capabilities(state, at, **more)
    return set(can), set(cannot)


def test_L41_the_agony_allows_objects_and_crawling(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="torso")
    can, cannot = able(rules, s, 100.0)
    assert can == {"objects", "crawl"}
    assert cannot == {"run", "walk", "fight", "traits", "first_aid"}


def test_L41_a_paralysed_character_in_agony_cannot_crawl_or_use_objects(rules):
    s = act(rules, rules.initial_state(), "trap_simple", 100.0, leaves="paralysed")
    s = hit(rules, s, 110.0, location="torso")
    can, cannot = able(rules, s, 110.0)
    assert not can and {"objects", "crawl", "run", "walk"} <= cannot
    assert able(rules, s, 100.0 + 300)[0] == {"objects", "crawl"}    # the paralysis is over


@pytest.mark.parametrize("status", ["unconscious", "dying", "coma", "dead"])
def test_L41_the_unconscious_and_the_dead_do_not_crawl(rules, status):
    s = act(rules, rules.initial_state(), "set_state", 100.0, state=status)
    can, cannot = able(rules, s, 100.0)
    assert not can and "crawl" in cannot


def test_L15_weakness_takes_running_away(rules):
    s = act(rules, rules.initial_state(), "day_end", 100.0)
    assert s.values["hungry"] is True and "run" in able(rules, s, 100.0)[0]
    s = act(rules, s, "day_end", 200.0)
    assert s.values["weak"] is True
    can, cannot = able(rules, s, 200.0)
    assert "run" in cannot and "run" not in can and "walk" in can
    assert RS.value_cannot == {"weak": ["run"]}


@pytest.mark.parametrize("load, taken", [("normal", set()), ("overloaded", {"run"}),
                                          ("immobile", {"run", "walk", "crawl"})])
def test_L26_the_load_takes_movement_away(rules, load, taken):
    s = rules.initial_state()
    can, cannot = able(rules, s, 0.0, load=load)
    assert taken <= cannot and not taken & can
    assert RS.load["cannot"].get(load, []) == sorted(taken, key=["run", "walk", "crawl"].index)

