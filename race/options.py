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
    option = event.rules().option
    return RaceOptions(
        durations={"enfant": option("duration_enfant_s"), "famille": option("duration_famille_s"),
                   "sportif": option("duration_sportif_s")},
        points_per_checkpoint=int(option("points_per_checkpoint")),
        unfound_penalty=option("unfound_checkpoint_penalty"),
        late_penalty=option("late_minute_penalty"),
        life_penalty=option("life_lost_penalty"),
        no_life_penalty=option("out_of_zone_penalty_without_life"),
        rounding=option("late_minute_rounding"),
        count_before_start=option("count_punches_before_start"),
        count_after_limit=option("count_punches_after_limit"),
        count_after_finish=option("count_punches_after_finish"),
        score_floor=_number_or_none(option("score_floor")),
        tie_break=tuple(option("tie_break")),
        lives_initial=int(option("lives_initial")),
        out_of_zone_costs_life=option("out_of_zone_costs_life"),
        forbidden_path_costs_life=option("forbidden_path_costs_life"),
        exclusion_m=option("zombie_checkpoint_exclusion_m"),
        fast_running_allowed=option("zombie_fast_running_allowed"),
        contact_allowed=option("zombie_contact_allowed"),
        open_roads_allowed=option("zombie_on_open_roads_allowed"),
        start_mode=option("start_mode"),
        max_late_minutes=_number_or_none(option("max_late_minutes")),
        alert_after_s=option("overdue_alert_after_s"),
        deposit_eur=option("deposit_eur"),
        dq_deposit_returned=option("dq_deposit_returned"),
        infraction_penalty=option("infraction_penalty"),
        time_zone=option("time_zone"),
    )
