"""Reads for personal data (docs/operations.md, "Personal data"): who a person is for an
export or an erasure, what is held on them, and when an event's retention runs out.

An event ends at the latest of its creation, its last journal line (exports, erasures and
purges excepted: reading someone's data after the game does not postpone its purge) and
what the apps add (`privacy.event_activity`: schedule's latest dawn, day end or game,
even one still to come). Its personal data is purged `retention_days` after that.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db.models import DateTimeField, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce, Greatest
from rest_framework.exceptions import NotFound, PermissionDenied

from . import privacy
from .models import Character, Event, JournalEntry, LoginToken, Membership
from .privacy import PRIVACY, Person, Scrub, gather, pseudonym
from .selectors import is_narrator

# Free text an organiser keeps on a sheet about the player: dropped by an erasure.
SHEET_NOTES = ("notes",)


def iso(at: datetime | None) -> str | None:
    return at.isoformat() if at else None


def character_for_organiser(user, character_id: int) -> Character:
    """The character for the organisers of its event (narrators, superusers). Its own
    player is refused (403: organisers answer for the data); anyone else gets a 404."""
    character = (Character.objects.select_related("event", "user", "team")
                 .filter(pk=character_id).first())
    if character is None or not user.is_authenticated:
        raise NotFound()
    if is_narrator(user, character.event):
        return character
    if character.user_id == user.pk:
        raise PermissionDenied()
    raise NotFound()


def events_with_end(queryset):
    """`queryset` with `ended_at`: when each event ended (this module's docstring)."""
    last_line = Subquery(JournalEntry.objects.filter(event=OuterRef("pk")).exclude(kind=PRIVACY)
                         .order_by("-at").values("at")[:1])
    parts = [last_line, *gather(privacy.event_activity)]
    return queryset.annotate(ended_at=Greatest(
        F("created_at"), *(Coalesce(part, F("created_at"), output_field=DateTimeField())
                           for part in parts), output_field=DateTimeField()))


def event_personal_data(event: Event) -> dict:
    """The event's retention as the organisers read it."""
    ended_at = events_with_end(Event.objects.filter(pk=event.pk)).values_list(
        "ended_at", flat=True).get()
    return {"event": event.pk, "retention_days": event.retention_days, "ended_at": iso(ended_at),
            "purge_due_at": iso(ended_at + timedelta(days=event.retention_days)),
            "purged_at": iso(event.personal_data_purged_at)}


def account_elsewhere(user, event_ids) -> bool:
    """Whether a game not yet purged, other than these, still holds the account."""
    others = Q(event__personal_data_purged_at__isnull=True) & ~Q(event_id__in=event_ids)
    return (Membership.objects.filter(others, user=user).exists()
            or Character.objects.filter(others, user=user).exists())


def person_in_event(character: Character) -> Person:
    """For an export: the character's account and every character it has in the event."""
    user = character.user
    characters = (tuple(Character.objects.filter(user=user, event=character.event_id)
                        .select_related("team").order_by("pk"))
                  if user is not None else (character,))
    return Person(user=user, characters=characters, event_ids=(character.event_id,))


def person_for_erasure(*, event: Event, user=None, character: Character | None = None,
                       requested: bool) -> Person:
    """Whom erasing `user` (or a character without an account) in `event` reaches. The
    account goes too unless another game not yet purged still holds it, or it is an
    organiser's staff account (managed in the admin); then only this event's part goes.
    An account that goes takes its names out of the already purged events as well."""
    lang = event.language
    if user is None:
        return Person(user=None, characters=(character,), event_ids=(event.pk,),
                      pseudonym=pseudonym("character", character.pk, lang), requested=requested)
    scope = {event.pk}
    account_erased = not (user.is_staff or user.is_superuser) and not account_elsewhere(user, scope)
    if account_erased:
        scope |= set(Character.objects.filter(user=user).values_list("event_id", flat=True))
        scope |= set(Membership.objects.filter(user=user).values_list("event_id", flat=True))
    characters = tuple(Character.objects.filter(user=user, event_id__in=scope).order_by("pk"))
    return Person(user=user, characters=characters, event_ids=tuple(sorted(scope)),
                  pseudonym=pseudonym("person", user.pk, lang), requested=requested,
                  account_erased=account_erased)


def persons_of_event(event: Event) -> list[Person]:
    """Everyone an event past its retention holds: its players, zombies, referees and
    characters without an account. Staff accounts are the organisers' own, kept."""
    users = set(Membership.objects.filter(event=event).values_list("user_id", flat=True))
    users |= set(Character.objects.filter(event=event, user__isnull=False)
                 .values_list("user_id", flat=True))
    accounts = get_user_model().objects.filter(pk__in=users, is_staff=False, is_superuser=False)
    persons = [person_for_erasure(event=event, user=user, requested=False)
               for user in accounts.order_by("pk")]
    persons += [person_for_erasure(event=event, character=character, requested=False)
                for character in Character.objects.filter(event=event, user__isnull=True)]
    return persons


def person_words(person: Person) -> dict[str, str]:
    """Everything that names or reaches the person, whichever app holds it, with what
    replaces it: their pseudonym, unless the app says otherwise (a team's members become
    "Person 7F3K 1", "Person 7F3K 2")."""
    words = {c.name for c in person.characters}
    user = person.user
    if user is not None:
        words |= {user.get_username(), user.first_name, user.last_name, user.get_full_name(),
                  user.email}
    replacements = {w.strip(): person.pseudonym for w in words if w and w.strip()}
    for found in gather(privacy.personal_strings, person=person):
        if isinstance(found, dict):
            replacements.update({w.strip(): r for w, r in found.items() if w and w.strip()})
        else:
            replacements.update({w.strip(): person.pseudonym for w in found if w and w.strip()})
    return replacements


def journal_row(line: JournalEntry, person: Person) -> dict:
    """A journal line in an export. A line of theirs about another character says only
    what they did and when: that character's state and details are not theirs."""
    row = {"id": line.id, "at": iso(line.at), "game_s": round(line.game_s, 3),
           "who": line.actor_label, "kind": line.kind, "what": line.what}
    if line.character_id is not None and line.character_id not in person.character_ids:
        return {**row, "about_another_character": True}
    return {**row, "character_id": line.character_id,
            "character": line.character.name if line.character else None,
            "before": line.before, "after": line.after, "detail": line.detail}


def person_journal(person: Person, words) -> list[dict]:
    """The lines about them or by them, and the event-wide lines that name them (a login
    link issued, their registration at the club's desk)."""
    mentions = Scrub({w: "" for w in words})
    user_id = person.user.pk if person.user else None
    rows = []
    lines = (JournalEntry.objects.filter(event_id__in=person.event_ids).select_related("character")
             .order_by("id"))
    for line in lines.iterator(chunk_size=2000):
        ours = line.character_id in person.character_ids or (user_id and line.actor_id == user_id)
        if ours or (line.character_id is None
                    and mentions.finds([line.actor_label, line.detail, line.before, line.after])):
            rows.append(journal_row(line, person))
    return rows


def person_export_document(person: Person, event: Event, now: datetime) -> dict:
    """Everything held on the person in `event`, as one JSON document: players' part
    here, every other app's as the sections it registered."""
    user = person.user
    document = {
        "exported_at": iso(now), "event": {"id": event.pk, "name": event.name},
        "account": None if user is None else {
            "username": user.get_username(), "first_name": user.first_name,
            "last_name": user.last_name, "email": user.email, "active": user.is_active,
            "joined_at": iso(user.date_joined), "last_login": iso(user.last_login)},
        "characters": [{"id": c.pk, "name": c.name, "code": c.code,
                        "team": c.team.name if c.team else None, "sheet": c.sheet,
                        "kits": c.kits} for c in person.characters],
        "memberships": [] if user is None else [
            {"event": m.event_id, "role": m.role}
            for m in Membership.objects.filter(user=user, event_id__in=person.event_ids)],
        # Without their secret: only its hash is stored, and it is not given either.
        "login_tokens": [] if user is None else [
            {"event": t.event_id, "created_at": iso(t.created_at), "expires_at": iso(t.expires_at),
             "used_at": iso(t.used_at)}
            for t in LoginToken.objects.filter(user=user, event_id__in=person.event_ids)
            .order_by("pk")],
        "journal": person_journal(person, person_words(person)),
    }
    for section in gather(privacy.export_sections, person=person):
        document.update(section)
    return document
