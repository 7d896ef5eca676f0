"""A character's snapshot, declared actions, and medics' treatments."""
from __future__ import annotations

import qrcode
import qrcode.image.svg
from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.views import APIView

from common.http import answer
from common.idempotency import idempotent
from players.models import Character, JournalEntry
from players.selectors import character_by_code, character_visible, event_for_narrator, own_character
from live.character_reads import character_snapshot_for
from live.snapshot_answers import CharacterSnapshotAnswer
from live.snapshots import character_for_snapshot, character_snapshot
from live.phone_contact import request_phone

from . import services, treatments
from .answers import (ActionAnswer, HistoryAnswer, OutcomeTableAnswer, PatientAnswer,
                      TreatmentAnswer, UndoAnswer)
from .models import Treatment
from .outcomes import outcome_table
from .undo import character_action_undo
from .selectors import character_history, medic_options, treatment_view


def _snapshot(character_id: int) -> dict:
    now = timezone.now()
    return character_snapshot(character_for_snapshot(character_id, now), now)


class CharacterApi(APIView):
    @extend_schema(responses=CharacterSnapshotAnswer, summary="A character's snapshot: state, countdowns, points, effects, actions")
    def get(self, request, character_id):
        # Served from the cache while nothing it shows has changed; the player's own phone
        # is given a pass, and its next read is served before Django (live/snapshot_http.py).
        read = character_snapshot_for(session=request.session, character_id=character_id,
                                      user=request.user)
        return answer(request, read.snapshot)


class CharacterHistoryApi(APIView):
    @extend_schema(responses=HistoryAnswer, summary="What happened to a character, newest first (its player, narrators)")
    def get(self, request, character_id):
        character, _ = character_visible(request.user, character_id)
        return answer(request, {"history": character_history(character)})


class CharacterOutcomesApi(APIView):
    @extend_schema(responses=OutcomeTableAnswer, summary="What each declaration the player may make would do now, for the "
                   "phone to show a declaration tapped offline at once (not yet confirmed)")
    def get(self, request, character_id):
        character, _ = character_visible(request.user, character_id)
        now = timezone.now()
        return answer(request, outcome_table(character_for_snapshot(character.pk, now), now))


class CharacterQrApi(APIView):
    @extend_schema(responses={(200, "image/svg+xml"): OpenApiTypes.STR}, summary="The character's QR code (SVG) for a medic to scan; it holds the medic code only")
    def get(self, request, character_id):
        character, _ = character_visible(request.user, character_id)
        image = qrcode.make(f"{settings.PUBLIC_URL}/?patient={character.code}",
                            image_factory=qrcode.image.svg.SvgPathImage)
        return HttpResponse(image.to_string(), content_type="image/svg+xml")


class CharacterActionApi(APIView):
    class ActionInput(serializers.Serializer):
        action = serializers.CharField(max_length=50)
        params = serializers.DictField(required=False, default=dict)
        # When the phone's tap was, on the server's clock (a declaration sent late).
        tapped_at = serializers.DateTimeField(required=False)

    @extend_schema(responses=ActionAnswer, request=ActionInput, summary="Declare an action on a character (the player: "
                   "what happened to them; a narrator: any correction), at the instant of the "
                   "tap (`tapped_at`). Idempotency-Key header.")
    def post(self, request, character_id):
        character, as_narrator = character_visible(request.user, character_id)
        data = self.ActionInput(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            events = services.character_act(character=character, by=request.user,
                                            as_narrator=as_narrator, phone=request_phone(request),
                                            **data.validated_data)
            return answer(request, {"events": events, "snapshot": _snapshot(character.pk)})
        return idempotent(request, run)


def _patient(medic: Character, code: str) -> Character:
    return character_by_code(medic.event_id, code)


class PatientApi(APIView):
    @extend_schema(responses=PatientAnswer, summary="A medic identifies a patient by code (QR): name and the treatments "
                   "the medic's skills allow; never the patient's health")
    def get(self, request, character_id, code):
        medic = own_character(request.user, character_id)
        patient = _patient(medic, code)
        return answer(request, {"patient": {"id": patient.pk, "name": patient.name,
                                            "code": patient.code},
                                "treatments": medic_options(medic, patient)})


class TreatmentStartApi(APIView):
    class TreatmentInput(serializers.Serializer):
        patient_code = serializers.CharField(max_length=12)
        action = serializers.CharField(max_length=50)
        params = serializers.DictField(required=False, default=dict)

    @extend_schema(responses={201: TreatmentAnswer}, request=TreatmentInput, summary="A medic starts a treatment on a patient identified "
                   "by code. Idempotency-Key header.")
    def post(self, request, character_id):
        medic = own_character(request.user, character_id)
        data = self.TreatmentInput(data=request.data)
        data.is_valid(raise_exception=True)
        patient = _patient(medic, data.validated_data["patient_code"])

        def run():
            treatment = treatments.treatment_start(medic=medic, patient=patient, by=request.user,
                                                 action=data.validated_data["action"],
                                                 params=data.validated_data["params"])
            return answer(request, treatment_view(treatment, timezone.now()), status=201)
        return idempotent(request, run)


def _medics_treatment(request, treatment_id: int) -> Treatment:
    treatment = get_object_or_404(Treatment.objects.select_related("event", "patient", "medic"),
                                  pk=treatment_id)
    if treatment.medic.user_id != request.user.pk:
        raise NotFound()
    return treatment


class TreatmentApi(APIView):
    @extend_schema(responses=TreatmentAnswer, summary="A treatment of mine, with its remaining time")
    def get(self, request, treatment_id):
        return answer(request, treatment_view(_medics_treatment(request, treatment_id),
                                              timezone.now()))


def _finish(request, treatment_id: int, service, **given):
    """Complete or abort one of the caller's treatments (idempotent)."""
    treatment = _medics_treatment(request, treatment_id)

    def run():
        done = service(treatment=treatment, by=request.user, **given)
        return answer(request, treatment_view(done, timezone.now()))
    return idempotent(request, run)


class TreatmentCompleteApi(APIView):
    class CompleteInput(serializers.Serializer):
        # When the medic tapped "done", on the server's clock (a confirmation sent late).
        tapped_at = serializers.DateTimeField(required=False)

    @extend_schema(responses=TreatmentAnswer, request=CompleteInput, summary="Confirm a treatment played for its full "
                   "duration, at the instant of the tap (`tapped_at`). Idempotency-Key header.")
    def post(self, request, treatment_id):
        data = self.CompleteInput(data=request.data)
        data.is_valid(raise_exception=True)
        return _finish(request, treatment_id, treatments.treatment_complete,
                       phone=request_phone(request), **data.validated_data)


class TreatmentAbortApi(APIView):
    @extend_schema(responses=TreatmentAnswer, request=None, summary="Abort a treatment (no effect, no kit used)")
    def post(self, request, treatment_id):
        return _finish(request, treatment_id, treatments.treatment_abort)


class ActionUndoApi(APIView):
    @extend_schema(responses=UndoAnswer, request=None, summary="Undo a state change of a character within 10 s "
                   "(the narrator who made it): a correction line restores the state before it. A second call "
                   "answers the same correction.")
    def post(self, request, entry_id):
        entry = get_object_or_404(JournalEntry, pk=entry_id)
        event_for_narrator(request.user, entry.event_id)
        line = character_action_undo(entry=entry, by=request.user)
        return answer(request, {"correction": line.pk, "undoes": entry.pk,
                                "snapshot": _snapshot(entry.character_id)})
