"""Sessions are Django's database sessions read with one plain statement
(common/sessions.py): what a phone's session holds, and when it no longer counts."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.utils import timezone

from common.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_a_session_reads_back_what_was_saved_until_it_expires(clock):
    saved = SessionStore()
    saved["_auth_user_id"] = "42"
    saved.create()
    key = saved.session_key
    assert SessionStore(key)["_auth_user_id"] == "42"

    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    expired = SessionStore(key)
    assert expired.get("_auth_user_id") is None
    assert expired.session_key is None          # a new session would get a new key


@pytest.mark.parametrize("key", ["made-up-0123456789abcdefghijklmnopqrstuv", "short", "", None,
                                 "x' OR '1'='1' --0123456789abcdef"])
def test_an_unknown_or_malformed_key_reads_as_an_empty_session(key, clock):
    session = SessionStore(key)
    assert session.get("_auth_user_id") is None and session.is_empty()
