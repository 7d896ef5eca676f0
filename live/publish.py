"""Publishing to phones. Called only from services, and only once the transaction has
committed, so a phone never sees a change that was rolled back.

A player's group carries only that player's character; narrators have an event group; the
event's safety team has one of its own, which carries real-world safety only, never the
game (`publish_safety_on_commit`).
One change to many characters (a sweep) loads their snapshots with one set of queries,
sends them concurrently, and gives the narrators one batch. An effect is the same for
everyone it reaches, so it travels as one small message that phones add to the snapshot
they hold (see `publish_effect_on_commit`).
"""
from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from players.models import Character, Event

from . import broadcast, passes, snapshot_cache
from .snapshots import character_snapshot, characters_for_snapshot

logger = logging.getLogger(__name__)


def character_phones_send(character_ids, message: dict) -> None:
    """To every phone of these characters, wherever it is connected (called after commit):
    `message["type"]` names the consumer's handler. A character's socket joins no
    channel-layer group; each server process hands this to its own (broadcast.py)."""
    broadcast.deliver(message, characters=character_ids)


def narrators_group(event_id: int) -> str:
    return f"event-{event_id}-narrators"


def safety_group(event_id: int) -> str:
    """The event's safety team (players' role "safety"): calls for help and board changes
    (safety/publish.py), nothing of the game. Narrators hear the same in their own group."""
    return f"event-{event_id}-safety"


def publish_characters_on_commit(character_ids) -> None:
    """Collect the characters changed in this transaction and publish them together once
    it commits: a sweep that applies 200 deadlines sends one batch, not 200."""
    ids = set(character_ids)
    if not ids:
        return
    connection = transaction.get_connection()
    connection.__dict__.setdefault("_characters_to_publish", set()).update(ids)
    # Every call registers the flush (the first one to run empties the set), so a
    # rolled-back transaction, whose callbacks are dropped, cannot leave ids unpublished:
    # at worst they are sent with the next commit, and a snapshot sent twice is harmless.
    # robust: the change is committed; a Redis outage must not turn its answer into a 500
    # (phones resynchronise when they reconnect).
    transaction.on_commit(_publish_pending, robust=True)


def _publish_pending() -> None:
    pending = transaction.get_connection().__dict__.get("_characters_to_publish")
    if pending:
        ids = sorted(pending)
        pending.clear()
        publish_characters(ids)


def publish_characters(character_ids) -> None:
    """Send each character's fresh snapshot to its player and the batch to narrators."""
    now = timezone.now()
    by_event: dict[int, list[int]] = {}
    for character_id, event_id in Character.objects.filter(pk__in=character_ids).values_list("pk", "event_id"):
        by_event.setdefault(event_id, []).append(character_id)
    for event in Event.objects.filter(pk__in=by_event):
        generations = passes.character_generations(by_event[event.pk])    # before the rows
        characters = characters_for_snapshot(event, now, pk__in=by_event[event.pk])
        snapshots = [character_snapshot(c, now) for c in characters]
        _send(event.pk, snapshots)
        # The phones that reconnect next find them ready (after the sends: the phones
        # connected now should not wait for the cache), by their row's key and by their
        # character's id (live/passes.py).
        keep = functools.partial(_keep, characters, snapshots, now, generations, event.game_time(now))
        later = _kept_later.get()
        if later is None:
            keep()
        else:
            later.append(keep)


def _keep(characters, snapshots, now, generations, game_s) -> None:
    snapshot_cache.remember_many(characters, snapshots, game_s)
    passes.ready_keep(characters, snapshots, now, generations)


_kept_later: contextvars.ContextVar[list | None] = contextvars.ContextVar("kept_later", default=None)


@contextlib.contextmanager
def snapshots_kept_after():
    """Within it, the snapshots published are sent at once, and kept for the next
    connects (live/snapshot_cache.py, the ready snapshots of live/passes.py) only when it
    ends: a burst of deadlines published in batches sends its later batches without
    waiting for the keeping of the earlier ones (a third of a batch's time). Until then a
    reconnecting phone reads the database, as for any snapshot not kept."""
    later: list = []
    token = _kept_later.set(later)
    try:
        yield
    finally:
        _kept_later.reset(token)
        for keep in later:
            try:
                keep()
            except Exception:   # a lost Redis: the next connects read the database
                logger.warning("snapshots not kept for the next connects", exc_info=True)


