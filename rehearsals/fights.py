"""Fights between characters in a rehearsal (docs/rehearse.md): reading the fight steps
and the `fights` expectations, playing the steps through the combat services a phone's
API calls, and ending the timed fights (a union's three seconds, an acharnement's five
minutes, an airsoft medic's count from 11 to 20) each at its own instant, as its task
would on the server.

rehearsal_file.py reads the generic steps and hands the fight ones to read_fight;
rehearsal.py plays them with the FightSteps methods.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Min

from combat.models import Acharnement, Duel, Heal, Union, UnionMember
from combat.selectors import HEAL_REASONS, REASONS
from combat.services.beatings import acharnement_start, acharnement_stop
from combat.services.duels import WEAPONS, duel_answer, duel_propose
from combat.services.heals import STOP_REASONS, heal_start, heal_stop
from combat.services.schedule import fights_sweep
from combat.services.searches import character_search
from combat.services.unions import union_claim, union_join
from rulesets import RuleRefused

from rehearsals.script import NARRATOR, Step, StepFailed, _mapping, format_time, parse_time

# The ruleset's interaction each step needs (rulesets/data/*.yaml, `interactions`).
INTERACTIONS = {"duel": "duel", "answer_duel": "duel", "union": "union", "join_union": "union",
                "acharnement": "acharnement", "stop_acharnement": "acharnement",
                "search": "search", "heal": "heal", "stop_heal": "heal"}
ANSWERS = ("accept", "decline")
WEAPON_CHOICES = ("none", *WEAPONS)
FIGHT_FIELDS = {"kind", "role", "status", "result", "other", "reason", "type", "attackers",
                "defenders", "ends_in", "can_answer"}
FIGHT_CHOICES = {
    "kind": ("duel", "union", "acharnement", "heal"),
    "role": ("challenger", "defender", "attackers", "defenders", "attacker", "victim",
             "medic", "patient"),
    "status": tuple(dict.fromkeys(s for model in (Duel, Union, Acharnement, Heal)
                                  for s, _ in model.STATUSES)),
    "result": (Duel.WON, Duel.LOST, Duel.TIE, None),
    "reason": (*dict.fromkeys([*REASONS, *HEAL_REASONS]), None),
}
HEAL_KINDS = (Heal.HEAL, Heal.EXTRACTION)


# -- reading ---------------------------------------------------------------------------
def read_fight(steps, kind: str, raw: dict) -> tuple[str, dict]:
    """`steps` is rehearsal_file._Steps (the ruleset and the characters of the file).
    Returns the character who plays the step and the step's normalised spec."""
    if raw.get("by", NARRATOR) == NARRATOR:
        raise ValueError(f"{kind} is played by a character: write 'by: <character key>'")
    by = _who(steps, raw["by"], "by")
    if "on" in raw:
        raise ValueError(f"{kind} takes no 'on': the other characters are named inside it")
    wanted = INTERACTIONS[kind]
    if wanted not in steps.ruleset.interactions:
        raise ValueError(f"{kind}: the ruleset {steps.ruleset.key} has no {wanted}")
    return by, _READERS[kind](steps, raw[kind], raw)


def _who(steps, key, where: str) -> str:
    if not isinstance(key, str):
        raise ValueError(f"{where}: a character key (characters: {', '.join(steps.characters)})")
    return steps.character(key, where)


def _keys(steps, value, where: str, *, required: bool) -> list[str]:
    keys = [value] if isinstance(value, str) else ([] if value is None else value)
    if not isinstance(keys, list) or (required and not keys):
        raise ValueError(f"{where}: a list of character keys")
    return [_who(steps, key, where) for key in keys]


def _weapon(spec: dict, answer: str, where: str) -> str:
    weapon = spec.get("weapon_in_hand")
    if weapon is None:
        return "none"
    if weapon not in WEAPON_CHOICES:
        raise ValueError(f"{where}: one of {', '.join(WEAPON_CHOICES)}, not {weapon!r}")
    if answer != "accept":
        raise ValueError(f"{where} goes with an accepted duel (the defender's hand as the "
                         "fight starts)")
    return weapon


