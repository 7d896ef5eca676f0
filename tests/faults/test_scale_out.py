"""Scale-out: two ASGI processes, two Celery workers, one beat, one database, one Redis,
all real processes. A narrator's push through one ASGI process reaches a phone connected
to the other (the channel layer is Redis, shared); a hundred deadlines at the same
instant, raced by the timer tasks of two workers and the sweeper, are each applied once."""
from __future__ import annotations

import time

import pytest
from stack import (Api, Phone, assert_comas_at_their_deadlines, open_phones, session_for, task_log,
                   wait_for, wound_all)

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_asgi_processes_two_workers_one_beat(stack, game_factory, phones):
    stack.start_redis()
    a, b = stack.start_server(wait=False), stack.start_server(wait=False)
    workers = [stack.start_worker(name=f"worker-{n}", wait=False) for n in (1, 2)]
    beat = stack.start_beat(wait=False)
    game = game_factory(100, wounded_deadline_s=8)
    for server in (a, b):
        server.wait_ready()
    for worker in workers:
        worker.wait_output(" ready.", 60)
    beat.wait_output("beat: Starting", 60)
    narrator_a = Api(a.url, session_for(game.narrator))
    narrator_b = Api(b.url, session_for(game.narrator))
    on_a = open_phones(phones, a, game)
    on_b = open_phones(phones, b, game)
    narrators_on_b = phones["narrators"] = Phone(b.url, session_for(game.narrator), f"event={game.event.pk}")
    wait_for(lambda: narrators_on_b.first_message(1), 10, "the narrators' live view on B")

    # A push through A's HTTP API reaches the phone (and the narrators) connected to B.
    target = game.ids[7]
    narrator_a.post(f"/api/events/{game.event.pk}/effects/",
                    {"text": "Effet : un corbeau vous suit", "character_ids": [target]}, status=201)

    def pushed(snapshot):
        return snapshot is not None and snapshot["character"]["id"] == target and \
            "Effet : un corbeau vous suit" in [e["text"] for e in snapshot["effects"]]
    wait_for(lambda: pushed(on_b[target].last_snapshot()), 10, "the push on the phone connected to B")
    def told_narrators():
        return any(m.get("type") == "effect" and m["characters"] == [target]
                   and m["effect"]["text"] == "Effet : un corbeau vous suit"
                   for _, m in list(narrators_on_b.messages))
    wait_for(told_narrators, 10, "the push on the narrators' view on B")
    assert on_b[target].connections == 1

    # A hundred characters wounded while the game is paused share one game instant, so one
    # deadline; resuming queues a hundred tasks for the same wall instant.
    narrator_a.post(f"/api/events/{game.event.pk}/clock/", {"action": "pause"})
    wound_all(narrator_a, game)
    narrator_b.post(f"/api/events/{game.event.pk}/clock/", {"action": "resume"})
    first, last = game.seconds_to_deadlines()
    assert last - first < 1e-3 and first > 0.5, (first, last)
    game.wait_all("coma", 60)
    time.sleep(2)                                   # two more sweeps: still nothing twice

    game.assert_each_went_into_coma_exactly_once()
    assert_comas_at_their_deadlines(game)
    game.assert_journal_complete()
    # Both workers held timer tasks; each transition was applied by one task or one sweep.
    for worker in workers:
        assert task_log([worker], "advance_character", "received"), worker.name

    def applied():
        return (sum(int(r) for _, r in task_log(workers, "advance_character"))
                + sum(int(r) for _, r in task_log(workers, "sweep_due_characters")))
    wait_for(lambda: applied() == 100, 20, "the workers' logs to count 100 transitions")
    # Every phone, on either process, shows the server's state.
    game.assert_phones_resynchronised(on_a, narrator_a)
    game.assert_phones_resynchronised(on_b, narrator_b)
