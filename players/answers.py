"""The wire format of the answers built from players/selectors.py: output serializers that
the OpenAPI document (/api/schema/) shows field by field, and against which the tests check
every answer they read (tests/wire.py). A view names its answer with
`@extend_schema(responses=...)`; the selector still builds the dict."""
from __future__ import annotations

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from .models import PHONE_CHECKS


class OpenAnswer(serializers.Serializer):
    """An answer whose declared fields are always there and to which other apps add their
    own (the sections a personal-data export gathers, which players cannot name): its
    schema allows more fields than it names."""


class OpenAnswerSchema(OpenApiSerializerExtension):
    target_class = OpenAnswer
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        return {**auto_schema._map_basic_serializer(self.target, direction),
                "additionalProperties": True}


class KeyLabel(serializers.Serializer):
    """A ruleset's (or the race's) key, with its text in the reader's language."""
    key = serializers.CharField()
    label = serializers.CharField()


class IdNameAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


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


# Who is logged in (players/apis.py): their events, and the characters they play.

class MyEvent(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    ruleset = serializers.CharField()
    language = serializers.CharField()
    display = serializers.CharField(help_text="How the phones look unless a player chooses another")
    roles = serializers.ListField(child=serializers.CharField(),
                                  help_text="player, narrator, referee, zombie, safety")


class MyCharacter(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    event = serializers.IntegerField()
    code = serializers.CharField(help_text="The code printed under the character's QR code")
    medic = serializers.BooleanField(help_text="Whether the sheet allows a treatment: the phone "
                                               "offers the medic screen")
    race_entry = serializers.IntegerField(allow_null=True,
                                          help_text="A race survivor's entry, which the phone opens")


class MeAnswer(serializers.Serializer):
    user = serializers.CharField(help_text="The username")
    events = MyEvent(many=True)
    characters = MyCharacter(many=True)


class LoginAnswer(MeAnswer):
    event = serializers.IntegerField(help_text="The event the login link was issued for")


class MyEventsAnswer(serializers.Serializer):
    events = MyEvent(many=True)


class EventCreatedAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    ruleset = serializers.CharField()
    options = serializers.DictField(help_text="Every rule option of the event, by key")


class LoginLinkAnswer(serializers.Serializer):
    character = serializers.IntegerField()
    url = serializers.CharField(help_text="The one-time login link")


# A ruleset as data (players/apis.py RulesetApi). Every `label` is in the reader's language.

class Labelled(serializers.Serializer):
    label = serializers.CharField()


def labelled_map(help_text: str = "") -> serializers.DictField:
    return serializers.DictField(child=Labelled(), help_text=help_text)


class RulesetState(serializers.Serializer):
    label = serializers.CharField()
    severity = serializers.IntegerField(help_text="The higher, the worse")
    inert = serializers.BooleanField()


class RulesetParam(serializers.Serializer):
    type = serializers.CharField()
    label = serializers.CharField()


class RulesetAction(serializers.Serializer):
    label = serializers.CharField()
    declared_by = serializers.ListField(child=serializers.CharField(),
                                        help_text="Who may declare it: self, other, medic, rules...")
    skill = serializers.CharField(allow_null=True, help_text="The skill it needs, if any")
    kit = serializers.CharField(allow_null=True, help_text="The kit it uses up, if any")
    params = serializers.DictField(child=RulesetParam(), help_text="Its parameters, by name")


class RulesetSkill(serializers.Serializer):
    label = serializers.CharField()
    levels = serializers.ListField(child=serializers.CharField(), allow_null=True)


class RulesetInteraction(serializers.Serializer):
    label = serializers.CharField()
    kinds = labelled_map("The kinds to choose from, by key")
    misses_if = labelled_map("What makes it miss, by key")


class RulesetCatalogueEntry(serializers.Serializer):
    label = serializers.CharField()
    explains = serializers.CharField(help_text="What \"Claridad\" explains of it")
    set_state = serializers.CharField(allow_null=True)
    action = serializers.CharField(allow_null=True)


class RulesetAbility(serializers.Serializer):
    label = serializers.CharField()
    explains = serializers.CharField(help_text="What \"Claridad\" explains of it")
    skill = serializers.CharField(allow_null=True, help_text="The skill it grants, if any")


class RulesetAnswer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    initial_state = serializers.CharField()
    states = serializers.DictField(child=RulesetState())
    timers = labelled_map()
    actions = serializers.DictField(child=RulesetAction())
    points = labelled_map()
    skills = serializers.DictField(child=RulesetSkill())
    kits = labelled_map()
    options = serializers.DictField(help_text="The ruleset's default option values, by key")
    traits = labelled_map("The psychological traits a sheet may hold")
    interactions = serializers.DictField(
        child=RulesetInteraction(), help_text="What a phone may start against someone else")
    catalogue = serializers.DictField(child=RulesetCatalogueEntry(),
                                      help_text="The named effects narrators push")
    abilities = serializers.DictField(child=RulesetAbility(),
                                      help_text="The abilities (Rasgos) a sheet may list")


# The journal (narrators).

class JournalLine(serializers.Serializer):
    id = serializers.IntegerField()
    at = serializers.DateTimeField()
    game_s = serializers.FloatField(help_text="The game time of the line, in seconds")
    who = serializers.CharField()
    kind = serializers.CharField()
    what = serializers.CharField()
    character = serializers.CharField(allow_null=True, help_text="The character's name")
    character_id = serializers.IntegerField(allow_null=True)
    before = serializers.JSONField(allow_null=True, help_text="The state before, if it changed")
    after = serializers.JSONField(allow_null=True, help_text="The state after, if it changed")
    detail = serializers.JSONField()


class JournalAnswer(serializers.Serializer):
    entries = JournalLine(many=True)


# What narrators set up (players/organiser_apis.py).

class EventOption(serializers.Serializer):
    key = serializers.CharField()
    value = serializers.JSONField(allow_null=True)
    default = serializers.JSONField(allow_null=True, help_text="The ruleset's default")
    changed = serializers.BooleanField()
    choices = serializers.ListField(child=serializers.JSONField(), allow_null=True,
                                    help_text="The allowed values, when the ruleset lists them")


class EventOptionsAnswer(serializers.Serializer):
    event = serializers.IntegerField()
    ruleset = serializers.CharField()
    options = EventOption(many=True)


class CharacterPsychAnswer(serializers.Serializer):
    character = serializers.IntegerField()
    psych = serializers.DictField(child=serializers.IntegerField(), help_text="Each trait, -100 to 100")


class RosterColumnsAnswer(serializers.Serializer):
    event = serializers.IntegerField()
    columns = serializers.ListField(child=serializers.CharField())


class RosterCharacter(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField()
    team = serializers.CharField(allow_null=True)


class RosterImportedAnswer(serializers.Serializer):
    imported = serializers.IntegerField(help_text="How many characters were created")
    teams_created = serializers.ListField(child=serializers.CharField())
    characters = RosterCharacter(many=True)


# The phones' self-checks (players/readiness_apis.py).

class PhoneReadiness(serializers.Serializer):
    character = serializers.IntegerField()
    reported = serializers.BooleanField(help_text="false: the phone never reported; the rest is empty")
    ready = serializers.BooleanField(allow_null=True)
    failing = serializers.ListField(child=serializers.CharField(),
                                    help_text="The checks that were not ok")
    checked_at = serializers.DateTimeField(allow_null=True)
    battery_level = serializers.FloatField(allow_null=True, help_text="0 to 1")
    clock_offset_ms = serializers.IntegerField(allow_null=True)


class PhoneReadinessAnswer(PhoneReadiness):
    kept = serializers.BooleanField(help_text="false: a later check was already kept")


FailingCounts = type("FailingCounts", (serializers.Serializer,),
                     {key: serializers.IntegerField() for key in PHONE_CHECKS})


class PhoneCounts(serializers.Serializer):
    characters = serializers.IntegerField()
    ready = serializers.IntegerField()
    not_ready = serializers.IntegerField()
    never_reported = serializers.IntegerField()
    failing = FailingCounts(help_text="How many phones fail each check")


class EventPhonesAnswer(serializers.Serializer):
    characters = PhoneReadiness(many=True)
    counts = PhoneCounts()


# A lost phone cut off (players/access_apis.py).

class NewLogin(serializers.Serializer):
    url = serializers.CharField(help_text="The new one-time login link")
    qr_svg = serializers.CharField(help_text="The same link as a QR code (an SVG document)")


class LostPhoneAnswer(serializers.Serializer):
    character = serializers.IntegerField()
    sessions_ended = serializers.BooleanField()
    login = NewLogin()

