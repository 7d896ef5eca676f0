"""A character's snapshot read by a phone, the same way over the socket's first connect
(live/consumer_reads.py) and over HTTP the long way (health/apis.py CharacterApi)."""
from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone
from rest_framework.exceptions import NotFound

from live import passes
from live.auth import session_user
from live.snapshot_cache import character_snapshot_cached
from live.snapshots import character_row
from players.models import Character
from players.selectors import character_seen_as_narrator


@dataclass(frozen=True)
class CharacterRead:
    character: Character
    user: object
    snapshot: dict
    as_narrator: bool


def character_snapshot_for(*, session, character_id: int, user=None) -> CharacterRead:
    """The character's snapshot for this session's user (`user`: already known, else read
    from the session), or a 404 (rest_framework's NotFound) when they may not see it. Two
    rows in all when the snapshot is in the cache (live/snapshot_cache.py): the session's,
    and the character's with its player's user. The player's own phone is given a pass:
    its next connect or read is served without the database (live/passes.py)."""
    session_key = session.session_key
    generations = session_key and passes.generations(session_key, character_id)   # before the rows
    character = character_row(character_id)
    if user is None:
        user = session_user(session, known=character.user if character else None)
    if not user.is_authenticated:
        raise NotFound()
    as_narrator = character_seen_as_narrator(user, character)
    now = timezone.now()
    snapshot = character_snapshot_cached(character, now)
    if generations and not as_narrator:
        passes.player_proven(session=session, character=character, user_id=user.pk,
                             generations_read=generations, snapshot=snapshot, now=now)
    return CharacterRead(character, user, snapshot, as_narrator)
