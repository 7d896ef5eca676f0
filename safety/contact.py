"""Last seen: every phone's last contact (any API request, the live socket's connect and
heartbeat), kept cheap. A contact costs one Redis `SET NX` with a minute's expiry; only
the first contact of each minute of the clock writes the database, in one upsert for every character
of that user. The board reads "not heard from for N minutes" with N at least a minute, so
nothing of value is lost."""
from __future__ import annotations

from django.core.cache import cache
from django.utils import timezone

from players.models import Character

from .models import Contact

WRITE_EVERY_S = 60


def _key(user_id: int) -> str:
    # One key per user and minute of the server's clock (read like every other instant,
    # so a test's clock moves it too); it outlives its minute a little, then expires.
    return f"safety:seen:{user_id}:{int(timezone.now().timestamp() // WRITE_EVERY_S)}"


def phone_seen(*, user_id: int) -> bool:
    """Note a contact from this user's phone; True when it wrote the database."""
    try:
        first = cache.add(_key(user_id), 1, timeout=2 * WRITE_EVERY_S)
    except Exception:   # Redis unreachable: write anyway, the board must not go blind
        first = True
    if not first:
        return False
    contact_seen_now(user_id=user_id)
    return True


def contact_seen_now(*, user_id: int) -> None:
    """Every character of this user was in touch now (one insert-or-update)."""
    now = timezone.now()
    rows = [Contact(character_id=pk, event_id=event_id, last_seen_at=now)
            for pk, event_id in Character.objects.filter(user_id=user_id).values_list("pk", "event_id")]
    if rows:
        Contact.objects.bulk_create(rows, update_conflicts=True, unique_fields=["character"],
                                    update_fields=["last_seen_at"])


class LastSeenMiddleware:
    """Any API request of a logged-in phone counts as a contact (read after the view,
    which has loaded the user already)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "_cached_user", None)
        if user is not None and user.is_authenticated and request.path.startswith("/api/"):
            phone_seen(user_id=user.pk)
        return response
