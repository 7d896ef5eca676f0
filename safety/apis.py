"""Real-world safety over HTTP. Views parse input, call one service and serialize the
answer with the reads (safety/selectors.py). A call is anyone's in the event; taking,
closing, the board, "seen" and checking someone out are the responders' (the narrators and
the safety team); the board's settings and "out for real" (it stops game timers) are the
narrators' alone; a player reads and writes only their own calls, battery, check-out and
position (sent only while the event tracks races and theirs runs)."""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.views import APIView

from common.http import answer
from health.holds import character_hold, character_release, held_of_event
from common.idempotency import idempotent
from players.selectors import (character_visible, event_for_member, event_for_narrator,
                               is_narrator, own_character)

from . import services
from .answers import (ContactAnswer, HelpCallAnswer, HelpCallsAnswer, OutForRealSetAnswer,
                      OwnHelpCallAnswer, PositionRecordedAnswer, SafetyBoardAnswer,
                      SafetySettingsAnswer, TrackingAnswer)
from .models import HelpCall
from .selectors import (call_view, call_view_for_caller, character_for_safety, event_calls,
                        event_for_safety, is_safety_responder, own_calls, safety_board,
                        settings_view, tracking_state)


class PositionInput(serializers.Serializer):
    latitude = serializers.FloatField(min_value=-90, max_value=90)
    longitude = serializers.FloatField(min_value=-180, max_value=180)
    accuracy_m = serializers.FloatField(min_value=0, max_value=1_000_000, required=False, allow_null=True)


