"""Playing the zombie race's steps in a rehearsal (docs/rehearse.md, docs/race.md)
through the race services (race/services/), as the organisers', zombies', marshals' and
survivors' phones call them; and ringing the overdue alerts at their own instants, as
the server's task would ring them.
"""
from __future__ import annotations

import secrets
from datetime import datetime, timezone as dt_timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from common.i18n import refusal_text
from players.models import Membership
from players.services import membership_grant
from race.selectors.boards import entries_with_courses, survivor_entry_view
from race.labels import say
from race.models import Checkpoint, Course, Entry, Infraction, LifeLoss, Punch
from race.options import RULESET
from common.csv_rows import CsvRejected as FileRejected
from race.services.alerts import entry_alert
from race.services.courses import checkpoint_create, course_create, course_points_confirm
from race.services.entries import (entry_carrier_change, entry_gear_check, entry_register,
                                   zombie_create)
from race.services.lives import infraction_record, life_loss_void, grab_record, zone_loss_record
from race.services.punches import punch_record, punches_import
from race.services.running import (course_start, entry_abandon, entry_disqualify,
                                   entry_finger_return, entry_finish, entry_start)
from rulesets import RuleRefused, get_ruleset
from rulesets.messages import pick

from rehearsals.race_iof import IofSteps
from rehearsals.race_expectations import RaceSeen, punch_reason
from rehearsals.script import NARRATOR, Step, StepFailed, format_time

# A race night: `at: "0:00"` is 22:00 on 1 January 2000 in the race's time zone (option
# time_zone), so that a finger readout's HH:MM:SS reads like the night's; still long
# before any real event (see runner.START).
NIGHT = (2000, 1, 1, 22, 0)


def night_start(script) -> datetime | None:
    """The instant of `at: "0:00"` for a race file (22:00 in the race's time zone); None
    for any other file."""
    if script.race is None:
        return None
    return datetime(*NIGHT, tzinfo=ZoneInfo(night_zone(script))).astimezone(dt_timezone.utc)


def night_zone(script) -> str:
    """The race's time zone (option time_zone), Europe/Paris when it is not one."""
    name = get_ruleset(RULESET).merged_options(script.event["options"])["time_zone"]
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return "Europe/Paris"     # as race.options.RaceOptions.zone
    return name


class CsvRejected(RuleRefused):
    """A readout with bad rows imports nothing: to the rehearsal, a refusal that lists
    every bad row with its line, as the organisers' screen does."""

    def __init__(self, rows: list[dict]):
        super().__init__("csv_rejected")
        self.rows = rows

    def message(self, lang: str = "en") -> str:
        head = pick(say("csv_rejected", count=str(len(self.rows))), lang)
        return f"{head}: " + "; ".join(f"line {r['line']}: {pick(r['reason'], lang)}"
                                       for r in self.rows)