def _bool(spec: dict, key: str, where: str) -> bool:
    value = spec.get(key, False)
    if not isinstance(value, bool):
        raise ValueError(f"{where}.{key}: true or false")
    return value


def _read_duel(steps, value, raw) -> dict:
    spec = {"opponent": value} if isinstance(value, str) else \
        _mapping(value, "duel", {"opponent", "answer", "weapon_in_hand"})
    if "opponent" not in spec:
        raise ValueError("duel.opponent is required (a character key)")
    answer = spec.get("answer", "accept")
    if answer not in (*ANSWERS, "pending"):
        raise ValueError(f"duel.answer: accept, decline or pending, not {answer!r}")
    return {"opponent": _who(steps, spec["opponent"], "duel.opponent"), "answer": answer,
            "weapon_in_hand": _weapon(spec, answer, "duel.weapon_in_hand")}


def _read_answer_duel(steps, value, raw) -> dict:
    if value not in ANSWERS:
        raise ValueError(f"answer_duel: accept or decline, not {value!r}")
    return {"answer": value, "weapon_in_hand": _weapon(raw, value, "weapon_in_hand")}


def _read_union(steps, value, raw) -> dict:
    spec = _mapping(value, "union", {"attackers", "defenders", "weapon_drawn"})
    return {"attackers": _keys(steps, spec.get("attackers"), "union.attackers", required=False),
            "defenders": _keys(steps, spec.get("defenders"), "union.defenders", required=True),
            "weapon_drawn": _bool(spec, "weapon_drawn", "union")}


def _read_join_union(steps, value, raw) -> dict:
    return {"defender": _who(steps, value, "join_union (the key of a defender)")}


def _read_acharnement(steps, value, raw) -> dict:
    spec = _mapping(value, "acharnement", {"victim", "kind"})
    kinds = steps.ruleset.interactions["acharnement"]["kinds"]
    if not isinstance(spec.get("kind"), str) or spec["kind"] not in kinds:
        raise ValueError(f"acharnement.kind: one of {', '.join(kinds)}")
    return {"victim": _who(steps, spec.get("victim"), "acharnement.victim"), "kind": spec["kind"]}


def _read_stop_acharnement(steps, value, raw) -> dict:
    if value is not True:
        raise ValueError("write 'stop_acharnement: true'")
    return {}


def _read_search(steps, value, raw) -> dict:
    spec = _mapping(value, "search", {"target", "location", "strip"})
    location = spec.get("location")
    if not isinstance(location, str) or not location.strip() or len(location) > 100:
        raise ValueError("search.location: where the searcher looks (1 to 100 characters)")
    return {"target": _who(steps, spec.get("target"), "search.target"), "location": location,
            "strip": _bool(spec, "strip", "search")}


def _read_heal(steps, value, raw) -> dict:
    spec = {"patient": value} if isinstance(value, str) else \
        _mapping(value, "heal", {"patient", "kind"})
    kind = spec.get("kind", Heal.HEAL)
    if kind not in HEAL_KINDS:
        raise ValueError(f"heal.kind: one of {', '.join(HEAL_KINDS)}, not {kind!r}")
    return {"patient": _who(steps, spec.get("patient"), "heal.patient"), "kind": kind}


def _read_stop_heal(steps, value, raw) -> dict:
    if value not in STOP_REASONS:
        raise ValueError(f"stop_heal: why the medic stops, one of {', '.join(STOP_REASONS)}")
    return {"reason": value}


_READERS = {"duel": _read_duel, "answer_duel": _read_answer_duel, "union": _read_union,
            "join_union": _read_join_union, "acharnement": _read_acharnement,
            "stop_acharnement": _read_stop_acharnement, "search": _read_search,
            "heal": _read_heal, "stop_heal": _read_stop_heal}


