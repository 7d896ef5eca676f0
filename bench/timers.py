"""Timers, measured where the player sees them: `pending` characters with deadlines
stored far ahead, and a burst of `burst` falling due at one instant, each of those
players' phones connected to one server process. The Celery workers run as `./run`
starts them (two, of one process each) with beat, and are ready before the burst is
queued: its tasks go into running workers, as a game's do.

- journal lateness: the instant each transition was applied (its journal line's `at`)
  minus the deadline;
- phone lateness: the instant each phone received the snapshot showing the new state
  (bench/client.py) minus the deadline. That is what a player feels.
- `kill=True`: one of the two workers is killed with -9 (its whole process group) at the
  instant; the other must apply everything, none twice. Each worker holds part of the
  burst's tasks, and the survivor's first claims every due row: this measures the
  survivor, not the sweeper (which catches a deadline whose only task died).

    .venv/bin/python -m bench.timers --pending 10000 --burst 1000 [--kill] --runs 1

`run(pending, burst, kill)` returns the figures as a dict (for `python -m bench all`).
"""
from __future__ import annotations

import argparse
import os
import random
import signal
import time

from bench.load import Load, rounded_percentiles
from bench.stack import cli, running_stack


LEAD_S = 30            # from queueing the burst to its instant: a wound's 15 min, shortened

SETTLE_S = 20          # how long to wait for the whole burst at most, after its deadline
NEW_STATE = "coma"     # gn_fr: wounded, then coma at the deadline


def wound_everyone(population, pending: int, burst: int, lead: float | None = None) -> dict:
    """Wounded characters with stored deadlines, as the services leave them, and their
    tasks queued exactly as on commit: the first `burst` players fall due at one instant,
    `lead` seconds from now, the others between 10 and 60 minutes later. Returns the
    burst's wall-clock deadlines by character."""
    from django.db import transaction
    from django.utils import timezone

    from health.models import HealthState
    from health.scheduling import event_deadlines_queue_on_commit
    from health.services import states_write
    from players.models import Event

    event = Event.objects.get(pk=population.event_id)
    now_game = event.game_time(timezone.now())
    burst_at = now_game + (LEAD_S if lead is None else lead)
    burst_ids = {p["id"] for p in population.players[:burst]}
    deadlines = {}
    rows = list(HealthState.objects.filter(event=event).order_by("pk"))
    for health in rows:
        if health.pk in burst_ids:
            due = deadlines[health.pk] = burst_at
        else:
            due = now_game + random.uniform(600, 3600)
        health.status, health.timers, health.next_deadline_s = "wounded", {"deadline": due}, due
        health.values = {**health.values, "deadline_kind": "untreated_15m"}
    # The batch service's own UPDATE: bulk_update takes about a minute for 11,000 rows here.
    for start in range(0, len(rows), 2000):
        states_write(rows[start:start + 2000])
    with transaction.atomic():
        event_deadlines_queue_on_commit(event=event)
    return {pk: event.wall_time(due).timestamp() for pk, due in deadlines.items()}


def workers_start(stack) -> list:
    """The workers as ./run starts them, and beat (its sweeper every SWEEP_INTERVAL_S,
    the default unless the environment sets it); returns once both workers answer."""
    from config.celery import app
    from devtools.run import worker_commands
    workers = [stack.spawn(name, [str(stack_bin() / "celery"), *command[1:]])
               for name, command in worker_commands({}).items()]
    stack.spawn("beat", [str(stack_bin() / "celery"), "-A", "config", "beat", "-l", "warning",
                         "-s", str(stack.logs / "beat-schedule")])
    deadline = time.monotonic() + 60
    while len(app.control.ping(timeout=1) or []) < len(workers):
        if time.monotonic() > deadline:
            raise RuntimeError("the workers did not answer within 60 s")
    return workers


