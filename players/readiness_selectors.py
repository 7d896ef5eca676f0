"""The narrators' view of the phones' self-checks: per character whether its phone is
ready, and how many phones fail each capability ("27 phones cannot work offline"),
counting those that never reported. Narrators only: a player knows only their own phone."""
from __future__ import annotations

from .models import PHONE_CHECKS, Character, Event, PhoneReadiness


def readiness_row(character_id: int, report: PhoneReadiness | None) -> dict:
    if report is None:
        return {"character": character_id, "reported": False, "ready": None, "failing": [],
                "checked_at": None, "battery_level": None, "clock_offset_ms": None}
    return {"character": character_id, "reported": True, "ready": report.ready,
            "failing": list(report.failing), "checked_at": report.checked_at.isoformat(),
            "battery_level": report.battery_level, "clock_offset_ms": report.clock_offset_ms}


def event_phone_readiness(event: Event) -> dict:
    """Every character of the event, with or without a report, and the counts."""
    ids = list(Character.objects.filter(event=event).order_by("pk").values_list("pk", flat=True))
    reports = {r.character_id: r for r in PhoneReadiness.objects.filter(character__event=event)}
    rows = [readiness_row(cid, reports.get(cid)) for cid in ids]
    failing = {key: 0 for key in PHONE_CHECKS}
    for report in reports.values():
        for key in report.failing:
            if key in failing:
                failing[key] += 1
    ready = sum(1 for report in reports.values() if report.ready)
    return {"characters": rows,
            "counts": {"characters": len(ids), "ready": ready,
                       "not_ready": len(reports) - ready,
                       "never_reported": len(ids) - len(reports),
                       "failing": failing}}
