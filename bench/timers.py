"""Timers: 30,000 pending deadlines, and a burst of 1,000 falling in the same second.
Lateness is the commit time of each transition (its journal line) minus its deadline;
the burst is cleared when its last transition is committed.

    .venv/bin/python -m bench.timers --pending 30000 --burst 1000 --runs 3
"""
from __future__ import annotations

import argparse
import random
import time

from bench.load import percentiles
from bench.stack import cli, running_stack

BURST_IN_S = 90        # time to queue every task and let the worker settle first


def wound_everyone(population, pending: int, burst: int) -> float:
    """Wounded characters with stored deadlines, as the services leave them, and their
    tasks queued exactly as on commit. Returns the burst's wall-clock deadline."""
    from django.db import transaction
    from django.utils import timezone

    from health.models import HealthState
    from health.services import deadlines_schedule_on_commit
    from players.models import Event

    event = Event.objects.get(pk=population.event_id)
    now_game = event.game_time(timezone.now())
    burst_at = now_game + BURST_IN_S
    rows = list(HealthState.objects.filter(event=event).order_by("pk"))
    for i, health in enumerate(rows):
        due = burst_at if i < burst else now_game + random.uniform(BURST_IN_S + 600, BURST_IN_S + 3600)
        health.status, health.timers, health.next_deadline_s = "wounded", {"deadline": due}, due
        health.values = {**health.values, "deadline_kind": "untreated_15m"}
    HealthState.objects.bulk_update(rows, ["status", "timers", "next_deadline_s", "values"], batch_size=2000)
    with transaction.atomic():
        deadlines_schedule_on_commit(event=event)
    return event.wall_time(burst_at).timestamp()


def one_run(pending: int, burst: int) -> dict:
    from bench import data
    with running_stack() as stack:
        from players.models import JournalEntry
        population = data.populate(pending + burst, sessions=False)
        stack.start_worker()
        stack.start_beat()
        queued = time.monotonic()
        burst_wall = wound_everyone(population, pending, burst)
        queue_s = time.monotonic() - queued
        time.sleep(max(0, burst_wall - time.time()) + 15)
        lines = JournalEntry.objects.filter(kind="timer", after__status="coma").values_list("at", flat=True)
        lateness = [t.timestamp() - burst_wall for t in lines]
    early = [x for x in lateness if x < 0]
    return {"pending": pending, "burst": burst, "queue_tasks_s": round(queue_s, 1),
            "applied": len(lateness), "early": len(early),
            "lateness_s": {k: (round(v, 3) if v is not None else None) for k, v in percentiles(lateness).items()},
            "burst_cleared_s": round(max(lateness), 3) if lateness else None}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pending", type=int, default=30000)
    parser.add_argument("--burst", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    cli("bench.timers", parser, lambda a: (one_run(a.pending, a.burst) for _ in range(a.runs)))