# Concurrent sends, but fewer than the layer's Redis connection pool holds.
SEND_CONCURRENCY = 32


def _send(event_id: int, snapshots: list[dict]) -> None:
    """The narrators get the batch in one message. Each player gets their own snapshot
    through one broadcast that each server process hands out to its phones, each phone
    only the snapshot of its own character (broadcast.py): as 1,000 group messages, it
    cost the worker about 3.3 ms each, and the phones of the last ones learnt of their
    deadline seconds late. The broadcast is published from this thread, before the event
    loop that sends to the narrators' group is started: from a thread of its own, it cost
    a batch 10 ms more."""
    broadcast.publish_snapshots(event_id, snapshots)
    async_to_sync(_send_each)([(narrators_group(event_id),
                                {"type": "snapshots.message", "snapshots": snapshots})])


async def _send_each(messages: list[tuple[str, dict]]) -> None:
    layer = get_channel_layer()
    gate = asyncio.Semaphore(SEND_CONCURRENCY)

    async def send(group: str, message: dict):
        async with gate:
            await layer.group_send(group, message)
    await asyncio.gather(*(send(group, message) for group, message in messages))


def publish_effect_on_commit(*, event_id: int, character_ids: list[int] | None,
                             effect: dict) -> None:
    """After commit, tell the phones of `character_ids` (None: everyone in the event) that
    `effect` now applies to them. Each phone adds it to its snapshot and moves its
    sequence number by one, as the service did in the database; an effect the phone
    already holds (same `push`) is ignored. It is one broadcast that each server process
    hands to its phones (broadcast.py), whether it reaches one player, a team or 2,000;
    narrators get one message naming who. The ready snapshots it voids were voided by
    the service that moved the sequence number (health.snapshot_versions_move)."""
    def send():
        # The narrators' message first: it goes through this process's event loop (the
        # server's, in a request), which is busy handing the broadcast out once published.
        async_to_sync(get_channel_layer().group_send)(
            narrators_group(event_id),
            {"type": "effect.message", "effect": effect, "characters": character_ids or "all"})
        broadcast.publish(event_id, {"effect": effect}, characters=character_ids)
    transaction.on_commit(send, robust=True)


def publish_narrators_on_commit(event_id: int, message: dict) -> None:
    """After commit, one message to the event's narrators (a day has run, an Emergencia);
    `message["type"]` names the consumer's handler."""
    def send():
        async_to_sync(get_channel_layer().group_send)(narrators_group(event_id), message)
    transaction.on_commit(send, robust=True)


def publish_safety_on_commit(event_id: int, message: dict) -> None:
    """After commit, one real-world safety message to those who answer for it: the event's
    narrators and its safety team (each group once)."""
    def send():
        async_to_sync(_send_to_groups)([narrators_group(event_id), safety_group(event_id)], message)
    transaction.on_commit(send, robust=True)


def phone_readiness_publish_on_commit(*, event_id: int, row: dict) -> None:
    """A phone reported its self-check: its row reaches the event's narrators (only them:
    a player never learns another's phone)."""
    publish_narrators_on_commit(event_id, {"type": "phone.message", "phone": row})


def user_group(user_id: int) -> str:
    """Every event socket of this user (a narrator's or the safety team's view of their
    event): told when the user's access shrinks. Character sockets join no group."""
    return f"user-{user_id}"


def access_check_on_commit(*, user_ids) -> None:
    """After commit, every open socket of these users checks its access again and closes
    (4403) if it has none left: the sockets of their characters and those where they
    watch a character as narrators (broadcast.py), and their event sockets (their user
    group). Registered on players' `access_revoked`."""
    users = sorted(set(user_ids))

    def send():
        characters = Character.objects.filter(user_id__in=users).values_list("pk", flat=True)
        broadcast.deliver({"type": "access.check"}, characters=characters, users=users)
        async_to_sync(_send_to_groups)([user_group(pk) for pk in users], {"type": "access.check"})
    transaction.on_commit(send, robust=True)


async def _send_to_groups(groups: list[str], message: dict) -> None:
    layer = get_channel_layer()
    await asyncio.gather(*(layer.group_send(group, message) for group in groups))
