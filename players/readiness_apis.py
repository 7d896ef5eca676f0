"""A phone's self-check: the phone reports it for its own character; the narrators read
every phone of their event."""
from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from common.http import answer
from common.idempotency import idempotent

from .answers import EventPhonesAnswer, PhoneReadinessAnswer
from .models import PHONE_CHECKS
from .readiness_selectors import event_phone_readiness, readiness_row
from .readiness_services import phone_readiness_report
from .selectors import event_for_narrator, own_character


class CheckInput(serializers.Serializer):
    ok = serializers.BooleanField()
    # Why a line failed, in the phone's words for the narrators ("denied", "no_camera").
    detail = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")


ChecksInput = type("ChecksInput", (serializers.Serializer,),
                   {key: CheckInput() for key in PHONE_CHECKS})


class PhoneReadinessApi(APIView):
    class ReadinessInput(serializers.Serializer):
        checks = ChecksInput()
        checked_at = serializers.DateTimeField()
        clock_offset_ms = serializers.IntegerField(required=False, allow_null=True, default=None,
                                                   min_value=-10 ** 9, max_value=10 ** 9)
        battery_level = serializers.FloatField(required=False, allow_null=True, default=None,
                                               min_value=0, max_value=1)

    @extend_schema(responses=PhoneReadinessAnswer, request=ReadinessInput,
                   summary="The player's phone reports its self-check (its own character only); "
                           "the latest check is kept. Idempotency-Key header.")
    def post(self, request, character_id):
        character = own_character(request.user, character_id)
        data = self.ReadinessInput(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            report, kept = phone_readiness_report(character=character, now=timezone.now(),
                                                  **data.validated_data)
            return answer(request, {**readiness_row(character.pk, report), "kept": kept})
        return idempotent(request, run)


class EventPhonesApi(APIView):
    @extend_schema(responses=EventPhonesAnswer,
                   summary="Narrators: whether each character's phone is ready, and how many "
                           "phones fail each check or never reported")
    def get(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        return answer(request, event_phone_readiness(event))
