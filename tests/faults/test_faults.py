"""Faults with real processes: a worker killed with kill -9, Redis restarted empty, the
ASGI server restarted under connected phones, the same timer task delivered twice.

Every process is a subprocess on the test database and on a Redis server of the test's
own (tests/faults/stack.py). Each test ends by checking that every due transition was
applied exactly once (one journal line wounded -> coma per character, at its deadline's
game time), that the journal is complete, and that every phone shows the server's state.
"""
from __future__ import annotations

import json
import time

import pytest
from stack import (Api, Phone, assert_applied_by, assert_comas_at_their_deadlines, comparable, open_phones,
                   ready, session_for, start, task_log, wait_for, wound_all)

pytestmark = pytest.mark.django_db(transaction=True)


def test_worker_killed_with_kill_9_before_the_deadlines_loses_no_transition(stack, game_factory, phones):
    server, (worker, beat) = start(stack)
    game = game_factory(50, wounded_deadline_s=8)
    ready(server, worker, beat)
    narrator = Api(server.url, session_for(game.narrator))
    phone_of = open_phones(phones, server, game)

    wound_all(narrator, game)
    assert game.count("wounded") == 50
    # The worker holds the 50 timer tasks: ETA tasks wait in the worker, unacknowledged.
    wait_for(lambda: len(task_log([worker], "advance_character", "received")) >= 50, 5,
             "the worker to receive the 50 timer tasks")
    first, _ = game.seconds_to_deadlines()
    assert first > 1.5, f"too slow: the first deadline is {first:.1f} s away"
    time.sleep(first - 1)
    worker.kill()                                   # kill -9, a second before the first deadline
    assert game.count("wounded") == 50
    # Its tasks stay in Redis's unacknowledged set until the visibility timeout (5 h).
    assert stack.redis_client().hlen("unacked") >= 50

    # Past every deadline with no worker: beat queues sweeps, nothing is applied.
    time.sleep(game.seconds_to_deadlines()[1] + 2)
    assert game.count("wounded") == 50

    stack.start_worker(name="worker-2")             # a new worker; beat never stopped
    game.wait_all("coma", 30)
    time.sleep(2)                                   # two more sweeps: still nothing twice

    game.assert_each_went_into_coma_exactly_once()
    assert_comas_at_their_deadlines(game)
    game.assert_journal_complete()
    assert_applied_by(stack, task=0, sweeper=50)
    game.assert_phones_resynchronised(phone_of, narrator)


def test_redis_restarted_empty_loses_the_queued_tasks_but_no_transition(stack, game_factory, phones):
    server, (_, beat) = start(stack, worker=False)
    # The worker runs under a supervisor (see docs/operations.md): with Celery 5.7 a
    # worker that holds ETA tasks exits when it loses Redis, and is started again.
    worker = stack.supervise(lambda: stack.start_worker(wait=False))
    game = game_factory(20, wounded_deadline_s=8)
    ready(server, worker.current, beat)
    narrator = Api(server.url, session_for(game.narrator))
    phone_of = open_phones(phones, server, game)

    wound_all(narrator, game)
    wait_for(lambda: len(task_log(stack.workers(), "advance_character", "received")) >= 20, 5,
             "the worker to receive the 20 timer tasks")
    assert game.seconds_to_deadlines()[0] > 3, "too slow: the deadlines are too close"

    stack.kill_redis()                              # kill -9: its data and the queued tasks die
    time.sleep(1)
    stack.start_redis()                             # same port, empty
    game.wait_all("coma", 40)
    time.sleep(2)

    game.assert_each_went_into_coma_exactly_once()
    assert_comas_at_their_deadlines(game)
    game.assert_journal_complete()
    assert_applied_by(stack, task=0, sweeper=20)   # the tasks were lost: all swept
    # A character's socket needs no Redis but its process's subscription to the broadcast:
    # subscribed again, the process asked each phone what it holds, and each was sent what
    # it missed (a phone whose socket closed meanwhile reconnected to its snapshot).
    game.assert_phones_resynchronised(phone_of, narrator)
    print("worker exits:", worker.exits)


