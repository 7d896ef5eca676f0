"""Narrators schedule the game's dawns and day ends, and read who waits for their decision
after a day end (schedule/services/days.py)."""
from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from schedule import selectors
from schedule.answers import DayCancelledAnswer, DayScheduledAnswer, DaysAnswer
from schedule.services import days
from common.http import answer
from common.idempotency import idempotent
from schedule.models import GameDay
from players.selectors import event_for_narrator


class AwareDateTimeField(serializers.DateTimeField):
    """An instant with its offset: "07:00" alone would be read in the server's zone (UTC),
    two hours off for a game in Spain."""

    default_error_messages = {
        "naive": "must include a time zone offset, e.g. 2026-06-13T07:00:00+02:00.",
    }

    def enforce_timezone(self, value):
        if timezone.is_naive(value):
            self.fail("naive")
        return super().enforce_timezone(value)


class EventDaysApi(APIView):
    class DayInput(serializers.Serializer):
        kind = serializers.ChoiceField(choices=[kind for kind, _ in GameDay.KINDS])
        due_at = AwareDateTimeField()

    @extend_schema(responses=DaysAnswer, summary="The scheduled dawns and day ends (narrators), and the characters whose untreated wounds await a narrator's decision")
    def get(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        return answer(request, selectors.days_view(event, timezone.now()))

    @extend_schema(responses={201: DayScheduledAnswer}, request=DayInput, summary="Schedule a dawn or a day end at a wall-clock instant (narrators). Idempotency-Key header.")
    def post(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        data = self.DayInput(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            day = days.day_schedule(event=event, by=request.user, **data.validated_data)
            return answer(request, {"day": selectors.day_view(day, timezone.now())}, status=201)
        return idempotent(request, run)


class EventDayApi(APIView):
    @extend_schema(responses={200: DayCancelledAnswer}, summary="Cancel a dawn or day end that has not run yet (narrators). Idempotency-Key header.")
    def delete(self, request, event_id, day_id):
        event = event_for_narrator(request.user, event_id)

        def run():
            day = days.day_cancel(event=event, day_id=day_id, by=request.user)
            return answer(request, {"cancelled": day_id, "kind": day.kind})
        return idempotent(request, run)
