"""Query parameters are read by many views (a search, a filter, an id) and some reach the
database as text: refuse once, here, what PostgreSQL cannot store, before any view runs.
(Percent-encoded bytes that are not UTF-8 are decoded as U+FFFD, so no lone surrogate gets
this far; a NUL does.)"""
from __future__ import annotations

import io

from django.conf import settings
from django.http import JsonResponse

from rulesets import RuleRefused

from .errors import refusal_status, request_language
from .i18n import refusal_text
from .parsers import check_text


class QueryTextMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            for name, values in request.GET.lists():
                for text in (name, *values):
                    check_text(text)
        except RuleRefused as refused:
            return JsonResponse({"error": refused.code,
                                 "detail": refusal_text(refused, request_language(request))},
                                status=refusal_status(refused))
        return self.get_response(request)


class BodyLimitMiddleware:
    """Every body, whatever its type (JSON, text/csv, multipart), is refused with 413
    `body_too_large` when its Content-Length is over the route's limit, before anything
    reads it: DATA_UPLOAD_MAX_MEMORY_SIZE (64 KiB), or the setting the view's `body_limit_setting`
    names (the CSV imports: IMPORT_MAX_BODY). Django itself checks only `request.body` and form fields,
    which a CSV or an uploaded file never goes through. (Under ASGI a body without
    Content-Length is read as empty.)"""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        view_class = getattr(view_func, "cls", None) or getattr(view_func, "view_class", None)
        limit = getattr(settings, getattr(view_class, "body_limit_setting", "DATA_UPLOAD_MAX_MEMORY_SIZE"))
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length <= limit:
            if limit > settings.DATA_UPLOAD_MAX_MEMORY_SIZE and not request._read_started:
                # Read here, within this route's limit, so that `request.body` (which DRF and
                # the idempotency digest read) does not refuse it at Django's 64 KiB.
                request._body = request.read()
                request._stream = io.BytesIO(request._body)
            return None
        refused = RuleRefused("body_too_large", limit_kib=str(limit // 1024))
        return JsonResponse({"error": refused.code,
                             "detail": refusal_text(refused, request_language(request))},
                            status=refusal_status(refused))
