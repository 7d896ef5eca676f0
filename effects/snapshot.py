"""Effects' part of a character's snapshot (live/snapshots.py): the active effects, its
own and those pushed to everyone, and what it carries (Carga)."""
from __future__ import annotations

from datetime import datetime

from django.db.models import Prefetch

from players.models import Character

from .models import Effect, Item
from .selectors.effects import active_effects_q, effect_view
from .selectors.load import load_view

EFFECT_FIELDS = ("id", "character_id", "push_id", "text", "started_game_s", "duration_s",
                 "ends_game_s")
HELD_ITEM_FIELDS = ("id", "holder_id", "name", "code", "load")


def _active(event, game_s):
    return Effect.objects.filter(active_effects_q(event, game_s)).only(*EFFECT_FIELDS)


def effects_queryset(rows, event, game_s):
    prefetches = [Prefetch("effects", queryset=_active(event, game_s), to_attr="own_effects")]
    if event.rules().ruleset.load:  # Carga: one more query, only in rulesets that have it
        prefetches.append(Prefetch("items_held", to_attr="held_items",
                                   queryset=Item.objects.only(*HELD_ITEM_FIELDS)))
    return rows.prefetch_related(*prefetches)


def effects_loader(characters: list[Character], event, game_s: float) -> None:
    if not characters:
        return
    for_everyone = list(_active(event, game_s).filter(event=event, character=None))
    for character in characters:
        character.active_effects = sorted(character.own_effects + for_everyone,
                                          key=lambda e: (e.started_game_s, e.pk))


def effects_section(character: Character, now: datetime) -> dict:
    event = character.event
    game_s = event.game_time(now)
    return {"effects": [effect_view(event, effect, game_s) for effect in character.active_effects],
            "load": load_view(character, event.rules())}
