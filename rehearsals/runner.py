"""Playing a rehearsal file (docs/rehearse.md) against the very services the API calls,
on a simulated wall clock, inside one transaction that is always rolled back. The
generic steps are played here, the fight steps by fight_playing.FightSteps, the race
steps by race_playing.RaceSteps; after each step its `expect:` is compared with what
the phones show (expectations.py).

Rolling back leaves the database as it was, and on_commit hooks never fire: no
websocket push and no Celery task leaves a rehearsal.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone as dt_timezone

from zoneinfo import ZoneInfo

import time_machine
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from combat.services.schedule import fights_sweep
from common.i18n import refusal_text
from effects.services.effects import effect_push
from health.models import Treatment
from live.snapshots import character_snapshot, characters_for_snapshot
from health.services import character_act, characters_sweep
from health.treatments import treatment_abort, treatment_complete, treatment_start
from rulesets import RuleRefused

from schedule.services.days import day_schedule, days_run_due
from players.models import Character, Event, JournalEntry
from rehearsals.club_playing import ClubSteps
from rehearsals.describing import step_line
from rehearsals.expectations import character_diff, clock_diff, compare, phone_seen
from rehearsals.fight_playing import FightSteps
from rehearsals.game_playing import GameSteps
from rehearsals.item_playing import ItemSteps
from rehearsals.race_playing import RaceSteps, night_start, night_zone
from rehearsals.script import (CLOCK, ITEMS, MEMBERS, NARRATOR, REPLICAS, Script, Step,
                               StepFailed, format_time)
from players.services import character_create, event_create, team_get_or_create
from schedule.services.clock import clock_pause, clock_resume

# database, then finds nothing due in real games and never locks their rows.
START = datetime(2000, 1, 1, 9, 0, tzinfo=dt_timezone.utc)
# The sweeper runs just before each step. At one same instant a completion comes before
# a timer's expiry (rulesets/instants.py), so a sweep at the step's own instant would
# wrongly win the tie (a first aid completed exactly at the deadline is in time).
SWEEP_LEAD = timedelta(milliseconds=1)


@dataclass
class Result:
    script: Script
    passed: int                      # steps that passed
    failure: list[str] | None = None
    where: str = ""                  # "step 4 at 6:00" or "setup"

    @property
    def headline(self) -> str:
        return f"{self.script.path.name}: {self.where} failed: " + "; ".join(self.failure or [])


def rehearse(script: Script, write) -> Result:
    """Play one file; `write` prints a line. Stops at the first failed step."""
    start = starting_instant(script)
    first = min(0, script.steps[0].at_s)     # a step before the game clock's 0:00
    with time_machine.travel(start + timedelta(seconds=first), tick=False) as traveller, \
            transaction.atomic():
        try:
            return _Player(script, traveller, write, start).play()
        finally:
            transaction.set_rollback(True)


def starting_instant(script: Script) -> datetime:
    """The instant of `at: "0:00"`: a race's night (race_playing.py), else START; at the
    file's `event.starts_at` ("21:00") on that same day when it gives one, in the race's
    time zone (the server's for any other game)."""
    start = night_start(script) or START
    if not script.event.get("starts_at"):
        return start
    hours, minutes = map(int, script.event["starts_at"].split(":"))
    zone = ZoneInfo(night_zone(script) if script.race is not None else settings.TIME_ZONE)
    local = start.astimezone(zone)
    return local.replace(hour=hours, minute=minutes, second=0).astimezone(dt_timezone.utc)


class _Player(FightSteps, RaceSteps, ItemSteps, ClubSteps, GameSteps):
    start = START

    def __init__(self, script: Script, traveller, write, start: datetime = START):
        self.script = script
        self.traveller = traveller
        self.write = write
        self.start = start
        self.ids: dict[str, int] = {}   # character key -> pk

    def play(self) -> Result:
        try:
            self.setup()
        except StepFailed as exc:
            self.write("  setup  FAILED")
            self.report(exc.lines)
            return Result(self.script, 0, exc.lines, "setup")
        now_s = None
        for done, step in enumerate(self.script.steps):
            if step.at_s != now_s:   # what the phones were told at this instant, from here
                now_s, self.journal_mark = step.at_s, self.last_journal_id()
            try:
                self.travel(step.at_s)
                verdict = self.run(step)
                fights_sweep()  # a union's window ending now ends after the step (a timer)
                characters_sweep()  # so does a timer due now: its reminder is this step's
                self.ring_alerts(self.start + timedelta(seconds=step.at_s), inclusive=True)
                self.check(step)
            except StepFailed as exc:
                self.write(step_line(step, "FAILED"))
                self.report(exc.lines)
                return Result(self.script, done, exc.lines,
                              f"step {step.number} at {format_time(step.at_s)}")
            self.write(step_line(step, verdict))
        return Result(self.script, len(self.script.steps))

    def report(self, lines: list[str]) -> None:
        for line in lines:
            self.write(f"      {line}")

    # -- the world -------------------------------------------------------------------
    def setup(self) -> None:
        spec = self.script.event
        self.narrator = get_user_model().objects.create_user(
            username=f"rehearsal-{secrets.token_hex(6)}", is_staff=True)
        try:
            self.event_id = event_create(name=spec["name"], ruleset=spec["ruleset"],
                                         options=spec["options"], by=self.narrator,
                                         start_clock=self.clock_started).pk
        except RuleRefused as exc:
            raise StepFailed([f"event: {refusal_text(exc, 'en')}"]) from None
        event = self.event()
        for key, c in self.script.characters.items():
            if c.get("member"):
                continue                 # created at the member's check-in (club_playing)
            team = team_get_or_create(event=event, name=str(c["team"])) if c["team"] else None
            try:
                self.ids[key] = character_create(event=event, name=c["name"], sheet=c["sheet"],
                                                 kits=c["kits"], team=team, by=self.narrator).pk
            except RuleRefused as exc:
                raise StepFailed([f"characters.{key}: {refusal_text(exc, 'en')}"]) from None
        if self.script.race is not None:
            self.race_setup()
        self.club_setup()
        self.items_setup()

    @property
    def clock_started(self) -> bool:
        """A file whose first step comes before 0:00 starts with the game clock stopped:
        the organisers start it at 0:00 (travel)."""
        return self.script.steps[0].at_s >= 0

    def last_journal_id(self) -> int:
        last = JournalEntry.objects.filter(event_id=self.event_id).order_by("-id").first()
        return last.pk if last else 0
    def travel(self, at_s: int) -> None:
        instant = self.start + timedelta(seconds=at_s)
        if at_s >= 0 and not self.clock_started and not getattr(self, "game_begun", False):
            # The game clock's 0:00: the organisers start it (the sweep before it finds
            # nothing, as no countdown runs on a stopped clock).
            self.game_begun = True
            self.traveller.move_to(self.start)
            clock_resume(event=self.event(), by=self.narrator)
        self.end_fights_before(instant)
        self.ring_alerts(instant, inclusive=False)   # a race's overdue alerts
        self.sweep(instant)

    def sweep(self, instant: datetime) -> None:
        """What the server's sweepers do just before `instant`; then the clock reads it."""
        self.traveller.move_to(instant - SWEEP_LEAD)
        characters_sweep()
        fights_sweep()
        days_run_due(event_id=self.event_id)   # a day that fell due during a pause
        self.traveller.move_to(instant)

    # Fetched again at every use, like a fresh API request: a medic's kits, a paused
    # clock must never come from a stale object.
    def event(self) -> Event:
        return Event.objects.get(pk=self.event_id)

    def character(self, key: str) -> Character:
        if key not in self.ids:                   # a club member before their check-in
            raise StepFailed([f"{key} has not checked in yet (check_in: {key})"])
        return Character.objects.select_related("user").get(pk=self.ids[key])

    def user(self, key: str):
        if key == NARRATOR:
            return self.narrator
        return self.character(key).user if key in self.ids else self.race_user(key)

    # -- actions ---------------------------------------------------------------------
    def run(self, step: Step) -> str:
        try:
            note = getattr(self, f"_{step.kind}")(step)
        except RuleRefused as exc:
            if exc.code == step.expect_refused:
                return f"refused as expected ({exc.code})"
            wanted = f" (expected the refusal {step.expect_refused})" if step.expect_refused else ""
            raise StepFailed([f"refused ({exc.code}): {refusal_text(exc, 'en')}{wanted}"]) from None
        if step.expect_refused:
            raise StepFailed([f"expected the refusal {step.expect_refused}, "
                              "but the step was accepted" + (f" ({note})" if note else "")])
        return f"ok ({note})" if note else "ok"

    def _expect(self, step: Step) -> None:
        pass  # nothing to play: the expectations are checked after every step

    def _do(self, step: Step) -> None:
        character_act(character=self.character(step.on), action=step.action,
                      params=step.params, by=self.user(step.by), as_narrator=step.by == NARRATOR)

    def _treat(self, step: Step) -> None:
        treatment_start(medic=self.character(step.by), patient=self.character(step.on),
                        action=step.action, params=step.params, by=self.user(step.by))

    def _complete(self, step: Step) -> None:
        treatment_complete(treatment=self.treatment(step), by=self.user(step.by))

    def _abort(self, step: Step) -> None:
        treatment_abort(treatment=self.treatment(step), by=self.user(step.by))

    def _pause(self, step: Step) -> None:
        clock_pause(event=self.event(), by=self.narrator)

    def _resume(self, step: Step) -> None:
        clock_resume(event=self.event(), by=self.narrator)

    def _day(self, step: Step) -> str:
        """A dawn or day end scheduled for this instant and run at once, as the server's
        task would (nothing is applied while the game is paused: it runs after `resume`)."""
        event = self.event()
        day_schedule(event=event, kind=step.action, due_at=timezone.now(), by=self.narrator)
        changed = days_run_due(event_id=event.pk)
        return "waits for the resume" if not event.running else f"{changed} changed"

    def _effect(self, step: Step) -> None:
        spec, event = step.effect, self.event()
        if spec["to"]:
            targets = [self.character(key) for key in spec["to"]]
        elif spec["team"]:
            targets = list(event.characters.filter(team__name=str(spec["team"])))
        else:
            targets = None                       # everyone, now and later
        effect_push(event=event, characters=targets, text=spec["text"],
                    duration_s=spec["duration_s"], set_state=spec["set_state"], by=self.narrator)

    def treatment(self, step: Step) -> Treatment:
        """The medic's running treatment of that kind on that patient; failing that their
        latest one, so that completing it twice meets the service's own refusal."""
        mine = Treatment.objects.filter(medic_id=self.ids[step.by], patient_id=self.ids[step.on],
                                        action=step.action).order_by("-pk")
        treatment = mine.filter(status=Treatment.RUNNING).first() or mine.first()
        if treatment is None:
            raise StepFailed([f"{step.by} never started {step.action} on {step.on}"])
        return treatment

    # -- expectations ----------------------------------------------------------------
    def check(self, step: Step) -> None:
        if not step.expect:
            return
        now, event = timezone.now(), self.event()
        seen = {c.pk: (character_snapshot(c, now), c.kits)
                for c in characters_for_snapshot(event, now, pk__in=self.ids.values())}
        names = {key: c["name"] for key, c in self.script.characters.items()}
        race = self.race_seen(event, now) if self.script.race is not None else None
        lines = []
        for key, checks in step.expect.items():
            if key == CLOCK:
                lines += clock_diff(checks, event, now)
            elif key == ITEMS:
                lines += self.items_diff(checks, compare)
            elif key == MEMBERS:
                lines += self.members_diff(checks, compare)
            elif key == REPLICAS:
                lines += self.replicas_diff(checks, compare)
            elif key in self.ids:
                lines += character_diff(key, checks, *seen[self.ids[key]], names,
                                        phone_seen(self.ids[key], self.journal_mark))
            elif key in self.script.characters:
                lines.append(f"{key}: has not checked in yet, nothing to check")
            else:                                   # an entry's `race`, or `safety`
                lines += race.diff(key, checks, compare)
        if lines:
            raise StepFailed(lines)
