"""The event's site plan over HTTP: its narrators upload its image and place it with
reference points; they and the safety team read the image. Anyone else gets 404, as for
the board."""
from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.parsers import BaseParser, JSONParser, MultiPartParser
from rest_framework.views import APIView

from common.http import answer
from common.idempotency import idempotent
from players.selectors import event_for_narrator
from rulesets import RuleRefused

from . import plans
from .answers import SitePlanAnswer
from .selectors import event_for_safety, plan_image, plan_view


class ImageParser(BaseParser):
    """A body that is the image itself (`Content-Type: image/png`, `image/jpeg`...)."""
    media_type = "image/*"

    def parse(self, stream, media_type=None, parser_context=None):
        return {"image": stream.read() if stream is not None else b""}


def uploaded_image(data) -> bytes:
    """The image's bytes: the body itself, or a multipart `file`. Anything else (a JSON
    body, a form without a file) is no image."""
    given = data.get("image") if hasattr(data, "get") else None
    if isinstance(given, bytes):
        return given
    upload = data.get("file") if hasattr(data, "get") else None
    if upload is not None and hasattr(upload, "read"):
        return upload.read()
    raise RuleRefused("plan_not_image")


class SitePlanApi(APIView):
    parser_classes = [ImageParser, MultiPartParser, JSONParser]
    body_limit_setting = "SITE_PLAN_MAX_BODY"    # a whole image (common.middleware)

    @extend_schema(request=OpenApiTypes.BINARY, responses={201: SitePlanAnswer},
                   summary="Upload the event's site plan (organisers): a PNG, JPEG or WebP as "
                           "the body (Content-Type image/...) or a multipart `file`. Replaces "
                           "the last one and its reference points. Idempotency-Key header.")
    def post(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        image = uploaded_image(request.data)
        return idempotent(request, lambda: answer(
            request, plan_view(plans.plan_upload(event=event, by=request.user, data=image)), status=201))


class SitePlanPointsApi(APIView):
    class PointInput(serializers.Serializer):
        x = serializers.FloatField()
        y = serializers.FloatField()
        latitude = serializers.FloatField(min_value=-90, max_value=90)
        longitude = serializers.FloatField(min_value=-180, max_value=180)

    class PointsInput(serializers.Serializer):
        points = serializers.ListField(max_length=10)

    @extend_schema(request=PointsInput, responses=SitePlanAnswer,
                   summary="Place the site plan (organisers): two or three reference points "
                           "{x, y, latitude, longitude}, pixels of the image and where they are "
                           "on the ground. Idempotency-Key header.")
    def post(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        data = self.PointsInput(data=request.data)
        data.is_valid(raise_exception=True)
        points = self.PointInput(data=data.validated_data["points"], many=True)
        points.is_valid(raise_exception=True)
        return idempotent(request, lambda: answer(request, plan_view(plans.plan_place(
            event=event, by=request.user, points=[dict(p) for p in points.validated_data]))))


class SitePlanImageApi(APIView):
    @extend_schema(responses={(200, "image/*"): OpenApiTypes.BINARY},
                   summary="The site plan's image (narrators, safety team); its URL, with the "
                           "image's version, is the board's `plan.image_url`")
    def get(self, request, event_id):
        event = event_for_safety(request.user, event_id)
        plan = plan_image(event)
        if plan is None:
            raise RuleRefused("plan_missing")
        response = HttpResponse(bytes(plan.image), content_type=plan.content_type)
        # The URL changes with the image (`?v=`): a phone keeps it for the day without asking.
        response["Cache-Control"] = "private, max-age=86400"
        response["X-Content-Type-Options"] = "nosniff"
        return response
