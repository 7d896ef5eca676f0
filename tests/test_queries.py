"""A snapshot costs the same few queries however long the game has run."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from effects.services import effect_push
from health.selectors import character_for_snapshot, character_snapshot
from health.services import character_act


def queries_for_snapshot(character) -> int:
    with CaptureQueriesContext(connection) as queries:
        now = timezone.now()
        character_snapshot(character_for_snapshot(character.pk, now), now)
    return len(queries)


@pytest.mark.django_db
def test_snapshot_queries_do_not_grow_with_effects_or_journal(clock, event, player, narrator_user):
    fresh = queries_for_snapshot(player)
    for i in range(20):
        effect_push(event=event, characters=[player], text=f"Effet {i}", duration_s=None,
                    set_state=None, by=narrator_user)
        effect_push(event=event, characters=None, text=f"Effet pour tous {i}", duration_s=None,
                    set_state=None, by=narrator_user)
        character_act(character=player, action="hit_stunning", params={}, by=narrator_user,
                      as_narrator=True)
        clock.advance(30)
    assert queries_for_snapshot(player) == fresh == 4
