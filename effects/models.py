"""Effects ("Effet : ...") pushed by narrators. An effect stores when it started and how
long it lasts (game seconds); what remains is computed.
Items carry an effect to whoever touches, ingests or opens them."""
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
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    removed = models.BooleanField(default=False)

    class Meta:
        ordering = ["id"]


def new_item_code() -> str:
    # The same alphabet as character codes (no 0/O/1/I), longer: objects are many and
    # their codes are printed on labels, never chosen.
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return "".join(secrets.choice(alphabet) for _ in range(8))


class Item(models.Model):
    """A game object with an out-of-game tag ("étiquette"): a tagged object, a medicine, a
    sealed envelope or a firearm. Its effect reaches whoever touches, ingests or opens it."""

    TAG, MEDICINE, ENVELOPE, FIREARM = "tag", "medicine", "envelope", "firearm"
    KINDS = [(TAG, "Tagged object"), (MEDICINE, "Medicine"), (ENVELOPE, "Sealed envelope"),
             (FIREARM, "Firearm")]

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
                               related_name="items_held", help_text="Firearms: who carries it.")
    loaded = models.BooleanField(default=False, help_text="Firearms.")
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
