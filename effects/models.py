"""Effects ("Effet : ...") pushed by narrators. An effect stores when it started and how
long it lasts (game seconds); what remains is computed.
Items carry an effect to whoever touches, ingests or opens them; a lock is only open or
closed. A request to the organisers is answered with an effect."""
# Rule codes: docs/rules/gn_fr-coverage.md; their families: docs/glossary.md.
import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from players.models import Character, Event


class Effect(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="effects")
    character = models.ForeignKey(Character, null=True, blank=True, on_delete=models.CASCADE,
                                  related_name="effects",
                                  help_text="Empty: everyone in the event, now and later.")
    push_id = models.UUIDField(help_text="The same for every character reached by one push.")
    text = models.TextField()
    started_game_s = models.FloatField()
    duration_s = models.FloatField(null=True, blank=True, help_text="Empty: until removed.")
    ends_game_s = models.FloatField(null=True, blank=True, db_index=True)
    set_state = models.CharField(max_length=40, blank=True, default="")
    catalogue_key = models.CharField(max_length=60, blank=True, default="",
                                     help_text="The ruleset's named effect (Muerte, Derribo...) "
                                               "this push is, if any: Claridad explains it.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    removed = models.BooleanField(default=False)
    lasts_conflict = models.BooleanField(
        default=False, help_text="Pushed with the standard duration of a ruleset whose effects "
                                 "last one Conflict: its end follows the character's Conflict.")

    class Meta:
        ordering = ["id"]


def new_item_code() -> str:
    # The same alphabet as character codes (no 0/O/1/I), longer: objects are many and
    # their codes are printed on labels, never chosen.
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return "".join(secrets.choice(alphabet) for _ in range(8))


class Item(models.Model):
    """A game object with an out-of-game tag ("étiquette"): a tagged object, a medicine, a
    sealed envelope, a firearm or a lock. Its effect reaches whoever touches, ingests or
    opens it; a lock (a padlock between a red and a green loop, GA16) has no effect."""

    TAG, MEDICINE, ENVELOPE, FIREARM, LOCK = "tag", "medicine", "envelope", "firearm", "lock"
    KINDS = [(TAG, "Tagged object"), (MEDICINE, "Medicine"), (ENVELOPE, "Sealed envelope"),
             (FIREARM, "Firearm"), (LOCK, "Lock")]

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="items")
    code = models.CharField(max_length=12, unique=True, default=new_item_code,
                            help_text="Printed on the label and in its QR code.")
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=20, choices=KINDS)
    tag_text = models.TextField(blank=True, default="",
                                help_text="The visible tag everyone who touches it must read.")
    secret_text = models.TextField(blank=True, default="",
                                   help_text="The back of the tag, or the envelope's content: "
                                             "shown only to the one it applies to.")
    effect_text = models.TextField(blank=True, default="")
    effect_duration_s = models.FloatField(null=True, blank=True, help_text="Empty: until removed.")
    effect_set_state = models.CharField(max_length=40, blank=True, default="")
    single_use = models.BooleanField(default=False)
    used_by = models.ForeignKey(Character, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="items_used", help_text="The latest to use it.")
    used_game_s = models.FloatField(null=True, blank=True)
    holder = models.ForeignKey(Character, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="items_held", help_text="Who carries it (a "
                               "firearm: who has it in hand).")
    load = models.PositiveSmallIntegerField(null=True, blank=True, help_text=(
        "Carga: what it weighs. Empty: the ruleset's default_item_load."))
    loaded = models.BooleanField(default=False, help_text="Firearms.")
    closed = models.BooleanField(default=True, help_text="Locks: the padlock is on the red "
                                                         "loop (closed) or the green one (open).")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    @property
    def has_effect(self) -> bool:
        return bool(self.effect_text or self.secret_text or self.effect_set_state)

    @property
    def used_up(self) -> bool:
        return self.single_use and self.used_game_s is not None

    def clean(self):
        """The admin form's check; the API's service checks the same with a refusal."""
        states = self.event.rules().ruleset.states if self.event_id else {}
        if self.effect_set_state and self.event_id and self.effect_set_state not in states:
            raise ValidationError({"effect_set_state": "not a state of this game's ruleset"})
        if self.kind == self.LOCK and self.has_effect:
            raise ValidationError({"effect_text": "a lock carries no effect: it is open or closed"})


class OrganiserRequest(models.Model):
    """What a player asks the organisers to settle (GA17: destroying or damaging an object
    is never really done; an organiser states the simulated consequences). The answer
    reaches the player as an effect."""

    OPEN, ANSWERED = "open", "answered"
    TEXT_MAX = 1000

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="requests")
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="requests")
    text = models.CharField(max_length=TEXT_MAX)
    created_game_s = models.FloatField()
    created_at = models.DateTimeField()
    status = models.CharField(max_length=10, default=OPEN, db_index=True,
                              choices=[(OPEN, "Open"), (ANSWERED, "Answered")])
    answer = models.TextField(blank=True, default="")
    answered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.SET_NULL)
    answered_game_s = models.FloatField(null=True, blank=True)
    effect = models.ForeignKey(Effect, null=True, blank=True, on_delete=models.SET_NULL,
                               help_text="The answer, as the player reads it.")

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.character} — {self.text[:40]}"
