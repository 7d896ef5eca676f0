"""What narrators set up and read about an event beyond the live view: the event's
options (every reading of an ambiguous rule, with its default) and a character's
psychological traits."""
from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.views import APIView

from . import services
from .apis import answer
from common.idempotency import idempotent
from .selectors import character_visible, event_for_narrator, event_options


class EventOptionsApi(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, summary="The event's rule options (narrators): each with its value, the ruleset's default and the allowed choices")
    def get(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        return answer(request, {"event": event.pk, "ruleset": event.ruleset,
                                "options": event_options(event)})


class CharacterPsychApi(APIView):
    class CharacterPsychInput(serializers.Serializer):
        psych = serializers.DictField(child=serializers.JSONField())

    @extend_schema(responses=OpenApiTypes.OBJECT, request=CharacterPsychInput, summary="Narrators set a character's psychological traits (Humeur, Activité, Empathie, Assurance). Idempotency-Key header.")
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