class HelpCallsApi(APIView):
    class CallInput(serializers.Serializer):
        kind = serializers.ChoiceField(choices=HelpCall.KINDS)
        note = serializers.CharField(max_length=HelpCall.NOTE_MAX, allow_blank=True, required=False)
        tapped_at = serializers.DateTimeField(required=False)
        position = PositionInput(required=False, allow_null=True)

    @extend_schema(request=CallInput, responses={201: OwnHelpCallAnswer},
                   summary="I need help (real): a call to the organisers from anyone in the "
                           "event; pauses nothing. Idempotency-Key header.")
    def post(self, request, event_id):
        event = event_for_member(request.user, event_id)
        data = self.CallInput(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data

        def run():
            call = services.help_call(event=event, by=request.user, kind=given["kind"],
                                      note=given.get("note", ""), tapped_at=given.get("tapped_at"),
                                      position=given.get("position"))
            return answer(request, call_view_for_caller(call), status=201)
        return idempotent(request, run)

    @extend_schema(responses=HelpCallsAnswer,
                   summary="Responders (narrators, safety team): every call not closed and "
                           "the last closed ones. Anyone else: their own calls only.")
    def get(self, request, event_id):
        event = event_for_member(request.user, event_id)
        if is_safety_responder(request.user, event):
            return answer(request, {"calls": event_calls(event), "organiser": True})
        return answer(request, {"calls": own_calls(event, request.user), "organiser": False})


def _call_for_responder(request, call_id: int) -> HelpCall:
    call = get_object_or_404(HelpCall.objects.select_related("event"), pk=call_id)
    event_for_safety(request.user, call.event_id)
    return call


class HelpTakeApi(APIView):
    @extend_schema(request=None, responses=HelpCallAnswer,
                   summary="I'm on it (narrators, safety team). Idempotency-Key header.")
    def post(self, request, call_id):
        call = _call_for_responder(request, call_id)
        return idempotent(request, lambda: answer(
            request, call_view(services.help_take(call=call, by=request.user))))


class HelpCloseApi(APIView):
    class CloseInput(serializers.Serializer):
        outcome = serializers.ChoiceField(choices=HelpCall.OUTCOMES)
        note = serializers.CharField(max_length=HelpCall.NOTE_MAX, allow_blank=True, required=False)

    @extend_schema(request=CloseInput, responses=HelpCallAnswer,
                   summary="Close a call with its outcome (narrators, safety team). "
                           "Idempotency-Key header.")
    def post(self, request, call_id):
        call = _call_for_responder(request, call_id)
        data = self.CloseInput(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        return idempotent(request, lambda: answer(request, call_view(services.help_close(
            call=call, by=request.user, outcome=given["outcome"], note=given.get("note", "")))))


class SafetyBoardApi(APIView):
    @extend_schema(responses=SafetyBoardAnswer,
                   summary="The safety board (narrators, safety team): calls, silent phones, low "
                           "batteries, out for real, not checked out after the end; still out "
                           "per team. `narrator`: whether the reader may change the settings, "
                           "the plan and out for real.")
    def get(self, request, event_id):
        event = event_for_safety(request.user, event_id)
        board = safety_board(event, timezone.now(), held_of_event(event))
        return answer(request, {**board, "narrator": is_narrator(request.user, event)})


class SafetySettingsApi(APIView):
    class SettingsInput(serializers.Serializer):
        silent_after_min = serializers.IntegerField(required=False, min_value=1,
                                                    max_value=services.SILENT_AFTER_MIN_MAX)
        battery_low_pct = serializers.IntegerField(required=False, min_value=0, max_value=100)
        ends_at = serializers.DateTimeField(required=False, allow_null=True)
        race_tracking = serializers.BooleanField(required=False)

    @extend_schema(request=SettingsInput, responses=SafetySettingsAnswer,
                   summary="The event's safety options (organisers). Idempotency-Key header.")
    def post(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        data = self.SettingsInput(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        return idempotent(request, lambda: answer(request, settings_view(services.settings_store(
            event=event, by=request.user, silent_after_min=given.get("silent_after_min"),
            battery_low_pct=given.get("battery_low_pct"), ends_at=given.get("ends_at"),
            ends_at_given="ends_at" in given, race_tracking=given.get("race_tracking")))))


def _contact_view(contact) -> dict:
    return {"character": contact.character_id,
            "checked_out_at": contact.checked_out_at.isoformat() if contact.checked_out_at else None,
            "battery_level": contact.battery_level}


class BatteryApi(APIView):
    class BatteryInput(serializers.Serializer):
        level = serializers.FloatField(min_value=0, max_value=1)
        charging = serializers.BooleanField(required=False, allow_null=True)

    @extend_schema(request=BatteryInput, responses=ContactAnswer,
                   summary="The phone's battery (navigator.getBattery), by the character's player")
    def post(self, request, character_id):
        character = own_character(request.user, character_id)
        data = self.BatteryInput(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        return idempotent(request, lambda: answer(request, _contact_view(services.battery_report(
            character=character, level=given["level"], charging=given.get("charging")))))


class PositionApi(APIView):
    class FixInput(PositionInput):
        at = serializers.DateTimeField(help_text="The phone's fix time (GeolocationPosition.timestamp)")

    @extend_schema(responses=TrackingAnswer,
                   summary="Whether the character's phone should share its position now "
                           "(`tracking`), and why not (`why_not`), for its player")
    def get(self, request, character_id):
        return answer(request, tracking_state(own_character(request.user, character_id)))

    @extend_schema(request=FixInput, responses=PositionRecordedAnswer,
                   summary="A runner's position while the event tracks its race (its player). "
                           "Only the latest fix is kept; an older one is ignored. "
                           "Idempotency-Key header.")
    def post(self, request, character_id):
        character = own_character(request.user, character_id)
        data = self.FixInput(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data

        def run():
            contact = services.position_record(
                character=character, latitude=given["latitude"],
                longitude=given["longitude"], accuracy_m=given.get("accuracy_m"), at=given["at"])
            return answer(request, {"character": character.pk, "tracking": True,
                                    "position_at": contact.position_at.isoformat()})
        return idempotent(request, run)


class CheckOutApi(APIView):
    class CheckOutInput(serializers.Serializer):
        out = serializers.BooleanField(default=True,
                                       help_text="false: back on the field (narrators, safety team)")

    @extend_schema(request=CheckOutInput, responses=ContactAnswer,
                   summary="Left the field (its player, or a narrator or the safety team for "
                           "them), who may undo it with out=false. Idempotency-Key header.")
    def post(self, request, character_id):
        character, as_responder = character_for_safety(request.user, character_id)
        data = self.CheckOutInput(data=request.data)
        data.is_valid(raise_exception=True)
        out = data.validated_data["out"]
        if not out and not as_responder:
            raise PermissionDenied()
        write = services.contact_check_out if out else services.contact_check_in_again
        return idempotent(request, lambda: answer(request, _contact_view(write(
            character=character, by=request.user))))


class SeenApi(APIView):
    @extend_schema(request=None, responses=ContactAnswer,
                   summary="Mark a board row seen (narrators, safety team); journalled. "
                           "Idempotency-Key header.")
    def post(self, request, character_id):
        character, as_responder = character_for_safety(request.user, character_id)
        if not as_responder:
            raise PermissionDenied()
        return idempotent(request, lambda: answer(request, _contact_view(services.contact_acknowledge(
            character=character, by=request.user))))


class OutForRealApi(APIView):
    class HoldInput(serializers.Serializer):
        out = serializers.BooleanField(default=True, help_text="false: lift it, back in the game")
        reason = serializers.CharField(max_length=200, required=False, allow_blank=True)

    @extend_schema(request=HoldInput, responses=OutForRealSetAnswer,
                   summary="Out of the game for real (a real injury; narrators): this "
                           "character's timers stop, and resume where they were when it is "
                           "lifted (out=false). Idempotency-Key header.")
    def post(self, request, character_id):
        character, as_narrator = character_visible(request.user, character_id)
        if not as_narrator:
            raise PermissionDenied()
        data = self.HoldInput(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data

        def run():
            if given["out"]:
                health = character_hold(character=character, reason=given.get("reason", ""),
                                        by=request.user)
            else:
                health = character_release(character=character, by=request.user)
            return answer(request, {"character": character.pk,
                                    "out_for_real": health.held_since_s is not None,
                                    "reason": health.held_reason or None,
                                    "timers": health.timers})
        return idempotent(request, run)
