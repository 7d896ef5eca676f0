"""Publishing to phones. Called only from services, and only once the transaction has
committed, so a phone never sees a change that was rolled back.

A player's group carries only that player's character; narrators have an event group.
"""
from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone


def character_group(character_id: int) -> str:
    return f"character-{character_id}"


def narrators_group(event_id: int) -> str:
    return f"event-{event_id}-narrators"


def publish_characters_on_commit(character_ids) -> None:
    ids = sorted(set(character_ids))
    if ids:
        transaction.on_commit(lambda: publish_characters(ids))


def publish_characters(character_ids) -> None:
    """Send each character's fresh snapshot to its player and to the narrators. The
    snapshot is built once per change and shared by every phone that may see it."""
    from health.selectors import character_for_snapshot, character_snapshot

    layer = get_channel_layer()
    now = timezone.now()
    for character_id in character_ids:
        character = character_for_snapshot(character_id, now)
        if character is None:
            continue
        message = {"type": "snapshot.message", "snapshot": character_snapshot(character, now)}
        async_to_sync(layer.group_send)(character_group(character_id), message)
        async_to_sync(layer.group_send)(narrators_group(character.event_id), message)
