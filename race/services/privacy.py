"""A race lets go of personal data (players/privacy.py): an erased person's entry keeps
its course, punches, lives and times under their pseudonym, without its phone number;
a race past its retention loses every entry's phone number."""
from __future__ import annotations

from ..models import Entry, Infraction, LifeLoss
from ..publish import race_changed_on_commit
from ..selectors.privacy import person_entries, team_pseudonyms


def race_person_erase(*, person, scrub) -> None:
    entries = list(person_entries(person).select_for_update())
    for entry in entries:
        team = team_pseudonyms(entry, person.pseudonym)
        entry.name, entry.phone, entry.club = person.pseudonym, "", ""
        entry.members = [team[m] for m in entry.members]
        entry.carrier = team.get(entry.carrier, "")
        entry.end_reason = scrub(entry.end_reason)[:300]
        entry.save(update_fields=["name", "phone", "club", "members", "carrier", "end_reason"])
        for loss in LifeLoss.objects.filter(entry=entry):
            loss.note, loss.void_reason = scrub(loss.note)[:300], scrub(loss.void_reason)[:300]
            loss.save(update_fields=["note", "void_reason"])
        for infraction in Infraction.objects.filter(entry=entry):
            infraction.note = scrub(infraction.note)[:300]
            infraction.save(update_fields=["note"])
    if not person.requested:  # a race past its retention: nobody watches its boards
        return
    for event_id in {e.event_id for e in entries}:  # boards and results show the pseudonym
        race_changed_on_commit(event_id=event_id,
                               entry_ids=[e.pk for e in entries if e.event_id == event_id])


def race_event_purge(*, event, scrub) -> dict[str, str]:
    """Every entry's phone number blanked, whoever's account is kept (a staff one)."""
    entries = Entry.objects.filter(event=event).exclude(phone="")
    phones = {phone: "" for phone in entries.values_list("phone", flat=True)}
    entries.update(phone="")
    return phones
