"""The game's calendar: dawns and day ends (schedule/services/days.py) and the games of an
airsoft day (schedule/services/games.py). Tables keep the names they were created with in
players/."""
from __future__ import annotations

from django.conf import settings
from django.db import models

from players.models import Event


class GameDay(models.Model):
    """A dawn or a day end scheduled by the organisers at a wall-clock instant (07:00 on
    Saturday). Unlike a timer it is not on the game clock: a pause does not move it, it is
    only applied once the game runs again."""

    DAWN, DAY_END = "dawn", "day_end"
    KINDS = [(DAWN, "Dawn"), (DAY_END, "Day end")]

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="days")
    kind = models.CharField(max_length=10, choices=KINDS)
    due_at = models.DateTimeField()
    done_at = models.DateTimeField(null=True, blank=True)
    # The last character id reached: a day cut between two batches (a worker killed)
    # continues after it, and nobody gets the same dawn twice.
    reached_id = models.BigIntegerField(default=0)
    characters_changed = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "players_gameday"
        ordering = ["due_at", "pk"]
        indexes = [models.Index(fields=["done_at", "due_at"])]
        constraints = [models.UniqueConstraint(fields=["event", "kind", "due_at"],
                                               name="game_day_unique_instant")]


class Game(models.Model):
    """One game (partie) of an airsoft day: the day is the Event, its games are played one
    after another (schedule/services/games.py). Announced with its scenario, then started,
    then ended."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField()
    # The rulebook lets players propose scenarios: the name and text are free.
    scenario = models.CharField(max_length=200)
    description = models.TextField(blank=True, default="")
    options = models.JSONField(default=dict, blank=True,
                               help_text='Overrides of the options for this game, e.g. {"medic_mode": true}.')
    start_at = models.DateTimeField(help_text="The start time announced to the players.")
    announced_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    # The event's options before the day's first game: each game's options go on top of
    # these, so that one game's medic mode does not leak into the next.
    day_options = models.JSONField(null=True, blank=True)
    characters_reset = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "players_game"
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"],
                                               name="game_unique_number")]

    def __str__(self) -> str:
        return f"{self.number}. {self.scenario}"
