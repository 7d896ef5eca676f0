"""Requests to the organisers (GA17): a player asks for their own character; narrators
list the open ones and answer each with an effect."""
# Rule codes: docs/rules/gn_fr-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from common.http import answer
from common.idempotency import idempotent
from players.selectors import event_for_narrator, own_character
from rulesets import RuleRefused

from .models import OrganiserRequest
from .answers import OrganiserRequestAnswer, OrganiserRequestsAnswer
from .selectors.requests import event_requests, request_view
from .services import requests as services

STATUSES = (OrganiserRequest.OPEN, OrganiserRequest.ANSWERED)


class CharacterRequestsApi(APIView):
    class AskInput(serializers.Serializer):
        # Checked by the service too (empty once stripped, too long), with the same words.
        text = serializers.CharField(max_length=OrganiserRequest.TEXT_MAX, allow_blank=True)

    @extend_schema(responses={201: OrganiserRequestAnswer}, request=AskInput, summary="Ask the "
                   "organisers something only they settle, e.g. damaging an object (the "
                   "character's player). Idempotency-Key header.")
    def post(self, request, character_id):
        character = own_character(request.user, character_id)
        data = self.AskInput(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            asked = services.request_ask(character=character, text=data.validated_data["text"],
                                         by=request.user)
            return answer(request, request_view(asked), status=201)
        return idempotent(request, run)


class EventRequestsApi(APIView):
    @extend_schema(responses=OrganiserRequestsAnswer, parameters=[OpenApiParameter(
        "status", str, enum=list(STATUSES), description="Default: every request")],
        summary="The requests to the organisers (narrators), 100 at most: open ones oldest "
                "first, otherwise newest first")
    def get(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        status = request.query_params.get("status") or None
        if status not in (None, *STATUSES):
            raise RuleRefused("bad_input", detail=f"'status' is one of {', '.join(STATUSES)}")
        return answer(request, {"requests": event_requests(event, status)})


class RequestAnswerApi(APIView):
    class AnswerInput(serializers.Serializer):
        text = serializers.CharField(max_length=services.ANSWER_MAX)
        duration_s = serializers.FloatField(required=False, allow_null=True, min_value=1,
                                            max_value=7 * 24 * 3600)
        set_state = serializers.CharField(required=False, allow_blank=True, max_length=40)

    @extend_schema(responses=OrganiserRequestAnswer, request=AnswerInput, summary="Answer a "
                   "request (narrators): the answer reaches the player as an effect, and the "
                   "request is closed. Idempotency-Key header.")
    def post(self, request, request_id):
        asked = get_object_or_404(OrganiserRequest.objects.select_related("event"), pk=request_id)
        event_for_narrator(request.user, asked.event_id)
        data = self.AnswerInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data

        def run():
            answered = services.request_answer(
                request=asked, text=fields["text"], duration_s=fields.get("duration_s"),
                set_state=fields.get("set_state") or None, by=request.user)
            return answer(request, request_view(answered))
        return idempotent(request, run)
