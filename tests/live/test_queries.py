"""A snapshot costs the same few queries however long the game has run; a phone's connect
and a repeated read cost the session-less minimum; and a snapshot served from the cache is
the one a fresh read would build, after every kind of change."""
from __future__ import annotations

import pytest
from django.db import connection, connections
from django.db.backends.signals import connection_created
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from fixtures import SHEET, client_for, comparable, connect, create_item, carry, next_snapshot

from combat.services.duels import duel_answer, duel_propose
from combat.services.schedule import fights_sweep
from combat.services.unions import union_claim
from effects.services.effects import effect_push
from effects.services.items import item_create
from health.services import character_act
from live.snapshot_cache import character_snapshot_cached
from live.snapshots import character_for_snapshot, character_row, character_snapshot
from players.services import character_create, event_create
from schedule.services.clock import clock_pause, clock_resume


def queries_for_snapshot(character) -> int:
    with CaptureQueriesContext(connection) as queries:
        now = timezone.now()
        character_snapshot(character_for_snapshot(character.pk, now), now)
    return len(queries)


def effects_and_journal(event, player, narrator_user, clock) -> None:
    for i in range(20):
        effect_push(event=event, characters=[player], text=f"Effet {i}", duration_s=None,
                    set_state=None, by=narrator_user)
        effect_push(event=event, characters=None, text=f"Effet pour tous {i}", duration_s=None,
                    set_state=None, by=narrator_user)
        character_act(character=player, action="hit_stunning", params={}, by=narrator_user,
                      as_narrator=True)
        clock.advance(30)
    clock.advance(61)                       # past the last stun's inert minute


@pytest.mark.django_db
def test_snapshot_queries_do_not_grow_with_effects_or_journal(clock, event, player, narrator_user):
    """The character with its event, team and health; its effects and everyone's."""
    fresh = queries_for_snapshot(player)
    effects_and_journal(event, player, narrator_user, clock)
    assert queries_for_snapshot(player) == fresh == 2


@pytest.mark.django_db
def test_fights_are_read_only_for_characters_that_fought(clock, event, player, other_player,
                                                         narrator_user):
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
    assert queries_for_snapshot(other_player) == 2
    # One more query per kind of fight of the French GN (duels, unions, beatings), however
    # many fights: the one ruleset above three.
    assert queries_for_snapshot(player) == 5


@pytest.mark.django_db
@pytest.mark.parametrize("ruleset, sheet, expected", [
    ("gn_fr", {"combat_base": 2}, 2),
    ("septenario_es", SHEET, 3),            # + what the character carries (Carga)
    ("airsoft_rats", {}, 2),
    ("zombie_race", {}, 2),
])
def test_snapshot_queries_of_each_ruleset(clock, narrator_user, ruleset, sheet, expected):
    event = event_create(name=ruleset, ruleset=ruleset, by=narrator_user, start_clock=True)
    character = character_create(event=event, name="Ana", sheet=sheet, by=narrator_user)
    assert queries_for_snapshot(character) == expected


@pytest.mark.django_db
def test_a_repeated_snapshot_read_costs_three_queries(clock, player, player_api):
    """The session, the user and the character's one row; the snapshot itself from the
    cache."""
    first = player_api.get(f"/api/characters/{player.pk}/")
    with CaptureQueriesContext(connection) as queries:
        again = player_api.get(f"/api/characters/{player.pk}/")
    assert again.status_code == 200
    assert len(queries) == 3, [q["sql"] for q in queries]
    first, again = first.json(), again.json()
    assert first.pop("server_time") <= again.pop("server_time")
    assert again == first


class EveryQuery:
    """The consumer reads on worker threads, each with its own connection."""

    def __init__(self):
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)

    def hook(self, sender=None, connection=None, **kwargs):
        if self not in connection.execute_wrappers:
            connection.execute_wrappers.append(self)

    def __enter__(self):
        connection_created.connect(self.hook)
        for opened in connections.all(initialized_only=True):
            self.hook(connection=opened)
        return self

    def __exit__(self, *exc):
        connection_created.disconnect(self.hook)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_phone_proves_its_session_in_two_queries_then_reconnects_on_its_pass(
        clock, player, player_api):
    """The first connect: the session, then the character's row with its player's user
    (the access check, the snapshot's key and, from the cache, the snapshot). The next
    ones read no database (live/passes.py): the same snapshot, with its countdowns."""
    counts, firsts = [], []
    with EveryQuery() as queries:
        for attempt in range(3):
            queries.count = 0
            phone, connected, _ = await connect(player_api, f"character={player.pk}")
            assert connected
            firsts.append(await next_snapshot(phone))
            await phone.disconnect()
            counts.append(queries.count)
            clock.advance(1)
    # The first counts its contact (last seen: one more write, on a thread after the
    # snapshot on a pass); none of the others reads anything before its snapshot.
    assert counts[0] >= 2 and counts[1:] == [0, 0], counts
    assert comparable(firsts[2]) == comparable(firsts[0])


