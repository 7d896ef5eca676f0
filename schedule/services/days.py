"""Dawn and day end: moments the organisers schedule at wall-clock instants (dawn at 07:00
on Saturday), when the ruleset's day action (`ruleset.days[kind]`) applies to every
character whose state allows it (+1 Coraje to the rested at dawn; at day end, untreated
wounds wait for a narrator).

Like a timer, the instant is in the database (`GameDay.due_at`) and a task is queued for
it only once it is near (within DEADLINE_TASK_HORIZON_S); beat's sweeper runs whatever a
lost task missed. Unlike a timer it is not on the game clock: a pause does not move it,
but nothing is applied while the game is paused; the resume queues the days that fell
due meanwhile. A day runs at most once: each batch of characters commits together with
how far the day has reached, and `done_at` closes it.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop
from rest_framework.exceptions import NotFound

from common.deadlines import due_claim, reach, tasks_queue_on_commit, upcoming_jobs, upcoming_queue
from common.i18n import Labels
from health.models import HealthState
from health.services import character_apply_rules, characters_lock, due_timers_publish
from rulesets import RuleRefused

from players.models import Event
from schedule.models import GameDay
from live.publish import publish_narrators_on_commit
from players.services import journal_write

DAY_BATCH = 200
# An instant a little in the past still runs (a narrator typing "now" on a slow phone);
# further back it is surely a wrong date or time zone.
PAST_TOLERANCE_S = 10 * 60
DAY_WORDS = Labels({GameDay.DAWN: gettext_noop("dawn"), GameDay.DAY_END: gettext_noop("day end")})


# -- writes ---------------------------------------------------------------------------------

@transaction.atomic
def day_schedule(*, event: Event, kind: str, due_at: datetime, by) -> GameDay:
    if kind not in DAY_WORDS:
        raise RuleRefused("bad_input", detail=f"kind must be one of {', '.join(DAY_WORDS)}")
    if kind not in event.rules().ruleset.days:
        raise RuleRefused("no_days", kind=DAY_WORDS[kind], ruleset=event.ruleset)
    now = timezone.now()
    if due_at < now - timedelta(seconds=PAST_TOLERANCE_S):
        raise RuleRefused("bad_input", detail=f"due_at {due_at.isoformat()} is in the past "
                                              f"(the server's time is {now.isoformat()})")
    # One scheduling at a time per event, so that the duplicate check holds: the same dawn
    # twice would give everyone two Coraje.
    event = Event.objects.select_for_update().get(pk=event.pk)
    if GameDay.objects.filter(event=event, kind=kind, due_at=due_at).exists():
        raise RuleRefused("day_already_scheduled", kind=DAY_WORDS[kind], at=due_at.isoformat())
    day = GameDay.objects.create(event=event, kind=kind, due_at=due_at)
    journal_write(event=event, kind="day", what=f"{kind}:scheduled", at=now, by=by,
                  detail={"day": day.pk, "due_at": due_at.isoformat()})
    day_task_on_commit(day=day, event=event)
    return day


@transaction.atomic
def day_cancel(*, event: Event, day_id: int, by) -> GameDay:
    """Only a day that has not started: one half applied would leave half the players with
    their dawn."""
    day = GameDay.objects.select_for_update().filter(pk=day_id, event=event).first()
    if day is None:
        raise NotFound()
    if day.done_at is not None:
        raise RuleRefused("day_done", kind=DAY_WORDS[day.kind], at=day.done_at.isoformat())
    if day.reached_id:
        raise RuleRefused("day_running", kind=DAY_WORDS[day.kind])
    journal_write(event=event, kind="day", what=f"{day.kind}:cancelled", at=timezone.now(),
                  by=by, detail={"day": day.pk, "due_at": day.due_at.isoformat()})
    day.delete()
    return day


def days_run_due(*, event_id: int, batch: int = DAY_BATCH) -> int:
    """The task's work: every due day of the event, in order, one batch of characters per
    transaction. Returns how many characters changed."""
    changed = 0
    while True:
        with transaction.atomic():
            step = _day_step(event_id, batch)
        if step is None:
            return changed
        changed += step


def _day_step(event_id: int, batch: int) -> int | None:
    """Apply the earliest due day of the event to its next `batch` characters; None when
    there is nothing (more) to do here."""
    now = timezone.now()
    event = Event.objects.filter(pk=event_id).first()
    if event is None or not event.running:
        return None                      # the resume queues the task again
    earliest = (GameDay.objects.filter(event=event, done_at__isnull=True, due_at__lte=now)
                .values_list("pk", flat=True).first())
    if earliest is None:
        return None
    # The earliest only: if another worker holds it, that worker goes on with the next
    # ones, so a dawn never overtakes the day end before it.
    claimed = due_claim(GameDay.objects.filter(pk=earliest, done_at__isnull=True),
                        field="due_at", due_by=now, batch=1)
    if not claimed:
        return None
    day = claimed[0]
    ids = list(HealthState.objects.filter(event=event, pk__gt=day.reached_id)
               .order_by("pk").values_list("pk", flat=True)[:batch])
    action = event.rules().ruleset.days.get(day.kind)
    changed = (characters_apply_action(event, action, ids, now, by=None, detail={"day": day.pk})
               if action else 0)
    day.reached_id = ids[-1] if ids else day.reached_id
    day.characters_changed += changed
    if len(ids) < batch:
        _finish(day, event, now)
    day.save(update_fields=["reached_id", "characters_changed", "done_at"])
    return changed


def characters_apply_action(event: Event, action: str, ids: list[int], now, *, by,
                            detail: dict) -> int:
    """Apply the rules' `action` to each of these characters whose state allows it, their
    rows locked in id order; returns how many changed. Days and game starts (games.py)
    take every character this way, one batch of ids at a time."""
    rules = event.rules()
    changed = 0
    for health in characters_lock(ids).values():   # locked in id order
        due_timers_publish(health, event, now)
        state = health.as_core()
        if not rules.available(state, action):
            continue                      # off game (in the car) or removed: they stay so
        try:
            # The same pure computation the service makes, done first so that an outcome
            # that changes nothing (a player already at spawn) is neither journalled nor
            # sent to thousands of phones.
            outcome = rules.apply(state, health.character.sheet, action, event.game_time(now))
        except RuleRefused:
            continue                      # a requirement beyond the state (a cost, a value)
        if outcome.state == state and all(e["kind"] == "action" for e in outcome.events):
            continue
        character_apply_rules(health=health, event=event, action=action, by=by, now=now,
                              detail=detail)
        changed += 1
    return changed


def _finish(day: GameDay, event: Event, now) -> None:
    day.done_at = now
    journal_write(event=event, kind="day", what=day.kind, at=now,
                  detail={"day": day.pk, "due_at": day.due_at.isoformat(),
                          "characters_changed": day.characters_changed})
    publish_narrators_on_commit(event.pk, {"type": "day.message", "day": day_view(day, now),
                                           "untreated": untreated_wounds(event, now)})


# -- queueing the tasks -----------------------------------------------------------------------

def _task():
    from schedule.tasks import run_due_days
    return run_due_days


def day_task_on_commit(*, day: GameDay, event: Event) -> None:
    if event.running:                       # else the resume queues it
        tasks_queue_on_commit(task=_task(), jobs=[((event.pk,), day.due_at)], what=f"day {day.pk}")


def days_tasks_on_commit(*, event: Event) -> None:
    """When the clock resumes: the days that fell due during the pause, and the near ones."""
    if not event.running:
        return
    now = timezone.now()
    jobs = upcoming_jobs(GameDay.objects.filter(event=event, done_at__isnull=True),
                         field="due_at", until=reach(now), key="event_id")
    tasks_queue_on_commit(task=_task(), jobs=jobs, what=f"event {event.pk}", now=now)


def days_sweep() -> int:
    """Beat, every minute: run the due days of every running game (a lost task loses
    nothing) and queue the tasks of the days coming within reach."""
    now = timezone.now()
    pending = GameDay.objects.filter(done_at__isnull=True,
                                     event__clock_running_since__isnull=False).order_by()
    changed = 0
    for event_id in pending.filter(due_at__lte=now).values_list("event_id", flat=True).distinct():
        changed += days_run_due(event_id=event_id)
    upcoming_queue(task=_task(), queryset=pending.filter(due_at__gt=now), field="due_at",
                   until=reach(now), key="event_id", what="the coming days")
    return changed


# -- reads ----------------------------------------------------------------------------------

def day_view(day: GameDay, now: datetime) -> dict:
    if day.done_at is not None:
        status = "done"
    elif day.reached_id:
        status = "running"
    else:
        status = "due" if day.due_at <= now else "scheduled"
    return {"id": day.pk, "kind": day.kind, "label": DAY_WORDS[day.kind],
            "due_at": day.due_at.isoformat(),
            "done_at": day.done_at.isoformat() if day.done_at else None,
            "status": status, "characters_changed": day.characters_changed}


def untreated_wounds(event: Event, now: datetime) -> list[dict]:
    """The characters whose wounds were untreated at day end and wait for a narrator's
    decision, as they stand now (a timer due meanwhile is applied in memory)."""
    rules = event.rules()
    ruleset = rules.ruleset
    game_s = event.game_time(now)
    rows = (HealthState.objects.filter(event=event, values__awaiting_narrator=True)
            .select_related("character").order_by("character__name", "pk"))
    found = []
    for health in rows:
        state = rules.advance(health.as_core(), health.character.sheet, game_s).state
        if not state.values.get("awaiting_narrator"):
            continue
        character = health.character
        found.append({"character": {"id": character.pk, "name": character.name,
                                    "code": character.code},
                      "state": {"key": state.status,
                                "label": ruleset.states[state.status]["labels"]},
                      "wounds": _wounds(ruleset, state.values)})
    return found


def _wounds(ruleset, values: dict) -> dict:
    """What the ruleset's body map records: the hurt limbs and the damage points, each
    with its location's label."""
    body = ruleset.body or {}
    if not body:
        return {}
    places = body.get("locations") or {}

    def place(key):
        return {"key": key, "label": places.get(key, {"en": str(key)})}

    limbs = values.get(body.get("limbs_value")) or {}
    damage = values.get(body.get("damage_value")) or []
    return {"limbs": [{**place(key), "status": status} for key, status in limbs.items()],
            "damage": [{**point, "location": place(point.get("location"))}
                       for point in damage if isinstance(point, dict)]}


def days_view(event: Event, now: datetime) -> dict:
    return {"event": event.pk, "kinds": list(event.rules().ruleset.days),
            "days": [day_view(day, now) for day in GameDay.objects.filter(event=event)],
            "untreated": untreated_wounds(event, now)}
