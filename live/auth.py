"""Who a websocket's session says it is, found inside the consumer's own database call.

Channels' AuthMiddleware reads the session and then the user before the consumer runs,
on the one thread that all such lookups share (a crowd reconnecting at once queues
there), and with a query of its own. A phone's connect needs the user only to compare it
with the character it asks for, and that character's row can bring its player's user row
along (snapshots.character_row): for a player, the session's user id and that joined row
are all it takes, checked exactly as Django checks them (the backend, the session's
password hash, an active user). Anyone else (a narrator) is looked up as Django does.
"""
from __future__ import annotations

from types import SimpleNamespace

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.models import AnonymousUser
from django.utils.crypto import constant_time_compare


def session_user(session, *, known=None):
    """The session's user (AnonymousUser when there is none). Runs in a worker thread:
    reading the session is a query. `known`: a user row already read (the character's
    player), used when it is the session's user, without a query."""
    user_id = session.get(auth.SESSION_KEY)
    if user_id is None:
        return AnonymousUser()
    if known is not None and _is_session_user(session, known, user_id):
        return known
    return auth.get_user(SimpleNamespace(session=session))


def _is_session_user(session, user, user_id) -> bool:
    """Django's own checks (auth.get_user) on a row read elsewhere. A hash made with a
    fallback secret key is left to auth.get_user, which also renews it."""
    if str(user.pk) != str(user_id):
        return False
    if session.get(auth.BACKEND_SESSION_KEY) not in settings.AUTHENTICATION_BACKENDS:
        return False
    backend = auth.load_backend(session[auth.BACKEND_SESSION_KEY])
    if getattr(backend, "user_can_authenticate", lambda u: True)(user) is False:
        return False
    stored = session.get(auth.HASH_SESSION_KEY)
    return bool(stored) and constant_time_compare(stored, user.get_session_auth_hash())


def session_expires_in_s(session, now) -> float:
    """Seconds until the session's row expires, as read with it (common/sessions.py); 0
    when that was not read here."""
    expires_at = getattr(session, "expires_at", None)
    return 0.0 if expires_at is None else (expires_at - now).total_seconds()
