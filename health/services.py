"""Writes to a character's health: declared actions and due timers (a medic's treatments are
in treatments.py).

Every write locks the character's row, first applies whatever timers are due (so an
action never lands on a stale state), journals before/after, and on commit publishes the
new snapshot and queues a task at the next deadline.
"""
from __future__ import annotations

import json
import logging

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from common.deadlines import due_claim
from live import passes
from live.publish import publish_characters_on_commit, snapshots_kept_after
from players.models import Character, Event, JournalEntry
from players.services import event_snapshot_version_move, journal_line, journal_write
from rulesets import DECLARED, ENDING, Outcome, RuleRefused

from . import observers
from .checks import state_kept_private
from .declared_at import declared_instant, require_after_known, state_at
from .models import HealthState, Treatment
from .observers import Recorded
from .scheduling import deadlines_queue_on_commit

log = logging.getLogger(__name__)


def health_initialise(*, characters: list[Character]) -> None:
    """New characters start in their ruleset's initial state (one insert for a roster)."""
    states = []
    for character in characters:
        health = HealthState(character=character, event=character.event)
        health.store(character.event.rules().initial_state())
        states.append(health)
    HealthState.objects.bulk_create(states, batch_size=1000)


def snapshots_changed(*, character_ids) -> None:
    """Something else in the snapshot changed (the clock, a sheet, an effect): the sequence
    number moves too, so that a heartbeat can tell a phone that missed it."""
    HealthState.objects.filter(pk__in=list(character_ids)).update(version=F("version") + 1)
    publish_characters_on_commit(character_ids)


def snapshot_versions_move(*, event: Event, character_ids=None) -> None:
    """Something reached these characters (None: everyone in the event) and their phones
    get it as a small message of its own (an effect): the sequence number moves so that a
    phone can tell a missed message from a repeated one, but no snapshot is sent. For
    everyone, the part the event shares moves (one row, however many play). Once that
    commits, the ready snapshots kept before it are void (live/passes.py)."""
    if character_ids is None:
        version = event_snapshot_version_move(event=event)
        transaction.on_commit(lambda: passes.everyone_moved(event_id=event.pk, snapshot_version=version),
                              robust=True)
        return
    character_ids = list(character_ids)
    HealthState.objects.filter(event=event, pk__in=character_ids).update(version=F("version") + 1)
    transaction.on_commit(lambda: passes.characters_moved(character_ids), robust=True)


def state_record(*, health: HealthState, event: Event, outcome: Outcome, kind: str, what: str,
                 by, now, detail: dict | None = None, game_s: float | None = None) -> None:
    """Store a new state on a locked row and journal it (before and after); close the
    treatments of a patient who died; tell the observers (push, effects, combat...:
    health/observers.py). Every state change of a single row passes here (the batch of
    due timers: deadlines_apply). Public for health's other modules (treatments, undo)."""
    before = health.as_core().to_json()
    health.store(outcome.state)
    health.save()
    journal_write(event=event, kind=kind, what=what, at=now, by=by, character=health.character,
                  before=before, after=outcome.state.to_json(),
                  detail={**(detail or {}), "events": outcome.events}, game_s=game_s)
    if _died(event, before["status"], outcome.state.status):
        _treatments_close_on_death(patients=[health], event=event, now=now, by=by)
    # Every state change passes here or through deadlines_apply (actions, rules,
    # sanctions, timers).
    observers.states_recorded.notify(changes=[Recorded(health, before, what)], event=event,
                                     now=now, by=by)


def _died(event: Event, before: str, after: str) -> bool:
    """Death is the ruleset's gravest state (Mort, Muerto): no treatment is given to it."""
    states = event.rules().ruleset.states
    gravest = max(spec["severity"] for spec in states.values())
    return after != before and states[after]["severity"] == gravest


