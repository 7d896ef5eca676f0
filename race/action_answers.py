"""The wire format of the race's single actions: the mass start, the imports, the zombies'
bib scan and grab, a zombie's login, and what an action on one entry adds to the entry
(race/answers.py has the entry and the boards)."""
from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from players.answers import IdNameAnswer, KeyLabel

from .answers import RaceEntryAnswer, RaceReviewAnswer, RaceStatusAnswer


class RaceStartedAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    started_at = serializers.DateTimeField()
    deadline_at = serializers.DateTimeField()


class RaceNotStartedAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    error = serializers.CharField(help_text="The refusal's code, e.g. the gear not checked")
    detail = serializers.CharField()


class RaceMassStartAnswer(serializers.Serializer):
    course = serializers.IntegerField()
    started = RaceStartedAnswer(many=True)
    not_started = RaceNotStartedAnswer(many=True, help_text="With what each one misses")


# -- imports ----------------------------------------------------------------------------------

class RaceLineAnswer(serializers.Serializer):
    line = serializers.IntegerField(help_text="As the spreadsheet numbers it")
    reason = serializers.CharField()


class RacePunchImportAnswer(serializers.Serializer):
    rows = serializers.IntegerField()
    imported = serializers.IntegerField()
    already_there = serializers.IntegerField()
    entries = serializers.IntegerField(help_text="Entries with a punch in the file")
    not_counted = RaceLineAnswer(many=True, help_text="Punches imported that do not count")


class RaceImportedEntryAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    finger = serializers.IntegerField(allow_null=True)
    course = serializers.CharField(help_text="The course's name")
    code = serializers.CharField(help_text="The bib's code")


class RaceEntriesImportAnswer(serializers.Serializer):
    imported = serializers.IntegerField()
    entries = RaceImportedEntryAnswer(many=True)


class RaceImportedCourseAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    balises = serializers.IntegerField()


class RaceIofImportAnswer(serializers.Serializer):
    """An EntryList answers `entries`; a CourseData answers `courses` and `classes`."""
    message = serializers.ChoiceField(choices=["EntryList", "CourseData"],
                                      help_text="The IOF message the file held")
    imported = serializers.IntegerField()
    entries = RaceImportedEntryAnswer(many=True, required=False, help_text="EntryList only")
    courses = RaceImportedCourseAnswer(many=True, required=False, help_text="CourseData only")
    classes = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), required=False,
        help_text="CourseData only: {course name: its orienteering classes}, every course of "
                  "the race that has some")


# -- zombies ----------------------------------------------------------------------------------

class RaceBibEntryAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField()


class RaceBibAnswer(serializers.Serializer):
    entry = RaceBibEntryAnswer()
    racing = serializers.BooleanField()
    status = RaceStatusAnswer()
    lives = serializers.IntegerField(help_text="Lives left")
    confirmations = KeyLabel(many=True, help_text="The rules to confirm before a grab")


class RaceGrabRecordAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    at = serializers.DateTimeField()
    review = RaceReviewAnswer(allow_null=True, help_text="Set when the grab was near a balise")


class RaceGrabAnswer(serializers.Serializer):
    grab = RaceGrabRecordAnswer()
    entry = IdNameAnswer()
    lives = serializers.IntegerField(help_text="Lives left")


class RaceZombieUserAnswer(serializers.Serializer):
    user = serializers.CharField(help_text="The login's user name")
    name = serializers.CharField()


class RaceZombieAnswer(serializers.Serializer):
    zombie = RaceZombieUserAnswer()
    url = serializers.CharField(help_text="A one-time login link")


# -- what an action on one entry adds ---------------------------------------------------------

class RacePunchRecordAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    new = serializers.BooleanField(help_text="false: the same punch was already recorded")


class RacePunchedAnswer(RaceEntryAnswer):
    punch = RacePunchRecordAnswer()


class RaceZoneLossRecordAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    took_life = serializers.BooleanField()
    no_life_left = serializers.BooleanField()


class RaceInfractionRecordAnswer(serializers.Serializer):
    id = serializers.IntegerField()


class RaceZoneLossEntryAnswer(RaceEntryAnswer):
    life_loss = RaceZoneLossRecordAnswer()


class RaceZoneLossMarshalAnswer(serializers.Serializer):
    entry = IdNameAnswer()
    life_loss = RaceZoneLossRecordAnswer()


class RaceInfractionEntryAnswer(RaceEntryAnswer):
    infraction = RaceInfractionRecordAnswer()


class RaceInfractionMarshalAnswer(serializers.Serializer):
    entry = IdNameAnswer()
    infraction = RaceInfractionRecordAnswer()


def _seen_by_organiser_or_marshal(name: str, entry_answer, marshal_answer):
    """Organisers read the entry; a marshal (or a zombie) only what they did, not the
    survivor's race."""
    return PolymorphicProxySerializer(component_name=name, resource_type_field_name=None,
                                      serializers=[entry_answer, marshal_answer])


RaceZoneLossRecordedAnswer = _seen_by_organiser_or_marshal(
    "RaceZoneLossRecordedAnswer", RaceZoneLossEntryAnswer, RaceZoneLossMarshalAnswer)
RaceInfractionRecordedAnswer = _seen_by_organiser_or_marshal(
    "RaceInfractionRecordedAnswer", RaceInfractionEntryAnswer, RaceInfractionMarshalAnswer)
