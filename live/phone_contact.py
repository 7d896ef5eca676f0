"""What the server knows of a phone's connection, to bound the taps it sends late.

Every request of the app, and every heartbeat on its live socket (`outbox_oldest`), says
what its outbox holds (header `X-Outbox-Oldest`: `none` when nothing waits, otherwise the instant, on the server's clock, of the oldest write
waiting). A request that arrives at 14:05 saying nothing waits proves that the phone was
connected at 14:05 with nothing tapped before it left unsent: a declaration it later
claims to have tapped at 14:01 cannot have waited in its outbox (health/declared_at.py
refuses it). A write still waiting bounds the proof to its own instant, so the phone
that comes back in range and reads before its outbox is sent loses nothing.

The phone is its login session (two phones of one character each have their own). The
proof lives in the cache (Redis) for a day: losing it only makes the bound weaker, never
wrong. A client that sends no header (an organiser's script) proves nothing.
"""
from __future__ import annotations

from datetime import datetime

from django.core.cache import cache
from django.utils import timezone
from django.utils.dateparse import parse_datetime

HEADER = "X-Outbox-Oldest"
KEPT_S = 24 * 3600


def _key(phone: str) -> str:
    return f"phone-contact:{phone}"


def phone_contact_proven(phone: str | None) -> datetime | None:
    """The latest instant this phone is known to have been connected with nothing older
    waiting to be sent, or None."""
    if not phone:
        return None
    stored = cache.get(_key(phone))
    return parse_datetime(stored) if stored else None


def phone_contact_record(*, phone: str, proven: datetime) -> None:
    known = phone_contact_proven(phone)
    if known is None or proven > known:
        cache.set(_key(phone), proven.isoformat(), KEPT_S)


def _oldest_waiting(value: str) -> tuple[bool, datetime | None]:
    """(readable, instant): `none` is an empty outbox; anything unreadable proves nothing."""
    if value.strip().lower() == "none":
        return True, None
    try:
        at = parse_datetime(value.strip())
    except ValueError:
        return False, None
    if at is None or timezone.is_naive(at):
        return False, None
    return True, at


def phone_contact_proof(*, value: str, at: datetime) -> datetime | None:
    """What a request or heartbeat arriving at `at` proves, its outbox holding `value`
    (as the header): the phone was connected then with nothing older waiting. None:
    unreadable, it proves nothing."""
    readable, oldest = _oldest_waiting(value)
    if not readable:
        return None
    return at if oldest is None else min(at, oldest)


def phone_contact_told(*, phone: str | None, value: str, at: datetime) -> None:
    """A request or a heartbeat (live/consumers.py) of this phone arrived at `at`, saying
    what its outbox holds (`value`, as the header)."""
    proven = phone_contact_proof(value=value, at=at)
    if phone and proven is not None:
        phone_contact_record(phone=phone, proven=proven)


def request_phone(request) -> str | None:
    """The phone a request comes from: its login session."""
    session = getattr(request, "session", None)
    user = getattr(request, "user", None)
    if session is None or user is None or not user.is_authenticated:
        return None
    return session.session_key


class PhoneContactMiddleware:
    """Records each request's proof of contact once it was answered (a write is first
    judged against what was known before it)."""

    sync_capable, async_capable = True, False

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        arrived = timezone.now()
        response = self.get_response(request)
        value = request.headers.get(HEADER)
        if value and response.status_code < 500:
            phone_contact_told(phone=request_phone(request), value=value, at=arrived)
        return response
