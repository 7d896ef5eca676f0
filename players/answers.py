"""The wire format of the answers built from players/selectors.py: output serializers that
the OpenAPI document (/api/schema/) shows field by field, and against which the tests check
every answer they read (tests/wire.py). A view names its answer with
`@extend_schema(responses=...)`; the selector still builds the dict."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

# An announced game: its fixed fields, then the scenario options it shows or changes
# (open: a ruleset declares its own options).
ANNOUNCED_GAME = {
    "type": "object", "nullable": True, "additionalProperties": True,
    "properties": {
        "id": {"type": "integer"}, "number": {"type": "integer"},
        "scenario": {"type": "string"}, "description": {"type": "string"},
        "start_at": {"type": "string", "format": "date-time"},
        "started_at": {"type": "string", "format": "date-time", "nullable": True},
        "status": {"type": "string"},
        "changed": {"type": "array", "items": {"type": "string"},
                    "description": "The options this game changes from the day's"},
    },
    "required": ["id", "number", "scenario", "start_at", "status"],
}


@extend_schema_field(ANNOUNCED_GAME)
class AnnouncedGameField(serializers.JSONField):
    pass


class ClockAnswer(serializers.Serializer):
    running = serializers.BooleanField()
    game_time_s = serializers.FloatField(help_text="Seconds of game time played")
    game = AnnouncedGameField(allow_null=True, help_text="The game being played, if any")
    next_game = AnnouncedGameField(allow_null=True, help_text="The next game announced, if any")


class ClockChangedAnswer(serializers.Serializer):
    clock = ClockAnswer()


class EmergencyAnswer(serializers.Serializer):
    clock = ClockAnswer()
    paused_now = serializers.BooleanField(help_text="false: the game was already paused")
