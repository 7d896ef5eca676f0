"""The rules core: given a character's state, an action and a game time, compute the new
state and the events it caused; given a state and a game time, apply every timed
transition that is due.

Times are *game seconds* (play time since the event started, pauses excluded), always
passed in; the core never reads a clock.
"""
# Rule codes: docs/rules/gn_fr-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .elements import ELEMENTS, Work, run_elements
from .instants import DECLARED, expired
from .messages import RuleRefused

__all__ = ["CharacterState", "Outcome", "Rules", "RuleRefused", "UnknownOption"]


class UnknownOption(LookupError):
    """Code read an option its ruleset does not declare."""


@dataclass(frozen=True)
class CharacterState:
    status: str
    timers: dict[str, float] = field(default_factory=dict)  # timer key -> game second
    values: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"status": self.status, "timers": dict(self.timers), "values": dict(self.values)}

    @classmethod
    def from_json(cls, data: dict) -> "CharacterState":
        return cls(data["status"], dict(data.get("timers") or {}), dict(data.get("values") or {}))

    def next_deadline(self) -> float | None:
        return min(self.timers.values()) if self.timers else None


@dataclass
class Outcome:
    state: CharacterState
    events: list[dict] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.events)


class Rules:
    """A ruleset bound to one event's options."""

    def __init__(self, ruleset, options: dict, *, personal: bool = False):
        self.ruleset = ruleset
        self.options = options
        self.personal = personal  # already bound to one character's abilities

    def for_sheet(self, sheet: dict | None) -> "Rules":
        """The rules as they hold for one character: the abilities on its sheet may
        override options for it alone (a trait that lets a shot land from further away)."""
        if self.personal or not sheet or not sheet.get("abilities"):
            return self
        overrides = {}
        for ability in sheet["abilities"]:
            overrides.update(self.ruleset.abilities.get(ability, {}).get("overrides") or {})
        if not overrides:
            return self
        return Rules(self.ruleset, {**self.options, **overrides}, personal=True)

    # -- reading the ruleset -------------------------------------------------------
    @property
    def key(self) -> str:
        return self.ruleset.key

    def initial_state(self) -> CharacterState:
        return CharacterState(self.ruleset.initial_state, {}, dict(self.ruleset.values))

    def is_inert(self, state: CharacterState, at: float) -> bool:
        if self.ruleset.states[state.status].get("inert"):
            return True
        timer = self.ruleset.inert_timer
        return bool(timer and state.timers.get(timer, -1) > at)

    def capabilities(self, state: CharacterState, at: float, *,
                     load: str | None = None) -> tuple[list[str], list[str]]:
        """What the character can and cannot do at `at`, as its phone lists it: its state's
        lists; while the inert timer runs (a paralysis), `inert_cannot` too (a state that
        is inert by itself says in its own lists what it still allows: the agony's objects
        and crawling); then what its values (`value_cannot`: weak) and its `load` level
        (`load.cannot`: overloaded, immobile) take away."""
        ruleset = self.ruleset
        status = ruleset.states[state.status]
        taken = []
        timer = ruleset.inert_timer
        if timer and state.timers.get(timer, -1) > at:
            taken += ruleset.inert_cannot
        for value, caps in ruleset.value_cannot.items():
            if state.values.get(value):
                taken += caps
        if load:
            taken += (ruleset.load.get("cannot") or {}).get(load, [])
        can = [c for c in status.get("can", []) if c not in taken]
        return can, list(dict.fromkeys(status.get("cannot", []) + taken))

    def option(self, name: str):
        """The event's value of one option, `$name` as the data writes it or `name`. An
        option the ruleset does not declare is a mistake in the code, never a default."""
        key = name[1:] if name.startswith("$") else name
        try:
            return self.options[key]
        except KeyError:
            raise UnknownOption(f"ruleset {self.key} has no option '{key}' "
                                f"(declare it in {self.key}.yaml)") from None

    def resolve(self, value):
        """A ruleset parameter that may name an option (`$union_ratio`) or be the value."""
        if isinstance(value, str) and value.startswith("$"):
            return self.option(value)
        return value

    def has(self, feature: str) -> bool:
        """Whether the ruleset has this feature of rulesets/contracts.py."""
        return self.ruleset.has(feature)

    def point_value(self, state: CharacterState, sheet: dict, key: str) -> int | None:
        """A score as it stands: the sheet's base minus the temporary loss, 0 in the states
        that zero it (a Tired character fights at 0); None without a base."""
        spec = self.ruleset.points[key]
        base = int(sheet.get(spec["base"], 0)) if spec.get("base") else None
        if base is None:
            return None
        if state.status in spec.get("zero_in", []):
            return 0
        return base - int(state.values.get(spec["loss"], 0)) if spec.get("loss") else base

    def available(self, state: CharacterState, action_key: str) -> bool:
        """Whether the action may be declared now: the state has an outcome for it and the
        values it depends on allow it (no "back in game" for someone in game)."""
        action = self.action_spec(action_key)
        if state.status not in action["outcomes"]:
            return False
        if action.get("states_option") and state.status not in self.option(action["states_option"]):
            return False
        if action.get("when_value") and not state.values.get(action["when_value"]):
            return False
        return not (action.get("unless_value") and state.values.get(action["unless_value"]))

    def skill_level(self, action_key: str, sheet: dict) -> str | None:
        skill = self.ruleset.actions[action_key].get("skill")
        if not skill:
            return None
        level = (sheet.get("skills") or {}).get(skill)
        if level in (None, False, "", "none"):
            granted = any(self.ruleset.abilities.get(a, {}).get("skill") == skill
                          for a in sheet.get("abilities") or [])
            return "yes" if granted else None
        return "yes" if level is True else str(level)

    # -- the two operations ------------------------------------------------------
    def advance(self, state: CharacterState, sheet: dict, until: float, *,
                seen_by: str = DECLARED) -> Outcome:
        """Apply, in order, every timer that has expired by `until` for what happens then
        (`seen_by`, rulesets/instants.py: a declaration or a read sees the timers due at
        that very instant expired, an ending does not), each at its own deadline, so that
        a chain (Wounded -> Coma -> Dead) lands where it should."""
        personal = self.for_sheet(sheet)
        if personal is not self:
            return personal.advance(state, sheet, until, seen_by=seen_by)
        events: list[dict] = []
        for _ in range(1000):  # a ruleset whose timers re-arm at zero delay must not hang
            due = [(at, key) for key, at in state.timers.items()
                   if expired(at, until, seen_by=seen_by)]
            if not due:
                return Outcome(state, events)
            at, key = min(due)
            work = Work(self, state, sheet, at, cause=f"timer:{key}")
            work.timers.pop(key)
            work.events.append({"kind": "timer_expired", "timer": key, "at": at})
            spec = self.ruleset.timers[key]["on_expire"]
            run_elements(work, spec.get(state.status, spec.get("*", [])))
            state, new_events = work.result()
            events.extend(new_events)
        raise RuntimeError(f"{self.key}: timers keep firing at {until}; check the ruleset")

    def check(self, state: CharacterState, action_key: str, *, sheet: dict | None = None,
              actor_sheet: dict | None = None, params: dict | None = None) -> str | None:
        """Refuse (RuleRefused) when the action cannot be declared on this state.
        Returns the actor's skill level for the action, if it needs a skill."""
        action = self.action_spec(action_key)
        self._check_params(action, params or {})
        level = None
        if action.get("skill"):
            level = self.skill_level(action_key, actor_sheet or {})
            if level is None:
                raise RuleRefused("missing_skill", skill=self.ruleset.skill_label(action["skill"]),
                                  action=action["labels"])
            levels = self.ruleset.skills.get(action["skill"], {}).get("levels")
            if levels and level not in levels:
                raise RuleRefused("bad_input", detail=f"skill '{action['skill']}' level "
                                  f"'{level}' on the sheet is not one of {', '.join(levels)}")
        targets = self.target_states(action_key)
        if state.status not in targets:
            allowed = [self.ruleset.states[s]["labels"] for s in targets]
            raise RuleRefused("not_in_state", action=action["labels"], allowed=allowed,
                              state=self.ruleset.states[state.status]["labels"])
        if not self.available(state, action_key):
            raise RuleRefused("not_now", action=action["labels"])
        for point, amount in (action.get("costs") or {}).items():
            have = self.point_value(state, sheet or {}, point) or 0
            if have < amount:
                raise RuleRefused("not_enough_points", action=action["labels"],
                                  point=self.ruleset.points[point]["labels"], have=str(have))
        work = Work(self, state, sheet or {}, 0, params=self.with_defaults(action_key, params),
                    level=level)
        for requirement in action.get("requires", []):
            if work.resolve(requirement["when"]) and not work.resolve(requirement["value"]):
                raise RuleRefused(requirement["refusal"], action=action["labels"])
        return level

    def duration(self, action_key: str, *, level: str | None, params: dict | None = None) -> float:
        action = self.action_spec(action_key)
        # The declared defaults count: a Golpe Mortal started without saying is armed (2 s).
        work = Work(self, self.initial_state(), {}, 0,
                    params=self.with_defaults(action_key, params), level=level)
        return float(work.resolve(action.get("duration_s", 0)))

    def apply(self, state: CharacterState, sheet: dict, action_key: str, at: float, *,
              params: dict | None = None, actor_sheet: dict | None = None,
              seen_by: str = DECLARED) -> Outcome:
        """An action at game time `at`. The timers that have expired for it apply first
        (rulesets/instants.py): a declaration sees those due at `at` expired; an ending
        (`seen_by=ENDING`: a first aid completing at the deadline, A8) comes before them,
        and they apply after it."""
        personal = self.for_sheet(sheet)
        if personal is not self:
            return personal.apply(state, sheet, action_key, at, params=params,
                                  actor_sheet=actor_sheet, seen_by=seen_by)
        before = self.advance(state, sheet, at, seen_by=seen_by)
        state = before.state
        level = self.check(state, action_key, sheet=sheet, actor_sheet=actor_sheet, params=params)
        params = self.with_defaults(action_key, params)
        work = Work(self, state, sheet, at, params=params, level=level,
                    cause=f"action:{action_key}")
        work.events.append({"kind": "action", "action": action_key, "at": at,
                            "params": dict(params or {})})
        run_elements(work, self.ruleset.actions[action_key]["outcomes"][state.status])
        new_state, events = work.result()
        after = self.advance(new_state, sheet, at)
        return Outcome(after.state, before.events + events + after.events)

    def target_states(self, action_key: str) -> list[str]:
        """The states an action applies in: its outcomes, narrowed by `states_option`."""
        action = self.action_spec(action_key)
        if not action.get("states_option"):
            return list(action["outcomes"])
        return [s for s in self.option(action["states_option"]) if s in action["outcomes"]]

    def with_defaults(self, action_key: str, params: dict | None) -> dict:
        declared = self.action_spec(action_key).get("params") or {}
        return {**{name: spec["default"] for name, spec in declared.items() if "default" in spec},
                **(params or {})}

    def _check_params(self, action: dict, params: dict) -> None:
        declared = action.get("params") or {}
        for name, value in params.items():
            if name not in declared:
                raise RuleRefused("bad_input", detail=f"unknown parameter '{name}'")
            kind = declared[name]["type"]
            if kind == "state" and value not in self.ruleset.states:
                raise RuleRefused("bad_input", detail=f"'{value}' is not a state of this game "
                                  f"({', '.join(self.ruleset.states)})")
            if kind == "choice" and value not in declared[name]["choices"]:
                raise RuleRefused("bad_input", detail=f"parameter '{name}' must be one of "
                                  f"{', '.join(declared[name]['choices'])}, not '{value}'")
            python_type = {"bool": bool, "int": int, "str": str, "state": str, "choice": str}[kind]
            if not isinstance(value, python_type) or (kind == "int" and isinstance(value, bool)):
                raise RuleRefused("bad_input", detail=f"parameter '{name}' must be a {kind}")
        for name, spec in declared.items():
            if spec["type"] in ("state", "choice") and name not in params \
                    and "default" not in spec:
                raise RuleRefused("bad_input", detail=f"parameter '{name}' is required")

    def action_spec(self, action_key: str) -> dict:
        try:
            return self.ruleset.actions[action_key]
        except KeyError:
            raise RuleRefused("unknown_action", action=action_key,
                              known=", ".join(sorted(self.ruleset.actions))) from None


def element_names() -> list[str]:
    return sorted(ELEMENTS)
