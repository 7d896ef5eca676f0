"""Writes for personal data (docs/operations.md, "Personal data"): a person's export
(journalled), their erasure at an organiser's request, an event's retention period, and
the purge of the events past it, run daily by beat.

Erasing keeps the game: characters, states, points, times and every journal line stay;
what named or reached the person (names, phone numbers, e-mails, licence numbers, sheet
notes, names in free text) becomes their pseudonym or is blanked, their login links and
push subscriptions are deleted and their account can no longer log in. Each app erases
its own rows (players/privacy.py); this module does players' and the journal.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.admin.models import LogEntry
from django.db import transaction
from django.db.models import JSONField, Q
from django.utils import timezone

from common.deadlines import due_each
from common.idempotency import records_forget, records_scrub
from rulesets import RuleRefused

from . import observers, privacy
from .models import Character, Event, JournalEntry, LoginToken
from .privacy import PRIVACY, Person, Scrub
from .privacy_selectors import (SHEET_NOTES, events_with_end, iso, person_export_document,
                                person_for_erasure, person_in_event, person_words,
                                persons_of_event)
from .services import journal_write

RETENTION_DAYS_MIN, RETENTION_DAYS_MAX = 1, 3650
JOURNAL_BATCH = 500


@transaction.atomic
def person_export(*, character: Character, by) -> dict:
    """Everything the event holds on the character's person; the journal keeps who
    exported whom."""
    now = timezone.now()
    person = person_in_event(character)
    document = person_export_document(person, character.event, now)
    journal_write(event=character.event, kind=PRIVACY, what="exported", at=now, by=by,
                  character=character, detail={"characters": list(person.character_ids)})
    return document


def _erased_answer(line: JournalEntry) -> dict:
    return {"character": line.character_id, "event": line.event_id,
            "pseudonym": line.detail["pseudonym"], "account": line.detail["account"],
            "erased_at": iso(line.at)}


@transaction.atomic
def person_erase(*, character: Character, by) -> dict:
    """The character's person erased from the event at an organiser's request. A second
    erasure finds the first one's journal line and answers the same, changing nothing."""
    event = character.event
    # One erasure of a person at a time: the second waits for the first, then finds it.
    Character.objects.select_for_update().filter(pk=character.pk).first()
    person = person_for_erasure(event=event, user=character.user, character=character,
                                requested=True)
    done = (JournalEntry.objects.filter(event=event, kind=PRIVACY, what="erased",
                                        character_id__in=person.character_ids)
            .order_by("id").first())
    if done is not None:
        return _erased_answer(done)
    scrub = _persons_erase([person])
    _records_pseudonymise(event_ids=person.event_ids, scrub=scrub, persons=[person])
    line = journal_write(event=event, kind=PRIVACY, what="erased", at=timezone.now(), by=by,
                         character=character,
                         detail={"pseudonym": person.pseudonym, "characters": list(person.character_ids),
                                 "account": "erased" if person.account_erased else "kept"})
    return _erased_answer(line)


def _persons_erase(persons: list[Person]) -> Scrub:
    """Every app's rows of these persons, then players' own; returns the scrub that the
    journal and the stored answers still need."""
    replacements: dict[str, str] = {}
    for person in persons:
        for word, replacement in person_words(person).items():
            replacements.setdefault(word, replacement)
    scrub = Scrub(replacements)
    for person in persons:
        for erase in privacy.person_erasers.reactions:
            erase(person=person, scrub=scrub)
        _own_rows_erase(person, scrub)
    free_texts_scrub(event_ids=set().union(*(p.event_ids for p in persons)), scrub=scrub)
    return scrub


def free_texts_scrub(*, event_ids, scrub: Scrub) -> int:
    """Every declared free text (players/privacy.py, `texts_declare`) of these events, or
    of no event, with the erased people's words replaced, whoever the row is about.
    Written with a queryset update: no save() rule and no journal line is about a name.
    Returns how many rows changed."""
    if not scrub:
        return 0
    changed = 0
    for texts in privacy.scrubbed_texts:
        rows = texts.model.objects.all()
        if texts.event is not None:
            rows = rows.filter(**{f"{texts.event}__in": list(event_ids)})
        rows = rows.filter(_mentioning(texts.model, texts.fields, scrub))
        for row in rows.only("pk", *texts.fields).iterator(chunk_size=500):
            new = {name: _fitted(texts.model, name, scrub(getattr(row, name))) for name in texts.fields}
            if any(new[name] != getattr(row, name) for name in texts.fields):
                texts.model.objects.filter(pk=row.pk).update(**new)
                changed += 1
    return changed


def _mentioning(model, fields, scrub: Scrub) -> Q:
    """Rows whose text holds one of the words. A JSON column (a sheet) is not searched in
    SQL (its stored form may escape accents): every row of the events is read."""
    if any(isinstance(model._meta.get_field(name), JSONField) for name in fields):
        return Q()
    found = Q(pk__in=[])
    for name in fields:
        for word in scrub.replacements:
            found |= Q(**{f"{name}__contains": word})
    return found


def _fitted(model, name: str, value):
    limit = getattr(model._meta.get_field(name), "max_length", None)
    return value[:limit] if isinstance(value, str) and limit else value