def check_fights(steps, where: str, value) -> None:
    """`fights: [{kind: duel, result: lost}, ...]`, in the snapshot's order; [] for none."""
    if not isinstance(value, list):
        raise ValueError(f"{where}: a list of fights, e.g. [{{kind: duel, result: lost}}] "
                         "([] for none)")
    for number, entry in enumerate(value, start=1):
        at = f"{where}[{number}]"
        entry = _mapping(entry, at, FIGHT_FIELDS)
        for field, choices in FIGHT_CHOICES.items():
            if field in entry and entry[field] not in choices:
                raise ValueError(f"{at}.{field}: one of "
                                 f"{', '.join('null' if c is None else c for c in choices)}")
        if "other" in entry:
            _who(steps, entry["other"], f"{at}.other")
        kinds = [*steps.ruleset.interactions.get("acharnement", {}).get("kinds", {}),
                 *(HEAL_KINDS if "heal" in steps.ruleset.interactions else ())]
        if "type" in entry and (not isinstance(entry["type"], str) or entry["type"] not in kinds):
            raise ValueError(f"{at}.type: one of {', '.join(kinds)}")
        for field in ("attackers", "defenders"):
            if field in entry and (not isinstance(entry[field], int) or isinstance(entry[field], bool)):
                raise ValueError(f"{at}.{field}: a number of characters")
        if "can_answer" in entry and not isinstance(entry["can_answer"], bool):
            raise ValueError(f"{at}.can_answer: true or false")
        if entry.get("ends_in") is not None:
            parse_time(entry["ends_in"], f"{at}.ends_in")


# -- checking --------------------------------------------------------------------------
def fights_diff(key: str, want: list, views: list, names: dict, compare) -> list[str]:
    """Compare the snapshot's fights with the file's, entry by entry (counted from 1),
    on the fields the file gives only. `names`: character key -> name."""
    seen = [_seen(view) for view in views]
    if len(want) != len(seen):
        shown = "; ".join(_words(s) for s in seen) or "none"
        return [f"{key}.fights: expected {len(want)} fight(s), got {len(seen)}: {shown}"]
    lines = []
    for number, (wanted, got) in enumerate(zip(want, seen), start=1):
        for field, value in wanted.items():
            if field == "other":
                value = names.get(value, value)
            lines += compare(f"{key}.fights[{number}].{field}", value, got.get(field),
                             time=field == "ends_in")
    return lines


def _seen(view: dict) -> dict:
    codes = HEAL_REASONS if view["kind"] == "heal" else REASONS
    reason = next((code for code, labels in codes.items() if labels == view.get("reason")), None)
    return {"kind": view["kind"], "role": view.get("role"), "status": view.get("status"),
            "result": view.get("result"), "other": view.get("other"), "reason": reason,
            "type": (view.get("type") or {}).get("key"), "attackers": view.get("attackers"),
            "defenders": view.get("defenders"), "can_answer": view.get("can_answer"),
            "ends_in": (view.get("ends") or {}).get("remaining_s")}


def _words(seen: dict) -> str:
    words = [seen["kind"], seen["type"], seen["role"], seen["status"], seen["result"],
             seen["reason"] and f"({seen['reason']})",
             seen["other"] and f"with {seen['other']}"]
    return " ".join(w for w in words if w)


def describe_fight(step: Step) -> str:
    f = step.fight
    weapon = f.get("weapon_in_hand", "none")
    holding = "" if weapon == "none" else \
        f" holding {'a firearm' if weapon == 'firearm' else f'a {weapon} weapon'}"
    if step.kind == "duel":
        answer = {"pending": "no answer yet"}.get(f["answer"], f"{f['opponent']} {f['answer']}s")
        return f"duel {f['opponent']}: {answer}{holding}"
    if step.kind == "answer_duel":
        return f"answer_duel {f['answer']}{holding}"
    if step.kind == "union":
        allies = f" with {', '.join(f['attackers'])}" if f["attackers"] else ""
        drawn = ", weapon drawn" if f["weapon_drawn"] else ""
        return f"union{allies} against {', '.join(f['defenders'])}{drawn}"
    if step.kind == "join_union":
        return f"join_union on {f['defender']}'s side"
    if step.kind == "acharnement":
        return f"acharnement {f['kind']} on {f['victim']}"
    if step.kind == "search":
        return f"search {f['target']} ({f['location']}){', strip' if f['strip'] else ''}"
    if step.kind == "heal":
        return f"{f['kind']} {f['patient']}"
    if step.kind == "stop_heal":
        return f"stop_heal ({f['reason']})"
    return step.kind


