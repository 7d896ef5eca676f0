"""Race-wide actions and boards: the mass start, the finger readout import, the zombies'
bib scan and grab, the leaderboard and the safety board."""
from __future__ import annotations

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.parsers import BaseParser, MultiPartParser
from rest_framework.views import APIView

from common.errors import request_language
from common.http import answer
from common.i18n import refusal_text
from common.idempotency import idempotent
from common.csv_rows import CsvParser, csv_import_answered, uploaded_csv_text
from common.numbers import whole_number
from common.parsers import JSONParser
from rulesets import RuleRefused
from schedule.day_apis import AwareDateTimeField

from .action_answers import (RaceBibAnswer, RaceEntriesImportAnswer, RaceGrabAnswer,
                             RaceIofImportAnswer, RaceMassStartAnswer, RacePunchImportAnswer)
from .answers import RaceLeaderboardAnswer, RaceSafetyAnswer
from .selectors import boards
from .labels import say
from .models import Entry
from .options import race_options
from .selectors.entries import (course_for_organiser, entry_by_code, lives_remaining,
                                race_for_organiser, race_for_zombie)
from .services import lives, punches, running
from .services.entries_import import entries_import
from .services.iof_import import iof_import
from .services.common import status_key


class MassStartApi(APIView):
    class RaceMassStartInput(serializers.Serializer):
        at = AwareDateTimeField(required=False, help_text="The start signal; default now.")

    Input = RaceMassStartInput

    @extend_schema(responses=RaceMassStartAnswer, request=Input, summary="Mass start: every "
                   "registered entry of the course whose gear is checked starts; the others "
                   "are listed with what they miss (organisers). Idempotency-Key header.")
    def post(self, request, course_id):
        course = course_for_organiser(request.user, course_id)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        lang = request_language(request)

        def run():
            started, refused = running.course_start(course=course, by=request.user,
                                                    **data.validated_data)
            return answer(request, {
                "course": course.pk,
                "started": [{"id": e.pk, "name": e.name, "started_at": e.started_at.isoformat(),
                             "deadline_at": e.deadline_at.isoformat()} for e in started],
                "not_started": [{"id": e.pk, "name": e.name, "error": r.code,
                                 "detail": refusal_text(r, lang)} for e, r in refused]})
        return idempotent(request, run)


class PunchImportApi(APIView):
    parser_classes = [CsvParser, JSONParser, MultiPartParser]
    body_limit_setting = "IMPORT_MAX_BODY"      # a whole file (common.middleware)

    @extend_schema(responses={201: RacePunchImportAnswer}, request=OpenApiTypes.OBJECT,
                   summary="Import the finger readout: a CSV (finger,checkpoint,time or "
                   "doigt;balise;heure) as text/csv, {\"csv\": text} or a multipart `file`. "
                   "Any bad row refuses the file (400, every bad row with its line and "
                   "reason) and imports nothing (organisers). Idempotency-Key header.")
    def post(self, request, event_id):
        event = race_for_organiser(request.user, event_id)
        text = uploaded_csv_text(request.data, empty=say("csv_empty"))

        return csv_import_answered(
            request, run_import=lambda: punches.punches_import(event=event, text=text, by=request.user),
            rejected_detail=lambda count: say("csv_rejected", count=str(count)))


class EntriesImportApi(APIView):
    parser_classes = [CsvParser, JSONParser, MultiPartParser]
    body_limit_setting = "IMPORT_MAX_BODY"      # a whole file (common.middleware)

    @extend_schema(responses={201: RaceEntriesImportAnswer}, request=OpenApiTypes.OBJECT,
                   summary="Import entries: a CSV (name, course, finger, phone; kind, members, "
                   "carrier, deposit) as text/csv, {\"csv\": text} or a multipart `file`. "
                   "Any bad line refuses the file (400 csv_rejected, every bad line with its "
                   "number and reason) and imports nothing (organisers). Idempotency-Key "
                   "header.")
    def post(self, request, event_id):
        event = race_for_organiser(request.user, event_id)
        text = uploaded_csv_text(request.data, empty=say("entries_empty"))

        return csv_import_answered(
            request, run_import=lambda: entries_import(event=event, text=text, by=request.user),
            rejected_detail=lambda count: say("entries_rejected", count=str(count)))


class XmlParser(BaseParser):
    """An IOF XML file sent as the raw body; its size was checked by the body limit."""
    media_type = "*/xml"

    def parse(self, stream, media_type=None, parser_context=None):
        return {"xml": stream.read() if stream is not None else b""}