def _own_rows_erase(person: Person, scrub: Scrub) -> None:
    for character in Character.objects.select_for_update().filter(pk__in=person.character_ids):
        character.name = person.pseudonym
        character.sheet = scrub({k: v for k, v in character.sheet.items() if k not in SHEET_NOTES})
        character.save(update_fields=["name", "sheet"])
    if person.character_ids:
        observers.characters_changed.notify(character_ids=list(person.character_ids))
    user = person.user
    if user is None:
        return
    # Its open sockets check their access again once this commits: an erased account's close.
    observers.access_revoked.notify(user_ids=[user.pk])
    if not person.account_erased:  # another game still holds it: only these events' links
        LoginToken.objects.filter(user=user, event_id__in=person.event_ids).delete()
        return
    LoginToken.objects.filter(user=user).delete()
    records_forget(user=user)
    user.username, user.first_name, user.last_name, user.email = f"erased-{user.pk}", "", "", ""
    user.is_active = False  # its sessions and any link left no longer log in
    user.set_unusable_password()
    user.save(update_fields=["username", "first_name", "last_name", "email", "is_active",
                             "password"])


def _records_pseudonymise(*, event_ids, scrub: Scrub, persons: list[Person]) -> None:
    """The journal of these events, the stored answers and the admin's history, without
    the names."""
    actors = {p.user.pk: p.pseudonym for p in persons if p.user is not None}
    journal_pseudonymise(event_ids=event_ids, scrub=scrub, actors=actors)
    records_scrub(words=scrub.replacements, scrub=scrub)
    if scrub:
        named = Q()
        for word in scrub.replacements:
            named |= Q(object_repr__contains=word) | Q(change_message__contains=word)
        for entry in LogEntry.objects.filter(named):
            LogEntry.objects.filter(pk=entry.pk).update(object_repr=scrub(entry.object_repr)[:200],
                                                        change_message=scrub(entry.change_message))


def journal_pseudonymise(*, event_ids, scrub: Scrub, actors: dict[int, str]) -> int:
    """The journal of these events with the erased people's names replaced by their
    pseudonyms: the same lines, in the same order, with the same times and states.

    The journal is append-only for what happened (JournalEntry.save refuses any edit, and a
    correction is a new line), but a new line cannot take a name out of an old one: this
    pseudonymisation is the one rewrite it allows. It goes through bulk_update, a queryset
    update that never calls save(), and changes only who a line names, never what it says
    happened. Returns how many lines changed."""
    if not scrub and not actors:
        return 0
    changed, pending = 0, []
    lines = (JournalEntry.objects.filter(event_id__in=list(event_ids)).order_by("id")
             .only("id", "actor_id", "actor_label", "before", "after", "detail"))
    for line in lines.iterator(chunk_size=2000):
        new = (actors.get(line.actor_id) or scrub(line.actor_label), scrub.state(line.before),
               scrub.state(line.after), scrub(line.detail))
        if new != (line.actor_label, line.before, line.after, line.detail):
            line.actor_label, line.before, line.after, line.detail = new
            pending.append(line)
        if len(pending) >= JOURNAL_BATCH:
            changed += _journal_update(pending)
    return changed + _journal_update(pending)


def _journal_update(lines: list[JournalEntry]) -> int:
    if lines:
        JournalEntry.objects.bulk_update(lines, ["actor_label", "before", "after", "detail"])
    count = len(lines)
    lines.clear()
    return count


@transaction.atomic
def event_retention_set(*, event: Event, days, by) -> Event:
    """How many days after its end the event's personal data is kept."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.personal_data_purged_at is not None:
        raise RuleRefused("personal_data_purged", at=f"{event.personal_data_purged_at:%Y-%m-%d}")
    if (isinstance(days, bool) or not isinstance(days, int)
            or not RETENTION_DAYS_MIN <= days <= RETENTION_DAYS_MAX):
        raise RuleRefused("retention_days_invalid", low=str(RETENTION_DAYS_MIN),
                          high=str(RETENTION_DAYS_MAX), asked=str(days)[:30])
    before, event.retention_days = event.retention_days, days
    event.save(update_fields=["retention_days"])
    journal_write(event=event, kind=PRIVACY, what="retention_set", at=timezone.now(), by=by,
                  detail={"before": before, "after": days})
    return event


def events_personal_data_purge(*, now: datetime | None = None) -> int:
    """Beat's daily task: every event past its retention purged, one transaction each.
    Returns how many were purged."""
    now = now or timezone.now()
    pending = Event.objects.filter(personal_data_purged_at__isnull=True)
    purged = 0
    for days in sorted(set(pending.values_list("retention_days", flat=True))):
        purged += due_each(events_with_end(pending.filter(retention_days=days)), field="ended_at",
                           due_by=now - timedelta(days=days),
                           apply=lambda pk: event_personal_data_purge(event_id=pk, now=now))
    return purged


@transaction.atomic
def event_personal_data_purge(*, event_id: int, now: datetime) -> bool:
    """One event past its retention: everyone it holds erased as at an organiser's request
    (except club members still playing elsewhere or under a ban), then what the apps hold
    beyond the people (a race's phone numbers). Done once: the event records when."""
    # Claimed: a second worker skips it rather than waits, and finds it purged afterwards.
    event = (events_with_end(Event.objects.select_for_update(skip_locked=True))
             .filter(pk=event_id, personal_data_purged_at__isnull=True).first())
    if event is None or event.ended_at + timedelta(days=event.retention_days) > now:
        return False
    persons = persons_of_event(event)
    scrub = _persons_erase(persons)
    for purge in privacy.event_purgers.reactions:
        scrub = scrub | Scrub(purge(event=event, scrub=scrub))
    event_ids = {event.pk}.union(*(p.event_ids for p in persons))
    _records_pseudonymise(event_ids=event_ids, scrub=scrub, persons=persons)
    event.personal_data_purged_at = now
    event.save(update_fields=["personal_data_purged_at"])
    journal_write(event=event, kind=PRIVACY, what="personal_data_purged", at=now,
                  detail={"retention_days": event.retention_days, "ended_at": iso(event.ended_at),
                          "persons": len(persons)})
    return True
