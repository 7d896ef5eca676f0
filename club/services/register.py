"""The club's register at the desk: a new member, and a member's check-in to a game (each
one transaction, journalled with who did it)."""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from rulesets import RuleRefused

from players.models import Character, Event
from club.models import CheckIn, Member, Sanction
from club.selectors import (KIND_LABELS, clean_licence, local_text, member_barring_sanction,
                            member_character, member_of_event_club)
from club.services.clubs import event_club_ensure
from players.services import character_create, journal_write, team_get_or_create


@transaction.atomic
def member_create(*, event: Event, name: str, phone: str, licence_number: str,
                  nickname: str = "", email: str = "", by) -> Member:
    """A new member on the register of the event's club, at the desk of `event` (where
    it is journalled). The licence number is unique in the club only."""
    club = event_club_ensure(event=event, by=by)
    licence = clean_licence(licence_number)
    existing = Member.objects.filter(club=club, licence_number=licence).first()
    if existing is not None:
        raise RuleRefused("member_exists", licence=licence, name=existing.name, id=str(existing.pk))
    try:
        with transaction.atomic():
            member = Member.objects.create(club=club, name=name, nickname=nickname, phone=phone,
                                           email=email, licence_number=licence)
    except IntegrityError:  # another desk registered the same licence a moment ago
        raise RuleRefused("member_exists", licence=licence, name=name, id="?") from None
    journal_write(event=event, kind="club", what="member_registered", at=timezone.now(), by=by,
                  detail={"member": member.pk, "club": club.pk, "name": name, "licence": licence})
    return member


@transaction.atomic
def member_check_in(*, event: Event, member: Member, team_name: str = "",
                    by) -> tuple[Character, bool]:
    """The member's character for this game, created at the first check-in; a second
    check-in finds it. Refused, creating nothing, while a sanction keeps them off the
    field, or for a member of another club's register. Returns (character, created)."""
    # The member's row serialises their check-ins with the sanctions recorded meanwhile.
    member = member_of_event_club(event, Member.objects.select_for_update().get(pk=member.pk))
    now = timezone.now()
    barring = member_barring_sanction(member, now)
    if barring is not None and barring.kind == Sanction.BANNED:
        raise RuleRefused("member_banned", name=member.name, decided=local_text(barring.decided_at))
    if barring is not None:
        raise RuleRefused("member_excluded", name=member.name, kind=KIND_LABELS[barring.kind],
                          until=local_text(barring.ends_at), decided=local_text(barring.decided_at))
    existing = member_character(event, member)
    if existing is not None:
        return existing, False
    team = team_get_or_create(event=event, name=team_name) if team_name else None
    character = character_create(event=event, name=member.name, team=team, by=by)
    CheckIn.objects.create(member=member, character=character, event=event)
    journal_write(event=event, kind="club", what="checked_in", at=now, by=by, character=character,
                  detail={"member": member.pk, "licence": member.licence_number,
                          "team": team_name or None})
    return character, True
