"""Rule elements: each key a ruleset file may use in an outcome list, mapped to one small
handler. The loader checks every element against ELEMENTS, so an unknown key or a
misspelt parameter fails when the file is loaded, not in the middle of a game.

An element is written `name` (no parameters), `{name: scalar}` (its main parameter) or
`{name: {param: value, ...}}`. Any element also takes the conditions `when_option`,
`unless_option`, `when_value`, `unless_value`, `when_param` (a true action parameter) and
`when_option_is: {option: value}`.
Values may be `$option`, `@param` (from the action) or `{by_level: {level: value}}`
(the actor's skill level) or `{when_param: name, then: v, else: v}`.
"""
# Rule codes: docs/rules/gn_fr-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

CONDITIONS = {"when_option", "unless_option", "when_value", "unless_value", "when_option_is",
              "when_param", "when_at_least", "when_below", "when_option_has",
              "unless_option_has", "when_value_is", "unless_value_is", "when_param_is"}


@dataclass(frozen=True)
class ElementSpec:
    handler: Callable
    primary: str | None
    required: frozenset
    optional: frozenset
    free_params: bool = False  # parameters are arbitrary value keys (set_values)
    nested: frozenset = frozenset()  # parameters that are lists of elements


ELEMENTS: dict[str, ElementSpec] = {}


def element(name, *, primary=None, required=(), optional=(), free_params=False, nested=()):
    def register(fn):
        ELEMENTS[name] = ElementSpec(fn, primary, frozenset(required), frozenset(optional),
                                     free_params, frozenset(nested))
        return fn
    return register


class Work:
    """Scratch space for one step: a copy of the state that the elements change."""

    def __init__(self, rules, state, sheet, at, *, params=None, level=None, cause=""):
        self.rules = rules
        self.status = state.status
        self.timers = dict(state.timers)
        self.values = dict(state.values)
        self.sheet = sheet
        self.at = at
        self.params = params or {}
        self.level = level
        self.cause = cause
        self.events: list[dict] = []

    def result(self):
        from .engine import CharacterState
        return CharacterState(self.status, self.timers, self.values), self.events

    def resolve(self, value: Any) -> Any:
        if isinstance(value, str) and value.startswith("$"):
            return self.rules.option(value)
        if isinstance(value, str) and value.startswith("@"):
            return self.params.get(value[1:])
        if isinstance(value, dict) and "by_level" in value:
            return self.resolve(value["by_level"].get(self.level))
        if isinstance(value, dict) and "product" in value:
            result = 1
            for factor in value["product"]:
                result *= self.resolve(factor)
            return result
        if isinstance(value, dict) and "sum" in value:
            return sum(self.resolve(term) for term in value["sum"])
        if isinstance(value, dict) and "when_param" in value:
            branch = "then" if self.params.get(value["when_param"]) else "else"
            return self.resolve(value.get(branch))
        if isinstance(value, dict) and "when_option" in value:
            branch = "then" if self.rules.option(value["when_option"]) else "else"
            return self.resolve(value.get(branch))
        return value

    def allowed(self, conditions: dict) -> bool:
        option, values = self.rules.option, self.values
        if "when_option" in conditions and not option(conditions["when_option"]):
            return False
        if "unless_option" in conditions and option(conditions["unless_option"]):
            return False
        if "when_value" in conditions and not values.get(conditions["when_value"]):
            return False
        if "unless_value" in conditions and values.get(conditions["unless_value"]):
            return False
        if "when_param" in conditions and not self.params.get(conditions["when_param"]):
            return False
        for name, expected in (conditions.get("when_option_is") or {}).items():
            if option(name) != expected:
                return False
        for value, expected in (conditions.get("when_value_is") or {}).items():
            if values.get(value) != expected:
                return False
        for value, expected in (conditions.get("unless_value_is") or {}).items():
            if values.get(value) == expected:
                return False
        for param, expected in (conditions.get("when_param_is") or {}).items():
            if self.params.get(param) != expected:
                return False
        for value, limit in (conditions.get("when_at_least") or {}).items():
            if int(values.get(value) or 0) < int(self.resolve(limit)):
                return False
        for value, limit in (conditions.get("when_below") or {}).items():
            limit = self.resolve(limit)   # an option left at null sets no limit
            if limit is not None and int(values.get(value) or 0) >= int(limit):
                return False
        for name, member in (conditions.get("when_option_has") or {}).items():
            if member not in (option(name) or []):
                return False
        for name, member in (conditions.get("unless_option_has") or {}).items():
            if member in (option(name) or []):
                return False
        return True


def split_element(raw) -> tuple[str, dict]:
    """`name` | {name: scalar} | {name: {...}} -> (name, params)."""
    if isinstance(raw, str):
        return raw, {}
    (name, params), = raw.items()
    if not isinstance(params, dict):
        params = {ELEMENTS[name].primary: params} if name in ELEMENTS else {"_": params}
    return name, params


