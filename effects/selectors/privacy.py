"""What the effects hold on a person, for their export (players/privacy.py): what they
asked the organisers and the effects pushed to them alone."""
from __future__ import annotations

from ..models import Effect, OrganiserRequest


def effects_export_section(*, person) -> dict:
    requests = OrganiserRequest.objects.filter(character_id__in=person.character_ids).order_by("pk")
    effects = Effect.objects.filter(character_id__in=person.character_ids).order_by("pk")
    return {
        "requests": [{"id": r.pk, "character": r.character_id, "text": r.text, "status": r.status,
                      "asked_at": r.created_at.isoformat(), "answer": r.answer} for r in requests],
        "effects": [{"id": e.pk, "character": e.character_id, "text": e.text,
                     "started_game_s": e.started_game_s, "duration_s": e.duration_s,
                     "removed": e.removed} for e in effects],
    }
