"""A snapshot costs the same few queries however long the game has run and however many
fights the character has been in."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from combat.services.duels import duel_answer, duel_propose
from combat.services.schedule import fights_sweep
from combat.services.unions import union_claim
from effects.services.effects import effect_push
from players.services import character_create
from live.snapshots import character_for_snapshot, character_snapshot
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
    clock.advance(61)                       # past the last stun's inert minute
    for i in range(3):
        rival = character_create(event=event, name=f"Rival {i}", sheet={"combat_base": 1},
                                 by=narrator_user)
        duel = duel_propose(challenger=rival, opponent_code=player.code, by=rival.user)
        duel_answer(duel=duel, defender=player, accept=False, weapon_in_hand=None, by=player.user)
        gang = [character_create(event=event, name=f"Gang {i}-{n}", sheet={"combat_base": 2},
                                 by=narrator_user) for n in range(4)]
        union_claim(claimant=gang[0], attacker_codes=[g.code for g in gang[1:]],
                    defender_codes=[player.code], weapon_drawn=False, by=gang[0].user)
        clock.advance(5)
        fights_sweep()
        clock.advance(61)                   # Alice, beaten, is no longer inert
    assert queries_for_snapshot(player) == fresh == 8   # 8: the treatments running on them, one query
