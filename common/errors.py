"""Every refusal answers 4xx with a code and a sentence in the caller's language."""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied, RequestDataTooBig
from django.http import Http404
from django.utils.translation import get_language
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied, ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from common.i18n import refusal_text
from rulesets import RuleRefused
from rulesets.messages import DEFAULT_LANGUAGE, LANGUAGES

STATUS_BY_CODE = {
    "bad_input": 400, "no_days": 400, "unknown_action": 400, "bad_option": 400, "invalid_login": 400,
    "missing_skill": 403, "not_declarable": 403, "forbidden": 403,
    "unknown_code": 404, "unknown_item": 404, "item_self_only": 400, "not_yourself": 400,
    "body_too_large": 413, "malformed_json": 400, "json_too_deep": 400,
    "nul_character": 400, "lone_surrogate": 400, "number_too_large": 400,
    "idempotency_conflict": 422,
    "too_many_logins": 429, "logged_out": 401,
    # The database cannot be reached (common/unavailable.py): the phone sends it again.
    "database_unavailable": 503,
    # The airsoft club's register (club/services/) and chrony (club/services/chrony.py).
    "unknown_member": 404, "sanction_needs_organiser": 403, "revoke_needs_organiser": 403,
    "member_not_linked": 400,
    "exclusion_end_required": 400, "exclusion_too_long": 400, "exclusion_in_past": 400,
    "end_not_applicable": 400, "chrony_speed_or_energy": 400,
    # The games of an airsoft day (schedule/services/games.py).
    "game_option_unknown": 400, "game_option_invalid": 400,
    # A declaration tapped offline (health/declared_at.py); tap_while_paused and
    # tap_before_recorded are 409s.
    "tap_in_future": 400,
    # Personal data (players/privacy_services.py); personal_data_purged is a 409.
    "erase_not_confirmed": 400, "retention_days_invalid": 400,
    # Undoing a narrator's state change (health/undo.py).
    "sheet_number": 400, "sheet_choice": 400,
    # A runner's punch by a typed code (race/services/punches.py).
    "unknown_balise": 400, "balise_number_typed": 400,
    # The safety board's site plan (safety/plans.py, safety/placement.py).
    "plan_not_image": 400, "plan_too_large": 413, "plan_missing": 404, "plan_points_count": 400,
    "plan_point_outside": 400, "plan_points_too_close": 400, "plan_points_in_line": 400,
    "plan_points_mirrored": 400,
    "undo_not_possible": 400, "undo_not_yours": 403, "undo_too_late": 409, "undo_superseded": 409,
}


def request_language(request) -> str:
    lang = (getattr(request, "LANGUAGE_CODE", None) or get_language() or DEFAULT_LANGUAGE)[:2]
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


def refusal_status(exc: RuleRefused) -> int:
    return STATUS_BY_CODE.get(exc.code, status.HTTP_409_CONFLICT)


def refusal_response(exc: RuleRefused, request) -> Response:
    response = Response({"error": exc.code, "detail": refusal_text(exc, request_language(request))},
                        status=refusal_status(exc))
    if getattr(exc, "retry_after", None):
        response["Retry-After"] = str(exc.retry_after)
    if response.status_code == 401:     # HTTP requires it; the phone logs in by link
        response["WWW-Authenticate"] = 'Session realm="login link"'
    return response


def _flatten(detail, prefix="") -> list[str]:
    if isinstance(detail, dict):
        return [m for k, v in detail.items() for m in _flatten(v, f"{prefix}{k}: ")]
    if isinstance(detail, list):
        return [m for v in detail for m in _flatten(v, prefix)]
    return [f"{prefix}{detail}"]


def _session_ended(request) -> bool:
    """The phone sent a session cookie that no longer logs anyone in: its login ended (cut
    off as a lost phone, its account deactivated or erased, or expired). It is told so
    (401 logged_out), unlike a browser that never logged in (403 not_authenticated)."""
    return request is not None and settings.SESSION_COOKIE_NAME in request.COOKIES


def exception_handler(exc, context):
    request = context.get("request")
    if isinstance(exc, RequestDataTooBig):
        exc = RuleRefused("body_too_large",
                          limit_kib=str(settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024))
    if isinstance(exc, NotAuthenticated) and _session_ended(request):
        exc = RuleRefused("logged_out")
    if isinstance(exc, RuleRefused):
        return refusal_response(exc, request)
    # Django's own 404 and 403 carry no code, and get_object_or_404's names the model: an id
    # that does not exist would read unlike someone else's (the selectors' NotFound).
    if isinstance(exc, Http404):
        exc = NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ValidationError):
        problems = "; ".join(_flatten(exc.detail))
        refused = RuleRefused("bad_input", detail=problems)
        response.data = {"error": "bad_input", "detail": refusal_text(refused, request_language(request)),
                         "fields": exc.detail}
    elif isinstance(response.data, dict) and "detail" in response.data:
        response.data = {"error": getattr(exc, "default_code", "error"),
                         "detail": str(response.data["detail"])}
    return response
