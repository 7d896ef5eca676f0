"""Combat's part of a character's snapshot (live/snapshots.py): the fights it is in."""
from __future__ import annotations

from datetime import datetime

from players.models import Character

from .selectors import fights_by_character


def fights_loader(characters: list[Character], event, game_s: float) -> None:
    """Only characters that have been in a fight can be in one: most never are, and
    their snapshots read no fight at all."""
    fought = [c.pk for c in characters if c.has_fought]
    fights = fights_by_character(event, fought, game_s) if fought else {}
    for character in characters:
        character.fights = fights.get(character.pk, [])


def fights_section(character: Character, now: datetime) -> dict:
    return {"fights": character.fights}


def fights_change_at(snapshot: dict, game_s: float) -> float | None:
    """A fight shown counts down, closes and leaves the screen by the clock: a snapshot
    that shows one is never served from the cache."""
    return game_s if snapshot.get("fights") else None
