"""Events, teams, characters, who may do what, and the journal."""
from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models

from rulesets import Rules, get_ruleset


class Event(models.Model):
    """One game. Its clock counts play seconds, pauses excluded: every deadline is an
    instant on this clock, so pausing the game freezes every countdown at once."""

    name = models.CharField(max_length=200)
    ruleset = models.CharField(max_length=50)
    options = models.JSONField(default=dict, blank=True,
                               help_text="Overrides of the ruleset's default options.")
    language = models.CharField(max_length=5, default="fr")
    # How the phones look until a player chooses on their own (frontend js/display.js).
    DISPLAYS = [("dark", "Dark"), ("night", "Night: red on black"), ("day", "Day: high contrast")]
    display = models.CharField(max_length=8, choices=DISPLAYS, default="dark",
                               help_text="How the phones look unless a player chooses another.")
    time_zone = models.CharField(max_length=64, default="Europe/Paris",
                                 help_text="Where the game is played: the times organisers read.")
    starts_on = models.DateField(null=True, blank=True, help_text="The first day of the game.")
    created_at = models.DateTimeField(auto_now_add=True)
    clock_elapsed_s = models.FloatField(default=0.0,
                                        help_text="Play seconds accumulated before the current run.")
    clock_running_since = models.DateTimeField(null=True, blank=True)
    # What every phone shows of the games (schedule/services/games.py): {"game": the game being
    # played, "next_game": the one announced}. Kept here, on the row each snapshot already
    # loads, so that showing it costs no query per character.
    announcement = models.JSONField(default=dict, blank=True)
    # Personal data has an end (docs/operations.md, "Personal data"): what the event holds
    # on people is purged this many days after the event's end (players/privacy_selectors.py
    # says what the end is), once, by beat's daily task.
    retention_days = models.PositiveIntegerField(
        default=90, help_text="Days after the event's end before its personal data is purged.")
    personal_data_purged_at = models.DateTimeField(null=True, blank=True)
    # The part of every character's snapshot sequence number that the whole event shares
    # (health/snapshot.py adds it to the character's own): a message to everyone moves
    # this one row, not one row per character (2,000 rows were most of the narrator's wait).
    snapshot_version = models.PositiveIntegerField(default=0, editable=False)

    def __str__(self) -> str:
        return self.name

    @property
    def running(self) -> bool:
        return self.clock_running_since is not None

    def game_time(self, at: datetime) -> float:
        if self.clock_running_since is None:
            return self.clock_elapsed_s
        return self.clock_elapsed_s + (at - self.clock_running_since).total_seconds()

    def wall_time(self, game_s: float) -> datetime | None:
        """When the clock will read game_s, if it keeps running; None while paused."""
        if self.clock_running_since is None:
            return None
        return self.clock_running_since + timedelta(seconds=game_s - self.clock_elapsed_s)

    def rules(self) -> Rules:
        """The ruleset with this event's options; kept on the instance (options change only
        by editing the event, which loads a new instance)."""
        cached = self.__dict__.get("_rules")
        if cached is None or cached[0] != (self.ruleset, self.options):
            ruleset = get_ruleset(self.ruleset)
            cached = ((self.ruleset, dict(self.options)), Rules(ruleset, ruleset.merged_options(self.options)))
            self.__dict__["_rules"] = cached
        return cached[1]


class Team(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=100)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="team_unique_name")]

    def __str__(self) -> str:
        return self.name


def new_character_code() -> str:
    # No 0/O/1/I: the code is read aloud and typed by a medic in the dark.
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return "".join(secrets.choice(alphabet) for _ in range(6))


