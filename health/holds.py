"""A real injury is not a game state. A narrator marks a character "out for real" (real
first-aiders at work): that character's game timers stop, and only theirs; nobody falls
into a coma in the game while being treated for real. Lifting it resumes each timer from
where it was.

Deadlines stay absolute game instants: holding moves the character's timers aside (as
they stood, in `held_timers`) and leaves `timers` empty, so the sweeper and the tasks find
nothing due; lifting puts each back moved by the game seconds the hold lasted. While held,
nothing of the game is declared on the character (`out_for_real`). Real-world safety
(safety/) calls these services; health never names it."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from players.models import Character
from rulesets import CharacterState, Outcome, RuleRefused

from .models import HealthState
from .services import character_lock, due_timers_record, state_publish_on_commit, state_record

REASON_MAX = 200
KIND = "real_injury"


def _clean_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise RuleRefused("bad_input", detail="the reason is empty")
    if len(reason) > REASON_MAX:
        raise RuleRefused("bad_input", detail=f"the reason is longer than {REASON_MAX} characters")
    return reason


@transaction.atomic
def character_hold(*, character: Character, reason: str, by) -> HealthState:
    """Out for real, with why. Already out: unchanged (the first reason stands)."""
    reason = _clean_reason(reason)
    health = character_lock(character.pk)
    if health.held_since_s is not None:
        return health
    event, now = health.event, timezone.now()
    due_timers_record(health, event, now)        # what fell due before the injury stands
    game_s = event.game_time(now)
    frozen = dict(health.timers)
    health.held_since_s, health.held_reason, health.held_timers = game_s, reason, frozen
    state = CharacterState(health.status, {}, dict(health.values))
    state_record(health=health, event=event, now=now, by=by, kind=KIND, what="held",
            outcome=Outcome(state, [{"kind": "out_for_real", "reason": reason, "timers": frozen}]),
            detail={"reason": reason})
    state_publish_on_commit(health, event)
    return health


@transaction.atomic
def character_release(*, character: Character, by) -> HealthState:
    """Back in the game: each timer resumes from where it was. Not out: unchanged."""
    health = character_lock(character.pk)
    if health.held_since_s is None:
        return health
    event, now = health.event, timezone.now()
    held_s = max(0.0, event.game_time(now) - health.held_since_s)
    timers = {key: due + held_s for key, due in health.held_timers.items()}
    reason = health.held_reason
    health.held_since_s, health.held_reason, health.held_timers = None, "", {}
    state = CharacterState(health.status, timers, dict(health.values))
    state_record(health=health, event=event, now=now, by=by, kind=KIND, what="lifted",
            outcome=Outcome(state, [{"kind": "back_in_game", "held_s": round(held_s, 3)}]),
            detail={"reason": reason, "held_s": round(held_s, 3)})
    state_publish_on_commit(health, event)
    return health


def held_of_event(event) -> dict[int, dict]:
    """{character id: {reason, since_game_s}} of those out for real in the event."""
    return {pk: {"reason": reason, "since_game_s": since}
            for pk, reason, since in HealthState.objects.filter(event=event, held_since_s__isnull=False)
            .values_list("pk", "held_reason", "held_since_s")}
