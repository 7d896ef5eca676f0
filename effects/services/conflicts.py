"""An effect with the standard duration of Septenario lasts one Conflict (Norma general:
"unos dos minutos o hasta el final de un duelo o un combate"; fights less than two
minutes apart are the same Conflict). With `effect_conflict_mode: sliding` its end
follows the character's Conflict: every combat event that pushes the Conflict's end back
pushes the effect's end back too, and a Conflict closed by hand ends it (never before its
two minutes). With `fixed`, the end is the one worked out when it was pushed."""
from __future__ import annotations

from health.models import HealthState
from players.models import Event

from ..models import Effect


def effects_follow_conflict(*, changes, event: Event, now, **_) -> None:
    """Reaction to `health.observers.states_recorded`: in its transaction, before the
    characters' new snapshots are published, so the snapshots carry the moved ends. One
    query for every character of the batch whose Conflict moved."""
    rules = event.rules()
    if not rules.has("conflicts") or rules.option("effect_conflict_mode") != "sliding":
        return
    moved = {}
    for change in changes:
        was = (change.before.get("values") or {}).get("conflict_until")
        until = (change.health.values or {}).get("conflict_until")
        if until != was:
            moved[change.health.pk] = (change.health, until)
    if not moved:
        return
    game_s = event.game_time(now)
    following = Effect.objects.select_for_update().filter(
        character_id__in=list(moved), lasts_conflict=True, removed=False,
        ends_game_s__gt=game_s).order_by("pk")
    for effect in following:
        health, until = moved[effect.character_id]
        gap = float(rules.for_sheet(health.character.sheet).option("conflict_gap_s"))
        ends = _end(effect, until, game_s, gap)
        if ends != effect.ends_game_s:
            effect.ends_game_s = ends
            effect.duration_s = ends - effect.started_game_s
            effect.save(update_fields=["ends_game_s", "duration_s"])


def _end(effect: Effect, until: float | None, game_s: float, gap: float) -> float:
    """A Conflict that goes on: the later of the two ends. A Conflict closed (by a
    narrator): now, but never sooner than the two minutes the effect was given at least."""
    if isinstance(until, (int, float)):
        return max(effect.ends_game_s, float(until))
    return max(effect.started_game_s + gap, game_s)
