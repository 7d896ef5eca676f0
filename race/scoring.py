"""The score of §7 and the ranking, as pure functions of plain facts (no database), so
that every rule of the formula is tested in microseconds and reads the same everywhere
(leaderboard, survivor's estimate, results page, CSV).

    S = Σ P_b (balises found) − unfound × (N − F) − late × M − life × L
        − no_life × K − Σ infraction points          (then the optional floor)

F counts each balise of the course once: its first punch inside the race window (the
window's edges follow the options; a disqualification or an abandon closes it, the finger
being taken back) and not marked not counted when recorded. M is the late minutes (each started minute by
default), L the non-voided losses that took a flag, K the non-voided exits recorded when
no life was left (Z4).
"""
# Rule codes: docs/rules/zombie_race-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime

from .options import RaceOptions

BEFORE_START, AFTER_LIMIT, AFTER_FINISH, DUPLICATE = (
    "before_start", "after_limit", "after_finish", "duplicate")
AFTER_DISQUALIFICATION, AFTER_ABANDON = "after_disqualification", "after_abandon"
NOT_ON_COURSE, OUT_OF_SEQUENCE = "not_on_course", "out_of_sequence"   # Punch.not_counted
ENDED = {"disqualified": AFTER_DISQUALIFICATION, "dnf": AFTER_ABANDON}
REASONS = (BEFORE_START, AFTER_LIMIT, AFTER_FINISH, DUPLICATE, AFTER_DISQUALIFICATION,
           AFTER_ABANDON, NOT_ON_COURSE, OUT_OF_SEQUENCE)


@dataclass(frozen=True)
class PunchFact:
    id: int
    checkpoint_id: int
    at: datetime
    not_counted: str = ""           # known when recorded (Punch.not_counted)


@dataclass
class EntryFacts:
    status: str                     # Entry.status
    started_at: datetime | None
    deadline_at: datetime | None
    finished_at: datetime | None
    punches: list                   # PunchFact, any order
    ended_at: datetime | None = None  # DNF or disqualification: the clock stops there
    lives_lost: int = 0             # L
    no_life_exits: int = 0          # K
    infraction_points: int = 0


@dataclass
class Score:
    found: dict = field(default_factory=dict)   # checkpoint id -> instant of the counted punch
    ignored: dict = field(default_factory=dict)  # punch id -> reason
    elapsed_s: float | None = None
    late_minutes: int = 0
    points: float = 0
    unfound: int = 0
    score: float | None = None
    classified: bool = False
    unclassified_reason: str | None = None

    def breakdown(self, options: RaceOptions, facts: EntryFacts) -> dict:
        return {"points": self.points, "unfound": -options.unfound_penalty * self.unfound,
                "late": -options.late_penalty * self.late_minutes,
                "lives": -options.life_penalty * facts.lives_lost,
                "exits_without_life": -options.no_life_penalty * facts.no_life_exits,
                "infractions": -facts.infraction_points}


def punch_window_reason(facts: EntryFacts, at: datetime, options: RaceOptions) -> str | None:
    """Why a punch at `at` does not count, by the options; None when it counts."""
    if facts.ended_at is not None and facts.status in ENDED and at > facts.ended_at:
        return ENDED[facts.status]   # R09, R14: the finger is back; no option reopens it
    if facts.started_at is None or at < facts.started_at:
        return None if options.count_before_start else BEFORE_START
    if facts.finished_at is not None and at > facts.finished_at:
        return None if options.count_after_finish else AFTER_FINISH
    if facts.deadline_at is not None and at > facts.deadline_at:
        return None if options.count_after_limit else AFTER_LIMIT
    return None


def counted_punches(facts: EntryFacts, options: RaceOptions) -> tuple[dict, dict]:
    """({checkpoint id: instant counted}, {punch id: reason ignored}): per balise, the
    first punch the window allows; every other one is a duplicate."""
    found, ignored = {}, {}
    for punch in sorted(facts.punches, key=lambda p: (p.at, p.id)):
        reason = punch.not_counted or punch_window_reason(facts, punch.at, options)
        if reason is None and punch.checkpoint_id in found:
            reason = DUPLICATE
        if reason is None:
            found[punch.checkpoint_id] = punch.at
        else:
            ignored[punch.id] = reason
    return found, ignored


def late_minutes(elapsed_s: float, duration_s: float, rounding: str) -> int:
    over = max(0.0, elapsed_s - duration_s)
    minutes = over / 60
    # Z3: by default each started minute counts (1 s late is one minute).
    return math.ceil(minutes - 1e-9) if rounding == "ceil" else math.floor(minutes + 1e-9)


def entry_score(facts: EntryFacts, *, duration_s: float, checkpoint_points: dict,
                options: RaceOptions, now: datetime) -> Score:
    """`checkpoint_points`: {checkpoint id: P_b} of every balise of the course (N = its
    length). A racing entry gets an estimate as of `now`."""
    result = Score()
    result.found, result.ignored = counted_punches(facts, options)
    result.found = {cp: at for cp, at in result.found.items() if cp in checkpoint_points}
    result.points = sum(checkpoint_points[cp] for cp in result.found)
    result.unfound = len(checkpoint_points) - len(result.found)
    if facts.started_at is not None:
        end = facts.finished_at or facts.ended_at or now
        result.elapsed_s = max(0.0, (end - facts.started_at).total_seconds())
        result.late_minutes = late_minutes(result.elapsed_s, duration_s, options.rounding)
    if facts.status == "disqualified":
        result.unclassified_reason = "disqualified"
        return result                           # no score at all
    score = (result.points - options.unfound_penalty * result.unfound
             - options.late_penalty * result.late_minutes - options.life_penalty * facts.lives_lost
             - options.no_life_penalty * facts.no_life_exits - facts.infraction_points)
    if options.score_floor is not None:
        score = max(score, options.score_floor)
    result.score = score
    if facts.status == "finished":
        over = options.max_late_minutes is not None and result.late_minutes > options.max_late_minutes
        result.classified = not over
        result.unclassified_reason = "over_max_late" if over else None
    else:
        result.unclassified_reason = facts.status  # registered, racing (estimate), dnf
    return result


def tie_key(row: dict, tie_break) -> tuple:
    """Sort key of a classified row: score descending, then the option's tie-breaks."""
    parts = [-row["score"]]
    for rule in tie_break:
        if rule == "elapsed_asc":
            parts.append(row["elapsed_s"])
        elif rule == "lives_lost_asc":
            parts.append(row["lives_lost"])
        elif rule == "found_desc":
            parts.append(-row["found"])
    return tuple(parts)


def rank(rows: list[dict], tie_break) -> list[dict]:
    """Classified rows in order, each with its `rank`; rows equal on every key share a
    rank (1, 2, 2, 4)."""
    ordered = sorted(rows, key=lambda r: (tie_key(r, tie_break), r["name"]))
    previous = None
    for position, row in enumerate(ordered, start=1):
        key = tie_key(row, tie_break)
        row["rank"] = previous[1] if previous and previous[0] == key else position
        previous = (key, row["rank"])
    return ordered