def _treatments_close_on_death(*, patients: list[HealthState], event: Event, now, by) -> None:
    """The patients died while a medic was treating them (a timer, a Golpe Mortal, a
    narrator): the treatment ends as such, so the medic's phone says so instead of
    counting down to a confirmation that can only be refused. One query for a batch."""
    characters = {health.pk: health.character for health in patients}
    running = list(Treatment.objects.select_for_update()
                   .filter(patient_id__in=list(characters), status=Treatment.RUNNING)
                   .order_by("pk"))
    if not running:
        return
    for treatment in running:
        treatment.status = Treatment.PATIENT_DIED
    Treatment.objects.bulk_update(running, ["status"])
    JournalEntry.objects.bulk_create(
        journal_line(event=event, kind="treatment", what=f"{t.action}:patient_died", at=now,
                     by=by, character=characters[t.patient_id], detail={"treatment": t.pk})
        for t in running)


def state_publish_on_commit(health: HealthState, event: Event) -> None:
    """Once per service call that changed a row: push the new snapshot and queue the next
    deadline's task, on commit."""
    publish_characters_on_commit([health.pk])
    deadlines_queue_on_commit(healths=[health], event=event)


def character_lock(character_id: int, *, skip_locked: bool = False) -> HealthState | None:
    """One character's health row, locked for the transaction (characters_lock: several)."""
    rows = (HealthState.objects.select_for_update(skip_locked=skip_locked)
            .select_related("character", "event").filter(pk=character_id))
    return rows.first()


def _due_outcome(health: HealthState, event: Event, now, *, seen_by: str = DECLARED):
    """The rule shared by a single row and a batch: what every timer expired by now does
    to a locked row (`seen_by`, rulesets/instants.py: before an ending, such as a first
    aid completed at the deadline, the timers due at this very instant are left pending).
    Returns (outcome, what, game time of the journal line), or None when nothing is due.
    The game time is the deadline's (the last one applied), not when a worker noticed it."""
    outcome = event.rules().advance(health.as_core(), health.character.sheet,
                                    event.game_time(now), seen_by=seen_by)
    if not outcome.changed:
        return None
    expired = [e for e in outcome.events if e["kind"] == "timer_expired"]
    return (outcome, ",".join(e["timer"] for e in expired),
            max((e["at"] for e in expired), default=None))


def due_timers_record(health: HealthState, event: Event, now, *,
                      seen_by: str = DECLARED) -> bool:
    """Apply every timer that has expired by now for what comes next; journal it as the
    system's doing."""
    due = _due_outcome(health, event, now, seen_by=seen_by)
    if due is None:
        return False
    outcome, what, game_s = due
    state_record(health=health, event=event, outcome=outcome, kind="timer", what=what, by=None,
                 now=now, game_s=game_s)
    return True


def deadlines_apply(*, event: Event, due: list[HealthState], now,
                    seen_by: str = DECLARED) -> list[HealthState]:
    """Apply what has expired by `now` on rows of `event` locked by the caller, with the
    same rule as a single row (`_due_outcome`), written for the whole batch at once: one
    update of the rows, one journal insert, one notification of `states_recorded` (whose
    reactions read what they need in one query, such as push subscriptions), one publish
    and one queueing of the next deadlines' tasks on commit. A row with nothing due is
    left untouched (a task that comes again, or early, changes nothing). Returns the
    rows that changed."""
    changed, lines, recorded, dead = [], [], [], []
    for health in due:
        found = _due_outcome(health, event, now, seen_by=seen_by)
        if found is None:
            continue
        outcome, what, game_s = found
        before = health.as_core().to_json()
        health.store(outcome.state)
        changed.append(health)
        lines.append(journal_line(event=event, kind="timer", what=what, at=now, by=None,
                                  character=health.character, before=before,
                                  after=outcome.state.to_json(),
                                  detail={"events": outcome.events}, game_s=game_s))
        recorded.append(Recorded(health, before, what))
        if _died(event, before["status"], health.status):
            dead.append(health)
    if not changed:
        return []
    states_write(changed)
    JournalEntry.objects.bulk_create(lines)
    if dead:
        _treatments_close_on_death(patients=dead, event=event, now=now, by=None)
    observers.states_recorded.notify(changes=recorded, event=event, now=now, by=None)
    publish_characters_on_commit([health.pk for health in changed])
    deadlines_queue_on_commit(healths=changed, event=event)
    return changed


_WRITTEN = ("status", "timers", "values", "next_deadline_s", "version")


