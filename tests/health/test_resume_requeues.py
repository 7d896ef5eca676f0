"""A resume re-queues the timer tasks of the near deadlines (health/scheduling.py,
`event_deadlines_queue_on_commit`): a task queued before a pause wakes at the old instant and
finds nothing due, so without a fresh one a deadline would wait for the sweeper."""
from __future__ import annotations

import base64
import json
from datetime import timedelta

import pytest
import redis
from django.conf import settings

from fixtures import act
from health.services import characters_sweep

pytestmark = pytest.mark.django_db


def timer_tasks(broker, character_id: int) -> list[str]:
    """The ETAs of the timer tasks waiting in the broker for this character."""
    found = []
    for raw in broker.lrange("celery", 0, -1):
        message = json.loads(raw)
        args = json.loads(base64.b64decode(message["body"]))[0]
        if message["headers"]["task"] == "health.tasks.advance_character" and args == [character_id]:
            found.append(message["headers"]["eta"])
    return found


def test_a_resume_requeues_the_near_deadline_at_its_new_instant(
        clock, event, player, player_api, narrator_api, django_capture_on_commit_callbacks):
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.delete("celery")
    with django_capture_on_commit_callbacks(execute=True):
        act(player_api, player, "hit_wounding")                  # the coma in 15 minutes
    clock.advance(14 * 60)
    characters_sweep()                       # the inert minute is over; one minute to the coma
    with django_capture_on_commit_callbacks(execute=True):
        narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "pause"}, format="json")
    clock.advance(10 * 60)
    broker.delete("celery")

    with django_capture_on_commit_callbacks(execute=True):
        resumed = narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "resume"},
                                    format="json")

    assert resumed.status_code == 200, resumed.content
    assert timer_tasks(broker, player.pk) == [(clock.now + timedelta(minutes=1)).isoformat()]
