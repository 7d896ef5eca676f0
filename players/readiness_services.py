"""A phone's self-check, reported by the phone ("Is this phone ready for the game?",
js/phone_check.js): the latest report per character is kept, so that the narrators know
before the game which phones cannot work offline, scan, ring or keep the screen on."""
from __future__ import annotations

from datetime import datetime

from django.db import transaction

from . import observers
from .models import PHONE_CHECKS, Character, PhoneReadiness
from .readiness_selectors import readiness_row


@transaction.atomic
def phone_readiness_report(*, character: Character, checks: dict, checked_at: datetime,
                           now: datetime, clock_offset_ms: int | None = None,
                           battery_level: float | None = None) -> tuple[PhoneReadiness, bool]:
    """Keeps the report unless a newer one is already kept (an outbox replaying an old
    check after a fresh one). Returns the kept report and whether this one replaced it.

    `checks` has every key of PHONE_CHECKS (the API checks its shape). A check dated after
    the server's now (a phone that never measured its clock offset) counts as run now: what
    it found is still true."""
    checked_at = min(checked_at, now)
    kept = PhoneReadiness.objects.select_for_update().filter(character=character).first()
    if kept is not None and kept.checked_at >= checked_at:
        return kept, False
    failing = [key for key in PHONE_CHECKS if not checks[key]["ok"]]
    report, _ = PhoneReadiness.objects.update_or_create(character=character, defaults={
        "checked_at": checked_at, "received_at": now, "failing": failing,
        "checks": {key: {"ok": bool(checks[key]["ok"]), "detail": checks[key].get("detail", "")}
                   for key in PHONE_CHECKS},
        "clock_offset_ms": clock_offset_ms, "battery_level": battery_level})
    observers.phone_readiness_reported.notify(event_id=character.event_id,
                                              row=readiness_row(character.pk, report))
    return report, True
