"""The requests to the organisers (GA17) as the narrators' screen lists them."""
# Rule codes: docs/rules/gn_fr-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from ..models import OrganiserRequest
from .items import who_view

REQUESTS_SHOWN = 100  # read by each narrator's screen when it (re)connects: kept small


def request_view(asked: OrganiserRequest) -> dict:
    answered_by = asked.answered_by.get_username() if asked.answered_by else None
    return {"id": asked.pk, "character": who_view(asked.character), "text": asked.text,
            "status": asked.status, "created_game_s": asked.created_game_s,
            "created_at": asked.created_at.isoformat(), "answer": asked.answer or None,
            "answered_by": answered_by, "answered_game_s": asked.answered_game_s,
            "effect": asked.effect_id}


def event_requests(event, status: str | None) -> list[dict]:
    """Open ones oldest first (the next to settle on top); otherwise the newest first."""
    rows = OrganiserRequest.objects.filter(event=event).select_related("character",
                                                                       "answered_by")
    if status:
        rows = rows.filter(status=status)
    rows = rows.order_by("id" if status == OrganiserRequest.OPEN else "-id")
    return [request_view(asked) for asked in rows[:REQUESTS_SHOWN]]
