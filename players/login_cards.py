"""Card codes: the login code printed on a character's card.

A card code logs in as often as needed (a new phone, a phone reset the night before) until
an organiser replaces it or the event's personal data is purged. Printing never changes it:
the code is derived from a random salt kept in the database and the server's secret, so a
second print shows the same code while the database alone holds only its hash. Replacing
codes is a separate, confirmed act (one character, or everyone).
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .models import Character, Event, LoginToken
from .services import journal_write
from .tokens import token_hash

# No 0/O/1/I: the code is typed by a player from paper, maybe in the dark.
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
LENGTH = 12   # 60 bits; failed attempts are rate-limited per address


def card_code_display(code: str) -> str:
    """Grouped by four, as printed: ABCD-EFGH-JKLM."""
    return "-".join(code[i:i + 4] for i in range(0, len(code), 4))


def _derive(salt: str) -> str:
    digest = hmac.new(settings.SECRET_KEY.encode(), f"login-card:{salt}".encode(),
                      hashlib.sha256).digest()
    return "".join(ALPHABET[b % len(ALPHABET)] for b in digest[:LENGTH])


class CardCodesUnreadable(Exception):
    """The server's secret changed since the codes were made (SECRET_KEY): they can no
    longer be printed. Printing would print dead cards, so it stops and says so."""


def _new_card(event: Event, user_id: int) -> tuple[LoginToken, str]:
    salt = secrets.token_hex(16)
    code = _derive(salt)
    return LoginToken(user_id=user_id, event=event, kind=LoginToken.CARD, salt=salt,
                      token_hash=token_hash(code), expires_at=None), code


def _readable(token: LoginToken) -> str:
    code = _derive(token.salt)
    if token_hash(code) != token.token_hash:
        # The server's secret changed since the code was made: reprinting would print a
        # code that does not log in. Say so rather than print dead cards.
        raise CardCodesUnreadable()
    return code


@transaction.atomic
def login_cards_ensure(*, event: Event, by=None) -> dict[int, str]:
    """Every character's card code, by character id; a character without one gets one.
    Never changes an existing code, so printing twice prints the same codes."""
    characters = list(event.characters.exclude(user=None).only("pk", "user_id"))
    cards = {t.user_id: t for t in LoginToken.objects.filter(
        event=event, kind=LoginToken.CARD, user_id__in=[c.user_id for c in characters])}
    made, codes = [], {}
    for character in characters:
        token = cards.get(character.user_id)
        if token is None:
            token, code = _new_card(event, character.user_id)
            cards[character.user_id] = token
            made.append(token)
            codes[character.pk] = code
        else:
            codes[character.pk] = _readable(token)
    LoginToken.objects.bulk_create(made, batch_size=1000)
    if made:
        journal_write(event=event, kind="login", what="card_codes_made", at=timezone.now(),
                      by=by, detail={"count": len(made)})
    return codes


@transaction.atomic
def login_card_replace(*, character: Character, by) -> str:
    """A new card code for one character (a lost card, a lost phone): their old card and
    any unused link of theirs no longer log in; everyone else's card is unchanged."""
    event = character.event
    now = timezone.now()
    LoginToken.objects.filter(event=event, user_id=character.user_id, kind=LoginToken.CARD).delete()
    LoginToken.objects.filter(user_id=character.user_id, kind=LoginToken.LINK, used_at__isnull=True,
                              expires_at__gt=now).update(expires_at=now)
    token, code = _new_card(event, character.user_id)
    token.save(force_insert=True)
    journal_write(event=event, kind="login", what="card_code_replaced", at=now,
                  by=by, character=character)
    return code


@transaction.atomic
def login_cards_replace_all(*, event: Event, by) -> int:
    """New card codes for every character of the event (a stolen box of cards): every
    printed card stops logging in and must be printed again."""
    users = list(event.characters.exclude(user=None).values_list("user_id", flat=True))
    LoginToken.objects.filter(event=event, kind=LoginToken.CARD).delete()
    cards = [_new_card(event, user_id)[0] for user_id in users]
    LoginToken.objects.bulk_create(cards, batch_size=1000)
    journal_write(event=event, kind="login", what="card_codes_replaced", at=timezone.now(),
                  by=by, detail={"count": len(cards)})
    return len(cards)


def login_card_code(*, character: Character) -> str | None:
    """The character's current card code (for a replayed request), None if it has none."""
    token = LoginToken.objects.filter(event_id=character.event_id, user_id=character.user_id,
                                      kind=LoginToken.CARD).first()
    return _readable(token) if token else None
