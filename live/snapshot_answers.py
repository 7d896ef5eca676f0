"""The wire format of a character's snapshot (snapshots.py), built like the snapshot itself:
live declares the character and the clock, and each app that adds a section to the
snapshot adds the serializer of its keys in its `AppConfig.ready()`:

- `snapshot_answer_part(cls)`: cls is a Serializer whose fields are the keys its
  `snapshot_section` returns;

so that the documented snapshot holds what the built one holds, and live names no app."""
from __future__ import annotations

from rest_framework import serializers

from players.answers import ClockAnswer

_parts: list[type[serializers.Serializer]] = []


def snapshot_answer_part(part: type[serializers.Serializer]) -> type[serializers.Serializer]:
    if part not in _parts:
        _parts.append(part)
    return part


class SnapshotCharacterAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField(help_text="The medic code its QR holds")
    team = serializers.CharField(allow_null=True)
    event = serializers.IntegerField()
    ruleset = serializers.CharField()
    language = serializers.CharField(help_text="The event's language")


class CharacterSnapshotAnswer(serializers.Serializer):
    """Everything the character's own player may see (its narrators read the same)."""
    character = SnapshotCharacterAnswer()
    clock = ClockAnswer()

    def get_fields(self):
        fields = super().get_fields()
        for part in _parts:
            fields.update(part().get_fields())
        return fields
