"""The club's register lets go of personal data (players/privacy.py). An erased member
keeps their check-ins, sanctions and replicas (the register's history) under a
pseudonym; their nickname, phone number and e-mail are blanked and their licence number
becomes ERASED-<id>."""
from __future__ import annotations

from django.utils import timezone

from players.privacy import Scrub, pseudonym
from club.models import Member
from club.privacy_selectors import (ERASED_LICENCE, is_erased, member_keeps_record,
                                    member_words, members_of_event, person_members)


def member_erase(*, member: Member, pseudonym: str, scrub) -> bool:
    """Idempotent: an erased member is left as it is. Returns whether it changed."""
    member = Member.objects.select_for_update().get(pk=member.pk)
    if is_erased(member):
        return False
    member.name, member.nickname, member.phone, member.email = pseudonym, "", "", ""
    member.licence_number = ERASED_LICENCE.format(pk=member.pk)
    member.save(update_fields=["name", "nickname", "phone", "email", "licence_number"])
    for sanction in member.sanctions.all():
        sanction.reason, sanction.revoked_reason = scrub(sanction.reason), scrub(sanction.revoked_reason)
        sanction.save(update_fields=["reason", "revoked_reason"])
    for replica in member.replicas.all():
        replica.label = scrub(replica.label)[:100]
        replica.save(update_fields=["label"])
    return True


def club_person_erase(*, person, scrub) -> None:
    """The member records the person's characters checked in as. Asked by an organiser,
    the record goes whatever else it plays in; at the end of a retention period, see
    `member_keeps_record`."""
    now = timezone.now()
    for member in person_members(person):
        if person.requested or not member_keeps_record(member, event_ids=person.event_ids, now=now):
            member_erase(member=member, pseudonym=person.pseudonym, scrub=scrub)


def club_event_purge(*, event, scrub) -> dict[str, str]:
    """An event past its retention: the members its desk registered, or who checked in to
    it, are erased unless they keep their record; returns what the journal must no longer
    say of them."""
    now = timezone.now()
    replacements: dict[str, str] = {}
    for member in members_of_event(event):
        if is_erased(member) or member_keeps_record(member, event_ids=[event.pk], now=now):
            continue
        own = {word: pseudonym("member", member.pk, event.language)
               for word in member_words(member) if word}
        member_erase(member=member, pseudonym=own[member.name], scrub=Scrub(own) | scrub)
        replacements.update(own)
    return replacements
