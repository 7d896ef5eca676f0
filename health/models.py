"""A character's health as the rules core sees it, and treatments in progress.

Timers are instants on the event's game clock (play seconds), never "seconds left".
"""
from django.db import models

from players.models import Character, Event
from rulesets import CharacterState


class HealthState(models.Model):
    character = models.OneToOneField(Character, primary_key=True, on_delete=models.CASCADE,
                                     related_name="health")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="health_states")
    status = models.CharField(max_length=40)
    timers = models.JSONField(default=dict, blank=True)
    values = models.JSONField(default=dict, blank=True)
    # The earliest timer, kept as a column so the sweeper finds due rows with an index.
    next_deadline_s = models.FloatField(null=True, blank=True)
    # Bumped at every change; phones use it as the sequence number of snapshots.
    version = models.PositiveIntegerField(default=0)
    # Out of the game for real (a real injury, health/holds.py): the game instant it began,
    # why, and the timers it froze (game instants as they stood then). Meanwhile `timers`
    # is empty, so nothing falls due; lifting it moves each one by the time held.
    held_since_s = models.FloatField(null=True, blank=True)
    held_reason = models.CharField(max_length=200, blank=True, default="")
    held_timers = models.JSONField(default=dict, blank=True)

    class Meta:
        indexes = [models.Index(fields=["event", "next_deadline_s"])]

    def as_core(self) -> CharacterState:
        return CharacterState(self.status, dict(self.timers), dict(self.values))

    def store(self, state: CharacterState) -> None:
        self.status = state.status
        self.timers = dict(state.timers)
        self.values = dict(state.values)
        self.next_deadline_s = state.next_deadline()
        self.version += 1


class Treatment(models.Model):
    """A medic's timed action on a patient: started, then completed or aborted, or closed
    because the patient died while it ran."""

    RUNNING, COMPLETED, ABORTED, PATIENT_DIED = "running", "completed", "aborted", "patient_died"
    STATUSES = [(RUNNING, "running"), (COMPLETED, "completed"), (ABORTED, "aborted"),
                (PATIENT_DIED, "patient died")]

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="treatments")
    medic = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="treatments_given")
    patient = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="treatments_received")
    action = models.CharField(max_length=50)
    level = models.CharField(max_length=20, null=True, blank=True)
    params = models.JSONField(default=dict, blank=True)
    started_game_s = models.FloatField()
    duration_s = models.FloatField()
    status = models.CharField(max_length=20, choices=STATUSES, default=RUNNING)
    result = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    @property
    def ready_game_s(self) -> float:
        return self.started_game_s + self.duration_s
