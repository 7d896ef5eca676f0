"""Effects' part of a character's snapshot (live/snapshots.py): the active effects, its
own and those pushed to everyone, and what it carries (Carga)."""
from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from django.db.models import Q

from players.models import Character

from .models import Effect, Item
from .selectors.effects import active_effects_q, effect_view
from .selectors.load import load_view

EFFECT_FIELDS = ("id", "character_id", "push_id", "text", "started_game_s", "duration_s",
                 "ends_game_s")
HELD_ITEM_FIELDS = ("id", "holder_id", "name", "code", "load")


def effects_loader(characters: list[Character], event, game_s: float) -> None:
    """Their own effects and those for everyone in one query; what they carry in one
    more, only in rulesets with Carga."""
    if not characters:
        return
    ids = [c.pk for c in characters]
    own: dict[int, list] = defaultdict(list)
    for_everyone = []
    for effect in (Effect.objects.filter(active_effects_q(event, game_s), event=event)
                   .filter(Q(character_id__in=ids) | Q(character=None)).only(*EFFECT_FIELDS)):
        (for_everyone if effect.character_id is None else own[effect.character_id]).append(effect)
    for character in characters:
        character.active_effects = sorted(own[character.pk] + for_everyone,
                                          key=lambda e: (e.started_game_s, e.pk))
    if event.rules().ruleset.load:
        held: dict[int, list] = defaultdict(list)
        for item in Item.objects.filter(holder_id__in=ids).only(*HELD_ITEM_FIELDS):
            held[item.holder_id].append(item)
        for character in characters:
            character.held_items = held[character.pk]


def effects_section(character: Character, now: datetime) -> dict:
    event = character.event
    game_s = event.game_time(now)
    return {"effects": [effect_view(event, effect, game_s) for effect in character.active_effects],
            "load": load_view(character, event.rules())}


def effects_change_at(snapshot: dict, game_s: float) -> float | None:
    """An effect with an end leaves the snapshot then."""
    return min((e["ends_game_s"] for e in snapshot.get("effects", [])
                if e["ends_game_s"] is not None and e["ends_game_s"] > game_s), default=None)
