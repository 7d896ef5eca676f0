"""Deadlines: a Celery task at each deadline, a sweeper that catches whatever a lost task
or a dead worker missed, and applying a transition twice changes nothing."""
from __future__ import annotations

import json
import threading
import time
from datetime import timedelta

import pytest
import redis
import time_machine
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from config.celery import app as celery_app
from health.models import HealthState
from health.scheduling import deadlines_queue_upcoming
from health.services import character_act, character_advance, characters_sweep
from health.tasks import sweep_due_characters
from players.models import JournalEntry
from players.services import character_create, event_create


def wound(character):
    character_act(character=character, action="hit_wounding", params={}, by=character.user,
                  as_narrator=False)


def act_as_narrator(character, action, **params):
    character_act(character=character, action=action, params=params, by=None, as_narrator=True)


def stored(character) -> HealthState:
    return HealthState.objects.get(pk=character.pk)


@pytest.mark.django_db
def test_sweeper_applies_a_transition_whose_task_never_ran(clock, event, player):
    wound(player)
    clock.advance(15 * 60 + 40)          # the worker was down: no task ran at 15:00
    assert stored(player).status == "wounded"

    assert characters_sweep() == 1

    health = stored(player)
    assert health.status == "coma"
    # The coma countdown starts at the missed deadline (15:00), not when the sweeper ran.
    assert health.timers["deadline"] == pytest.approx(30 * 60)
    line = JournalEntry.objects.filter(character=player, kind="timer").last()
    assert line.actor_label == "system"
    assert (line.before["status"], line.after["status"]) == ("wounded", "coma")


@pytest.mark.django_db
def test_no_transition_before_its_deadline(clock, event, player):
    wound(player)
    clock.advance(15 * 60 - 1)
    characters_sweep()                    # applies the inert minute and combat recovery only
    assert stored(player).status == "wounded"
    assert stored(player).timers == {"deadline": 15 * 60}
    clock.advance(1)                      # the deadline instant itself is due (inclusive)
    assert characters_sweep() == 1
    assert stored(player).status == "coma"


@pytest.mark.django_db
def test_the_first_task_of_a_burst_applies_every_deadline_due_with_it(clock, event, player,
                                                                     other_player, medic):
    for character in (player, other_player, medic):
        wound(character)                  # three deadlines at the same instant, 15:00
    clock.advance(15 * 60)

    assert character_advance(character_id=other_player.pk) == 3

    assert [stored(c).status for c in (player, other_player, medic)] == ["coma"] * 3
    # The other two tasks of the burst arrive to find their work done, and change nothing.
    lines = JournalEntry.objects.count()
    assert character_advance(character_id=player.pk) == 0
    assert character_advance(character_id=medic.pk) == 0
    assert JournalEntry.objects.count() == lines
    comas = [line for line in JournalEntry.objects.filter(kind="timer")
             if line.after["status"] == "coma"]
    assert sorted(line.character_id for line in comas) == sorted(
        c.pk for c in (player, other_player, medic))


@pytest.mark.django_db(transaction=True)
def test_a_task_whose_row_another_worker_holds_takes_the_rest_of_the_burst(
        clock, event, player, other_player, medic):
    for character in (player, other_player, medic):
        wound(character)
    clock.advance(15 * 60)
    held, release = threading.Event(), threading.Event()

    def another_worker_batch():
        with transaction.atomic():
            list(HealthState.objects.select_for_update().filter(pk=player.pk))
            held.set()
            release.wait(10)
        connection.close()

    worker = threading.Thread(target=another_worker_batch)
    worker.start()
    assert held.wait(5)
    started = time.monotonic()
    assert character_advance(character_id=player.pk) == 2      # the two others
    assert time.monotonic() - started < 5                       # without waiting
    release.set()
    worker.join()
    assert [stored(c).status for c in (player, other_player, medic)] == ["wounded", "coma", "coma"]
    assert characters_sweep() == 1                              # what the holder left


