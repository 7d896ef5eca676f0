"""The API's only body parser: JSON, refused in the caller's language when it is too large,
malformed or too deeply nested. DRF reads the body as a stream, so Django's
DATA_UPLOAD_MAX_MEMORY_SIZE (checked only by `request.body`) is enforced here too."""
from __future__ import annotations

import json

from django.conf import settings
from rest_framework import parsers

from rulesets import RuleRefused

# Our deepest legitimate body is a character sheet (sheet > skills > level): 3 levels.
MAX_DEPTH = 32


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise RuleRefused("body_too_large", limit_kib=str(limit // 1024))
        try:
            text = raw.decode("utf-8")
            data = json.loads(text, parse_constant=lambda name: _not_json(name, text))
        except RecursionError:  # the C decoder recurses once per level
            raise RuleRefused("json_too_deep", max_depth=str(MAX_DEPTH)) from None
        except ValueError as exc:
            raise RuleRefused("malformed_json", **_where(exc, raw)) from None
        if _depth(data) > MAX_DEPTH:
            raise RuleRefused("json_too_deep", max_depth=str(MAX_DEPTH))
        return data


def _not_json(name: str, text: str):
    """NaN and Infinity are not JSON, and PostgreSQL's jsonb would refuse them when stored."""
    raise json.JSONDecodeError(f"{name} is not JSON", text, max(text.find(name), 0))


def _where(exc: ValueError, raw: bytes) -> dict:
    """Line and column of the problem, for a JSON syntax error or bytes that are not UTF-8."""
    if isinstance(exc, json.JSONDecodeError):
        return {"line": str(exc.lineno), "column": str(exc.colno)}
    offset = getattr(exc, "start", 0)
    line_start = raw.rfind(b"\n", 0, offset) + 1
    return {"line": str(raw.count(b"\n", 0, offset) + 1), "column": str(offset - line_start + 1)}


def _depth(data) -> int:
    """Iterative, so that measuring a deep body cannot itself overflow the stack."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            deepest = max(deepest, depth)
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
    return deepest