def served_and_fresh(character):
    """(from the cache if it holds, built afresh) at this instant, and the cached read's
    query count."""
    now = timezone.now()
    with CaptureQueriesContext(connection) as queries:
        served = character_snapshot_cached(character_row(character.pk), now)
    fresh = character_snapshot(character_for_snapshot(character.pk, now), now)
    return served, fresh, len(queries)


def assert_cached_is_fresh(character, *, from_cache: bool | None = None) -> dict:
    served, fresh, queries = served_and_fresh(character)
    assert served == fresh
    if from_cache is not None:
        assert (queries == 1) is from_cache, queries
    return served


@pytest.mark.django_db
def test_a_cached_snapshot_is_the_fresh_one_after_each_kind_of_change(clock, event, player,
                                                                     narrator_user):
    assert_cached_is_fresh(player, from_cache=False)
    assert_cached_is_fresh(player, from_cache=True)
    character_act(character=player, action="hit_wounding", params={}, by=narrator_user,
                  as_narrator=True)                                  # a wound
    assert_cached_is_fresh(player, from_cache=False)
    clock.advance(100)                # past the stun's inert minute: read afresh
    assert_cached_is_fresh(player, from_cache=False)
    clock.advance(10)                                                # the countdown runs
    wounded = assert_cached_is_fresh(player, from_cache=True)
    assert wounded["next"]["remaining_s"] == 790
    effect_push(event=event, characters=[player], text="Sonné", duration_s=60,
                set_state=None, by=narrator_user)                    # an effect push
    assert_cached_is_fresh(player, from_cache=False)
    effect_push(event=event, characters=None, text="Brouillard", duration_s=None,
                set_state=None, by=narrator_user)                    # one for everyone
    assert_cached_is_fresh(player, from_cache=False)
    clock.advance(30)
    assert [e["remaining_s"] for e in assert_cached_is_fresh(player, from_cache=True)["effects"]
            if e["text"] == "Sonné"] == [30]
    clock.advance(30)                                                # the effect expires
    expired = assert_cached_is_fresh(player)
    assert [e["text"] for e in expired["effects"]] == ["Brouillard"]
    event.refresh_from_db()
    clock_pause(event=event, by=narrator_user)                       # a pause
    assert_cached_is_fresh(player, from_cache=False)
    clock.advance(3600)                                              # nothing moves
    assert assert_cached_is_fresh(player, from_cache=True)["next"]["remaining_s"] == 730
    clock_resume(event=event, by=narrator_user)
    assert_cached_is_fresh(player, from_cache=False)
    clock.advance(730)                                               # the coma, by the clock
    coma = assert_cached_is_fresh(player, from_cache=False)
    assert coma["state"]["key"] == "coma"
    assert_cached_is_fresh(player, from_cache=True)


@pytest.mark.django_db
def test_a_cached_snapshot_is_the_fresh_one_after_a_fight_and_an_object_carried(
        clock, event, player, narrator_user, narrator_api):
    rival = character_create(event=event, name="Rival", sheet={"combat_base": 1},
                             by=narrator_user)
    assert_cached_is_fresh(player, from_cache=False)
    duel_propose(challenger=rival, opponent_code=player.code, by=rival.user)
    assert assert_cached_is_fresh(player)["fights"]
    clock.advance(10)
    assert_cached_is_fresh(player, from_cache=False)   # a fight counts down: never cached
    septenario = event_create(name="S", ruleset="septenario_es", language="es",
                              by=narrator_user, start_clock=True)
    lucia = character_create(event=septenario, name="Lucía", sheet=SHEET, by=narrator_user)
    assert_cached_is_fresh(lucia, from_cache=False)
    item = create_item(narrator_api, septenario, name="Cofre", load=3)
    assert carry(client_for(lucia.user), lucia, item["code"]).status_code == 200
    carrying = assert_cached_is_fresh(lucia, from_cache=False)
    assert "Cofre" in [i["name"] for i in carrying["load"]["items"]]


@pytest.mark.django_db
def test_an_object_created_in_someones_hands_reaches_their_cached_snapshot(clock, narrator_user):
    septenario = event_create(name="S", ruleset="septenario_es", language="es",
                              by=narrator_user, start_clock=True)
    lucia = character_create(event=septenario, name="Lucía", sheet=SHEET, by=narrator_user)
    assert_cached_is_fresh(lucia, from_cache=False)
    assert_cached_is_fresh(lucia, from_cache=True)
    item_create(event=septenario, by=narrator_user, name="Arcabuz", kind="firearm", holder=lucia,
                load=4)
    carrying = assert_cached_is_fresh(lucia, from_cache=False)
    assert "Arcabuz" in [i["name"] for i in carrying["load"]["items"]]
