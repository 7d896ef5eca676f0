"""Fighters for the combat tests: Alice (combat 2) and Denis (combat 3) from the shared
fixtures, plus whoever a test needs with a given score."""
from __future__ import annotations

import pytest

from fixtures import client_for
from players.services import character_create


@pytest.fixture
def fighter(event, narrator_user):
    """fighter("Name", score) -> (character, its player's API client)."""
    def make(name: str, score: int = 2, **sheet):
        character = character_create(event=event, name=name, sheet={"combat_base": score, **sheet},
                                     by=narrator_user)
        return character, client_for(character.user)
    return make


@pytest.fixture
def denis_api(other_player):
    return client_for(other_player.user)
