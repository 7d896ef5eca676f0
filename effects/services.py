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
def effect_push(*, event: Event, characters: list[Character], text: str,
                duration_s: float | None, set_state: str | None, by,
                everyone: bool = False) -> list[Effect]:
    """One effect row per character reached (`everyone`: all the event's characters). A
    stated health level goes through the rules like any narrator correction (journalled,
    timers set by the state's entry)."""
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
        _effect_published(event, effects, everyone=everyone)
    return effects


def _effect_published(event: Event, effects: list[Effect], *, everyone: bool) -> None:
    """The sequence number of everyone reached moves by one, and the phones get the effect
    itself, not a snapshot each: a push to 2,000 players is one small message."""
    ids = [effect.character_id for effect in effects]
    HealthState.objects.filter(pk__in=ids).update(version=F("version") + 1)
    shared = {**effect_view(event, effects[0], event.game_time(timezone.now())), "id": None}
    publish_effect_on_commit(event_id=event.pk, character_ids=None if everyone else ids,
                             effect=shared)


@transaction.atomic
def effect_remove(*, effect: Effect, by) -> Effect:
    effect.removed = True
    effect.save(update_fields=["removed"])
    journal_write(event=effect.event, kind="effect", what="removed", at=timezone.now(), by=by,
                  character=effect.character, detail={"effect": effect.pk, "text": effect.text})
    snapshots_changed(character_ids=[effect.character_id])
    return effect
