"""Narrators push effects ("Effet : ...") to one character, a team or everyone."""
from __future__ import annotations

import uuid

from django.db import transaction
from django.utils import timezone

from health.services import character_act, snapshots_changed
from players.models import Character, Event
from players.services import journal_write, journal_write_many
from rulesets import RuleRefused

from .models import Effect


@transaction.atomic
def effect_push(*, event: Event, characters: list[Character], text: str,
                duration_s: float | None, set_state: str | None, by) -> list[Effect]:
    """One effect row per character reached. A stated health level goes through the rules
    like any narrator correction (journalled, timers set by the state's entry)."""
    if not characters:
        raise RuleRefused("bad_input", detail="the effect reaches nobody")
    if set_state and set_state not in event.rules().ruleset.states:
        raise RuleRefused("bad_input", detail=f"'{set_state}' is not a state of this game")
    now = timezone.now()
    game_s = event.game_time(now)
    push_id = uuid.uuid4()
    effects = [Effect(event=event, character=c, push_id=push_id, text=text,
                      started_game_s=game_s, duration_s=duration_s,
                      ends_game_s=game_s + duration_s if duration_s else None,
                      set_state=set_state or "", created_by=by) for c in characters]
    Effect.objects.bulk_create(effects)
    journal_write_many(event=event, kind="effect", what="pushed", at=now, by=by,
                       characters=characters,
                       detail={"push": str(push_id), "text": text, "duration_s": duration_s,
                               "set_state": set_state or None})
    for character in characters if set_state else []:
        character_act(character=character, action="set_state", params={"state": set_state},
                      by=by, as_narrator=True)
    if not set_state:  # with a state, character_act has published each snapshot already
        snapshots_changed(character_ids=[c.pk for c in characters])
    return effects


@transaction.atomic
def effect_remove(*, effect: Effect, by) -> Effect:
    effect.removed = True
    effect.save(update_fields=["removed"])
    journal_write(event=effect.event, kind="effect", what="removed", at=timezone.now(), by=by,
                  character=effect.character, detail={"effect": effect.pk, "text": effect.text})
    snapshots_changed(character_ids=[effect.character_id])
    return effect
