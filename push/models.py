"""Web Push subscriptions (one per browser install) and the deadline warnings already sent."""
from django.conf import settings
from django.db import models

from players.models import Character


class PushSubscription(models.Model):
    """What a browser's PushManager.subscribe() answered. The endpoint identifies the
    browser install, so it is unique: subscribing again updates, a new login moves it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="push_subscriptions")
    # Push services' endpoints carry a long token (WNS ones pass 200 characters).
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100, help_text="The browser's P-256 key, base64url.")
    auth = models.CharField(max_length=50, help_text="The browser's 16-byte secret, base64url.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_error = models.TextField(blank=True, default="",
                                  help_text="The last failed delivery; empty once one succeeds.")

    def __str__(self) -> str:
        return self.endpoint[:60]

    def info(self) -> dict:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class SentWarning(models.Model):
    """One row per deadline warned about: the unique constraint makes a redelivered or
    duplicated warning task send nothing twice."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="+")
    timer = models.CharField(max_length=50)
    due_game_s = models.FloatField()
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["character", "timer", "due_game_s"],
                                               name="sent_warning_unique_deadline")]
