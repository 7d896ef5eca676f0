"""What the club's register holds on a person (players/privacy.py): the member record a
character checked in as, with its check-ins, sanctions and replicas, for an export; what
names or reaches them; and whose record the retention keeps."""
from __future__ import annotations

from datetime import datetime

from players.models import JournalEntry
from club.models import CheckIn, Member
from club.selectors import member_barring_sanction

# An erased member's licence number: the column is unique, and this says it was erased.
ERASED_LICENCE = "ERASED-{pk}"


def _iso(at):
    return at.isoformat() if at else None


def is_erased(member: Member) -> bool:
    return member.licence_number == ERASED_LICENCE.format(pk=member.pk)


def person_members(person) -> list[Member]:
    return list(Member.objects.filter(check_ins__character_id__in=person.character_ids)
                .select_related("club").distinct().order_by("pk"))


def member_words(member: Member) -> list[str]:
    return [member.name, member.nickname, member.phone, member.email, member.licence_number]


def club_personal_strings(*, person) -> list[str]:
    return [word for member in person_members(person) for word in member_words(member)]


def member_keeps_record(member: Member, *, event_ids, now: datetime) -> bool:
    """At the end of a retention period, a member still playing in a game not yet purged
    keeps their record, and so does one under a ban or an exclusion still running: the
    register must still know whom it keeps off the field."""
    playing = (CheckIn.objects.filter(member=member, event__personal_data_purged_at__isnull=True)
               .exclude(event_id__in=list(event_ids)).exists())
    return playing or member_barring_sanction(member, now) is not None


def members_of_event(event) -> list[Member]:
    """Those the event's desk registered and those who checked in to it."""
    registered = (JournalEntry.objects.filter(event=event, kind="club", what="member_registered")
                  .values_list("detail__member", flat=True))
    return list(Member.objects.filter(pk__in=[pk for pk in registered if isinstance(pk, int)])
                .union(Member.objects.filter(check_ins__event=event)).order_by("pk"))


def club_export_section(*, person) -> dict:
    members = []
    for member in person_members(person):
        check_ins = member.check_ins.select_related("event").order_by("pk")
        replicas = member.replicas.prefetch_related("checks").order_by("pk")
        members.append({
            "id": member.pk, "club": {"id": member.club_id, "name": member.club.name},
            "name": member.name, "nickname": member.nickname,
            "phone": member.phone, "email": member.email,
            "licence_number": member.licence_number, "registered_at": _iso(member.created_at),
            "check_ins": [{"event": c.event_id, "event_name": c.event.name,
                           "character": c.character_id, "at": _iso(c.created_at)} for c in check_ins],
            "sanctions": [{"id": s.pk, "event": s.event_id, "level": s.level, "kind": s.kind,
                           "cheating": s.cheating, "reason": s.reason, "decided_at": _iso(s.decided_at),
                           "ends_at": _iso(s.ends_at), "revoked_at": _iso(s.revoked_at),
                           "revoked_reason": s.revoked_reason}
                          for s in member.sanctions.order_by("decided_at", "pk")],
            "replicas": [{"label": r.label, "type": r.type, "calibre_mm": r.calibre_mm,
                          "code": r.code, "event": r.event_id,
                          "checks": [{"kind": c.kind, "at": _iso(c.checked_at), "passed": c.passed,
                                      "energy_j": c.energy_j} for c in r.checks.all()]}
                         for r in replicas],
        })
    return {"club_members": members}
