"""Reading one step of a rehearsal file (docs/rehearse.md), checked against the ruleset
and the characters of the file: the generic steps here, the fight steps in
fight_reading.py, the race steps in race_reading.py; its `expect:` in expectations.py
(characters, clock), fight_expectations.py and race_expectations.py.
"""
# Rule codes: docs/rules/septenario_es-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from rulesets.messages import REFUSAL_CODES

from rehearsals.club_reading import read_club_step, read_member_checks, read_replica_checks
from rehearsals.expectations import read_character_checks, read_clock_checks
from rehearsals.fight_reading import read_fight
from rehearsals.game_reading import read_game_step
from rehearsals.item_reading import read_item_checks, read_item_step
from rehearsals.race_expectations import read_race_expectation
from rehearsals.race_reading import read_step
from rehearsals.script import (ACTION_KINDS, CLOCK, CLUB_KINDS, EFFECT_KEYS, FIGHT_KINDS,
                               GAME_KINDS, ITEM_KINDS, ITEMS, MEDIC_KINDS, MEMBERS, NARRATOR,
                               NARRATOR_KINDS, OTHER_REFUSALS, RACE_KINDS, REPLICAS, SAFETY,
                               STEP_KEYS, Step, checked_mapping, parse_time, race_key)


class StepReader:
    """Checks one step against the ruleset and the characters of the file."""

    def __init__(self, ruleset, characters: dict, race: dict | None = None, *,
                 items: dict | None = None, members: dict | None = None,
                 referees: dict | None = None, replicas: dict | None = None):
        self.ruleset = ruleset
        self.characters = characters
        self.race = race
        self.items = items or {}
        self.members = members or {}
        self.referees = referees or {}
        self.replicas = replicas or {}

    def parse(self, number: int, raw) -> Step:
        raw = checked_mapping(raw, "a step", STEP_KEYS)
        if "at" not in raw:
            raise ValueError("'at' is required")
        at_s = parse_time(raw["at"], "at", negative_ok=True)
        kinds = [k for k in ACTION_KINDS if k in raw]
        if len(kinds) > 1:
            raise ValueError(f"one action per step, got {', '.join(kinds)}")
        expect = self.expectations(raw.get("expect"))
        if not kinds:
            if not expect or set(raw) - {"at", "expect"}:
                raise ValueError(f"a step needs one of {', '.join(ACTION_KINDS)}, or only 'expect'")
            return Step(number, at_s, "expect", expect=expect)
        kind = kinds[0]
        refused = raw.get("expect_refused")
        if refused is not None and refused not in REFUSAL_CODES and refused not in OTHER_REFUSALS:
            raise ValueError(f"expect_refused: unknown refusal code '{refused}' "
                             f"(known: {', '.join(sorted([*REFUSAL_CODES, *OTHER_REFUSALS]))})")
        params = checked_mapping(raw.get("params"), "params")
        if params and kind not in ("do", "treat"):
            raise ValueError(f"'params' goes with do or treat, not {kind}")
        if "weapon_in_hand" in raw and kind != "answer_duel":
            raise ValueError("'weapon_in_hand' goes with answer_duel "
                             "(in a duel step, write it inside duel: {...})")
        if kind in FIGHT_KINDS:
            by, fight = read_fight(self, kind, raw)
            return Step(number, at_s, kind, by=by, fight=fight, expect=expect,
                        expect_refused=refused)
        if kind in ITEM_KINDS or kind in CLUB_KINDS or kind in GAME_KINDS:
            read = read_item_step if kind in ITEM_KINDS else \
                read_club_step if kind in CLUB_KINDS else read_game_step
            by, item = read(self, kind, raw)
            return Step(number, at_s, kind, by=by, item=item, expect=expect,
                        expect_refused=refused)
        if kind in RACE_KINDS:
            by, race = read_step(self, kind, raw)
            return Step(number, at_s, kind, by=by, race=race, expect=expect,
                        expect_refused=refused)
        by, on = self.people(kind, raw)
        return Step(number, at_s, kind, by=by, on=on, action=self.action(kind, raw[kind]),
                    params=params, effect=self.effect(raw[kind]) if kind == "effect" else None,
                    expect=expect, expect_refused=refused)

    def character(self, key, where: str) -> str:
        if key not in self.characters:
            race = f"; entries: {', '.join(self.race['entries'])}" if self.race else ""
            raise ValueError(f"{where}: unknown character '{key}' "
                             f"(characters: {', '.join(self.characters) or 'none'}{race})")
        return key

    def people(self, kind: str, raw: dict) -> tuple[str, str | None]:
        if kind in NARRATOR_KINDS:
            # Only organisers pause the game or push effects (as in the API).
            if raw.get("by", NARRATOR) != NARRATOR or "on" in raw:
                raise ValueError(f"{kind} is done 'by: narrator' and takes no 'on'")
            return NARRATOR, None
        by = raw.get("by")
        if by is None:
            raise ValueError(f"'by' is required: a character key or '{NARRATOR}'")
        if by != NARRATOR:
            self.character(by, "by")
        elif kind in MEDIC_KINDS:
            raise ValueError(f"{kind}: 'by' must be the medic's character key")
        if raw.get("on", by) == NARRATOR:
            raise ValueError("the narrator acts on a character: add 'on: <character>'")
        on = self.character(raw.get("on", by), "on")
        if kind == "do" and by != NARRATOR and on != by:
            # The API lets a player declare only what happened to their own character.
            raise ValueError(f"a player declares actions on their own character only; "
                             f"write 'by: {on}' or 'by: narrator'")
        return by, on

    def action(self, kind: str, value) -> str | None:
        if kind in ("pause", "resume"):
            if value is not True:
                raise ValueError(f"write '{kind}: true'")
            return None
        if kind == "effect":
            return None
        if kind == "day":   # dawn / day_end, as the organisers schedule them (E25)
            if value not in self.ruleset.days:
                known = ", ".join(self.ruleset.days) or "none"
                raise ValueError(f"day: '{value}' is not a day of {self.ruleset.key} "
                                 f"(days: {known})")
            return value
        if value not in self.ruleset.actions:
            raise ValueError(f"{kind}: unknown action '{value}' of {self.ruleset.key} "
                             f"(known: {', '.join(self.ruleset.actions)})")
        return value

    def effect(self, raw) -> dict:
        spec = checked_mapping(raw, "effect", EFFECT_KEYS)
        if not isinstance(spec.get("text"), str) or not spec["text"].strip():
            raise ValueError("effect.text is required")
        targets = [k for k in ("to", "team", "everyone") if spec.get(k) not in (None, False)]
        if len(targets) != 1:
            raise ValueError("effect: give exactly one of to, team, everyone")
        to = spec.get("to")
        to = [to] if isinstance(to, str) else to
        if targets == ["to"]:
            if not isinstance(to, list) or not to:
                raise ValueError("effect.to: a list of character keys")
            to = [self.character(k, "effect.to") for k in to]
        teams = {c["team"] for c in self.characters.values() if c["team"]}
        if targets == ["team"] and spec["team"] not in teams:
            raise ValueError(f"effect.team: no character in team '{spec['team']}'")
        if targets == ["everyone"] and spec["everyone"] is not True:
            raise ValueError("write 'everyone: true'")
        duration = parse_time(spec["duration"], "effect.duration") if "duration" in spec else None
        if duration == 0:
            raise ValueError("effect.duration must be more than 0:00 (leave it out: no end)")
        state = spec.get("set_state")
        if state is not None and state not in self.ruleset.states:
            raise ValueError(f"effect.set_state: unknown state '{state}' "
                             f"(states: {', '.join(self.ruleset.states)})")
        return {"text": spec["text"], "duration_s": duration, "to": to if targets == ["to"] else None,
                "team": spec.get("team"), "everyone": targets == ["everyone"], "set_state": state}


    def expectations(self, raw) -> dict:
        expect = checked_mapping(raw, "expect")
        if self.race is not None:
            expect = {race_key(key): checks for key, checks in expect.items()}
        for key, checks in expect.items():
            if key == CLOCK:
                read_clock_checks(self, checks)
            elif key == ITEMS:
                read_item_checks(self, checks)
            elif key == MEMBERS:
                read_member_checks(self, checks)
            elif key == REPLICAS:
                read_replica_checks(self, checks)
            elif self.race is not None and (key == SAFETY or key in self.race["entries"]):
                read_race_expectation(self, key, checks)
            else:
                self.character(key, "expect")
                read_character_checks(self, key, checks)
        return expect
