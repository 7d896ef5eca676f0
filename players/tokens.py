"""How login secrets are stored: as hashes, never raw (players/services.py, login_cards.py)."""
from __future__ import annotations

import hashlib


def token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def card_code_normal(raw: str) -> str:
    """A card code as stored, from what a person typed ("abcd-efgh jklm")."""
    return "".join(ch for ch in (raw or "").upper() if ch not in " -")


def login_token_hashes(raw: str) -> list[str]:
    """What a link or a typed code may be stored as: a one-time link exactly, a card code
    as printed or typed."""
    raw = raw or ""
    typed = card_code_normal(raw)
    return [token_hash(raw), token_hash(typed)] if typed != raw else [token_hash(raw)]
