"""What every API answer shares: labels in the caller's language and the server's time."""
from __future__ import annotations

from django.utils import timezone
from rest_framework.response import Response

from .errors import request_language
from .i18n import localize

MAX_ID = 2 ** 63 - 1  # the largest id a database column holds (SQLite overflows beyond)


def answer(request, data, status=200) -> Response:
    return Response(answer_body(data, request_language(request)), status=status)


def answer_body(data, language: str):
    """Labels in the caller's language, and the server's time for the phone's clock offset."""
    body = localize(data, language)
    if isinstance(body, dict):
        body["server_time"] = timezone.now().timestamp()
    return body
