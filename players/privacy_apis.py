"""Personal data over HTTP (organisers): a person's export and erasure, and the event's
retention period. Views parse input, call one service and serialize the answer."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from common.http import answer
from common.idempotency import idempotent
from rulesets import RuleRefused

from . import privacy_services as services
from .privacy_answers import EventPersonalDataAnswer, PersonErasedAnswer, PersonExportAnswer
from .privacy_selectors import character_for_organiser, event_personal_data
from .selectors import event_for_narrator


class PersonExportApi(APIView):
    class ExportInput(serializers.Serializer):
        pass

    @extend_schema(responses=PersonExportAnswer, request=None, summary="Everything the event "
                   "holds on a character's person, as one JSON document (organisers). A POST: "
                   "the journal records who exported whom. No Idempotency-Key: the document "
                   "is never stored, a retry exports again.")
    def post(self, request, character_id):
        character = character_for_organiser(request.user, character_id)
        self.ExportInput(data=request.data).is_valid(raise_exception=True)  # a JSON object
        document = services.person_export(character=character, by=request.user)
        response = answer(request, document)
        response["Content-Disposition"] = (
            f'attachment; filename="personal-data-character-{character.pk}.json"')
        return response


class PersonEraseApi(APIView):
    class EraseInput(serializers.Serializer):
        # JSON `true` only: DRF's BooleanField would also take 1, "true", "yes"; an erasure
        # cannot be undone, so nothing that merely reads as true confirms it.
        confirm = serializers.JSONField(default=False, allow_null=True)

    @extend_schema(responses=PersonErasedAnswer, request=EraseInput, summary="Erase a "
                   "character's person from the event (organisers): names become a pseudonym, "
                   "contact details and login links go, the game facts stay. Needs "
                   "confirm: true; erasing twice answers the same. Idempotency-Key header.")
    def post(self, request, character_id):
        character = character_for_organiser(request.user, character_id)
        data = self.EraseInput(data=request.data)
        data.is_valid(raise_exception=True)
        if data.validated_data["confirm"] is not True:
            raise RuleRefused("erase_not_confirmed", name=character.name)

        def run():
            return answer(request, services.person_erase(character=character, by=request.user))
        return idempotent(request, run)


class EventPersonalDataApi(APIView):
    class RetentionInput(serializers.Serializer):
        # Checked by the service, which words the refusal in the caller's language.
        retention_days = serializers.JSONField(allow_null=True)

    @extend_schema(responses=EventPersonalDataAnswer, summary="The event's retention of personal "
                   "data (organisers): its period, when the event ended, when its data is or "
                   "was purged")
    def get(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        return answer(request, event_personal_data(event))

    @extend_schema(responses=EventPersonalDataAnswer, request=RetentionInput, summary="Set how "
                   "many days after its end the event's personal data is kept (organisers). "
                   "Idempotency-Key header.")
    def post(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        data = self.RetentionInput(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            updated = services.event_retention_set(
                event=event, days=data.validated_data["retention_days"], by=request.user)
            return answer(request, event_personal_data(updated))
        return idempotent(request, run)
