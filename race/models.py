"""The zombie race: courses and their checkpoints (balises), entries (a solo survivor or a
team: one finger, one life belt), punches, life losses and infractions.

State and absolute instants only. A score is never stored: it is worked out from these
rows and the event's options (race/scoring.py), so a corrected punch or a voided life
changes the leaderboard at once, and the options can change until the race day.
"""
# Rule codes: docs/rules/zombie_race-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from players.models import Character, Event


class Course(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="race_courses")
    name = models.CharField(max_length=60, help_text="enfant, famille, sportif, or any name.")
    duration_s = models.PositiveIntegerField(help_text="D: the time allowed from the start.")
    points_per_checkpoint = models.IntegerField(default=0)
    # The rulebook gives no value (Z1): results carry a warning until an organiser says so.
    points_confirmed = models.BooleanField(default=False)
    points_confirmed_at = models.DateTimeField(null=True, blank=True)
    mass_started_at = models.DateTimeField(null=True, blank=True)
    # Orienteering classes run on this course (an IOF CourseData's class assignments): an
    # IOF EntryList names its runners' class, not their course.
    classes = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["duration_s", "pk"]
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="race_course_unique_name")]

    def __str__(self) -> str:
        return self.name


def new_checkpoint_qr() -> str:
    # Unguessable: a survivor cannot punch a balise from the couch by typing its number.
    return f"RBN-{secrets.token_urlsafe(9)}"


class Checkpoint(models.Model):
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="checkpoints")
    code = models.CharField(max_length=20, help_text="The number on the box (SI control code).")
    name = models.CharField(max_length=100, blank=True, default="")
    lat = models.FloatField(null=True, blank=True)
    lon = models.FloatField(null=True, blank=True)
    qr = models.CharField(max_length=200, unique=True, default=new_checkpoint_qr,
                          help_text="What the QR code on the balise holds.")
    points = models.IntegerField(null=True, blank=True,
                                 help_text="Overrides the course's points for this balise.")

    class Meta:
        ordering = ["course", "pk"]
        constraints = [models.UniqueConstraint(fields=["course", "code"],
                                               name="race_checkpoint_unique_code")]


class Entry(models.Model):
    """A scoring unit: a solo survivor, or a team sharing one finger and one life belt."""

    SOLO, TEAM = "solo", "team"
    KINDS = [(SOLO, "Solo"), (TEAM, "Team")]
    REGISTERED, RACING, FINISHED, DNF, DISQUALIFIED = (
        "registered", "racing", "finished", "dnf", "disqualified")
    STATUSES = [(REGISTERED, "Registered"), (RACING, "Racing"), (FINISHED, "Finished"),
                (DNF, "Did not finish"), (DISQUALIFIED, "Disqualified")]

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="race_entries")
    course = models.ForeignKey(Course, on_delete=models.PROTECT, related_name="entries")
    # The survivor's login (and the code on the bib's QR, which zombies scan).
    character = models.OneToOneField(Character, on_delete=models.CASCADE, related_name="race_entry")
    kind = models.CharField(max_length=10, choices=KINDS)
    name = models.CharField(max_length=100)
    members = models.JSONField(default=list, blank=True, help_text="A team's members' names.")
    carrier = models.CharField(max_length=100, blank=True, default="",
                               help_text="Who wears the finger and the belt now (team).")
    # None: a runner renting a finger (an IOF entry without a card) punches by phone until
    # one is handed over.
    finger = models.PositiveIntegerField(null=True, blank=True,
                                         help_text="The electronic finger's number.")
    club = models.CharField(max_length=100, blank=True, default="")
    phone = models.CharField(max_length=40, help_text="Given at registration; organisers only.")
    deposit_taken_at = models.DateTimeField(null=True, blank=True)
    deposit_returned_at = models.DateTimeField(null=True, blank=True)
    gear = models.JSONField(default=dict, blank=True,
                            help_text='{"vest": true, "light": true, "phone": true}')
    gear_checked_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=15, choices=STATUSES, default=REGISTERED)
    started_at = models.DateTimeField(null=True, blank=True)
    deadline_at = models.DateTimeField(null=True, blank=True, help_text="start + D")
    alert_at = models.DateTimeField(null=True, blank=True,
                                    help_text="When organisers are alerted if still out.")
    alerted_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True, help_text="DNF or disqualification.")
    end_reason = models.CharField(max_length=300, blank=True, default="")
    finger_returned_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["course", "name", "pk"]
        constraints = [models.UniqueConstraint(fields=["event", "finger"],
                                               name="race_entry_unique_finger")]
        indexes = [models.Index(fields=["alerted_at", "alert_at"])]

    def __str__(self) -> str:
        return self.name


