"""A burst of deadlines falling at one instant (a gas cloud, a whole team wounded): the
first task applies the whole burst as a batch, with as many queries for 30 characters as
for 3, each transition journalled once and none early; every phone gets its own new
state and nothing of the others'; the burst's other tasks find nothing to do."""
from __future__ import annotations

import functools

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext
from fixtures import client_for, connect, next_snapshot

from health.models import HealthState
from health.services import character_act, character_advance, characters_sweep
from players.models import JournalEntry
from players.services import characters_create
from push.models import PushSubscription

WOUNDED_FOR_S = 15 * 60       # gn_fr: wounded, coma after 15 minutes untreated


def crowd(event, narrator_user, count: int, prefix: str) -> list:
    return characters_create(event=event, by=narrator_user, rows=[
        {"name": f"{prefix} {i}", "sheet": {"combat_base": 2}, "kits": {}, "team": None}
        for i in range(count)])


def wound(characters) -> None:
    for character in characters:
        character_act(character=character, action="hit_wounding", params={}, by=None,
                      as_narrator=True)


def subscribe(character) -> None:
    PushSubscription.objects.create(user=character.user, p256dh="k", auth="a",
                                    endpoint=f"https://push.example.org/{character.pk}")


def statuses(characters) -> list[str]:
    rows = dict(HealthState.objects.filter(pk__in=[c.pk for c in characters])
                .values_list("pk", "status"))
    return [rows[c.pk] for c in characters]


def comas(characters) -> list[int]:
    """The characters journalled as falling into a coma, one id per journal line."""
    return sorted(line.character_id for line in JournalEntry.objects.filter(
        kind="timer", character__in=characters) if line.after["status"] == "coma")


@pytest.mark.django_db
def test_a_burst_is_one_batch_whose_queries_do_not_grow_with_it(clock, event, narrator_user):
    small, big = crowd(event, narrator_user, 3, "Small"), crowd(event, narrator_user, 30, "Big")
    subscribe(small[0])                   # a phone that asked for notifications in each
    subscribe(big[0])
    wound(small)
    clock.advance(10)
    wound(big)                            # ten seconds later: a second burst, ten times bigger

    clock.advance(WOUNDED_FOR_S - 10 - 0.001)
    characters_sweep()                    # the minute a hit leaves them inert, only
    assert statuses(small + big) == ["wounded"] * 33
    assert character_advance(character_id=small[0].pk) == 0      # never early
    clock.advance(0.001)
    with CaptureQueriesContext(connection) as small_burst:
        assert character_advance(character_id=small[1].pk) == 3
    assert statuses(small) == ["coma"] * 3 and statuses(big) == ["wounded"] * 30

    clock.advance(10)
    with CaptureQueriesContext(connection) as big_burst:
        assert character_advance(character_id=big[7].pk) == 30
    assert statuses(big) == ["coma"] * 30
    assert len(big_burst) == len(small_burst) <= 12, [q["sql"][:80] for q in big_burst]
    journal = [q for q in big_burst if 'INSERT INTO "players_journalentry"' in q["sql"]]
    updates = [q for q in big_burst if q["sql"].startswith('UPDATE "health_healthstate"')]
    subscriptions = [q for q in big_burst if 'FROM "push_pushsubscription"' in q["sql"]]
    assert (len(journal), len(updates), len(subscriptions)) == (1, 1, 1)

    # The burst's other tasks come too late to do anything, and cheaply.
    lines = JournalEntry.objects.count()
    with CaptureQueriesContext(connection) as late:
        for character in big:
            assert character_advance(character_id=character.pk) == 0
    assert len(late) <= 5 * len(big)      # the event, the empty claim and its savepoints
    assert JournalEntry.objects.count() == lines
    assert comas(small + big) == sorted(c.pk for c in small + big)   # each journalled once


@pytest.mark.django_db
def test_a_burst_bigger_than_a_batch_is_taken_whole_by_its_first_task(
        clock, event, narrator_user, monkeypatch):
    from health import services
    # The default is bound when the function is defined: patching DEADLINE_BATCH would
    # leave the batch at 100, and the burst in one batch.
    monkeypatch.setattr(services, "deadlines_apply_due",
                        functools.partial(services.deadlines_apply_due, batch=4))
    characters = crowd(event, narrator_user, 10, "Team")
    wound(characters)
    clock.advance(WOUNDED_FOR_S)
    assert services.character_advance(character_id=characters[-1].pk) == 10
    assert statuses(characters) == ["coma"] * 10
    assert comas(characters) == sorted(c.pk for c in characters)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_each_phone_of_a_burst_gets_its_own_new_state_and_nothing_else(
        clock, event, narrator_user, narrator_api):
    characters = await sync_to_async(crowd)(event, narrator_user, 12, "Runner")
    watched, unwatched = characters[:3], characters[3:]
    phones = {}
    for character in watched:
        api = await sync_to_async(client_for)(character.user)
        phone, connected, _ = await connect(api, f"character={character.pk}")
        assert connected
        assert (await next_snapshot(phone))["character"]["id"] == character.pk
        phones[character.pk] = phone
    narrators, connected, _ = await connect(narrator_api, f"event={event.pk}")
    assert connected
    await narrators.receive_json_from(timeout=5)
    await sync_to_async(wound)(watched)
    for character in watched:
        assert (await next_snapshot(phones[character.pk]))["state"]["key"] == "wounded"
    await sync_to_async(wound)(unwatched)
    for _ in characters:
        await narrators.receive_json_from(timeout=5)

    clock.advance(WOUNDED_FOR_S)
    # More characters than a few: the players' snapshots go out as one broadcast.
    assert await sync_to_async(character_advance)(character_id=unwatched[0].pk) == 12

    for character in watched:
        phone = phones[character.pk]
        coma = await next_snapshot(phone)
        assert coma["character"]["id"] == character.pk
        assert coma["state"]["key"] == "coma"
        assert await phone.receive_nothing(timeout=0.3)      # not the others' snapshots
    seen = set()
    while len(seen) < len(characters):
        message = await narrators.receive_json_from(timeout=5)
        assert message["type"] == "snapshot" and message["snapshot"]["state"]["key"] == "coma"
        seen.add(message["snapshot"]["character"]["id"])
    assert seen == {c.pk for c in characters}

    # A later task of the burst sends nothing to anyone.
    assert await sync_to_async(character_advance)(character_id=watched[0].pk) == 0
    for phone in [*phones.values(), narrators]:
        assert await phone.receive_nothing(timeout=0.2)
        await phone.disconnect()
