"""Narrators push effects ("Effet : ...") to one character, a team or everyone."""
from __future__ import annotations

import uuid

from django.db import transaction
from django.utils import timezone

from django.db.models import F

from health.models import HealthState
from health.selectors import effect_view
from health.services import character_act, snapshots_changed
from players.models import Character, Event
from players.realtime import publish_effect_on_commit
from players.services import journal_write, journal_write_many
from rulesets import RuleRefused

from .models import Effect


@transaction.atomic
def effect_push(*, event: Event, characters: list[Character] | None, text: str,
                duration_s: float | None, set_state: str | None, by) -> list[Effect]:
    """An effect for the characters given, or for everyone in the event (`characters`
    None): then it is one row and one journal line, however many play. A stated health
    level goes through the rules like any narrator correction (journalled, timers set by
    the state's entry)."""
    if characters is not None and not characters:
        raise RuleRefused("bad_input", detail="the effect reaches nobody")
    if set_state and set_state not in event.rules().ruleset.states:
        raise RuleRefused("bad_input", detail=f"'{set_state}' is not a state of this game")
    now = timezone.now()
    game_s = event.game_time(now)
    push_id = uuid.uuid4()
    effects = Effect.objects.bulk_create(
        Effect(event=event, character=c, push_id=push_id, text=text, started_game_s=game_s,
               duration_s=duration_s, ends_game_s=game_s + duration_s if duration_s else None,
               set_state=set_state or "", created_by=by) for c in characters or [None])
    journal_write_many(event=event, kind="effect", what="pushed", at=now, by=by,
                       characters=characters or [None],
                       detail={"push": str(push_id), "text": text, "duration_s": duration_s,
                               "set_state": set_state or None, "everyone": characters is None})
    if set_state:  # character_act publishes each snapshot
        for character in characters or event.characters.all():
            character_act(character=character, action="set_state", params={"state": set_state},
                          by=by, as_narrator=True)
    else:
        _effect_published(event, effects[0], [c.pk for c in characters] if characters else None)
    return effects


def _effect_published(event: Event, effect: Effect, character_ids: list[int] | None) -> None:
    """The sequence number of everyone reached moves by one, and the phones get the effect
    itself, not a snapshot each: a push to 2,000 players is one small message."""
    reached = HealthState.objects.filter(event=event)
    if character_ids is not None:
        reached = reached.filter(pk__in=character_ids)
    reached.update(version=F("version") + 1)
    shared = {**effect_view(event, effect, event.game_time(timezone.now())), "id": None}
    publish_effect_on_commit(event_id=event.pk, character_ids=character_ids, effect=shared)


@transaction.atomic
def effect_remove(*, effect: Effect, by) -> Effect:
    """Removing an effect for everyone sends every phone a fresh snapshot: rare enough."""
    effect.removed = True
    effect.save(update_fields=["removed"])
    journal_write(event=effect.event, kind="effect", what="removed", at=timezone.now(), by=by,
                  character=effect.character, detail={"effect": effect.pk, "text": effect.text})
    reached = ([effect.character_id] if effect.character_id
               else list(effect.event.characters.values_list("pk", flat=True)))
    snapshots_changed(character_ids=reached)
    return effect
