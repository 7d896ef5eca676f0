"""Telling people of a call, once the transaction commits: the responders' open screens
(the narrators' event group and the safety team's), the caller's own phone (their
character's phones, sent only their own call), and the responders' locked phones
(a Web Push, queued as a task)."""
from __future__ import annotations

from django.db import transaction

from common.deadlines import tasks_queue_on_commit
from live.publish import character_phones_send, publish_safety_on_commit

from .models import HelpCall
from .selectors import call_view, call_view_for_caller


def call_changed_on_commit(call: HelpCall) -> None:
    publish_safety_on_commit(call.event_id, {"type": "safety.message",
                                             "safety": {"call": call_view(call)}})
    if call.character_id is None:
        return
    mine = call_view_for_caller(call)
    character_id = call.character_id

    def send():
        character_phones_send([character_id], {"type": "safety.message", "safety": {"own_call": mine}})
    transaction.on_commit(send, robust=True)


def board_changed_on_commit(event_id: int) -> None:
    """The board moved (a row seen, someone checked out): open boards read it again."""
    publish_safety_on_commit(event_id, {"type": "safety.message", "safety": {"board": True}})


def organisers_alerted_on_commit(call: HelpCall) -> None:
    """One push task per call: it finds the responders and their browsers itself."""
    from . import tasks
    tasks_queue_on_commit(task=tasks.help_push, jobs=[((call.pk,), None)], near_only=False,
                          what=f"help call {call.pk}")