def run_elements(work: Work, elements: list) -> None:
    for raw in elements:
        name, params = split_element(raw)
        conditions = {k: params[k] for k in CONDITIONS & params.keys()}
        if not work.allowed(conditions):
            continue
        args = {k: v for k, v in params.items() if k not in CONDITIONS}
        ELEMENTS[name].handler(work, **args)


# -- the elements ------------------------------------------------------------------

@element("enter", primary="state", required={"state"}, optional={"worsening"})
def enter(work: Work, state: str, worsening: bool = False) -> None:
    """Move to a state and run its on_enter list. With `worsening`, a less severe state
    is not entered while the `never_improve` option holds (an outcome that "puts someone
    in state X" never heals them)."""
    target = work.resolve(state)
    states = work.rules.ruleset.states
    if worsening and work.rules.option("never_improve"):
        if states[target]["severity"] < states[work.status]["severity"]:
            return
    before = work.status
    work.status = target
    work.events.append({"kind": "transition", "from": before, "to": target, "at": work.at,
                        "cause": work.cause})
    key = "on_reenter" if before == target else "on_enter"
    run_elements(work, states[target].get(key, []))


@element("set_timer", required={"timer", "after"}, optional={"keep", "on_change"},
         nested={"on_change"})
def set_timer(work: Work, timer: str, after, keep: str = "replace",
              on_change: list | None = None) -> None:
    """Arm a timer `after` seconds from now; `keep: max|min` compares with a running one.
    `on_change` runs only when the deadline actually moved (e.g. a deadline kind)."""
    due = work.at + float(work.resolve(after))
    current = work.timers.get(timer)
    if current is not None and keep == "max":
        due = max(current, due)
    elif current is not None and keep == "min":
        due = min(current, due)
    if current != due:
        work.timers[timer] = due
        work.events.append({"kind": "timer_set", "timer": timer, "due": due, "at": work.at})
        run_elements(work, on_change or [])


@element("postpone_timer", required={"timer", "after", "remember"})
def postpone_timer(work: Work, timer: str, after, remember: str) -> None:
    """Hold a running timer back until at least `after` seconds from now (a recovery
    waits for the beating to end, A14), remembering in value `remember` where it stood
    and where it was moved to, so that `restore_timer` can undo it."""
    current = work.timers.get(timer)
    if current is None:
        return
    set_timer(work, timer, after, keep="max")
    set_values(work, **{remember: {"was": current, "moved_to": work.timers[timer]}})


@element("restore_timer", required={"timer", "remember"})
def restore_timer(work: Work, timer: str, remember: str) -> None:
    """Undo `postpone_timer` when what held the timer stops early: the timer comes back
    to where it stood (or now, if that has passed). A timer moved since by something else
    (a new fall re-arming the recovery) keeps its new deadline."""
    held = work.values.get(remember)
    if not held:
        return
    set_values(work, **{remember: None})
    if work.timers.get(timer) != held["moved_to"]:
        return
    work.timers[timer] = max(work.at, held["was"])
    work.events.append({"kind": "timer_set", "timer": timer, "due": work.timers[timer],
                        "at": work.at})


@element("clear_timer", primary="timer", required={"timer"})
def clear_timer(work: Work, timer: str) -> None:
    if work.timers.pop(timer, None) is not None:
        work.events.append({"kind": "timer_cleared", "timer": timer, "at": work.at})


@element("clear_timers", optional={"keep"})
def clear_timers(work: Work, keep: list | None = None) -> None:
    for timer in [t for t in work.timers if t not in (keep or [])]:
        clear_timer(work, timer)


@element("set_values", free_params=True)
def set_values(work: Work, **values) -> None:
    for key, value in values.items():
        resolved = work.resolve(value)
        if work.values.get(key) != resolved:
            work.values[key] = resolved
            work.events.append({"kind": "value_set", "key": key, "value": resolved,
                                "at": work.at})


@element("lose_points", required={"value", "amount", "base"}, optional={"at_zero", "above_zero"},
         nested={"at_zero", "above_zero"})
def lose_points(work: Work, value: str, amount, base: str, at_zero: list | None = None,
                above_zero: list | None = None) -> None:
    """Temporary loss of a sheet score (`base`), capped so that base - loss >= 0; then
    run `at_zero` if the score is at zero, else `above_zero`."""
    top = int(work.sheet.get(base, 0))
    loss = min(top, int(work.values.get(value, 0)) + int(work.resolve(amount)))
    set_values(work, **{value: loss})
    run_elements(work, (at_zero if top - loss <= 0 else above_zero) or [])


@element("reveal", required={"fields"})
def reveal(work: Work, fields: list) -> None:
    """Tell the actor (a medic) what the rules let them learn; the event goes to the
    actor only, never to the whole event."""
    known = {"state": work.status}
    work.events.append({"kind": "reveal", "at": work.at,
                        "revealed": {f: known[f] for f in fields}})


@element("remind", primary="text", required={"text"})
def remind(work: Work, text: dict) -> None:
    """A reminder for the player (return the KOC band to the organisers...)."""
    work.events.append({"kind": "reminder", "text": text, "at": work.at})


# Elements of rulesets with hit locations and armour (registered on import).
from . import body  # noqa: E402,F401
