"""What the septenario_es rules tests share: the ruleset, sheets, and short ways to hit,
act and read Trauma and Coraje. Every time is a game second."""
import pytest

from rulesets import Rules, get_ruleset

RS = get_ruleset("septenario_es")
MIN = 60.0
HOUR = 3600.0

SHEET = {"trauma": 3, "coraje": 1}
LAST_TRAUMA = {"trauma": 1, "coraje": 1}
FIRST_AIDER = {"trauma": 3, "coraje": 0, "abilities": ["primeros_auxilios"]}
DOCTOR = {"trauma": 3, "coraje": 0, "abilities": ["medicina"]}


def make_rules(**overrides) -> Rules:
    return Rules(RS, RS.merged_options(overrides))


@pytest.fixture
def rules() -> Rules:
    return make_rules()


def hit(rules, current, at, sheet=SHEET, **params):
    return rules.apply(current, sheet, "hit", at, params=params).state


def act(rules, current, action, at, sheet=SHEET, actor=None, **params):
    return rules.apply(current, sheet, action, at, params=params or None, actor_sheet=actor).state


def trauma(rules, state, sheet=SHEET):
    return rules.point_value(state, sheet, "trauma")


def coraje(rules, state, sheet=SHEET):
    return rules.point_value(state, sheet, "coraje")


def transitions(events):
    return [(e["from"], e["to"], e["at"]) for e in events if e["kind"] == "transition"]


def incapacitated_at(rules, at, sheet=SHEET):
    """A torso wound at `at`: Incapacitado, agony until at + 5 min."""
    return hit(rules, rules.initial_state(), at, sheet, location="torso")


def dying_at(rules, at):
    """The last Trauma point lost at `at`: unconscious, dying until at + 5 min (S4)."""
    return hit(rules, rules.initial_state(), at, LAST_TRAUMA, location="torso")


def grave_at(rules, at, sheet=SHEET):
    """Incapacitated at `at`, First Aid completed at `at + 30`: Grave."""
    s = incapacitated_at(rules, at, sheet)
    return act(rules, s, "first_aid", at + 30, sheet, actor=FIRST_AIDER)
