"""Whole numbers that come from outside (a query parameter, a websocket handshake, a cell
of an imported file), read one way: digits only, length checked before conversion.

Python refuses to convert a string of more than 4,300 digits (ValueError, a 500 if
unguarded) and PostgreSQL refuses an id beyond its column (a 500 too): a number longer
than the largest it may be is refused before `int()` ever sees it.
"""
from __future__ import annotations

from .http import MAX_ID


def whole_number(raw, *, maximum: int = MAX_ID, minimum: int = 0) -> int | None:
    """`raw` as an int from `minimum` to `maximum`, or None when it is not one (not a
    string, not ASCII digits, too long, out of range)."""
    if not isinstance(raw, str):
        return None
    raw = raw.strip()
    # isascii: str.isdigit() accepts "²", which int() refuses.
    if not (raw.isascii() and raw.isdigit()):
        return None
    digits = raw.lstrip("0") or "0"      # a finger card's leading zeros are not length
    if len(digits) > len(str(maximum)):
        return None
    value = int(digits)
    return value if minimum <= value <= maximum else None
