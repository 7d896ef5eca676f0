"""The live consumer's database reads (live/consumers.py), each in a small function run
on a thread of its own: the consumer stays transport only."""
from __future__ import annotations

from django.utils import timezone
from rest_framework.exceptions import APIException

from live import observers
from live.access import still_allowed
from live.auth import session_user
from live.character_reads import character_snapshot_for
from live.db_threads import concurrent_db
from live.publish import narrators_group, safety_group, user_group
from live.snapshots import character_snapshot, characters_for_snapshot, current_versions, event_live_view
from players.models import Event
from players.selectors import is_narrator, is_safety_member


@concurrent_db
def _event_access(session, event_id: int):
    """(the event's id, the groups to join, whether only as its safety team) for a socket
    that may watch this event, else None. A narrator watches the game; a member of the
    safety team who does not narrate joins only the safety group, which carries no game
    state. The user's group: told when their access shrinks (a role removed)."""
    user = session_user(session)
    if not user.is_authenticated:
        return None
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return None
    if is_narrator(user, event):
        return event.pk, [narrators_group(event.pk), user_group(user.pk)], False
    if is_safety_member(user, event):
        return event.pk, [safety_group(event.pk), user_group(user.pk)], True
    return None


@concurrent_db
def _character_first(session, character_id: int):
    """(its event id, its snapshot, the narrator's user id or None, its player's user id or
    None) for a phone that may watch this character, else None."""
    try:
        read = character_snapshot_for(session=session, character_id=character_id)
    except APIException:
        return None
    user_id = read.user.pk
    if not read.as_narrator:     # the player's own phone: a contact
        observers.phones_seen.notify(user_ids=[user_id])
    first = {"type": "snapshot", "snapshot": read.snapshot}
    return (read.character.event_id, first, user_id if read.as_narrator else None,
            None if read.as_narrator else user_id)


_still_allowed = concurrent_db(still_allowed)


@concurrent_db
def _phone_seen(user_id: int) -> None:
    observers.phones_seen.notify(user_ids=[user_id])


def safety_first(event_id: int) -> dict:
    """The safety team's first message: connected, nothing of the game. Their board reads
    the rest over HTTP (js/safety.js) and follows the `safety` messages."""
    return {"type": "safety_snapshot", "event": event_id}


@concurrent_db
def _event_first(event_id: int):
    event = Event.objects.filter(pk=event_id).first()
    return None if event is None else {"type": "event_snapshot", **event_live_view(event, timezone.now())}


@concurrent_db
def _behind(event_id: int, held: dict[int, int]) -> list[dict]:
    """Fresh snapshots of the held characters whose version is not the server's."""
    stale = [pk for pk, version in current_versions(event_id, held).items() if held[pk] != version]
    if not stale:
        return []
    event = Event.objects.get(pk=event_id)
    now = timezone.now()
    return [character_snapshot(c, now) for c in characters_for_snapshot(event, now, pk__in=stale)]
