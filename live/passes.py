"""A player's phone reconnects without the database: a pass and a ready snapshot in Redis.

A crowd reconnects at once (the field's Wi-Fi came back, a server restarted), and every
connect used to read the session and the character's row on a worker thread: about five
times what the websocket itself costs. The first connect of a session to its character
still does all of that (consumer_reads._character_first). Once it has proven that this
session is this character's player, it leaves a *pass*; the character's latest snapshot
is kept *ready* wherever snapshots are built and published. The next connect of that
session reads both in one Redis round trip on the event loop, and sends.

A pass holds only while nothing since could have taken the access away. Each pass records
two generation counters, read before the database was: the session's (moved when the
session ends: a logout, a new login on that phone) and the character's (moved, once the
change has committed, whenever its player's access may have shrunk: `access_revoked`, any
save of the user such as a password change or a deactivation, the character saved or
deleted). A connect whose pass names an older generation than the current one goes the
long way, and so does one whose ready snapshot belongs to another player, another event,
another release, or has gone past the first instant at which it changes by itself, or
was kept before a message to everyone in its event (an effect: one key for the event,
`everyone_moved`, which leaves the passes alone).
A pass never outlives its session, nor LIVE_PASS_TTL_S.
"""
from __future__ import annotations

import hashlib
import json
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from redis.exceptions import NoScriptError

from players.models import Character

from . import snapshot_cache, snapshots
from .auth import session_expires_in_s
from .redis_clients import async_client, sync_client

# The ready snapshot is replaced only by one at least as recent (two workers publishing
# the same character may finish in either order).
_KEEP_NEWEST = """
local held = redis.call('HGET', KEYS[1], 'version')
if held and tonumber(held) > tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'body', ARGV[2], 'event', ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""

# A message to everyone moves the event's part of every snapshot's sequence number: one
# key, never back, whichever order two pushes' commits are told in.
_EVERYONE_MOVE = """
local held = redis.call('GET', KEYS[1])
if not held or tonumber(held) < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""

# A reconnect's reads in one round trip. The event's key is named by the ready snapshot
# itself (a single Redis, not a cluster: a script may read a key it was not given).
_READY_READ = """
local event = redis.call('HGET', KEYS[4], 'event')
local everyone = false
if event then everyone = redis.call('GET', ARGV[2] .. event) end
return {redis.call('HGET', KEYS[1], ARGV[1]), redis.call('GET', KEYS[2]),
        redis.call('GET', KEYS[3]), redis.call('HGET', KEYS[4], 'body'), everyone}
"""
_READY_READ_SHA = hashlib.sha1(_READY_READ.encode()).hexdigest()

MOVE_AT_ONCE = 1000
_MOVE = """
for _, key in ipairs(KEYS) do
    redis.call('INCR', key)
    redis.call('EXPIRE', key, ARGV[1])
end
return #KEYS
"""

def _tag(session_key: str) -> str:
    """The session key never appears in Redis: a dump of it opens no session."""
    return hashlib.blake2b(session_key.encode(), digest_size=16).hexdigest()


def _key(name: str) -> str:
    """Beside the cache's own keys, under its prefix (each test has its own)."""
    return f"{settings.CACHES['default'].get('KEY_PREFIX', '')}:live:{name}"


def _pass_key(session_key: str) -> str:
    return _key(f"pass:{_tag(session_key)}")


def _session_generation_key(session_key: str) -> str:
    return _key(f"pass-gen:session:{_tag(session_key)}")


def _character_generation_key(character_id: int) -> str:
    return _key(f"pass-gen:character:{character_id}")


def _ready_key(character_id: int) -> str:
    return _key(f"ready:{character_id}")


def _everyone_key(event_id: int) -> str:
    return _everyone_prefix() + str(event_id)


def _everyone_prefix() -> str:
    # The read script appends the event id it finds in the ready snapshot.
    return _key("everyone:")


def _generation(value) -> int:
    return int(value) if value is not None else 0


def generations(session_key: str, character_id: int) -> tuple[int, int]:
    """Read before the database proves the access: a revocation committed after this read
    has moved one of them, and the pass written with these values is void at once."""
    session_gen, character_gen = sync_client().mget(_session_generation_key(session_key),
                                                _character_generation_key(character_id))
    return _generation(session_gen), _generation(character_gen)


def pass_give(*, session_key: str, character_id: int, event_id: int, user_id: int,
              generations_read: tuple[int, int], session_expires_in_s: float) -> None:
    """The session was just proven to be this character's player (its own phone)."""
    ttl = int(min(settings.LIVE_PASS_TTL_S, session_expires_in_s))
    if ttl <= 0:
        return
    value = json.dumps({"user": user_id, "event": event_id, "generations": list(generations_read)})
    key = _pass_key(session_key)
    pipe = sync_client().pipeline(transaction=False)
    pipe.hset(key, str(character_id), value)
    pipe.expire(key, ttl)
    pipe.execute()


def player_proven(*, session, character, user_id: int, generations_read: tuple[int, int],
                  snapshot: dict, now: datetime) -> None:
    """The session was just proven to be this character's player (its own phone) and
    `snapshot` served to it: its next connect or snapshot read rides on a pass."""
    pass_give(session_key=session.session_key, character_id=character.pk, event_id=character.event_id,
              user_id=user_id, generations_read=generations_read,
              session_expires_in_s=session_expires_in_s(session, now))
    ready_keep([character], [snapshot], now, {character.pk: generations_read[1]})


def _generation_ttl_s() -> int:
    # Longer than any pass or ready snapshot written before it lives: an older one never
    # sees its generation come back. One written after it carries the new value.
    return max(settings.LIVE_PASS_TTL_S, settings.SNAPSHOT_CACHE_TTL_S) + 60


