"""A character's snapshot served from the cache while nothing it shows has changed.

The key is made of every row the snapshot's one query reads (the character, its event
with the clock, its team, its health with the sequence number that every other change
moves: an effect, an object carried, a fight): a change to any of them is a new key, so an
entry is never invalidated, only no longer asked for (it expires after
SNAPSHOT_CACHE_TTL_S). The code and the rulesets are part of the key too: a new release
never serves a snapshot shaped by the previous one.

What changes with the clock alone is handled at read time: the clock is read again, every
countdown (`remaining_s`) is worked out again from the absolute instant beside it, and an
entry is served only before the first instant at which its content would change by itself
(a deadline, an effect's end: `snapshots.changes_at`). A paused clock stands still, so its
entries stay good until it resumes, which changes the event row."""
from __future__ import annotations

import functools
import hashlib
import math
import os
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.db.models import Model

from players.models import Character
from players.selectors import clock_snapshot

from . import snapshots

# The keys that carry the absolute instant a `remaining_s` counts down to.
INSTANTS = ("game_s", "ends_game_s", "until_game_s", "ready_game_s")
# Rows joined for another purpose (the player's user, for the access check): nothing of
# them is in a snapshot, and a login (last_login) must not make a new key.
NOT_SHOWN = {"user"}
SOURCE_SUFFIXES = {".py", ".yaml", ".yml", ".json"}
SKIPPED_DIRS = {".venv", "tests", "bench", "var", "node_modules", "__pycache__", ".git"}


@functools.cache
def release() -> str:
    """A digest of the code and rulesets this process runs (read once, a few ms)."""
    digest = hashlib.blake2b(digest_size=8)
    for folder, dirs, files in os.walk(settings.BASE_DIR):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        for name in sorted(files):
            if os.path.splitext(name)[1] in SOURCE_SUFFIXES:
                path = os.path.join(folder, name)
                digest.update(os.path.relpath(path, settings.BASE_DIR).encode())
                with open(path, "rb") as source:
                    digest.update(source.read())
    return digest.hexdigest()


def _row(instance: Model | None) -> tuple:
    if instance is None:
        return ()
    return tuple(getattr(instance, field.attname) for field in instance._meta.concrete_fields)


def cache_key(character: Character) -> str:
    """The character's row and every row joined to it by its query (event, team, health)."""
    joined = character._state.fields_cache
    rows = (_row(character), *(_row(joined[name]) for name in sorted(joined) if name not in NOT_SHOWN))
    digest = hashlib.blake2b(repr(rows).encode(), digest_size=16).hexdigest()
    return f"snapshot:{character.pk}:{release()}:{digest}"


def countdowns_refresh(node, game_s: float) -> None:
    if isinstance(node, list):
        for item in node:
            countdowns_refresh(item, game_s)
    elif isinstance(node, dict):
        if node.get("remaining_s") is not None:
            instant = next((node[k] for k in INSTANTS if node.get(k) is not None), None)
            if instant is not None:
                node["remaining_s"] = round(max(0.0, instant - game_s), 3)
        for value in node.values():
            if isinstance(value, (dict, list)):
                countdowns_refresh(value, game_s)


def character_snapshot_cached(character: Character, now: datetime) -> dict:
    """The snapshot of a character from snapshots.character_row: from the cache when it
    is there and still true at `now`, else built (the loaders' queries) and kept."""
    event = character.event
    game_s = event.game_time(now)
    key = cache_key(character)
    stored = cache.get(key)
    if stored is not None and game_s < stored[0]:
        snapshot = stored[1]
        countdowns_refresh(snapshot, game_s)
        snapshot["clock"] = clock_snapshot(event, now)
        return snapshot
    snapshots.characters_load([character], event, now)
    snapshot = snapshots.character_snapshot(character, now)
    remember(character, snapshot, game_s, key=key)
    return snapshot


def _entry(snapshot: dict, game_s: float) -> tuple[float, dict] | None:
    """What is kept: (the instant it stops being true, the snapshot); None if that is now."""
    until = snapshots.changes_at(snapshot, game_s)
    until = math.inf if until is None else until
    return (until, snapshot) if until > game_s else None


def remember(character: Character, snapshot: dict, game_s: float, *,
             key: str | None = None) -> None:
    """Keep a snapshot just built, unless it already changes at this instant."""
    entry = _entry(snapshot, game_s)
    if entry is not None:
        cache.set(key or cache_key(character), entry, settings.SNAPSHOT_CACHE_TTL_S)


def remember_many(characters: list[Character], built: list[dict], game_s: float) -> None:
    """Keep the snapshots of a batch just published, in one round trip."""
    entries = {cache_key(c): entry for c, s in zip(characters, built)
               if (entry := _entry(s, game_s)) is not None}
    if entries:
        cache.set_many(entries, settings.SNAPSHOT_CACHE_TTL_S)
