"""Narrators push effects ("Effet : ...") to one character, a team or everyone, and
remove them."""
from __future__ import annotations

import uuid

from django.db import transaction
from django.utils import timezone

from common.i18n import refusal_text
from health.services import (character_act, character_apply_rules, characters_lock,
                             snapshot_versions_move, snapshots_changed)
from live.publish import publish_effect_on_commit
from players.models import Character, Event
from players.services import journal_write, journal_write_many
from rulesets import RuleRefused

from ..models import Effect
from ..selectors.effects import (catalogue_text, effect_durations, effect_view,
                                 lasts_one_conflict)


@transaction.atomic
def effect_push(*, event: Event, characters: list[Character] | None, text: str | None,
                duration_s: float | None, set_state: str | None, by,
                catalogue: str | None = None, until_removed: bool = False) -> list[Effect]:
    """An effect for the characters given, or for everyone in the event (`characters`
    None): then it is one row and one journal line, however many play. A stated health
    level goes through the rules like any narrator correction (journalled, timers set by
    the state's entry); so does a catalogue effect's action (Muerte, Derribo...).
    Without a duration, an effect lasts until removed, or one Conflict where the ruleset
    says so (`effect_default`), unless `until_removed`."""
    if characters is not None and not characters:
        raise RuleRefused("bad_input", detail="the effect reaches nobody")
    entry = _catalogue_entry(event, catalogue, set_state)
    set_state = set_state or (entry or {}).get("set_state")
    text = text or (catalogue_text(entry, event.language) if entry else "")
    if not text:
        raise RuleRefused("bad_input", detail="an effect needs a text or a catalogue effect")
    if set_state and set_state not in event.rules().ruleset.states:
        raise RuleRefused("bad_input", detail=f"'{set_state}' is not a state of this game")
    if duration_s and until_removed:
        raise RuleRefused("bad_input", detail="give duration_s or until_removed, not both")
    now = timezone.now()
    game_s = event.game_time(now)
    push_id = uuid.uuid4()
    durations = effect_durations(event=event, characters=characters, game_s=game_s,
                                 duration_s=duration_s, until_removed=until_removed)
    # One row for everyone has no one Conflict to follow: it keeps the end it was given.
    follows = lasts_one_conflict(event, duration_s, until_removed) and characters is not None
    effects = Effect.objects.bulk_create(
        Effect(event=event, character=c, push_id=push_id, text=text, started_game_s=game_s,
               duration_s=durations[c], ends_game_s=game_s + durations[c] if durations[c] else None,
               set_state=set_state or "", catalogue_key=catalogue or "", created_by=by,
               lasts_conflict=follows)
        for c in characters or [None])
    groups = _by_duration(durations)
    for duration, reached in groups.items():
        journal_write_many(event=event, kind="effect", what="pushed", at=now, by=by,
                           characters=reached,
                           detail={"push": str(push_id), "text": text, "duration_s": duration,
                                   "until_removed": duration is None,
                                   "set_state": set_state or None, "catalogue": catalogue,
                                   "everyone": characters is None})
    if set_state:  # character_act publishes each snapshot
        for character in characters or event.characters.all():
            character_act(character=character, action="set_state", params={"state": set_state},
                          by=by, as_narrator=True)
    elif entry and entry.get("action"):
        _catalogue_action(event, characters, entry["action"], by, now,
                          detail={"effect": str(push_id), "catalogue": catalogue})
    else:
        # One message per duration: a push reaching people in and out of a Conflict.
        shown = {effect.character_id: effect for effect in effects}
        for reached in groups.values():
            ids = None if characters is None else [c.pk for c in reached]
            _effect_published(event, shown[reached[0].pk if reached[0] else None], ids)
    return effects


def _catalogue_entry(event: Event, key: str | None, set_state: str | None) -> dict | None:
    if not key:
        return None
    catalogue = event.rules().ruleset.catalogue
    if key not in catalogue:
        known = ", ".join(sorted(catalogue)) or "none"
        raise RuleRefused("bad_input", detail=f"'{key}' is not in this game's effect "
                                              f"catalogue (known: {known})")
    entry = catalogue[key]
    if set_state and (entry.get("set_state") or entry.get("action")):
        raise RuleRefused("bad_input", detail=f"the catalogue effect '{key}' already says what "
                                              f"happens to the character: leave set_state out")
    return entry


def _by_duration(durations: dict) -> dict:
    groups: dict = {}
    for character, duration in durations.items():
        groups.setdefault(duration, []).append(character)
    return groups


def _catalogue_action(event: Event, characters, action: str, by, now, detail: dict) -> None:
    """The catalogue effect's rules action on each one reached, their rows locked in id
    order. For one character a refusal is the push's (nothing changes); pushed to a team
    or everyone, those the action does not apply to (already dead) keep only the text."""
    ids = [c.pk for c in characters] if characters is not None else list(
        event.characters.values_list("pk", flat=True))
    skipped = []
    for health in characters_lock(ids).values():
        try:
            character_apply_rules(health=health, event=event, action=action, by=by, now=now,
                                  detail={**detail, "as_narrator": True})
        except RuleRefused as refusal:
            if len(ids) == 1:
                raise
            skipped.append(health)
            journal_write(event=event, kind="effect", what="not_applied", at=now, by=by,
                          character=health.character,
                          detail={**detail, "action": action, "refusal": refusal.code,
                                  "why": refusal_text(refusal)})
    if skipped:
        snapshots_changed(character_ids=[h.pk for h in skipped])


def _effect_published(event: Event, effect: Effect, character_ids: list[int] | None) -> None:
    """The sequence number of everyone reached moves by one, and the phones get the effect
    itself, not a snapshot each: a push to 2,000 players is one small message."""
    snapshot_versions_move(event=event, character_ids=character_ids)
    shared = {**effect_view(event, effect, event.game_time(timezone.now())), "id": None}
    publish_effect_on_commit(event_id=event.pk, character_ids=character_ids, effect=shared)


@transaction.atomic
def effect_remove(*, effect: Effect, by) -> Effect:
    """Removing an effect for everyone sends every phone a fresh snapshot: rare enough.
    A second removal is refused: it would journal a removal that removed nothing."""
    # The row lock: two narrators tapping "remove" at once remove it once.
    if Effect.objects.select_for_update().get(pk=effect.pk).removed:
        raise RuleRefused("effect_already_removed")
    effect.removed = True
    effect.save(update_fields=["removed"])
    journal_write(event=effect.event, kind="effect", what="removed", at=timezone.now(), by=by,
                  character=effect.character, detail={"effect": effect.pk, "text": effect.text})
    reached = ([effect.character_id] if effect.character_id
               else list(effect.event.characters.values_list("pk", flat=True)))
    snapshots_changed(character_ids=reached)
    return effect
