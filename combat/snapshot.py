"""Combat's part of a character's snapshot (live/snapshots.py): the fights it is in."""
from __future__ import annotations

from datetime import datetime

from players.models import Character

from .selectors import fights_by_character


def fights_loader(characters: list[Character], event, game_s: float) -> None:
    fights = fights_by_character(event, [c.pk for c in characters], game_s)
    for character in characters:
        character.fights = fights.get(character.pk, [])


def fights_section(character: Character, now: datetime) -> dict:
    return {"fights": character.fights}
