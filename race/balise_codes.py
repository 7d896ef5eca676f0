"""The code printed under a balise's QR, typed by a survivor whose phone cannot scan (no
camera, a camera refused, a QR torn or wet): six characters of the alphabet of character
codes (no 0/O/1/I), worked out from what the QR holds.

It is as unguessable as the QR itself (whoever cannot read the QR cannot compute it) and
short enough to type in the dark, unlike the QR's `RBN-zY2GuUiPR3t`. The balise's number
is never enough: it is printed on the maps. Worked out rather than stored, it follows
the QR: a balise given a new QR (reprinted) has a new code too, and nothing is migrated."""
from __future__ import annotations

import hashlib

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
LENGTH = 6


def typed_code(qr: str) -> str:
    number = int.from_bytes(hashlib.sha256(qr.encode()).digest()[:8], "big")
    letters = []
    for _ in range(LENGTH):
        number, digit = divmod(number, len(ALPHABET))
        letters.append(ALPHABET[digit])
    return "".join(letters)
