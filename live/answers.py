"""The wire format of live's answers (live/apis.py), as /api/schema/ shows them and the
tests check them (tests/wire.py)."""
from __future__ import annotations

from rest_framework import serializers

from players.answers import ClockAnswer, OpenAnswer


class LiveSnapshotCharacter(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField()
    team = serializers.CharField(allow_null=True)
    event = serializers.IntegerField()
    ruleset = serializers.CharField()
    language = serializers.CharField()


class LiveViewCharacter(OpenAnswer):
    """A character's snapshot (live/snapshots.py): live builds `character` and `clock`; the
    apps add their sections (health, treatments, effects, fights), as
    GET /api/characters/{character_id}/ shows them."""
    character = LiveSnapshotCharacter()
    clock = ClockAnswer()


class LiveViewEvent(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    ruleset = serializers.CharField()


class LiveViewAnswer(serializers.Serializer):
    event = LiveViewEvent()
    clock = ClockAnswer()
    characters = LiveViewCharacter(many=True, help_text="Soonest deadline first")


class CharacterCreatedAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField(help_text="The code printed under the character's QR code")