class DuelRefused(RuleRefused):
    """The answer was taken but the duel did not happen (recorded as refused, so that both
    phones show why): to the rehearsal, a refusal with the recorded reason."""

    def message(self, lang: str = "en") -> str:
        why = REASONS.get(self.code, {}).get(lang, self.code)
        return f"The duel did not happen: {why}."


# -- playing ---------------------------------------------------------------------------
class FightSteps:
    """The fight steps of rehearsal._Player: the same service calls as combat/apis.py,
    each character acting through its own player. A step may return a note shown after
    `ok` (a duel's results, when a timed fight ends)."""

    def code(self, key: str) -> str:
        return self.character(key).code

    def key_of(self, character_id: int) -> str:
        return next(k for k, pk in self.ids.items() if pk == character_id)

    def wall_at(self, game_s: float) -> str:
        """The `at` time (wall time since the start) at which the game clock reads game_s."""
        wall = self.event().wall_time(game_s)
        return format_time((wall - self.start).total_seconds()) if wall else "resume"

    def _duel(self, step: Step) -> str:
        spec = step.fight
        duel = duel_propose(challenger=self.character(step.by),
                            opponent_code=self.code(spec["opponent"]), by=self.user(step.by))
        if spec["answer"] == "pending":
            return f"{spec['opponent']} may answer until {self.wall_at(duel.expires_game_s)}"
        return self.answer(duel, spec["opponent"], spec)

    def _answer_duel(self, step: Step) -> str:
        """The latest challenge still open to this character; failing that its latest one,
        so that answering twice meets the service's own refusal."""
        mine = Duel.objects.filter(event_id=self.event_id, defender_id=self.ids[step.by]).order_by("-pk")
        duel = mine.filter(status=Duel.PROPOSED).first() or mine.first()
        if duel is None:
            raise StepFailed([f"nobody challenged {step.by} to a duel"])
        return self.answer(duel, step.by, step.fight)

    def answer(self, duel: Duel, defender: str, spec: dict) -> str:
        duel = duel_answer(duel=duel, defender=self.character(defender),
                           accept=spec["answer"] == "accept",
                           weapon_in_hand=spec["weapon_in_hand"], by=self.user(defender))
        if duel.status == Duel.REFUSED:
            raise DuelRefused(duel.reason)
        if duel.status == Duel.DECLINED:
            return "declined"
        if duel.challenger_result == Duel.TIE:
            return "a tie: both lose"
        return (f"{self.key_of(duel.challenger_id)} {duel.challenger_result}, "
                f"{self.key_of(duel.defender_id)} {duel.defender_result}")

    def _union(self, step: Step) -> str:
        spec = step.fight
        union = union_claim(claimant=self.character(step.by),
                            attacker_codes=[self.code(k) for k in spec["attackers"]],
                            defender_codes=[self.code(k) for k in spec["defenders"]],
                            weapon_drawn=spec["weapon_drawn"], by=self.user(step.by))
        return f"{self.sides(union)}, resolves at {self.wall_at(union.resolve_game_s)}"

    def _join_union(self, step: Step) -> str:
        union = union_join(joiner=self.character(step.by),
                           defender_code=self.code(step.fight["defender"]), by=self.user(step.by))
        if union.status == Union.CANCELLED:
            return f"{self.sides(union)}: rebalanced, the claim falls"
        return f"{self.sides(union)}, resolves at {self.wall_at(union.resolve_game_s)}"

    def sides(self, union: Union) -> str:
        members = list(union.members.values_list("side", flat=True))
        return (f"{members.count(UnionMember.ATTACKERS)} against "
                f"{members.count(UnionMember.DEFENDERS)}")

    def _acharnement(self, step: Step) -> str:
        beating = acharnement_start(attacker=self.character(step.by),
                                    victim_code=self.code(step.fight["victim"]),
                                    kind=step.fight["kind"], by=self.user(step.by))
        return f"ends at {self.wall_at(beating.ends_game_s)}"

    def _stop_acharnement(self, step: Step) -> str | None:
        """This attacker's running acharnement; failing that its latest one."""
        mine = Acharnement.objects.filter(event_id=self.event_id,
                                          attacker_id=self.ids[step.by]).order_by("-pk")
        beating = mine.filter(status=Acharnement.RUNNING).first() or mine.first()
        if beating is None:
            raise StepFailed([f"{step.by} never started an acharnement"])
        beating = acharnement_stop(acharnement=beating, attacker=self.character(step.by),
                                   by=self.user(step.by))
        return "completed: the full duration was over" if beating.status == Acharnement.COMPLETED else None

    def _search(self, step: Step) -> None:
        spec = step.fight
        character_search(searcher=self.character(step.by), target_code=self.code(spec["target"]),
                         location=spec["location"], strip=spec["strip"], by=self.user(step.by))

    def _heal(self, step: Step) -> str | None:
        """The medic starts healing (or extracting) the patient whose code they scanned."""
        spec = step.fight
        heal = heal_start(medic=self.character(step.by), patient_code=self.code(spec["patient"]),
                          kind=spec["kind"], by=self.user(step.by))
        return f"ends at {self.wall_at(heal.ends_game_s)}" if heal.ends_game_s is not None else None

    def _stop_heal(self, step: Step) -> str | None:
        """This medic's running heal or extraction; failing that their latest one."""
        mine = Heal.objects.filter(event_id=self.event_id, medic_id=self.ids[step.by]).order_by("-pk")
        heal = mine.filter(status=Heal.RUNNING).first() or mine.first()
        if heal is None:
            raise StepFailed([f"{step.by} never started a heal or an extraction"])
        heal = heal_stop(heal=heal, medic=self.character(step.by), reason=step.fight["reason"],
                         by=self.user(step.by))
        return "completed: the count was over" if heal.status == Heal.COMPLETED else None

    # -- timed fights ----------------------------------------------------------------
    def end_fights_before(self, instant: datetime) -> None:
        """End every timed fight due before the step's instant, each at its own instant, so
        that what follows (a defender's ten Tired minutes, a victim's fifteen Wounded ones)
        counts from there. At the step's own instant an acharnement or a heal ends before
        the step (a completion, spec §0) and a union's window after it (a timer; see
        play())."""
        while (due := self._next_fight_end(instant)) is not None:
            self.sweep(due)
            if not fights_sweep():
                return  # cannot happen; never loop forever

    def _next_fight_end(self, instant: datetime) -> datetime | None:
        event = self.event()
        if not event.running:
            return None                          # a paused clock ends nothing
        game_s = event.game_time(instant)
        ends = [Union.objects.filter(event=event, status=Union.PENDING, resolve_game_s__lt=game_s)
                .aggregate(due=Min("resolve_game_s"))["due"],
                Acharnement.objects.filter(event=event, status=Acharnement.RUNNING,
                                           ends_game_s__lte=game_s)
                .aggregate(due=Min("ends_game_s"))["due"],
                Heal.objects.filter(event=event, status=Heal.RUNNING, kind=Heal.HEAL,
                                    ends_game_s__lte=game_s)
                .aggregate(due=Min("ends_game_s"))["due"]]
        due = min((d for d in ends if d is not None), default=None)
        if due is None:
            return None
        wall = event.wall_time(due)
        while event.game_time(wall) < due:       # microsecond rounding
            wall += timedelta(microseconds=1)
        return wall