def test_redis_flushed_under_connected_phones_every_phone_and_the_narrators_converge(
        stack, game_factory, phones):
    """A flush (or a failover to a replica that was behind) drops the channel layer's
    groups while every websocket stays open: the phones look online and would hear nothing.
    Each server process notices within LIVE_WATCH_INTERVAL_S and its phones are sent what
    they missed."""
    server, (worker, beat) = start(stack)
    game = game_factory(20, wounded_deadline_s=3600)
    ready(server, worker, beat)
    narrator = Api(server.url, session_for(game.narrator))
    phone_of = open_phones(phones, server, game)
    narrators = phones["narrators"] = Phone(server.url, session_for(game.narrator),
                                            f"event={game.event.pk}")
    wait_for(lambda: len(narrators.view()) == 20, 10, "the narrators' live view")
    connections = {pk: phone.connections for pk, phone in phone_of.items()}
    time.sleep(2.5)                                 # every process has read its marker

    stack.redis_client().flushall()
    wound_all(narrator, game, ids=game.ids[:10])    # a state change: snapshots
    narrator.post(f"/api/events/{game.event.pk}/clock/", {"action": "pause"})
    narrator.post(f"/api/events/{game.event.pk}/effects/",            # an effect: a broadcast
                  {"text": "Effet : la brume", "character_ids": game.ids[10:]}, status=201)
    changed = time.monotonic()

    expected = {pk: comparable(narrator.get(f"/api/characters/{pk}/")) for pk in game.ids}
    for pk, phone in phone_of.items():
        wait_for(lambda: comparable(phone.last_snapshot()) == expected[pk],
                 10 - (time.monotonic() - changed), f"the phone of {pk} to converge")
    wait_for(lambda: {pk: comparable(s) for pk, s in narrators.view().items()} == expected,
             10 - (time.monotonic() - changed), "the narrators' view to converge")
    # Nobody reconnected: the sockets stayed open through the flush.
    assert {pk: phone.connections for pk, phone in phone_of.items()} == connections
    assert narrators.connections == 1
    assert "Redis lost its data" in server.process.output()


def test_asgi_server_restarted_under_connected_phones(stack, game_factory, phones, settings):
    server, (worker, beat) = start(stack)
    game = game_factory(5, wounded_deadline_s=8)
    ready(server, worker, beat)
    narrator = Api(server.url, session_for(game.narrator))
    phone_of = open_phones(phones, server, game)
    wound_all(narrator, game)
    wait_for(lambda: all(p.last_snapshot()["state"]["key"] == "wounded" for p in phone_of.values()),
             10, "the phones to show Wounded")
    connections = {pk: phone.connections for pk, phone in phone_of.items()}
    assert game.seconds_to_deadlines()[0] > 1, "too slow: the deadlines are too close"

    server.kill()                                   # kill -9 of the server, before the deadlines
    # While it is down: the deadlines pass (the worker applies them) and a narrator pushes
    # an effect from elsewhere (this process, on the same Redis and database).
    game.wait_all("coma", 20)
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                           "CONFIG": {"hosts": [stack.redis_url]}}}
    # What it tells the servers' processes goes to their Redis, under their keys.
    settings.REDIS_URL = stack.redis_url
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": stack.redis_url,
                                   "KEY_PREFIX": ""}}
    from effects.services.effects import effect_push
    effect_push(event=game.event, characters=game.characters[:1], text="Effet : la nuit tombe",
                duration_s=None, set_state=None, by=game.narrator)
    assert all(p.last_snapshot()["state"]["key"] == "wounded" for p in phone_of.values())

    stack.start_server(port=server.port)            # the same address: phones find it again
    game.assert_phones_resynchronised(phone_of, narrator, since=connections)
    for pk, phone in phone_of.items():
        on_connect = phone.first_message(phone.connections)["snapshot"]
        assert comparable(on_connect) == comparable(narrator.get(f"/api/characters/{pk}/"))
        assert on_connect["state"]["key"] == "coma"
        assert ("Effet : la nuit tombe" in [e["text"] for e in on_connect["effects"]]) == \
            (pk == game.ids[0])

    game.assert_each_went_into_coma_exactly_once()
    assert_comas_at_their_deadlines(game)
    game.assert_journal_complete()


def test_the_same_timer_task_delivered_twice_through_the_broker_changes_nothing(stack, game_factory):
    """The live server queues the task; the test puts a byte-identical copy of the message
    in the queue (what kombu puts back after the visibility timeout: a redelivery) and
    sends the task once more; a worker with two processes then runs the three at once."""
    server, _ = start(stack, worker=False, beat=False)
    game = game_factory(1, wounded_deadline_s=2)
    ready(server)
    (pk,) = game.ids
    wound_all(Api(server.url, session_for(game.narrator)), game)

    broker = stack.redis_client()

    def queued():
        return [raw for raw in broker.lrange("celery", 0, -1)
                if json.loads(raw)["headers"]["task"] == "health.tasks.advance_character"
                and json.loads(raw)["headers"]["argsrepr"] == f"({pk},)"]
    (message,) = wait_for(queued, 5, "the timer task in the queue")
    broker.lpush("celery", message)                 # the same message, delivered again
    from celery import Celery
    Celery("faults", broker=stack.redis_url, set_as_current=False).send_task(
        "health.tasks.advance_character", args=(pk,))
    assert len(queued()) == 3

    time.sleep(max(0.0, game.seconds_to_deadlines()[1]) + 0.5)
    assert game.count("wounded") == 1               # no worker yet: nothing applied
    version = game.versions()[pk]
    worker = stack.start_worker(pool="prefork", concurrency=2)
    wait_for(lambda: len(task_log([worker], "advance_character")) == 3, 20, "three runs of the task")
    time.sleep(0.5)

    results = sorted(r for _, r in task_log([worker], "advance_character"))
    assert results == ["0", "0", "1"]   # one run applied it, two found nothing due
    assert game.versions()[pk] == version + 1
    game.assert_each_went_into_coma_exactly_once()
    assert_comas_at_their_deadlines(game)
    game.assert_journal_complete()
