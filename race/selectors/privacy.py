"""What a race holds on a person (players/privacy.py): their entry with its phone number,
punches, lives and infractions, for an export; and what names or reaches them."""
from __future__ import annotations

from ..models import Entry


def _iso(at):
    return at.isoformat() if at else None


def team_pseudonyms(entry: Entry, pseudonym: str) -> dict[str, str]:
    """A team's members become "Person 7F3K 1", "Person 7F3K 2"...: the carrier's changes
    still read from whom to whom."""
    return {name: f"{pseudonym} {number}" for number, name in enumerate(entry.members, start=1)}


def person_entries(person):
    return Entry.objects.filter(character_id__in=person.character_ids).order_by("pk")


def race_personal_strings(*, person) -> dict[str, str]:
    words = {}
    for entry in person_entries(person):
        words.update({entry.name: person.pseudonym, entry.phone: person.pseudonym,
                      **team_pseudonyms(entry, person.pseudonym)})
    return words


def race_export_section(*, person) -> dict:
    entries = (person_entries(person).select_related("course")
               .prefetch_related("punches__checkpoint", "life_losses", "infractions"))
    return {"race_entries": [{
        "id": e.pk, "event": e.event_id, "course": e.course.name, "kind": e.kind,
        "name": e.name, "members": e.members, "carrier": e.carrier, "finger": e.finger,
        "phone": e.phone, "club": e.club, "status": e.status, "gear": e.gear,
        "gear_checked_at": _iso(e.gear_checked_at), "deposit_taken_at": _iso(e.deposit_taken_at),
        "deposit_returned_at": _iso(e.deposit_returned_at), "started_at": _iso(e.started_at),
        "deadline_at": _iso(e.deadline_at), "finished_at": _iso(e.finished_at),
        "ended_at": _iso(e.ended_at), "end_reason": e.end_reason,
        "finger_returned_at": _iso(e.finger_returned_at), "registered_at": _iso(e.created_at),
        "punches": [{"checkpoint": p.checkpoint.code, "at": _iso(p.at), "source": p.source,
                     "not_counted": p.not_counted} for p in e.punches.all()],
        "life_losses": [{"cause": loss.cause, "at": _iso(loss.at), "took_life": loss.took_life,
                         "lat": loss.lat, "lon": loss.lon, "note": loss.note,
                         "voided_at": _iso(loss.voided_at), "void_reason": loss.void_reason}
                        for loss in e.life_losses.all()],
        "infractions": [{"kind": i.kind, "at": _iso(i.at), "note": i.note,
                         "penalty_points": i.penalty_points} for i in e.infractions.all()],
    } for e in entries]}
