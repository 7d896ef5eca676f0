"""A character's snapshot: everything its own player may see, assembled from what each
app contributes.

Apps register in their `AppConfig.ready()`:
- `snapshot_queryset(fn)`: fn(queryset) adds the joins its part needs (one row each);
- `snapshot_loader(fn)`: fn(characters, event, game_s) attaches what is loaded for the
  batch at once (the effects, the fights of those who fought), so that 300 characters
  cost the same few queries as one;
- `snapshot_section(fn)`: fn(character, now) returns the keys it adds to the snapshot;
- `snapshot_changes_at(fn)`: fn(snapshot, game_s) returns the earliest game instant
  after game_s at which its part changes with no write (a deadline passing), else None;
  a snapshot is served from the cache only before that instant (snapshot_cache.py);
- `snapshot_versions(fn)`: fn(event_id, character_ids) returns each one's sequence number,
  without building the snapshots (the phones' heartbeat compares them).
live itself knows only the character, its event and the clock, and names no app.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from common.prepared import ByPrimaryKey
from players.models import Character, Event
from players.selectors import clock_snapshot

_querysets: list[Callable] = []
_loaders: list[Callable] = []
_sections: list[Callable] = []
_changes: list[Callable] = []
_versions: list[Callable] = []


def _register(registry: list, fn: Callable) -> Callable:
    if fn not in registry:
        registry.append(fn)
    return fn


def snapshot_queryset(fn: Callable) -> Callable:
    return _register(_querysets, fn)


def snapshot_loader(fn: Callable) -> Callable:
    return _register(_loaders, fn)


def snapshot_section(fn: Callable) -> Callable:
    return _register(_sections, fn)


def snapshot_changes_at(fn: Callable) -> Callable:
    return _register(_changes, fn)


def snapshot_versions(fn: Callable) -> Callable:
    if _versions and fn not in _versions:
        raise ValueError("one app numbers the snapshots")
    return _register(_versions, fn)


def current_versions(event_id: int, character_ids) -> dict[int, int]:
    """The sequence number of each of these characters of the event (others are left out)."""
    return _versions[0](event_id, list(character_ids)) if _versions else {}


def _rows(**filters):
    rows = Character.objects.filter(**filters).select_related("team")
    for add in _querysets:
        rows = add(rows)
    return rows


def characters_load(characters: list[Character], event: Event, now: datetime) -> None:
    """Attach what the snapshots need beyond the rows (effects, fights...), for all at once."""
    game_s = event.game_time(now)
    for load in _loaders:
        load(characters, event, game_s)


def characters_for_snapshot(event: Event, now: datetime, **filters) -> list[Character]:
    """Characters with what their snapshots need, in a few queries however many they are.
    They share one event object, so the ruleset and options are read once."""
    characters = list(_rows(event=event, **filters))
    for character in characters:
        character.event = event
    characters_load(characters, event, now)
    return characters


def character_row(character_id: int) -> Character | None:
    """The character with its event, its player's user (a websocket's access check,
    live/auth.py) and the rows every part joins, in one query; what the loaders add is not
    there yet (character_snapshot_cached adds it when needed)."""
    return _character_row.get(character_id)


# Compiled on first use, once the apps have added their parts (_querysets).
_character_row = ByPrimaryKey(lambda pk: _rows(pk=pk).select_related("event", "user"))


def character_for_snapshot(character_id: int, now: datetime,
                           event: Event | None = None) -> Character | None:
    character = character_row(character_id)
    if character is None or (event is not None and character.event_id != event.pk):
        return None
    characters_load([character], character.event, now)
    return character


def character_snapshot(character: Character, now: datetime) -> dict:
    """`character` comes from characters_for_snapshot."""
    event = character.event
    snapshot = {
        "character": {"id": character.pk, "name": character.name, "code": character.code,
                      "team": character.team.name if character.team else None,
                      "event": event.pk, "ruleset": event.ruleset, "language": event.language},
        "clock": clock_snapshot(event, now),
    }
    for section in _sections:
        snapshot.update(section(character, now))
    return snapshot


def changes_at(snapshot: dict, game_s: float) -> float | None:
    """The first game instant after game_s at which the snapshot changes by itself."""
    instants = [at for changes in _changes if (at := changes(snapshot, game_s)) is not None]
    return min(instants, default=None)


def event_live_view(event: Event, now: datetime) -> dict:
    """The narrators' view: every character, soonest deadline first."""
    snapshots = [character_snapshot(c, now) for c in characters_for_snapshot(event, now)]
    snapshots.sort(key=lambda s: (s["next"]["game_s"] if s.get("next") else float("inf"),
                                  s["character"]["name"]))
    return {"event": {"id": event.pk, "name": event.name, "ruleset": event.ruleset},
            "clock": clock_snapshot(event, now), "characters": snapshots}
