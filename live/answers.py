"""The wire format of live's answers (live/apis.py), as /api/schema/ shows them and the
tests check them (tests/wire.py); a character's snapshot is in snapshot_answers.py."""
from __future__ import annotations

from rest_framework import serializers

from players.answers import ClockAnswer

from .snapshot_answers import CharacterSnapshotAnswer


class LiveViewEvent(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    ruleset = serializers.CharField()


class LiveViewAnswer(serializers.Serializer):
    event = LiveViewEvent()
    clock = ClockAnswer()
    characters = CharacterSnapshotAnswer(many=True, help_text="Each one's snapshot, soonest deadline first")


class CharacterCreatedAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField(help_text="The code printed under the character's QR code")
