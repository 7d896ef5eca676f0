"""Undoing a narrator's state change (issue: "Safe taps"): for 10 s after the tap, the
narrator who made it may take it back. The journal is never edited: a correction line
says what was undone and restores the state from before it."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from players.models import Event, JournalEntry
from players.services import journal_write
from rulesets import RuleRefused
from rulesets.engine import CharacterState

from .models import HealthState
from .services import state_publish_on_commit

UNDO_WINDOW_S = 10


@transaction.atomic
def character_action_undo(*, entry: JournalEntry, by, at=None) -> JournalEntry:
    """The correction line; the same one again for a second tap (a phone's retry)."""
    at = at or timezone.now()
    if entry.kind != "action" or entry.character_id is None or not entry.before:
        raise RuleRefused("undo_not_possible")
    if entry.actor_id != by.pk:
        raise RuleRefused("undo_not_yours")
    # The row lock orders two taps on "Undo": the second finds the first's line.
    health = HealthState.objects.select_for_update().get(pk=entry.character_id)
    done = JournalEntry.objects.filter(event_id=entry.event_id, kind="correction", what="undo",
                                       detail__undoes=entry.pk).first()
    if done is not None:
        return done
    if (at - entry.at).total_seconds() > UNDO_WINDOW_S:
        raise RuleRefused("undo_too_late", seconds=UNDO_WINDOW_S)
    if JournalEntry.objects.filter(character_id=entry.character_id, pk__gt=entry.pk,
                                   after__isnull=False).exists():
        raise RuleRefused("undo_superseded")   # restoring would erase what came since
    event = Event.objects.get(pk=entry.event_id)
    current = health.as_core().to_json()
    health.store(CharacterState.from_json(entry.before))
    health.save()
    line = journal_write(event=event, kind="correction", what="undo", at=at, by=by,
                         character=health.character, before=current, after=entry.before,
                         detail={"undoes": entry.pk, "undone": entry.what})
    state_publish_on_commit(health, event)
    return line
