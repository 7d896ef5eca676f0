"""A player's phone reads its character's snapshot over HTTP from the pass and the ready
snapshot its socket reconnects with (live/passes.py): on the event loop, in one Redis round
trip, with no thread and no database.

The phone reads GET /api/characters/<id>/ whenever it opens or comes back (js/player.js).
Through Django that read costs a thread hop, the whole middleware chain, the session's row
and the character's: about five times a constant answer (docs/performance.md). In front of
Django, a read that the long way would answer with the player's own snapshot is answered
here, with the same body and headers. Anything else goes on to Django unchanged: another
method or path, a query string, another format than JSON, a body, a host or a scheme that
Django would refuse or redirect, a session with no valid pass (a narrator's, one never
proven, one whose access may have shrunk since), a snapshot no longer true. The long way
leaves the pass for the next read (health/apis.py CharacterApi).

What Django's middleware notes of such a read is noted too, within a second: the phone's
contact (real-world safety's last seen) and what its outbox holds (live/contacts.py).
"""
from __future__ import annotations

import functools
import io
import logging
import re

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponse
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.common import CommonMiddleware
from django.middleware.csp import ContentSecurityPolicyMiddleware
from django.middleware.security import SecurityMiddleware
from django.utils import timezone, translation
from redis.exceptions import RedisError
from rest_framework.renderers import JSONRenderer

from common.errors import request_language
from common.http import answer_body

from . import passes
from .contacts import contacts_note, outbox_note
from .phone_contact import HEADER as OUTBOX_HEADER

logger = logging.getLogger(__name__)

PATH = re.compile(r"/api/characters/([0-9]{1,18})/")
# What DRF and Django's middleware add to the long way's answer (tests/live/test_snapshot_http.py
# compares the two, header by header).
VARY = "Accept, Accept-Language, Cookie"
ALLOW = "GET, HEAD, OPTIONS"


class ReadySnapshots:
    """In front of Django's HTTP application (config/asgi.py)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "GET" and not scope.get("query_string"):
            match = PATH.fullmatch(scope["path"])
            if match and await _answer_ready(scope, send, int(match[1])):
                return
        await self.app(scope, receive, send)


@functools.cache
def _middleware() -> tuple[list, list]:
    """Django's own middleware for what they decide before a view (a redirect to https or
    to www, a host it refuses) and the headers they add after it."""
    def unused(request):
        raise AssertionError("only their hooks are called here")
    before = [SecurityMiddleware(unused), CommonMiddleware(unused)]
    after = [ContentSecurityPolicyMiddleware(unused), XFrameOptionsMiddleware(unused),
             SecurityMiddleware(unused)]
    return before, after


def _request(scope) -> ASGIRequest | None:
    """Django's request for this scope, when the long way would serve it as it is."""
    try:
        request = ASGIRequest(scope, io.BytesIO())
    except Exception:   # headers it cannot read: the long way answers as Django does
        return None
    if request.headers.get("Accept") != "application/json":
        return None     # DRF's content negotiation: the browsable API, an error
    if request.META.get("CONTENT_LENGTH") or "HTTP_TRANSFER_ENCODING" in request.META:
        return None
    try:
        if any(middleware.process_request(request) for middleware in _middleware()[0]):
            return None
    except Exception:   # a host Django refuses, a user agent it turns away: its answer
        return None
    return request


async def _answer_ready(scope, send, character_id: int) -> bool:
    """True once the snapshot is sent; False: nothing was sent, the long way answers."""
    arrived = timezone.now()
    request = _request(scope)
    session_key = request and request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not session_key:
        return False
    try:
        ready = await passes.ready_snapshot(session_key=session_key, character_id=character_id)
    except (RedisError, OSError, TimeoutError) as error:    # Redis restarted or gone
        logger.warning("ready snapshot not read, the long way answers: %r", error)
        return False
    if ready is None:
        return False
    _event_id, user_id, snapshot = ready
    # As LocaleMiddleware decides it (no language in the API's paths).
    request.LANGUAGE_CODE = translation.get_language_from_request(request, check_path=False)
    body = JSONRenderer().render(answer_body(snapshot, request_language(request)))
    response = _response(request, body)
    await send({"type": "http.response.start", "status": 200,
                "headers": [(name.encode("latin-1"), value.encode("latin-1"))
                            for name, value in response.items()]})
    await send({"type": "http.response.body", "body": body})
    contacts_note(user_id)
    told = request.headers.get(OUTBOX_HEADER)
    if told:
        outbox_note(phone=session_key, value=told, at=arrived)
    return True


def _response(request, body: bytes) -> HttpResponse:
    response = HttpResponse(body, content_type="application/json")
    response["Vary"] = VARY
    response["Allow"] = ALLOW
    response["Content-Length"] = str(len(body))
    response["Content-Language"] = request.LANGUAGE_CODE
    for middleware in _middleware()[1]:
        response = middleware.process_response(request, response)
    return response
