"""Publishing race changes, only once the transaction has committed.

Organisers (the event's narrators group) get the changed entries, with their phone
numbers, and the fresh leaderboard of each course touched; a survivor's phones (its
character group) get that entry as the survivor sees it; the public results page's
spectators are told only that the results changed. Built after the commit, so
what is sent is what the database holds. The consumer forwards `race.message` as
`{"type": "race", ...}`.
"""
from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from live.publish import character_phones_send, narrators_group

log = logging.getLogger(__name__)


def results_group(event_id: int) -> str:
    """The public results page's spectators (race/consumers.py)."""
    return f"race-results-{event_id}"


def race_changed_on_commit(*, event_id: int, entry_ids=(), course_ids=()) -> None:
    """Once per service call: what changed, to whom may see it."""
    entry_ids, course_ids = list(entry_ids), list(course_ids)
    # robust: the change is committed; a Redis outage must not turn its answer into a 500.
    transaction.on_commit(lambda: _send_changes(event_id, entry_ids, course_ids), robust=True)


def _send_changes(event_id: int, entry_ids: list[int], course_ids: list[int]) -> None:
    from .selectors.boards import (entries_with_courses, leaderboard, organiser_entry_view,
                                   survivor_entry_view)
    from .options import race_options
    from players.models import Event

    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return
    now = timezone.now()
    options = race_options(event)
    entries = entries_with_courses(event, pk__in=entry_ids) if entry_ids else []
    courses = sorted(set(course_ids) | {e.course_id for e in entries})
    send = async_to_sync(get_channel_layer().group_send)
    if entries:
        send(narrators_group(event_id), _message(
            "entries", entries=[organiser_entry_view(e, now, options) for e in entries]))
    for board in leaderboard(event, now, course_ids=courses) if courses else []:
        send(narrators_group(event_id), _message("leaderboard", **board))
    for entry in entries:
        character_phones_send([entry.character_id],
                              _message("entry", **survivor_entry_view(entry, now, options)))
    if courses:     # the public page reads itself again: nothing private goes with it
        send(results_group(event_id), {"type": "race.results"})


def alert_on_commit(*, event_id: int, alert: dict) -> None:
    """An entry overdue past the threshold: the organisers' screens ring."""
    def send():
        async_to_sync(get_channel_layer().group_send)(narrators_group(event_id),
                                                      _message("overdue_alert", **alert))
    transaction.on_commit(send, robust=True)


def _message(kind: str, **payload) -> dict:
    return {"type": "race.message", "race": {"kind": kind, **payload}}
