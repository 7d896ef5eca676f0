"""When the database cannot be reached (stopped, restarting, the network to it down), every
route answers 503 `database_unavailable` with Retry-After, as JSON: the phone's outbox keeps
the write and sends it again after that many seconds (frontend/static/frontend/js/api.js),
instead of reading Django's HTML error page as an answer. Any other failure keeps Django's
500 page.

Django turns an exception raised anywhere in the middleware or the view into the response
of the `handler500` view (config/urls.py), still inside the `except` block: this is that
view, so no layer (the session read, the user's lookup, the view) is left out."""
from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.views import defaults

from rulesets import RuleRefused

from .errors import request_language
from .i18n import refusal_text

RETRY_AFTER_S = 5          # a PostgreSQL restart or failover takes seconds


def _database_down(exc) -> bool:
    seen = set()
    while exc is not None and id(exc) not in seen:       # the cause may be wrapped
        if isinstance(exc, (OperationalError, InterfaceError)):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def server_error(request, *args, **kwargs):
    if not _database_down(sys.exc_info()[1]):
        return defaults.server_error(request, *args, **kwargs)
    refused = RuleRefused("database_unavailable", seconds=str(RETRY_AFTER_S))
    try:
        detail = refusal_text(refused, request_language(request))
    except Exception:      # the sentence must not need what just failed
        detail = "The server cannot reach its database; try again in a few seconds."
    if request.path.startswith("/api/"):
        response = JsonResponse({"error": refused.code, "detail": detail}, status=503)
    else:
        response = HttpResponse(detail, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_S)
    return response
