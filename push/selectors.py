"""What Web Push holds on a person, for their export (players/privacy.py)."""
from __future__ import annotations

from .models import PushSubscription


def push_export_section(*, person) -> dict:
    """Their browsers' subscriptions, without the keys that encrypt what is sent to them."""
    if person.user is None:
        return {"push_subscriptions": []}
    return {"push_subscriptions": [
        {"endpoint": s.endpoint, "created_at": s.created_at.isoformat(), "last_error": s.last_error}
        for s in PushSubscription.objects.filter(user=person.user).order_by("pk")]}
