"""The plumbing's one table: answers kept for idempotent retries (common/idempotency.py).

The table keeps the name it was created with in players/."""
from __future__ import annotations

from django.conf import settings
from django.db import models


class IdempotencyRecord(models.Model):
    """The answer given to a write, kept so that a retry with the same key gets it again."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    key = models.CharField(max_length=100)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "players_idempotencyrecord"
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_unique_key")]
