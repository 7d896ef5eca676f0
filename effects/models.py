"""Effects ("Effet : ...") pushed by narrators. An effect stores when it started and how
long it lasts (game seconds); what remains is computed."""
from django.conf import settings
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