def states_write(rows: list[HealthState]) -> None:
    """One UPDATE for a batch of rows. Django's bulk_update builds a CASE per field and
    row: for 250 rows, a second of CPU in the worker before the phones hear anything. On
    PostgreSQL the new values go as one VALUES list joined on the key instead."""
    if connection.vendor != "postgresql":
        HealthState.objects.bulk_update(rows, list(_WRITTEN))
        return
    meta, quote = HealthState._meta, connection.ops.quote_name
    columns = [meta.get_field(name).column for name in _WRITTEN]
    casts = ["text", "jsonb", "jsonb", "double precision", "integer"]
    key = meta.pk.column
    row = "(%s, " + ", ".join(f"%s::{cast}" for cast in casts) + ")"
    sql = (f"UPDATE {quote(meta.db_table)} AS h SET "
           + ", ".join(f"{quote(c)} = v.{quote(c)}" for c in columns)
           + f" FROM (VALUES {', '.join([row] * len(rows))}) AS v({quote(key)}, "
           + ", ".join(quote(c) for c in columns) + f") WHERE h.{quote(key)} = v.{quote(key)}")
    params = []
    for health in rows:
        params += [health.pk, health.status, json.dumps(health.timers), json.dumps(health.values),
                   health.next_deadline_s, health.version]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


# Rows per transaction: each batch commits (and reaches the phones) before the next is
# claimed, and a second worker takes the next batch of the same burst meanwhile. 100 and
# 250 clear a burst of 1,000 in the same time (bench/timers.py); with 100 the first phones
# hear of it sooner.
DEADLINE_BATCH = 100


def deadlines_apply_due(*, event: Event, batch: int = DEADLINE_BATCH) -> int:
    """Claim the event's due rows a batch per transaction and apply them, until none is
    left. Rows another worker holds are skipped, not waited for: that worker applies them.
    Each batch is claimed at the time it starts, so rows falling due meanwhile are taken
    too, and none before its deadline. Returns how many changed."""
    applied = 0
    # Each batch is sent to its phones as it commits; what is kept for the next connects
    # waits until the last one is sent (live/publish.py).
    with snapshots_kept_after():
        while True:
            with transaction.atomic():
                now = timezone.now()
                claimed = due_claim(_due_rows(event), field="next_deadline_s",
                                    due_by=event.game_time(now), batch=batch)
                applied += len(deadlines_apply(event=event, due=claimed, now=now))
            if len(claimed) < batch:
                return applied


def character_advance(*, character_id: int) -> int:
    """The timer task's work: idempotent, a second delivery finds nothing due. Returns
    how many characters changed (its own and any others due with it).

    Deadlines rarely fall alone (a gas cloud, a whole team wounded at once): the first
    task of a burst claims every due row of the event, in batches, so a burst of 1,000
    costs a few transactions, inserts and publishes instead of 1,000 of each. The other
    tasks of the burst find their rows applied or held by that worker (skipped, not
    waited for) and do nothing, with two queries; one arriving while the first is busy
    takes the next batch."""
    event = Event.objects.filter(health_states__pk=character_id).first()
    if event is None:
        return 0
    return deadlines_apply_due(event=event)


def characters_sweep(*, batch: int = DEADLINE_BATCH) -> int:
    """Apply every overdue transition of every event, so that a lost task, a dead worker
    or a wiped broker loses nothing."""
    return sum(deadlines_apply_due(event=event, batch=batch)
               for event in Event.objects.filter(clock_running_since__isnull=False))


def _due_rows(event: Event):
    return HealthState.objects.select_related("character").filter(event=event)


def due_timers_publish(health: HealthState, event: Event, now, *,
                       seen_by: str = DECLARED) -> bool:
    """Apply what has expired on a locked row for what comes next (rulesets/instants.py:
    a start or a read sees a count of 10 that ends at this very instant done; an ending,
    `seen_by=ENDING`, comes before it); if it changed, publish it and queue its next
    deadline on commit. Used by treatments, fights, heals and days before they act."""
    if not due_timers_record(health, event, now, seen_by=seen_by):
        return False
    state_publish_on_commit(health, event)
    return True


def game_running_require(event: Event, as_narrator: bool) -> None:
    """While the game is paused (arrêt de jeu) only narrators act."""
    if not event.running and not as_narrator:
        raise RuleRefused("game_paused")


