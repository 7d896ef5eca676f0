"""The narrators' live view of an event's characters (and adding one to it)."""
from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from common.http import answer
from common.idempotency import idempotent
from players import services
from players.selectors import event_for_narrator

from .answers import CharacterCreatedAnswer, LiveViewAnswer
from .snapshots import event_live_view


class EventCharactersApi(APIView):
    class CharacterInput(serializers.Serializer):
        name = serializers.CharField(max_length=200)
        team = serializers.CharField(max_length=100, required=False, allow_blank=True)
        sheet = serializers.DictField(required=False, default=dict)
        kits = serializers.DictField(child=serializers.IntegerField(min_value=0), required=False,
                                     default=dict)

    @extend_schema(responses=LiveViewAnswer, summary="Narrators' live view: every character, soonest deadline first")
    def get(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        return answer(request, event_live_view(event, timezone.now()))

    @extend_schema(responses={201: CharacterCreatedAnswer}, request=CharacterInput, summary="Create a character (narrators)")
    def post(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        data = self.CharacterInput(data=request.data)
        data.is_valid(raise_exception=True)
        team_name = data.validated_data.pop("team", "")
        team = services.team_get_or_create(event=event, name=team_name) if team_name else None

        def run():
            character = services.character_create(event=event, team=team, by=request.user,
                                                   **data.validated_data)
            return answer(request, {"id": character.pk, "name": character.name,
                                    "code": character.code}, status=201)
        return idempotent(request, run)