class Punch(models.Model):
    """One beep of the finger (or one scan of the balise's QR). Every punch is kept; which
    ones count (the first in the race window, per balise) is decided when scoring, except
    a punch known not to count when recorded (`not_counted`: a balise of another course,
    a readout row out of the finger's sequence), kept to be shown with its reason."""

    PHONE, ORGANISER, IMPORT = "phone", "organiser", "import"
    SOURCES = [(PHONE, "Phone scan"), (ORGANISER, "Organiser"), (IMPORT, "Finger readout")]
    # Known when recorded, whatever the options say later: the finger beeps on any box.
    NOT_ON_COURSE, OUT_OF_SEQUENCE = "not_on_course", "out_of_sequence"
    NOT_COUNTED = [(NOT_ON_COURSE, "Balise of another course"),
                   (OUT_OF_SEQUENCE, "Out of the finger's sequence")]

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="punches")
    checkpoint = models.ForeignKey(Checkpoint, on_delete=models.PROTECT, related_name="punches")
    at = models.DateTimeField()
    source = models.CharField(max_length=10, choices=SOURCES)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")
    not_counted = models.CharField(max_length=20, choices=NOT_COUNTED, blank=True, default="",
                                   help_text="Why it never counts (empty: scoring decides).")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]
        constraints = [models.UniqueConstraint(fields=["entry", "checkpoint", "at"],
                                               name="race_punch_unique")]


class LifeLoss(models.Model):
    """A flag pulled by a zombie, or taken by a marshal for leaving the zone or a forbidden
    path. Never deleted: an organiser voids it (the life comes back)."""

    ZOMBIE_GRAB, OUT_OF_ZONE, FORBIDDEN_PATH = "zombie_grab", "out_of_zone", "forbidden_path"
    CAUSES = [(ZOMBIE_GRAB, "Zombie grab"), (OUT_OF_ZONE, "Left the race zone"),
              (FORBIDDEN_PATH, "Forbidden path or fence")]

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="life_losses")
    cause = models.CharField(max_length=20, choices=CAUSES)
    at = models.DateTimeField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                    related_name="+")
    took_life = models.BooleanField(help_text="A flag was taken (lives went down by one).")
    no_life_left = models.BooleanField(default=False,
                                       help_text="R05: would have cost a life, none was left.")
    confirmations = models.JSONField(default=list, blank=True)
    lat = models.FloatField(null=True, blank=True)
    lon = models.FloatField(null=True, blank=True)
    note = models.CharField(max_length=300, blank=True, default="")
    review = models.JSONField(null=True, blank=True,
                              help_text="Why an organiser may want to void it (near a balise).")
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    void_reason = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        ordering = ["at", "pk"]


class Infraction(models.Model):
    """A rule broken that costs no life (Z-A9, R13): logged; organisers may give points."""

    LIVES_HIDDEN, CHECKPOINT_MOVED, TRANSPORT, TRAFFIC, GEAR, BELT_MISMATCH, OTHER = (
        "lives_hidden", "checkpoint_moved", "transport", "traffic_code", "missing_gear",
        "belt_mismatch", "other")
    # Recorded with a marshal's call that takes no life (R05, Z4), never typed by hand.
    OUT_OF_ZONE, FORBIDDEN_PATH = "out_of_zone", "forbidden_path"
    KINDS = [(LIVES_HIDDEN, "Lives hidden, passed on or re-attached"),
             (CHECKPOINT_MOVED, "Balise moved or hidden"),
             (TRANSPORT, "Not on foot (scooter, rollers, bike...)"),
             (TRAFFIC, "Highway code not followed"), (GEAR, "Mandatory gear missing"),
             (BELT_MISMATCH, "Flags on the belt differ from the lives recorded"),
             (OTHER, "Other"),
             (OUT_OF_ZONE, "Left the race zone, no life taken"),
             (FORBIDDEN_PATH, "Forbidden path or fence, no life taken")]
    # What a person records by hand (the rest comes with a zone call).
    TYPED = [LIVES_HIDDEN, CHECKPOINT_MOVED, TRANSPORT, TRAFFIC, GEAR, BELT_MISMATCH, OTHER]

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="infractions")
    kind = models.CharField(max_length=20, choices=KINDS)
    at = models.DateTimeField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                    related_name="+")
    note = models.CharField(max_length=300, blank=True, default="")
    penalty_points = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["at", "pk"]