@transaction.atomic
def character_act(*, character: Character, action: str, params: dict | None, by,
                  as_narrator: bool, tapped_at=None, phone: str | None = None) -> list[dict]:
    """A player declares what happened to their character, or a narrator acts on it.
    `tapped_at`: when the phone's tap was, on the server's clock (health/declared_at.py);
    a tap that waited in a phone's outbox counts from then, bounded by what the server
    knows of the character and of the phone (`phone`, its login session).

    Fans out: state_record notifies health.observers.states_recorded and this service
    health.observers.action_declared; the apps that react are in the table of
    docs/architecture.md ("Changes are observed, not called")."""
    event = Event.objects.get(pk=character.event_id)
    rules = event.rules()
    spec = rules.action_spec(action)
    if ("narrator" if as_narrator else "self") not in spec["declared_by"]:
        raise RuleRefused("not_declarable", action=spec["labels"])
    now = timezone.now()
    declared = declared_instant(event=event, tapped_at=tapped_at, now=now, as_narrator=as_narrator)
    if not declared.late:  # a late tap was checked against the clock at the tap
        game_running_require(event, as_narrator)
    health = character_lock(character.pk)
    if health.held_since_s is not None:     # out for real (health/holds.py)
        raise RuleRefused("out_for_real", name=health.character.name, reason=health.held_reason)
    # A declaration sees what the phone shows at this instant: the timers due now expired
    # (rulesets/instants.py; "après le compte de ces 10 secondes"). A late one is never
    # older than what was recorded since (refused), and is judged on the state at its tap.
    due_timers_record(health, event, now)
    judged, rewound = late_state(declared, health=health, event=event, phone=phone)
    outcome = rules.apply(judged, health.character.sheet, action, declared.game_s,
                          params=params)
    state_record(health=health, event=event, outcome=outcome, kind="action", what=action, by=by,
                 now=now, detail={"params": params or {}, "as_narrator": as_narrator,
                                  **declared.journal(), **rewound}, game_s=declared.game_s)
    events = outcome.events
    if declared.late:
        # Counted from the tap, a deadline may be past already: it applies now, at its
        # own instant, as the sweeper would.
        due_timers_record(health, event, now)
        events = [*events, declared.event()]
    state_publish_on_commit(health, event)
    observers.action_declared.notify(character=character, event=event, action=action, now=now,
                                     by=by)
    return events


def late_state(declared, *, health: HealthState, event: Event, phone: str | None,
               seen_by: str = DECLARED) -> tuple:
    """The state a declaration is judged on, on a locked row brought up to now: the
    current one, or for a late tap the state at the tap, after refusing a tap older than
    what the server knows (health/declared_at.py). Also what its journal line keeps of the
    timers counted again from the tap."""
    if not declared.late:
        return health.as_core(), {}
    since = require_after_known(declared, character=health.character, phone=phone)
    judged, rewound = state_at(current=health.as_core(), rules=event.rules(),
                               sheet=health.character.sheet, character_id=health.pk,
                               since_line=since, game_s=declared.game_s, seen_by=seen_by)
    return judged, ({"recounted_timers": rewound} if rewound else {})


def characters_lock(character_ids) -> dict[int, HealthState]:
    """Lock several characters' rows, always in id order: two fights over the same people
    never wait on each other in a circle."""
    rows = (HealthState.objects.select_for_update().select_related("character", "event")
            .filter(pk__in=list(character_ids)).order_by("pk"))
    return {health.pk: health for health in rows}


def character_apply_rules(*, health: HealthState, event: Event, action: str, by, now,
                          params: dict | None = None, detail: dict | None = None,
                          seen_by: str = DECLARED) -> list[dict]:
    """An outcome the rules impose on a locked character (a duel's loser, a beating that
    ends): journalled and published like any declared action. What was running and ends
    now (a duel, a beating, a heal) says `seen_by=ENDING`: it comes before a timer due at
    the same instant."""
    due_timers_publish(health, event, now, seen_by=seen_by)
    outcome = event.rules().apply(health.as_core(), health.character.sheet, action,
                                  event.game_time(now), params=params, seen_by=seen_by)
    state_record(health=health, event=event, outcome=outcome, kind="action", what=action, by=by,
                 now=now, detail={"params": params or {}, **(detail or {})})
    state_publish_on_commit(health, event)
    return outcome.events
