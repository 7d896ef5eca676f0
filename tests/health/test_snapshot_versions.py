"""A small message of its own (an effect) reaches some characters' phones, or everyone's in
the event: the sequence number on each phone it reached moves, so that the phone can tell
a missed message from a repeated one; nobody else's moves."""
from __future__ import annotations

import pytest

from fixtures import client_for, snapshot
from health.services import snapshot_versions_move
from players.services import character_create, event_create

pytestmark = pytest.mark.django_db


def versions(*characters) -> list[int]:
    return [snapshot(client_for(c.user), c)["version"] for c in characters]


@pytest.fixture
def elsewhere(clock, narrator_user):
    """A character of another game running at the same time."""
    other = event_create(name="Other GN", ruleset="gn_fr", by=narrator_user, start_clock=True)
    return character_create(event=other, name="Zoé", sheet={"combat_base": 2}, by=narrator_user)


def test_a_message_to_some_moves_their_sequence_numbers_only(
        clock, event, player, other_player, elsewhere):
    before = versions(player, other_player, elsewhere)
    snapshot_versions_move(event=event, character_ids=[player.pk])
    assert versions(player, other_player, elsewhere) == [before[0] + 1, before[1], before[2]]


def test_a_message_to_everyone_moves_the_whole_events_and_no_other(
        clock, event, player, other_player, elsewhere):
    before = versions(player, other_player, elsewhere)
    snapshot_versions_move(event=event)
    assert versions(player, other_player, elsewhere) == [before[0] + 1, before[1] + 1, before[2]]