def everyone_moved(*, event_id: int, snapshot_version: int) -> None:
    """Called once a message to everyone in the event has committed (the event's part of
    the sequence number is now `snapshot_version`): every ready snapshot kept before it is
    void, at the cost of one key (moving 2,000 characters' generations cost the narrator's
    answer 11-18 ms). Passes stay: nobody's access changed."""
    sync_client().eval(_EVERYONE_MOVE, 1, _everyone_key(event_id), snapshot_version, _generation_ttl_s())


def _generations_move(keys: list[str]) -> None:
    """One command, however many keys (a push to everyone moves thousands: as a pipeline
    of commands, packing them cost the narrator's answer about 35 ms at 2,000 phones)."""
    if not keys:
        return
    ttl = _generation_ttl_s()
    for start in range(0, len(keys), MOVE_AT_ONCE):     # Redis serves others in between
        chunk = keys[start:start + MOVE_AT_ONCE]
        sync_client().eval(_MOVE, len(chunk), *chunk, ttl)


def session_passes_end(*, session_key: str) -> None:
    """The session ended (common/sessions.py): its passes are void, once that commits."""
    def end():
        _generations_move([_session_generation_key(session_key)])
        sync_client().delete(_pass_key(session_key))
    transaction.on_commit(end, robust=True)


def character_passes_end(*, character_ids) -> None:
    """Someone's access to these characters may have shrunk: every pass to them is void
    once that commits, and their next connect proves the access again."""
    transaction.on_commit(lambda: characters_moved(character_ids), robust=True)


def characters_moved(character_ids) -> None:
    """Called once a change has committed: the passes to these characters and their
    ready snapshots are void (an effect reached them without a new snapshot: the phones
    connected now merge it, the next connect reads it from the database)."""
    _generations_move([_character_generation_key(pk) for pk in sorted(set(character_ids))])


def users_passes_end(*, user_ids) -> None:
    """players' `access_revoked`: the passes to every character of these users."""
    character_passes_end(character_ids=list(
        Character.objects.filter(user_id__in=list(user_ids)).values_list("pk", flat=True)))


def row_saved(sender, instance, **kwargs) -> None:
    """A user or a character row written or deleted (a signal: the admin writes them too)."""
    if sender is get_user_model():
        users_passes_end(user_ids=[instance.pk])
    else:
        character_passes_end(character_ids=[instance.pk])


def ready_keep(characters: list, built: list[dict], now: datetime,
               generations_read: dict[int, int]) -> None:
    """The characters' snapshots as just built or served at `now`, kept for their phones'
    next connect (one round trip); a character nobody logs in as has no phone.
    `generations_read`: each character's generation, read before its rows were."""
    pipe = sync_client().pipeline(transaction=False)
    for character, snapshot in zip(characters, built):
        if character.user_id is None:
            continue
        game_s = character.event.game_time(now)
        body = json.dumps({"owner": character.user_id, "event": character.event_id,
                           "generation": generations_read.get(character.pk, 0),
                           "everyone": character.event.snapshot_version,
                           "release": snapshot_cache.release(), "at": now.timestamp(),
                           "game_s": game_s, "until": snapshots.changes_at(snapshot, game_s),
                           "snapshot": snapshot})
        pipe.eval(_KEEP_NEWEST, 1, _ready_key(character.pk), snapshot.get("version") or 0, body,
                  int(settings.SNAPSHOT_CACHE_TTL_S), character.event_id)
    pipe.execute()


def character_generations(character_ids: list[int]) -> dict[int, int]:
    """Read before the rows a snapshot is built from (publish.publish_characters)."""
    if not character_ids:
        return {}
    found = sync_client().mget([_character_generation_key(pk) for pk in character_ids])
    return {pk: _generation(value) for pk, value in zip(character_ids, found)}


async def _ready_read(*keys_then_args: str) -> list:
    client = async_client()
    try:
        return await client.evalsha(_READY_READ_SHA, 4, *keys_then_args)
    except NoScriptError:       # Redis restarted since: its script cache is empty
        return await client.eval(_READY_READ, 4, *keys_then_args)


async def ready_snapshot(*, session_key: str, character_id: int) -> tuple[int, int, dict] | None:
    """(the event id, the player's user id, the snapshot as it reads now) when this
    session holds a valid pass to this character and its ready snapshot is still true;
    None: go the long way. One Redis round trip, on the event loop."""
    held, session_gen, character_gen, body, everyone = await _ready_read(
        _pass_key(session_key), _session_generation_key(session_key),
        _character_generation_key(character_id), _ready_key(character_id),
        str(character_id), _everyone_prefix())
    if held is None or body is None:
        return None
    held, ready = json.loads(held), json.loads(body)
    character_gen = _generation(character_gen)
    if (held["generations"] != [_generation(session_gen), character_gen]
            or ready["generation"] != character_gen
            or ready.get("everyone", -1) < _generation(everyone)    # a message to everyone since
            or ready["owner"] != held["user"]
            or ready["event"] != held["event"] or ready["release"] != snapshot_cache.release()):
        return None
    snapshot = ready["snapshot"]
    clock = snapshot["clock"]
    elapsed = timezone.now().timestamp() - ready["at"]
    game_s = ready["game_s"] + (elapsed if clock["running"] else 0.0)
    if ready["until"] is not None and game_s >= ready["until"]:
        return None
    snapshot_cache.countdowns_refresh(snapshot, game_s)
    clock["game_time_s"] = round(game_s, 3)
    return held["event"], held["user"], snapshot