def _duration_s(request) -> int | None:
    """The time allowed on a new course of a CourseData: `duration_s`, or `duration_min`
    (the organisers' form), in the body or the query."""
    for name, unit in (("duration_s", 1), ("duration_min", 60)):
        given = (request.data.get(name) if hasattr(request.data, "get") else None) \
            or request.query_params.get(name)
        if given:
            value = whole_number(str(given), minimum=1, maximum=86_400 // unit)
            if value is None or value * unit < 60:
                raise RuleRefused("bad_input", detail=say("iof_duration_value", value=str(given)[:20]))
            return value * unit
    return None


class IofImportApi(APIView):
    parser_classes = [XmlParser, JSONParser, MultiPartParser]
    body_limit_setting = "IMPORT_MAX_BODY"      # a whole file (common.middleware)

    @extend_schema(responses={201: RaceIofImportAnswer}, request=OpenApiTypes.OBJECT,
                   summary="Import an IOF XML 3.0 EntryList (entries) or CourseData (courses, "
                   "balises, class assignments), as an application/xml body, {\"xml\": text} "
                   "or a multipart `file` (optional `duration_s` or `duration_min` for a new "
                   "course). Any bad element refuses the file (400 csv_rejected, every "
                   "problem with its line and reason) and imports nothing (organisers). "
                   "Idempotency-Key header.")
    def post(self, request, event_id):
        event = race_for_organiser(request.user, event_id)
        data = request.data if hasattr(request.data, "get") else {}
        upload = data.get("file")
        raw = upload.read() if hasattr(upload, "read") else data.get("xml") or b""
        raw = raw.encode("utf-8") if isinstance(raw, str) else raw
        if not isinstance(raw, bytes):
            raw = b""
        duration_s = _duration_s(request)
        return csv_import_answered(
            request, run_import=lambda: iof_import(event=event, raw=raw, by=request.user,
                                                   duration_s=duration_s),
            rejected_detail=lambda count: say("xml_rejected", count=str(count)))


class BibApi(APIView):
    @extend_schema(responses=RaceBibAnswer, summary="A zombie scans a bib: the survivor's "
                   "name, lives left and the rules to confirm before a grab (zombies, organisers)")
    def get(self, request, event_id, code):
        event = race_for_zombie(request.user, event_id)
        entry = entry_by_code(event, code)
        options = race_options(event)
        status = status_key(entry, timezone.now())
        return answer(request, {
            "entry": {"id": entry.pk, "name": entry.name, "code": entry.character.code},
            "racing": entry.status == Entry.RACING,
            "status": {"key": status, "label": say(status)},
            "lives": lives_remaining(entry, options.lives_initial),
            "confirmations": lives.grab_confirmations(options)})


class GrabApi(APIView):
    class RaceGrabInput(serializers.Serializer):
        code = serializers.CharField(max_length=20, help_text="The code of the bib's QR.")
        confirmations = serializers.ListField(child=serializers.CharField(max_length=40),
                                              max_length=10, default=list)
        lat = serializers.FloatField(min_value=-90, max_value=90, required=False, allow_null=True)
        lon = serializers.FloatField(min_value=-180, max_value=180, required=False, allow_null=True)

    Input = RaceGrabInput

    @extend_schema(responses={201: RaceGrabAnswer}, request=Input, summary="A zombie records a "
                   "flag pulled, confirming the rules (each one GET bibs/ lists); refused without "
                   "them, naming what is missing (zombies, organisers). Idempotency-Key header.")
    def post(self, request, event_id):
        event = race_for_zombie(request.user, event_id)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        entry = entry_by_code(event, fields.pop("code"))

        def run():
            loss = lives.grab_record(entry=entry, by=request.user, **fields)
            options = race_options(event)
            return answer(request, {"grab": {"id": loss.pk, "at": loss.at.isoformat(),
                                             "review": loss.review},
                                    "entry": {"id": entry.pk, "name": entry.name},
                                    "lives": lives_remaining(entry, options.lives_initial)}, status=201)
        return idempotent(request, run)


class LeaderboardApi(APIView):
    @extend_schema(responses=RaceLeaderboardAnswer, summary="The live leaderboard per course: "
                   "finished entries ranked (score, then tie-breaks), the others with their "
                   "estimate; warnings (organisers)")
    def get(self, request, event_id):
        event = race_for_organiser(request.user, event_id)
        return answer(request, {"event": event.pk, "courses": boards.leaderboard(event, timezone.now())})


class SafetyApi(APIView):
    @extend_schema(responses=RaceSafetyAnswer, summary="Safety board: who is still out per "
                   "course, who is overdue and by how much, with the phone number given at "
                   "registration (organisers)")
    def get(self, request, event_id):
        event = race_for_organiser(request.user, event_id)
        return answer(request, boards.safety_board(event, timezone.now()))