class RaceSteps(IofSteps):
    """The race steps of runner._Player, each calling the service the race API calls
    for it. A step may return a note shown after `ok`."""

    def race_setup(self) -> None:
        """The courses with their balises (and confirmed points), the zombies and
        marshals, the entries with their gear checked, through the organisers' services;
        or the courses and entries of the orienteering files, through their import."""
        race = self.script.race
        self.entries: dict[str, int] = {}
        self.staff: dict[str, object] = {}
        self.courses: dict[str, int] = {}
        self.where = ""
        try:
            if "iof" in race:
                self.iof_setup(race["iof"])
            else:
                self._courses_setup(race["courses"])
            self._staff_setup(race["zombies"], race["marshals"])
            if "iof" not in race:
                self._entries_setup(race["entries"])
        except RuleRefused as exc:
            raise StepFailed([f"{self.where}: {refusal_text(exc, 'en')}"]) from None

    def _courses_setup(self, courses: dict) -> None:
        event, by = self.event(), self.narrator
        for name, spec in courses.items():
            self.where = f"courses.{name}"
            course = course_create(event=event, name=name, by=by, duration_s=spec["duration_s"])
            for code, cp in spec["checkpoints"].items():
                checkpoint_create(course=course, code=code, by=by, name=cp["name"],
                                  lat=cp["lat"], lon=cp["lon"], points=cp["points"])
            if spec["points_per_checkpoint"] is not None:
                course_points_confirm(course=course, by=by,
                                      points_per_checkpoint=spec["points_per_checkpoint"])
            self.courses[name] = course.pk

    def _staff_setup(self, zombies: dict, marshals: dict) -> None:
        event, by = self.event(), self.narrator
        for key, person in zombies.items():
            self.where = f"zombies.{key}"
            self.staff[key], _ = zombie_create(event=event, name=person["name"], by=by)
        for key, person in marshals.items():
            self.where = f"marshals.{key}"
            user = get_user_model().objects.create_user(
                username=f"rehearsal-m{event.pk}-{secrets.token_hex(4)}",
                first_name=person["name"][:150])
            membership_grant(event=event, user=user, role=Membership.REFEREE)
            self.staff[key] = user

    def _entries_setup(self, entries: dict) -> None:
        event, by = self.event(), self.narrator
        for key, spec in entries.items():
            self.where = f"entries.{key}"
            entry = entry_register(
                event=event, course=Course.objects.get(pk=self.courses[spec["course"]]),
                name=spec["name"], kind=spec["kind"], finger=spec["finger"],
                phone=spec["phone"], members=spec["members"], carrier=spec["carrier"],
                deposit_taken=spec["deposit"], by=by)
            if spec["gear"] is not None:
                entry_gear_check(entry=entry, gear=spec["gear"], by=by)
            self.entries[key] = entry.pk

    # Fetched again at every use, like a fresh API request.
    def entry(self, key: str) -> Entry:
        return (Entry.objects.select_related("event", "course", "character")
                .get(pk=self.entries[key]))

    def race_user(self, key: str):
        if key in self.entries:
            return self.entry(key).character.user
        return self.staff[key]

    def entry_key(self, entry_id: int) -> str:
        return next(k for k, pk in self.entries.items() if pk == entry_id)

    def wall(self, at: datetime) -> str:
        """An instant in `at` terms (wall time since the start of the rehearsal)."""
        return format_time((at - self.start).total_seconds())

    def lives(self, entry: Entry) -> int:
        return self.view(entry)["lives"]["remaining"]

    # -- steps -----------------------------------------------------------------------
    def _race_start(self, step: Step) -> str:
        spec = step.race
        if "entry" in spec:
            entry = entry_start(entry=self.entry(spec["entry"]), by=self.user(step.by))
            return f"deadline {self.wall(entry.deadline_at)}"
        started, refused = course_start(course=Course.objects.get(pk=self.courses[spec["course"]]),
                                        by=self.user(step.by))
        words = [f"{', '.join(self.entry_key(e.pk) for e in started)} started, deadline "
                 f"{self.wall(started[0].deadline_at)}" if started else "nobody started"]
        words += [f"{self.entry_key(e.pk)} not started ({r.code})" for e, r in refused]
        return "; ".join(words)

    def _gear(self, step: Step) -> None:
        entry_gear_check(entry=self.entry(step.race["entry"]), gear=step.race["gear"],
                         by=self.user(step.by))

    def _punch(self, step: Step) -> str:
        """A phone sends what the balise's QR holds; an organiser types its number."""
        spec = step.race
        entry = self.entry(spec["entry"])
        if step.by == NARRATOR:
            scanned, source = spec["checkpoint"], Punch.ORGANISER
        else:
            scanned = Checkpoint.objects.get(course_id=self.courses[spec["course"]],
                                             code=spec["checkpoint"]).qr
            source = Punch.PHONE
        punch, created = punch_record(entry=entry, checkpoint=scanned, by=self.user(step.by),
                                      source=source)
        if not created:
            return "already recorded"
        # Whatever the service made of it (another course's balise included).
        shown = next((p for p in self.view(entry)["punches"] if punch and p["id"] == punch.pk), None)
        if shown is None:
            return "recorded, not on the entry's card"
        return "counts" if shown["counted"] else \
            f"does not count: {punch_reason(shown['reason']) or shown['reason']}"

    def _carrier(self, step: Step) -> str:
        entry = entry_carrier_change(entry=self.entry(step.race["entry"]),
                                     carrier=step.race["carrier"], by=self.user(step.by))
        return f"{entry.carrier} wears the finger and the belt"

    def _import(self, step: Step) -> str:
        try:
            done = punches_import(event=self.event(), text=step.race["csv"], by=self.user(step.by))
        except FileRejected as rejected:
            raise CsvRejected(rejected.rows) from None
        return (f"{done['rows']} row(s): {done['imported']} new, "
                f"{done['already_there']} already there")

    def _grab(self, step: Step) -> str:
        spec = step.race
        loss = grab_record(entry=self.entry(spec["entry"]), by=self.user(step.by),
                           confirmations=spec["confirmations"], lat=spec["lat"], lon=spec["lon"])
        review = f"; to review: {pick(loss.review['text'], 'en')}" if loss.review else ""
        return f"{_lives(self.lives(loss.entry))} left{review}"

    def _zone_loss(self, step: Step, cause: str) -> str:
        loss = zone_loss_record(entry=self.entry(step.race["entry"]), cause=cause,
                                by=self.user(step.by), note=step.race["note"])
        if loss.took_life:
            return f"a life taken, {_lives(self.lives(loss.entry))} left"
        return "no life left: logged" if loss.no_life_left else "costs no life (options)"

    def _out_of_zone(self, step: Step) -> str:
        return self._zone_loss(step, LifeLoss.OUT_OF_ZONE)

    def _forbidden_path(self, step: Step) -> str:
        return self._zone_loss(step, LifeLoss.FORBIDDEN_PATH)

    def _void(self, step: Step) -> str:
        """The entry's latest loss not voided yet; failing that its latest one, so that
        voiding twice meets the service's own refusal."""
        key = step.race["entry"]
        losses = LifeLoss.objects.filter(entry_id=self.entries[key]).order_by("-at", "-pk")
        loss = losses.filter(voided_at__isnull=True).first() or losses.first()
        if loss is None:
            raise StepFailed([f"{key} has lost no life: nothing to void"])
        life_loss_void(loss=loss, reason=step.race["reason"], by=self.user(step.by))
        return f"{loss.cause} of {self.wall(loss.at)} voided, {_lives(self.lives(loss.entry))} left"

    def _infraction(self, step: Step) -> None:
        spec = step.race
        infraction_record(entry=self.entry(spec["entry"]), kind=spec["kind"], by=self.user(step.by),
                          as_organiser=step.by == NARRATOR, note=spec["note"],
                          penalty_points=spec["penalty_points"])

    def _finish(self, step: Step) -> str:
        spec = step.race
        entry = entry_finish(entry=self.entry(spec["entry"]), by=self.user(step.by),
                             flags_on_belt=spec["flags_on_belt"])
        view = self.view(entry)
        mismatch = ("; the flags on the belt differ from the lives: infraction logged"
                    if Infraction.objects.filter(entry=entry, kind=Infraction.BELT_MISMATCH,
                                                 at=entry.finished_at).exists() else "")
        return (f"time {format_time((entry.finished_at - entry.started_at).total_seconds())}, "
                f"{view['late_minutes']} late minute(s){mismatch}")

    def _finger_return(self, step: Step) -> str | None:
        entry = self.entry(step.race["entry"])
        owed = entry.deposit_taken_at is not None and entry.deposit_returned_at is None
        entry = entry_finger_return(entry=entry, by=self.user(step.by))
        return "deposit returned" if owed and entry.deposit_returned_at else None

    def _dnf(self, step: Step) -> str | None:
        spec = step.race
        entry = entry_abandon(entry=self.entry(spec["entry"]), by=self.user(step.by),
                              reason=spec["reason"], finger_back=spec["finger_back"])
        return None if entry.finger_returned_at else "still out until the finger is back"

    def _disqualify(self, step: Step) -> None:
        entry_disqualify(entry=self.entry(step.race["entry"]), by=self.user(step.by),
                         reason=step.race["reason"])

    def view(self, entry: Entry) -> dict:
        loaded, = entries_with_courses(entry.event, pk=entry.pk)
        return survivor_entry_view(loaded, timezone.now())

    # -- overdue alerts --------------------------------------------------------------
    def ring_alerts(self, until: datetime, *, inclusive: bool) -> None:
        """Ring every overdue alert due before `until` (at it, when inclusive), each at its
        own instant, as the server's task would: an entry still out 15 minutes (option)
        after its deadline. At a step's own instant the alert rings after the step (a
        timer), so a finish at that instant comes first."""
        if self.script.race is None:
            return
        due = {"alert_at__lte" if inclusive else "alert_at__lt": until}
        while True:
            entry = (Entry.objects.filter(_still_out(), event_id=self.event_id,
                                          alerted_at__isnull=True, **due)
                     .order_by("alert_at", "pk").first())
            if entry is None:
                return
            self.traveller.move_to(entry.alert_at)
            if not entry_alert(entry_id=entry.pk):
                return  # cannot happen; never loop forever

    def race_seen(self, event, now: datetime) -> "RaceSeen":
        return RaceSeen(self, event, now)


def _still_out() -> Q:
    # As race.services.alerts: racing, or abandoned by phone with the finger not back.
    return Q(status=Entry.RACING) | Q(status=Entry.DNF, finger_returned_at__isnull=True)


def _lives(n: int) -> str:
    return f"{n} life" if n == 1 else f"{n} lives"
