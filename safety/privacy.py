"""What safety holds on a person (players/privacy.py): their calls for help with their
notes and positions, their phone's last contact and battery, their last position while a
race was tracked (the contact's row), when they left the field.
An erasure deletes them; an event past its retention lets go of all of them. The journal
lines of calls carry neither notes nor positions, so they stay as the game's record."""
from __future__ import annotations

from django.db.models import Q

from .models import Contact, HelpCall
from .selectors import iso


def _calls(person):
    mine = Q(character_id__in=person.character_ids)
    if person.user is not None:
        mine |= Q(caller=person.user, event_id__in=person.event_ids)
    return HelpCall.objects.filter(mine)


def safety_export_section(*, person) -> dict:
    calls = _calls(person).order_by("pk")
    contacts = Contact.objects.filter(character_id__in=person.character_ids).order_by("pk")
    return {
        "help_calls": [{
            "id": c.pk, "event": c.event_id, "character": c.character_id, "kind": c.kind,
            "note": c.note, "tapped_at": iso(c.tapped_at), "received_at": iso(c.received_at),
            "position": ({"latitude": c.latitude, "longitude": c.longitude,
                          "accuracy_m": c.accuracy_m} if c.latitude is not None else None),
            "status": c.status, "taken_by": c.taken_by_label or None, "outcome": c.outcome or None,
        } for c in calls],
        "safety_contacts": [{
            "character": c.character_id, "last_seen_at": iso(c.last_seen_at),
            "battery_level": c.battery_level, "battery_at": iso(c.battery_at),
            "checked_out_at": iso(c.checked_out_at),
            "last_position": ({"latitude": c.latitude, "longitude": c.longitude,
                               "accuracy_m": c.accuracy_m, "at": iso(c.position_at)}
                              if c.position_at is not None else None),
        } for c in contacts],
    }


def safety_person_erase(*, person, scrub) -> None:
    _calls(person).delete()
    Contact.objects.filter(character_id__in=person.character_ids).delete()


def safety_event_purge(*, event, scrub) -> dict[str, str]:
    HelpCall.objects.filter(event=event).delete()
    Contact.objects.filter(event=event).delete()
    return {}
