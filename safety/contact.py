"""Last seen: every phone's last contact (any API request, the live socket's connect and
heartbeat), kept cheap. Contacts come one at a time (a request) or gathered (the connects
of a second, live/contacts.py); either way they cost two Redis round trips (which users
were already noted this minute, then the others) and, for those others, one read and one
upsert: only the first contact of each minute of the clock writes the database. The board
reads "not heard from for N minutes" with N at least a minute, so nothing of value is
lost."""
from __future__ import annotations

from django.core.cache import cache
from django.utils import timezone

from players.models import Character

from .models import Contact

WRITE_EVERY_S = 60


def _minute_keys(user_ids) -> dict[str, int]:
    # One key per user and minute of the server's clock (read like every other instant,
    # so a test's clock moves it too); it outlives its minute a little, then expires.
    minute = int(timezone.now().timestamp() // WRITE_EVERY_S)
    return {f"safety:seen:{pk}:{minute}": pk for pk in sorted(set(user_ids))}


def phones_seen(*, user_ids) -> None:
    """Note a contact from these users' phones. Two processes noting the same user in the
    same instant may both write: the same upsert twice, never a wrong instant."""
    keys = _minute_keys(user_ids)
    if not keys:
        return
    try:
        noted = cache.get_many(list(keys))
        first = {key: pk for key, pk in keys.items() if key not in noted}
        if first:
            cache.set_many(dict.fromkeys(first, 1), timeout=2 * WRITE_EVERY_S)
    except Exception:   # Redis unreachable: write anyway, the board must not go blind
        first = keys
    if first:
        contacts_seen_now(user_ids=first.values())


def contacts_seen_now(*, user_ids) -> None:
    """Every character of these users was in touch now (one read, one insert-or-update)."""
    now = timezone.now()
    rows = [Contact(character_id=pk, event_id=event_id, last_seen_at=now)
            for pk, event_id in Character.objects.filter(user_id__in=list(user_ids))
            .order_by("pk").values_list("pk", "event_id")]
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
            phones_seen(user_ids=[user.pk])
        return response