def _transitions(burst: int) -> list:
    from players.models import JournalEntry
    lines: list = []
    deadline = time.time() + SETTLE_S
    while time.time() < deadline:
        lines = list(JournalEntry.objects.filter(kind="timer", after__status=NEW_STATE)
                     .values_list("character_id", "at"))
        if len({character for character, _ in lines}) >= burst:
            break
        time.sleep(0.25)
    return lines


def sweep_cost_ms(times: int = 20) -> dict:
    """What one pass of the sweepers costs with the deadlines stored and none due: the
    price of running them often (wall time, in this process, as in a worker)."""
    from combat.services.schedule import fights_sweep
    from health.services import characters_sweep
    costs = {}
    for name, sweep in (("characters", characters_sweep), ("fights", fights_sweep)):
        began = time.perf_counter()
        for _ in range(times):
            sweep()
        costs[name] = round(1000 * (time.perf_counter() - began) / times, 2)
    return costs


def run(pending: int = 10000, burst: int = 1000, kill: bool = False) -> dict:
    """One run; the JSON-able figures (seconds, load average beside them)."""
    from bench import data
    started = time.monotonic()
    with running_stack() as stack:
        population = data.populate(pending + burst, sessions=False)
        data.sessions_for(population, population.players[:burst])
        players_file = stack.logs / "timers-players.json"
        population.dump(players_file)
        port = stack.start_web()
        phones = Load(stack, port, players_file, burst, snapshots=True)
        workers = workers_start(stack)
        setup_s = time.monotonic() - started
        load_before = os.getloadavg()
        queued = time.monotonic()
        deadlines = wound_everyone(population, pending, burst)
        queue_s = time.monotonic() - queued
        sweep_ms = sweep_cost_ms()
        instant = max(deadlines.values())
        lead_left_s = instant - time.time()
        time.sleep(max(0, instant - time.time()))
        if kill:
            os.killpg(workers[0].pid, signal.SIGKILL)
        lines = _transitions(burst)
        time.sleep(2)                                   # the last snapshots on their way
        received = phones.finish()
        load_after = os.getloadavg()
    journal = [at.timestamp() - deadlines[character] for character, at in lines]
    first_seen: dict[int, float] = {}
    for character, _version, state, at in received["snapshots"]:
        if state == NEW_STATE and character not in first_seen:
            first_seen[character] = at
    phone = [at - deadlines[character] for character, at in first_seen.items()]
    return {"pending": pending, "burst": burst, "killed_a_worker": kill,
            "phones_connected": phones.connected,
            "queue_tasks_s": round(queue_s, 2), "lead_s": LEAD_S,
            "lead_left_after_queueing_s": round(lead_left_s, 1), "sweep_ms": sweep_ms,
            "applied": len({character for character, _ in lines}),
            "doubled": len(lines) - len({character for character, _ in lines}),
            "early": sum(1 for x in journal if x < 0),
            "journal_lateness_s": rounded_percentiles(journal, 3),
            "phones_told": len(phone), "phones_early": sum(1 for x in phone if x < 0),
            "phone_lateness_s": rounded_percentiles(phone, 3),
            "burst_cleared_s": round(max(journal), 3) if journal else None,
            "loadavg_before": [round(x, 2) for x in load_before],
            "loadavg_after": [round(x, 2) for x in load_after],
            "setup_s": round(setup_s, 1), "run_s": round(time.monotonic() - started, 1)}


def stack_bin():
    from bench.stack import BIN
    return BIN


def one_run(pending: int, burst: int, kill: bool = False) -> dict:
    return run(pending, burst, kill)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pending", type=int, default=10000)
    parser.add_argument("--burst", type=int, default=1000)
    parser.add_argument("--kill", action="store_true", help="kill one of the two workers at the instant")
    parser.add_argument("--runs", type=int, default=1)
    cli("bench.timers", parser, lambda a: (run(a.pending, a.burst, a.kill) for _ in range(a.runs)))
