"""What narrators set up and read about an event beyond the live view: the event's
options (every reading of an ambiguous rule, with its default), the roster imported from
a spreadsheet, and a character's psychological traits."""
from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.parsers import MultiPartParser
from rest_framework.views import APIView

from common.csv_rows import CsvParser, csv_import_answered, uploaded_csv_text
from common.idempotency import idempotent
from common.parsers import JSONParser
from rulesets.sheet import sheet_fields

from . import roster_services, services
from .answers import (CharacterPsychAnswer, EventOptionsAnswer, RosterColumnsAnswer,
                      RosterImportedAnswer)
from .apis import answer
from .selectors import character_visible, event_for_narrator, event_options


class EventOptionsApi(APIView):
    @extend_schema(responses=EventOptionsAnswer, summary="The event's rule options (narrators): each with its value, the ruleset's default and the allowed choices")
    def get(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        return answer(request, {"event": event.pk, "ruleset": event.ruleset,
                                "options": event_options(event)})


class CharacterPsychApi(APIView):
    class CharacterPsychInput(serializers.Serializer):
        psych = serializers.DictField(child=serializers.JSONField())

    @extend_schema(responses=CharacterPsychAnswer, request=CharacterPsychInput, summary="Narrators set a character's psychological traits (Humeur, Activité, Empathie, Assurance). Idempotency-Key header.")
    def post(self, request, character_id):
        character, as_narrator = character_visible(request.user, character_id)
        if not as_narrator:
            raise NotFound()
        data = self.CharacterPsychInput(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            updated = services.character_psych_set(character=character, by=request.user,
                                                   psych=data.validated_data["psych"])
            return answer(request, {"character": updated.pk, "psych": updated.sheet["psych"]})
        return idempotent(request, run)


class RosterImportApi(APIView):
    parser_classes = [CsvParser, JSONParser, MultiPartParser]
    body_limit_setting = "IMPORT_MAX_BODY"      # a whole file (common.middleware)

    @extend_schema(responses=RosterColumnsAnswer, summary="The columns a roster file may have for this event's ruleset (narrators)")
    def get(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        return answer(request, {"event": event.pk, "columns": ["name", "team", *sorted(sheet_fields(event.rules()))]})

    @extend_schema(responses={201: RosterImportedAnswer}, request=OpenApiTypes.OBJECT, summary="Import the "
                   "roster: a CSV (name, team, then sheet fields) as text/csv, {\"csv\": text} or a "
                   "multipart `file`. Any bad line refuses the file (400 csv_rejected, every bad line "
                   "with its number and reason) and imports nothing (narrators). Idempotency-Key header.")
    def post(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        text = uploaded_csv_text(request.data, empty=roster_services.say("roster_empty"))
        return csv_import_answered(
            request, run_import=lambda: roster_services.characters_import(event=event, text=text, by=request.user),
            rejected_detail=lambda count: roster_services.say("roster_rejected", count=str(count)))
