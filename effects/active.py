"""Which effects are active at a game second, and how one is shown on a phone: the end
is stored as a game second and shown as a wall-clock instant too."""
from __future__ import annotations

from django.db.models import Q

from players.models import Event

from .models import Effect


def active_effects_q(event: Event, game_s: float) -> Q:
    return Q(removed=False) & (Q(ends_game_s__isnull=True) | Q(ends_game_s__gt=game_s))


def effect_view(event: Event, effect: Effect, game_s: float) -> dict:
    ends = effect.ends_game_s
    wall = event.wall_time(ends) if ends is not None else None
    return {"id": effect.pk, "push": str(effect.push_id), "text": effect.text, "started_game_s": effect.started_game_s,
            "duration_s": effect.duration_s, "ends_game_s": ends,
            "remaining_s": round(max(0.0, ends - game_s), 3) if ends is not None else None,
            "ends_at": wall.isoformat() if wall else None}
