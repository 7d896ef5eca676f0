"""Setting the race up (organisers): courses, balises, the points per balise, entries,
zombies. Views parse input, call one service and serialize the answer."""
from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from common.http import answer
from players.apis import login_url, login_url_answer
from common.idempotency import idempotent
from rulesets import RuleRefused

from .action_answers import RaceZombieAnswer
from .answers import (RaceCheckpointCreatedAnswer, RaceCourseChangedAnswer, RaceCourseCreatedAnswer,
                      RaceCoursesAnswer, RaceEntriesAnswer, RaceEntryAnswer)
from .selectors import boards
from .labels import say
from .models import Course, Entry
from .services import courses, entries
from .selectors.entries import course_for_organiser, race_for_organiser


class CoursesApi(APIView):
    class RaceCourseInput(serializers.Serializer):
        name = serializers.CharField(max_length=60)
        duration_s = serializers.IntegerField(min_value=60, max_value=24 * 3600, required=False,
                                              help_text="Needed unless enfant, famille or sportif.")
        points_per_checkpoint = serializers.IntegerField(min_value=0, max_value=10_000,
                                                         required=False)

    Input = RaceCourseInput

    @extend_schema(responses=RaceCoursesAnswer, summary="Race courses with their balises "
                   "(QR content included) and warnings, e.g. points per balise unconfirmed (organisers)")
    def get(self, request, event_id):
        event = race_for_organiser(request.user, event_id)
        return answer(request, boards.courses_view(event))

    @extend_schema(responses={201: RaceCourseCreatedAnswer}, request=Input,
                   summary="Create a course "
                   "(enfant 1 h, famille 1 h 30, sportif 2 h from the options, or a named one "
                   "with duration_s). Idempotency-Key header.")
    def post(self, request, event_id):
        event = race_for_organiser(request.user, event_id)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            course = courses.course_create(event=event, by=request.user, **data.validated_data)
            return answer(request, {"course": boards.course_view(course),
                                    "warnings": boards.course_warnings(course)}, status=201)
        return idempotent(request, run)


class CheckpointsApi(APIView):
    class RaceCheckpointInput(serializers.Serializer):
        code = serializers.RegexField(r"^[A-Za-z0-9_-]{1,20}$", help_text="The box's number.")
        name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
        lat = serializers.FloatField(min_value=-90, max_value=90, required=False, allow_null=True)
        lon = serializers.FloatField(min_value=-180, max_value=180, required=False, allow_null=True)
        qr = serializers.CharField(max_length=200, required=False, allow_blank=True,
                                   help_text="The QR's content; generated (unguessable) if absent.")
        points = serializers.IntegerField(min_value=0, max_value=10_000, required=False,
                                          allow_null=True, help_text="This balise's own points.")

    Input = RaceCheckpointInput

    @extend_schema(responses={201: RaceCheckpointCreatedAnswer}, request=Input,
                   summary="Add a balise to a "
                   "course (organisers). Idempotency-Key header.")
    def post(self, request, course_id):
        course = course_for_organiser(request.user, course_id)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            cp = courses.checkpoint_create(course=course, by=request.user, **data.validated_data)
            return answer(request, {"checkpoint": {**boards.checkpoint_view(cp),
                                                   "course": course.pk}}, status=201)
        return idempotent(request, run)


class CoursePointsApi(APIView):
    class RacePointsInput(serializers.Serializer):
        points_per_checkpoint = serializers.IntegerField(min_value=0, max_value=10_000)

    Input = RacePointsInput

    @extend_schema(responses=RaceCourseChangedAnswer, request=Input, summary="Set and confirm the "
                   "points a balise is worth on this course: the warning goes (organisers). "
                   "Idempotency-Key header.")
    def post(self, request, course_id):
        course = course_for_organiser(request.user, course_id)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            updated = courses.course_points_confirm(course=course, by=request.user,
                                                    **data.validated_data)
            return answer(request, {"course": boards.course_view(updated)})
        return idempotent(request, run)


class EntriesApi(APIView):
    class RaceEntryInput(serializers.Serializer):
        name = serializers.CharField(max_length=100)
        course = serializers.CharField(max_length=60, help_text="The course's id or name.")
        kind = serializers.ChoiceField(choices=[Entry.SOLO, Entry.TEAM], default=Entry.SOLO)
        members = serializers.ListField(child=serializers.CharField(max_length=100),
                                        required=False, default=list, max_length=20)
        carrier = serializers.CharField(max_length=100, required=False, allow_blank=True,
                                        default="")
        finger = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
        phone = serializers.CharField(max_length=40)
        deposit_taken = serializers.BooleanField(default=False)

    Input = RaceEntryInput

    @extend_schema(responses=RaceEntriesAnswer, summary="Every entry with its phone number, "
                   "gear, deposit, lives, punches and score (organisers)")
    def get(self, request, event_id):
        event = race_for_organiser(request.user, event_id)
        return answer(request, boards.entries_view(event, timezone.now()))

    @extend_schema(responses={201: RaceEntryAnswer}, request=Input, summary="Register a solo "
                   "survivor or a team: finger, phone number (organisers only see it), "
                   "deposit. Creates its login (a character). Idempotency-Key header.")
    def post(self, request, event_id):
        event = race_for_organiser(request.user, event_id)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        course = _course(event, fields.pop("course"))

        def run():
            entry = entries.entry_register(event=event, course=course, by=request.user, **fields)
            return answer(request, boards.entry_answer(entry, as_organiser=True,
                                                       now=timezone.now()), status=201)
        return idempotent(request, run)


def _course(event, ref: str) -> Course:
    courses_here = Course.objects.filter(event=event)
    found = (courses_here.filter(pk=int(ref)).first() if ref.isascii() and ref.isdigit()
             else courses_here.filter(name__iexact=ref.strip()).first())
    if found is None:
        known = ", ".join(courses_here.values_list("name", flat=True)) or "-"
        raise RuleRefused("bad_input", detail=say("unknown_course", course=ref[:60], known=known))
    return found


class ZombiesApi(APIView):
    class RaceZombieInput(serializers.Serializer):
        name = serializers.CharField(max_length=100)

    Input = RaceZombieInput

    @extend_schema(responses={201: RaceZombieAnswer}, request=Input, summary="Create a zombie's "
                   "login (role zombie) and answer its one-time login link (organisers). "
                   "Idempotency-Key header: a replay answers a fresh link.")
    def post(self, request, event_id):
        event = race_for_organiser(request.user, event_id)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            user, raw = entries.zombie_create(event=event, by=request.user, **data.validated_data)
            return login_url_answer(request, {"zombie": {"user": user.get_username(),
                                                         "name": user.first_name},
                                              "url": login_url(raw)}, event=event, user=user)
        return idempotent(request, run)
