"""Query parameters are read by many views (a search, a filter, an id) and some reach the
database as text: refuse once, here, what PostgreSQL cannot store, before any view runs.
(Percent-encoded bytes that are not UTF-8 are decoded as U+FFFD, so no lone surrogate gets
this far; a NUL does.)"""
from __future__ import annotations

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
