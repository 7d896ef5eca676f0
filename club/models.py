"""The airsoft club's register: the clubs and their events, members, their check-ins to
games, the sanctions register and the chrony station's replicas and checks. Tables
created in players/ and combat/ keep their names."""
# Rule codes: docs/rules/airsoft_rats-coverage.md; their families: docs/glossary.md.
import secrets

from django.conf import settings
from django.db import models

from players.models import Character, Event


class Club(models.Model):
    """Whose register it is: members' contacts, licences and sanctions belong to one
    club, read only by the staff of its own events (club/selectors.py)."""

    name = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class ClubEvent(models.Model):
    """An event of a club: the register its desk checks players in from. The link lives
    here, not on the event: the club builds on the events, not the reverse."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="event_links")
    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="club_link")
    attached_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")
    attached_at = models.DateTimeField(auto_now_add=True)


class Member(models.Model):
    """A person on a club's register (airsoft): it outlives any one game, and so does
    their sanctions' history. A game's character points to it once they check in."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="members")
    name = models.CharField(max_length=200)
    nickname = models.CharField(max_length=100, blank=True, default="")
    phone = models.CharField(max_length=40)
    email = models.EmailField(blank=True, default="")
    licence_number = models.CharField(max_length=40,
                                      help_text="Licence or club member number.")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.name} ({self.licence_number})"

    class Meta:
        db_table = "players_member"
        # Unique in its club only: two clubs may each number a member "A-123".
        constraints = [models.UniqueConstraint(fields=["club", "licence_number"],
                                               name="member_unique_licence_in_club")]


class CheckIn(models.Model):
    """A club member checked in to a game as this character: the register outlives the
    game, the character does not."""

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="check_ins")
    character = models.OneToOneField(Character, on_delete=models.CASCADE, related_name="check_in")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="check_ins")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # One character per member and game: checking in twice finds it.
        constraints = [models.UniqueConstraint(fields=["event", "member"],
                                               name="check_in_unique_member")]


class Sanction(models.Model):
    """One line of the club's sanctions register (rulebook §5). Never deleted: the
    committee revokes a sanction, which keeps it on record."""

    LIGHT, GRAVE = "light", "grave"
    LEVELS = [(LIGHT, "Light fault"), (GRAVE, "Grave fault")]
    WARNING, SANCTION_OUT = "warning", "sanction_out"
    REMOVED, EXPELLED_DAY, EXCLUDED, BANNED = (
        "removed_from_game", "expelled_rest_of_day", "excluded", "permanent_ban")
    KINDS = [(WARNING, "Warning"), (SANCTION_OUT, "Sanction out"),
             (REMOVED, "Removed from the current game"),
             (EXPELLED_DAY, "Expelled for the rest of the day"),
             (EXCLUDED, "Excluded until a date (at most one year)"),
             (BANNED, "Permanent ban")]
    LEVEL_OF = {WARNING: LIGHT, SANCTION_OUT: LIGHT, REMOVED: GRAVE, EXPELLED_DAY: GRAVE,
                EXCLUDED: GRAVE, BANNED: GRAVE}
    # What the fault was: the rulebook's own examples (§3, §4, §5), so that a repeat of the
    # same kind is recognised ("En cas de récidive l'exclusion sera plus sévère").
    CATEGORIES = [("alcohol_drugs", "Alcohol or drugs"), ("cheating", "Cheating"),
                  ("engagement_distance", "Engagement distance not respected"),
                  ("no_out_call", "Not calling \"out\" when hit"),
                  ("info_while_out", "Game information while out"),
                  ("bbs_left", "BBs left on the field"),
                  ("forbidden_shot", "Shooting at windows or outside the field"),
                  ("insult", "Insult"), ("discrimination", "Discrimination"),
                  ("fight", "Fight or pushing"), ("gesture", "Inappropriate gesture"),
                  ("other", "Other")]

    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="sanctions")
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="sanctions")
    character = models.ForeignKey(Character, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="sanctions")
    level = models.CharField(max_length=10, choices=LEVELS)
    kind = models.CharField(max_length=30, choices=KINDS)
    cheating = models.BooleanField(default=False, help_text="Proven cheating (rule B13).")
    reason = models.TextField()
    category = models.CharField(max_length=30, choices=CATEGORIES, blank=True, default="",
                                help_text="What the fault was; empty when not said.")
    repeat_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+", help_text="The member's latest earlier "
                                  "sanction of the same category, not revoked: a repeat.")
    # Rule B13: a light sanction for repeated cheating is recorded as grave; what was asked
    # and the earlier cheating that made it grave.
    escalated_from = models.CharField(max_length=30, blank=True, default="")
    escalated_because = models.ForeignKey("self", null=True, blank=True,
                                          on_delete=models.SET_NULL, related_name="+")
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="+")
    decided_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True,
                                   help_text="End of an exclusion or of the day's expulsion.")
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    revoked_reason = models.TextField(blank=True, default="")

    class Meta:
        db_table = "players_sanction"
        ordering = ["-decided_at", "-id"]
        indexes = [models.Index(fields=["member", "decided_at"])]


def new_replica_code() -> str:
    # The character codes' alphabet (no 0/O/1/I): read off a pass label in the dark.
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return "".join(secrets.choice(alphabet) for _ in range(8))


class Replica(models.Model):
    """An airsoft replica registered at check-in for a club member (club/services/chrony.py)."""

    TYPES = [(t, t) for t in ("rifle", "pistol", "sniper", "shotgun", "gl", "other")]

    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="replicas")
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="replicas")
    label = models.CharField(max_length=100, help_text="What it is, as the owner calls it.")
    type = models.CharField(max_length=10, choices=TYPES)
    calibre_mm = models.FloatField()
    full_auto_capable = models.BooleanField(default=False)
    code = models.CharField(max_length=12, unique=True, default=new_replica_code,
                            help_text="Printed on the pass label and in its QR code.")
    registered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True,
                                      on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "combat_replica"
        ordering = ["id"]


class ChronyCheck(models.Model):
    """One pass through the chrony: what was measured, the limits it was held to, and
    the verdict with its reasons (fr/es/en)."""

    CHECK_IN, RECHECK = "check_in", "recheck"
    KINDS = [(CHECK_IN, "At check-in"), (RECHECK, "Control during the games")]

    replica = models.ForeignKey(Replica, on_delete=models.CASCADE, related_name="checks")
    kind = models.CharField(max_length=10, choices=KINDS)
    checked_at = models.DateTimeField()
    checked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="+")
    bb_weight_g = models.FloatField()
    speed_mps = models.FloatField(null=True, blank=True)
    energy_j = models.FloatField()
    calibre_mm = models.FloatField()
    full_auto_used = models.BooleanField(default=False)
    passed = models.BooleanField()
    reasons = models.JSONField(default=list, blank=True)
    limits = models.JSONField(default=dict, blank=True)

    class Meta:
        db_table = "combat_chronycheck"
        ordering = ["id"]
