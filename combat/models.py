"""Fights between characters: duels, "l'union fait la force" and acharnement. Each keeps
who took part, when it started and, for the timed ones, the game second it is due; the
outcome is applied to each side's health through the rules. At the end, the airsoft
chrony station's replicas and their checks (club/services/chrony.py), and the airsoft medic's
heals (combat/services/heals.py)."""
import secrets

from django.conf import settings
from django.db import models

from players.models import Character, Event


class Duel(models.Model):
    """A bare-hand duel: one side challenges, the other confirms, the server compares the
    effective scores and tells each side only whether it won, lost or tied."""

    PROPOSED, RESOLVED, DECLINED, REFUSED, CANCELLED = (
        "proposed", "resolved", "declined", "refused", "cancelled")
    STATUSES = [(s, s) for s in (PROPOSED, RESOLVED, DECLINED, REFUSED, CANCELLED)]
    WON, LOST, TIE = "won", "lost", "tie"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="duels")
    challenger = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="duels_started")
    defender = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="duels_received")
    status = models.CharField(max_length=20, choices=STATUSES, default=PROPOSED)
    proposed_game_s = models.FloatField()
    expires_game_s = models.FloatField(help_text="A challenge not confirmed by then lapses.")
    closed_game_s = models.FloatField(null=True, blank=True)
    # Each side's result, never the scores: a phone learns only its own outcome.
    challenger_result = models.CharField(max_length=10, blank=True, default="")
    defender_result = models.CharField(max_length=10, blank=True, default="")
    reason = models.CharField(max_length=40, blank=True, default="",
                              help_text="Why it was refused or cancelled (a message code).")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["-id"]


class Union(models.Model):
    """A group claims "l'union fait la force" against fewer than a third of its number;
    unless the minority is rebalanced within the window, the minority loses."""

    PENDING, RESOLVED, CANCELLED = "pending", "resolved", "cancelled"
    STATUSES = [(s, s) for s in (PENDING, RESOLVED, CANCELLED)]

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="unions")
    claimed_by = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="unions_claimed")
    status = models.CharField(max_length=20, choices=STATUSES, default=PENDING)
    claimed_game_s = models.FloatField()
    resolve_game_s = models.FloatField(db_index=True)
    reason = models.CharField(max_length=40, blank=True, default="")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)


class UnionMember(models.Model):
    ATTACKERS, DEFENDERS = "attackers", "defenders"

    union = models.ForeignKey(Union, on_delete=models.CASCADE, related_name="members")
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="unions")
    side = models.CharField(max_length=10, choices=[(ATTACKERS, ATTACKERS), (DEFENDERS, DEFENDERS)])
    joined_game_s = models.FloatField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["union", "character"], name="one_side_per_union")]


class Acharnement(models.Model):
    """Five minutes of blows (bare hands on a Tired victim, a wounding weapon on a Wounded
    one): completed only after the full duration, stopped at any time by the attacker."""

    RUNNING, COMPLETED, STOPPED = "running", "completed", "stopped"
    STATUSES = [(s, s) for s in (RUNNING, COMPLETED, STOPPED)]

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="acharnements")
    attacker = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="acharnements_given")
    victim = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="acharnements_suffered")
    kind = models.CharField(max_length=40)
    status = models.CharField(max_length=20, choices=STATUSES, default=RUNNING)
    started_game_s = models.FloatField()
    ends_game_s = models.FloatField(db_index=True)
    closed_game_s = models.FloatField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)


class Heal(models.Model):
    """Airsoft medic mode (combat/services/heals.py): a teammate heals a downed player in
    place while the patient counts 11 to 20, or holds and drags them first (extraction,
    no end). The medic keeps it going; stopping, or the medic being taken out, ends it
    with nothing gained (the next heal counts from 11 again)."""

    HEAL, EXTRACTION = "heal", "extraction"
    KINDS = [(HEAL, HEAL), (EXTRACTION, EXTRACTION)]
    RUNNING, COMPLETED, STOPPED, ABORTED = "running", "completed", "stopped", "aborted"
    STATUSES = [(s, s) for s in (RUNNING, COMPLETED, STOPPED, ABORTED)]

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="heals")
    medic = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="heals_given")
    patient = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="heals_received")
    kind = models.CharField(max_length=20, choices=KINDS)
    status = models.CharField(max_length=20, choices=STATUSES, default=RUNNING)
    # The state the start put the patient in: the patient leaving it by any other way (a
    # referee, a sanction) ends the heal.
    patient_status = models.CharField(max_length=40)
    started_game_s = models.FloatField()
    ends_game_s = models.FloatField(null=True, blank=True, db_index=True,
                                    help_text="A heal's end; an extraction has none.")
    closed_game_s = models.FloatField(null=True, blank=True)
    reason = models.CharField(max_length=40, blank=True, default="",
                              help_text="Why it stopped: hands_off, fired, hit, medic_out, "
                                        "patient_out, to_heal.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)

    class Meta:
        # The services check under the characters' locks; these catch what slips past.
        constraints = [
            models.UniqueConstraint(fields=["medic"], condition=models.Q(status="running"),
                                    name="heal_one_running_per_medic"),
            models.UniqueConstraint(fields=["patient"], condition=models.Q(status="running"),
                                    name="heal_one_running_per_patient"),
        ]
