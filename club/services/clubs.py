"""Which club's register an event uses: an event's own club, made at its desk's first
member, and an event attached to an existing club by an organiser of both (each one
transaction, journalled in the event)."""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from club.models import Club, ClubEvent
from club.selectors import event_club, is_club_organiser
from players.models import Event
from players.selectors import is_narrator
from players.services import journal_write
from rulesets import RuleRefused


@transaction.atomic
def event_club_ensure(*, event: Event, by) -> Club:
    """The event's club; an event with none keeps a register of its own, in a club named
    after it, so that a new game's desk works before anyone thinks of clubs."""
    club = event_club(event)
    if club is not None:
        return club
    try:
        with transaction.atomic():
            club = Club.objects.create(name=event.name[:200])
            ClubEvent.objects.create(club=club, event=event)
    except IntegrityError:  # another desk of the event made it a moment ago: theirs wins
        return ClubEvent.objects.select_related("club").get(event=event).club
    journal_write(event=event, kind="club", what="club_created", at=timezone.now(), by=by,
                  detail={"club": club.pk, "name": club.name})
    return club


@transaction.atomic
def club_event_attach(*, club: Club, event: Event, by) -> ClubEvent:
    """The event's desk uses the club's register from now on: its organisers and
    referees read the club's members and sanctions. Only an organiser of both may: of the
    club (one of its events) and of the event. An event already in a club stays there
    (its members, check-ins and sanctions are that club's); attaching it again to the
    same club changes nothing."""
    if not (is_narrator(by, event) and is_club_organiser(by, club)):
        raise RuleRefused("forbidden")
    link = ClubEvent.objects.select_related("club").filter(event=event).first()
    if link is not None and link.club_id == club.pk:
        return link
    if link is not None:
        raise RuleRefused("event_in_club", club=link.club.name)
    try:
        with transaction.atomic():
            link = ClubEvent.objects.create(club=club, event=event, attached_by=by)
    except IntegrityError:  # attached meanwhile, by another tap
        raise RuleRefused("event_in_club",
                          club=ClubEvent.objects.get(event=event).club.name) from None
    journal_write(event=event, kind="club", what="club_joined", at=timezone.now(), by=by,
                  detail={"club": club.pk, "name": club.name})
    return link