class Character(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="characters")
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="characters")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="characters")
    name = models.CharField(max_length=200)
    code = models.CharField(max_length=12, default=new_character_code,
                            help_text="Short code on the character sheet and in its QR, for medics.")
    sheet = models.JSONField(default=dict, blank=True,
                             help_text='{"combat_base": 2, "skills": {"first_aid": "novice"}, "psych": {...}}')
    kits = models.JSONField(default=dict, blank=True, help_text='Kits held, e.g. {"kps": 3, "koc": 1}')
    has_fought = models.BooleanField(
        default=False, help_text="Has been in a fight (duel, union, beating, heal): only "
                                 "then does its snapshot read the fights.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "code"], name="character_unique_code")]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    PLAYER, NARRATOR, REFEREE = "player", "narrator", "referee"
    # A referee (arbitre) records light faults only; organisers are narrators.
    ROLES = [(PLAYER, "Player"), (NARRATOR, "Narrator / organiser"), (REFEREE, "Referee")]
    # A zombie of the zombie race (race/) pulls survivors' flags; no score of their own.
    ZOMBIE = "zombie"
    ROLES.append((ZOMBIE, "Zombie"))
    # The safety team (safety/): they answer the calls for help (real) and keep the safety
    # board beside the narrators, and see nothing of the game.
    SAFETY = "safety"
    ROLES.append((SAFETY, "Safety team"))

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="memberships")
    role = models.CharField(max_length=20, choices=ROLES)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "user", "role"],
                                               name="membership_unique_role")]


class LoginToken(models.Model):
    """A way to log in; only its hash is stored.

    A *link* is used once and expires (sent by message, shown on the narrator's screen).
    A *card* code is printed on a character's card: it logs in as often as needed until an
    organiser replaces it or the event's personal data is purged, and printing again shows
    the same code, derived from its `salt` and the server's secret (players/login_cards.py)."""

    LINK, CARD = "link", "card"
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    event = models.ForeignKey(Event, on_delete=models.CASCADE)
    kind = models.CharField(max_length=8, default=LINK, choices=[(LINK, "One-time link"),
                                                                 (CARD, "Card code")])
    token_hash = models.CharField(max_length=64, unique=True)
    salt = models.CharField(max_length=32, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True, help_text="None: until replaced.")
    used_at = models.DateTimeField(null=True, blank=True, help_text="Last used.")


class JournalEntry(models.Model):
    """Append-only: who did what, when (wall and game time), the state before and after.
    Corrections are new lines, never edits."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="journal")
    character = models.ForeignKey(Character, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="journal")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.SET_NULL)
    actor_label = models.CharField(max_length=200, help_text="Who, as read in the journal; 'system' for timers.")
    kind = models.CharField(max_length=40)
    what = models.CharField(max_length=100)
    at = models.DateTimeField()
    game_s = models.FloatField()
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    detail = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["event", "id"])]

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("journal entries are append-only; write a correction line instead")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("journal entries are append-only")


class PhoneReadiness(models.Model):
    """The latest self-check a character's phone reported ("Is this phone ready for the
    game?", docs/phone-app.md): one row per character, replaced by each newer report.
    `checks` holds, per capability of PHONE_CHECKS, {"ok": bool, "detail": str}; `failing`
    the capabilities that were not ok, so the narrators' counts are one query."""
    character = models.OneToOneField(Character, primary_key=True, on_delete=models.CASCADE,
                                     related_name="phone_readiness")
    checked_at = models.DateTimeField(help_text="When the phone ran the check (server's clock).")
    received_at = models.DateTimeField()
    checks = models.JSONField(default=dict)
    failing = models.JSONField(default=list)
    clock_offset_ms = models.IntegerField(null=True, blank=True,
                                          help_text="Server time minus the phone's own clock.")
    battery_level = models.FloatField(null=True, blank=True, help_text="0 to 1; empty when the browser does not tell.")

    @property
    def ready(self) -> bool:
        return not self.failing

    def __str__(self) -> str:
        return f"{self.character}: {'ready' if self.ready else ', '.join(self.failing)}"


# What a phone checks, in the order its screen shows them (js/phone_check.js says the same).
PHONE_CHECKS = ("secure_context", "offline", "camera", "notifications", "wake_lock", "clock",
                "storage", "battery")


class SetupToken(models.Model):
    """The one-time link `./run` prints while the server has no administrator: whoever opens
    it on this server's page becomes its first organiser, without a shell."""

    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)


class Invitation(models.Model):
    """A link (or its QR) an organiser sends to a co-narrator, a referee or a member of the
    safety team: opening it once makes an account with that role in the event. Only its
    hash is stored."""
    # The roles an organiser may invite (players/setup_services.py checks the same list).
    ROLES = [(Membership.NARRATOR, "Narrator / organiser"), (Membership.REFEREE, "Referee"),
             (Membership.SAFETY, "Safety team")]

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=20, choices=ROLES)
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="+")
