"""The wire format of the schedule's answers: the games of an airsoft day and the scheduled
dawns and day ends (selectors.py). The selectors still build the dicts; these serializers
are the contract. The clock's answers are in players/answers.py."""
from __future__ import annotations

from rest_framework import serializers

from health.answers import OpenMapField
from players.answers import AnnouncedGameField, ClockAnswer, KeyLabel


class GameAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    event = serializers.IntegerField()
    number = serializers.IntegerField()
    scenario = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    options = OpenMapField(help_text="The options this game changes (the ruleset names them)")
    status = serializers.ChoiceField(choices=["announced", "playing", "ended"])
    start_at = serializers.DateTimeField(help_text="The start time announced")
    announced_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    ended_at = serializers.DateTimeField(allow_null=True)
    characters_reset = serializers.IntegerField(help_text="Characters sent back to spawn "
                                                "when it started")


class AnnouncementAnswer(serializers.Serializer):
    game = AnnouncedGameField(allow_null=True, help_text="What every phone shows of the game "
                              "being played")
    next_game = AnnouncedGameField(allow_null=True, help_text="... and of the next one")


class GamesAnswer(serializers.Serializer):
    event = serializers.IntegerField()
    games = GameAnswer(many=True)
    current = GameAnswer(allow_null=True, help_text="The game being played")
    next = GameAnswer(allow_null=True, help_text="The next game announced")
    announcement = AnnouncementAnswer()


class GameChangedAnswer(serializers.Serializer):
    game = GameAnswer()
    clock = ClockAnswer()


class DayAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    label = serializers.CharField()
    due_at = serializers.DateTimeField()
    done_at = serializers.DateTimeField(allow_null=True)
    status = serializers.ChoiceField(choices=["scheduled", "due", "running", "done"])
    characters_changed = serializers.IntegerField()


class WoundedCharacterAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField()


class LimbAnswer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    status = serializers.CharField()


class DamagePointAnswer(serializers.Serializer):
    location = KeyLabel()
    weapon = serializers.CharField(allow_null=True)
    at = serializers.FloatField(help_text="The game second of the hit")
    expires_at = serializers.FloatField(allow_null=True)
    stunned_until = serializers.FloatField(allow_null=True)


class WoundsAnswer(serializers.Serializer):
    """Empty when the ruleset has no body map."""
    limbs = LimbAnswer(many=True, required=False)
    damage = DamagePointAnswer(many=True, required=False)


class UntreatedAnswer(serializers.Serializer):
    character = WoundedCharacterAnswer()
    state = KeyLabel()
    wounds = WoundsAnswer()


class DaysAnswer(serializers.Serializer):
    event = serializers.IntegerField()
    kinds = serializers.ListField(child=serializers.CharField(), help_text="The kinds of "
                                  "day the ruleset has")
    days = DayAnswer(many=True)
    untreated = UntreatedAnswer(many=True, help_text="Characters whose wounds were untreated "
                                "at day end, waiting for a narrator's decision")


class DayScheduledAnswer(serializers.Serializer):
    day = DayAnswer()


class DayCancelledAnswer(serializers.Serializer):
    cancelled = serializers.IntegerField(help_text="The day's id")
    kind = serializers.CharField()
