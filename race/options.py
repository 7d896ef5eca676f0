"""The event's race options (rulesets/data/zombie_race.yaml, spec Appendix A), read once
per call into one object with the types the race code needs."""
from __future__ import annotations

from dataclasses import dataclass
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from players.models import Event

RULESET = "zombie_race"
STANDARD_COURSES = ("enfant", "famille", "sportif")


def _number_or_none(value):
    """Options whose default is null accept anything at event creation; a value that is
    not a number means "no limit", as null does (docs/race.md says so)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


@dataclass(frozen=True)
class RaceOptions:
    durations: dict
    points_per_checkpoint: int
    unfound_penalty: float
    late_penalty: float
    life_penalty: float
    no_life_penalty: float
    rounding: str
    count_before_start: bool
    count_after_limit: bool
    count_after_finish: bool
    score_floor: float | None
    tie_break: tuple
    lives_initial: int
    out_of_zone_costs_life: bool
    forbidden_path_costs_life: bool
    exclusion_m: float
    fast_running_allowed: bool
    contact_allowed: bool
    open_roads_allowed: bool
    start_mode: str
    max_late_minutes: float | None
    alert_after_s: float
    deposit_eur: float
    dq_deposit_returned: bool
    infraction_penalty: str
    time_zone: str

    def zone(self) -> ZoneInfo:
        try:
            return ZoneInfo(self.time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            return ZoneInfo("Europe/Paris")


def race_options(event: Event) -> RaceOptions:
    o = event.rules().option
    return RaceOptions(
        durations={"enfant": o("duration_enfant_s"), "famille": o("duration_famille_s"),
                   "sportif": o("duration_sportif_s")},
        points_per_checkpoint=int(o("points_per_checkpoint")),
        unfound_penalty=o("unfound_checkpoint_penalty"),
        late_penalty=o("late_minute_penalty"),
        life_penalty=o("life_lost_penalty"),
        no_life_penalty=o("out_of_zone_penalty_without_life"),
        rounding=o("late_minute_rounding"),
        count_before_start=o("count_punches_before_start"),
        count_after_limit=o("count_punches_after_limit"),
        count_after_finish=o("count_punches_after_finish"),
        score_floor=_number_or_none(o("score_floor")),
        tie_break=tuple(o("tie_break")),
        lives_initial=int(o("lives_initial")),
        out_of_zone_costs_life=o("out_of_zone_costs_life"),
        forbidden_path_costs_life=o("forbidden_path_costs_life"),
        exclusion_m=o("zombie_checkpoint_exclusion_m"),
        fast_running_allowed=o("zombie_fast_running_allowed"),
        contact_allowed=o("zombie_contact_allowed"),
        open_roads_allowed=o("zombie_on_open_roads_allowed"),
        start_mode=o("start_mode"),
        max_late_minutes=_number_or_none(o("max_late_minutes")),
        alert_after_s=o("overdue_alert_after_s"),
        deposit_eur=o("deposit_eur"),
        dq_deposit_returned=o("dq_deposit_returned"),
        infraction_penalty=o("infraction_penalty"),
        time_zone=o("time_zone"),
    )
