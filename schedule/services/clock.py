"""The game clock: an arrêt de jeu freezes every countdown of the event, a resume starts
them again where they were, and Emergencia lets anyone in the game stop it.

Deadlines are in game time (players.models.Event.game_time), so pausing is a property of
the clock rather than a rewrite of every row."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from live.publish import publish_narrators_on_commit
from players import observers
from players.models import Character, Event
from players.services import event_clock_store, journal_write
from rulesets import RuleRefused


# The clock's writes lock the event's row FOR NO KEY UPDATE: they change no key, so rows
# being inserted for the event (an import's characters, which hold FOR KEY SHARE on it
# until their transaction ends) never make a pause or an Emergencia wait.


def _all_character_ids(event: Event):
    return event.characters.values_list("pk", flat=True)


@transaction.atomic
def clock_pause(*, event: Event, by) -> Event:
    """Arrêt de jeu: every countdown of the event freezes where it is."""
    event = Event.objects.select_for_update(no_key=True).get(pk=event.pk)
    if not event.running:
        raise RuleRefused("game_already_paused")
    now = timezone.now()
    event_clock_store(event=event, elapsed_s=event.game_time(now), running_since=None)
    journal_write(event=event, kind="clock", what="paused", at=now, by=by)
    # Every countdown reads differently: the snapshots' sequence numbers move with it.
    observers.characters_changed.notify(character_ids=list(_all_character_ids(event)))
    return event


@transaction.atomic
def clock_resume(*, event: Event, by) -> Event:
    """Every countdown resumes where it was; timer tasks are queued again for the new
    wall-clock instants (those queued before the pause find nothing due and do nothing)."""
    event = Event.objects.select_for_update(no_key=True).get(pk=event.pk)
    if event.running:
        raise RuleRefused("game_not_paused")
    now = timezone.now()
    event_clock_store(event=event, elapsed_s=event.clock_elapsed_s, running_since=now)
    journal_write(event=event, kind="clock", what="resumed", at=now, by=by)
    # Timers, fights, dawns (one due during the pause runs now) and Web Push warnings:
    # the apps that wait on game time queue their work again.
    observers.clock_resumed.notify(event=event)
    # Every countdown reads differently: the snapshots' sequence numbers move with it.
    observers.characters_changed.notify(character_ids=list(_all_character_ids(event)))
    return event


@transaction.atomic
def emergency_declare(*, event: Event, by, reason: str = "") -> tuple[Event, bool]:
    """Emergencia: anyone in the game stops it for a real-world reason. The clock pauses
    for everyone (unless the ruleset's `emergencia_pauses_all` option says otherwise) and
    the narrators are alerted; only they resume. Declared while already paused, it pauses
    nothing more but is still journalled and shown: it may be a second emergency.
    Returns the event and whether this call paused it."""
    event = Event.objects.select_for_update(no_key=True).get(pk=event.pk)
    rules = event.rules()
    # Without the choice (rulesets/contracts.py), an Emergencia pauses everyone.
    pauses = event.running and (not rules.has("emergency_choice")
                                or rules.option("emergencia_pauses_all") is not False)
    now = timezone.now()
    entry = journal_write(event=event, kind="emergency", what="declared", at=now, by=by,
                          detail={"reason": reason, "paused": pauses})
    if pauses:
        event = clock_pause(event=event, by=by)
    character = Character.objects.filter(event=event, user=by).values("pk", "name").first()
    publish_narrators_on_commit(event.pk, {"type": "emergency.message", "emergency": {
        "journal": entry.pk, "at": now.isoformat(), "who": entry.actor_label,
        "character": {"id": character["pk"], "name": character["name"]} if character else None,
        "reason": reason, "paused": pauses, "running": event.running}})
    return event, pauses
