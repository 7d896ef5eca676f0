"""The game clock: pause and resume (narrators), Emergencia (anyone in the game)."""
from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from common.http import answer
from common.idempotency import idempotent
from players.answers import ClockChangedAnswer, EmergencyAnswer
from players.selectors import clock_snapshot, event_for_member, event_for_narrator

from .services import clock


class ClockApi(APIView):
    class ClockInput(serializers.Serializer):
        action = serializers.ChoiceField(choices=["pause", "resume"])

    @extend_schema(responses=ClockChangedAnswer, request=ClockInput, summary="Pause (arrêt de jeu) or resume the game clock")
    def post(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        data = self.ClockInput(data=request.data)
        data.is_valid(raise_exception=True)
        service = clock.clock_pause if data.validated_data["action"] == "pause" else clock.clock_resume

        def run():
            updated = service(event=event, by=request.user)
            return answer(request, {"clock": clock_snapshot(updated, timezone.now())})
        return idempotent(request, run)


class EmergencyApi(APIView):
    class EmergencyInput(serializers.Serializer):
        reason = serializers.CharField(max_length=200, required=False, allow_blank=True,
                                       default="")

    @extend_schema(responses=EmergencyAnswer, request=EmergencyInput, summary="Emergencia: anyone in the game pauses it for everyone and alerts the narrators; only narrators resume. Idempotency-Key header.")
    def post(self, request, event_id):
        event = event_for_member(request.user, event_id)
        data = self.EmergencyInput(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            updated, paused_now = clock.emergency_declare(
                event=event, by=request.user, reason=data.validated_data["reason"])
            return answer(request, {"clock": clock_snapshot(updated, timezone.now()),
                                    "paused_now": paused_now})
        return idempotent(request, run)
