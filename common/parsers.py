"""The API's only body parser: JSON, refused in the caller's language when it is
malformed, too deeply nested, or holds what PostgreSQL cannot store (a NUL character, a
lone UTF-16 surrogate, a number beyond a double). (A body over
DATA_UPLOAD_MAX_MEMORY_SIZE never gets here: DRF reads `request.body`, which Django refuses
with RequestDataTooBig; common.errors answers 413.)"""
from __future__ import annotations

import json
import math
import re

from rest_framework import parsers

from rulesets import RuleRefused

# Our deepest legitimate body is a character sheet (sheet > skills > level): 3 levels.
MAX_DEPTH = 32


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read()
        try:
            text = raw.decode("utf-8")
            data = json.loads(text, parse_constant=lambda name: _not_json(name, text))
        except RecursionError:  # the C decoder recurses once per level
            raise RuleRefused("json_too_deep", max_depth=str(MAX_DEPTH)) from None
        except ValueError as exc:
            raise RuleRefused("malformed_json", **_where(exc, raw)) from None
        _check(data)
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


def _check(data) -> None:
    """Walks the whole decoded body once, keys and values at any depth, iteratively so that
    a deep body cannot overflow the stack here."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            check_text(value)
        elif isinstance(value, float) and not math.isfinite(value):
            # 1e309 decodes to infinity: jsonb refuses it, a float column would store it.
            raise RuleRefused("number_too_large")
        elif isinstance(value, (dict, list)) and depth > MAX_DEPTH:
            raise RuleRefused("json_too_deep", max_depth=str(MAX_DEPTH))
        if isinstance(value, dict):
            stack.extend((child, depth + 1) for child in (*value.keys(), *value.values()))
        elif isinstance(value, list):
            stack.extend((child, depth + 1) for child in value)


def check_text(text: str) -> None:
    """PostgreSQL stores no NUL character, and a lone surrogate ("\\ud800" in JSON) has no
    UTF-8 form, so the database driver could not even send it."""
    if "\x00" in text:
        raise RuleRefused("nul_character")
    if not text.isascii() and _SURROGATE.search(text):
        raise RuleRefused("lone_surrogate")


_SURROGATE = re.compile("[\ud800-\udfff]")