@pytest.mark.django_db
def test_a_second_delivery_of_the_same_task_changes_nothing(clock, event, player):
    wound(player)
    clock.advance(15 * 60)
    assert character_advance(character_id=player.pk) == 1
    version = stored(player).version
    lines = JournalEntry.objects.count()

    assert character_advance(character_id=player.pk) == 0
    assert characters_sweep() == 0
    assert stored(player).version == version
    assert JournalEntry.objects.count() == lines


@pytest.mark.django_db
def test_a_late_sweep_applies_a_whole_chain_in_order(clock, event, player):
    wound(player)
    clock.advance(35 * 60)                # wounded -> coma at 15:00 -> dead at 30:00
    characters_sweep()
    health = stored(player)
    assert health.status == "dead"
    assert health.timers == {"corpse": pytest.approx(40 * 60)}
    kinds = [(e.before["status"], e.after["status"])
             for e in JournalEntry.objects.filter(character=player, kind="timer")]
    assert kinds == [("wounded", "dead")]  # one sweep, one journal line for the whole chain


def queued_tasks(client, character_id: int) -> list[dict]:
    found = []
    for raw in client.lrange("celery", 0, -1):
        headers = json.loads(raw)["headers"]
        if headers["task"] == "health.tasks.advance_character" and \
                headers["argsrepr"] == f"({character_id},)":
            found.append(headers)
    return found


@pytest.mark.django_db(transaction=True)
def test_each_change_queues_a_task_at_the_next_deadline(clock, event, player):
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.delete("celery")
    wound(player)
    # Next deadline: the end of the inert minute.
    assert [t["eta"] for t in queued_tasks(broker, player.pk)] == \
        [(clock.now + timedelta(seconds=60)).isoformat()]
    clock.advance(10 * 60)                # inert over, combat points back at 10:00
    characters_sweep()
    coma_at = (clock.now + timedelta(minutes=5)).isoformat()
    # Five minutes is beyond the horizon: the worker does not hold it yet...
    assert coma_at not in [t["eta"] for t in queued_tasks(broker, player.pk)]
    clock.advance(5 * 60 - settings.DEADLINE_TASK_HORIZON_S)
    assert deadlines_queue_upcoming() == 1
    # ...beat queues it once it comes within reach.
    assert coma_at in [t["eta"] for t in queued_tasks(broker, player.pk)]


@pytest.mark.django_db(transaction=True)
def test_a_resume_queues_only_the_near_deadlines(clock, event, player, other_player,
                                                 narrator_api):
    """A 30,000-player game resuming must not hand 30,000 tasks to a worker."""
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    wound(player)                                            # combat points back at 10:00
    act_as_narrator(other_player, "set_state", state="coma")  # dead at 15:00
    clock.advance(60)
    characters_sweep()                                       # the inert minute is over
    narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "pause"}, format="json")
    broker.delete("celery")
    narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "resume"}, format="json")
    assert queued_tasks(broker, player.pk) == queued_tasks(broker, other_player.pk) == []
    clock.advance(14 * 60 - settings.DEADLINE_TASK_HORIZON_S)
    assert deadlines_queue_upcoming() == 2
    assert len(queued_tasks(broker, player.pk)) == len(queued_tasks(broker, other_player.pk)) == 1


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_applies_due_transitions():
    """A Celery worker thread consuming the real broker runs the timer task and the
    sweeper task; the database, not the broker, holds the deadline."""
    start = timezone.now()
    with time_machine.travel(start, tick=True) as traveller:
        event = event_create(name="Worker", ruleset="gn_fr", by=None, start_clock=True)
        alice = character_create(event=event, name="Alice", sheet={"combat_base": 2})
        bob = character_create(event=event, name="Bob", sheet={"combat_base": 2})
        wound(alice)
        wound(bob)
        traveller.shift(timedelta(minutes=16))
        with start_worker(celery_app, pool="solo", perform_ping_check=False,
                          shutdown_timeout=10):
            from health.tasks import advance_character
            advance_character.delay(alice.pk)
            sweep_due_characters.delay()
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                if {stored(alice).status, stored(bob).status} == {"coma"}:
                    break
                time.sleep(0.1)
        assert stored(alice).status == "coma"
        assert stored(bob).status == "coma"
        assert JournalEntry.objects.filter(kind="timer", after__status="coma").count() == 2
