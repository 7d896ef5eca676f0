"""Whether an open socket may still see what it subscribed to: asked again when someone's
access shrinks (live/publish.py, `access_check_on_commit`) and on each heartbeat's
re-join. The session is read again from the store: one ended since the connect (logged
out, cut off as a lost phone) no longer counts."""
from __future__ import annotations

from importlib import import_module

from django.conf import settings
from rest_framework.exceptions import APIException

from live.auth import session_user
from players.models import Character, Event
from players.selectors import character_seen_as_narrator, event_for_narrator, is_narrator, is_safety_member


def still_allowed(session_key: str | None, *, character_id: int | None, event_id: int | None,
                  safety_only: bool = False) -> bool:
    """Runs in a worker thread (queries): the session, its user, the role. `safety_only`:
    an event socket of its safety team, kept by a safety member or a narrator."""
    if not session_key:
        return False
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = session_user(session)
    if not user.is_authenticated:
        return False
    try:
        if character_id is not None:
            character_seen_as_narrator(
                user, Character.objects.select_related("event").filter(pk=character_id).first())
        elif safety_only:
            event = Event.objects.filter(pk=event_id).first()
            return event is not None and (is_narrator(user, event) or is_safety_member(user, event))
        else:
            event_for_narrator(user, event_id)
    except APIException:
        return False
    return True
