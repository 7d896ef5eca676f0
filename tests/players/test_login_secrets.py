"""No login secret at rest: an idempotent write whose answer is a login link keeps only
what is needed to issue a fresh one, and a replay answers that fresh one (which revokes
the link of the lost answer). Printing changes no code; new card codes are a POST with the
page's CSRF token."""
from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from common.models import IdempotencyRecord
from players.models import LoginToken

pytestmark = pytest.mark.django_db


def token_of(url: str) -> str:
    return url.rsplit("/", 1)[1]


def assert_no_secret_at_rest(*tokens):
    for record in IdempotencyRecord.objects.all():
        for token in tokens:
            assert token not in str(record.body)


def logs_in(token: str) -> int:
    return APIClient().post("/api/login/", {"token": token}, format="json").status_code


def test_a_login_link_issued_with_an_idempotency_key_is_not_stored(clock, player, narrator_api):
    url = f"/api/characters/{player.pk}/login-link/"
    first = narrator_api.post(url, HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == 201
    token = token_of(first.json()["url"])
    assert IdempotencyRecord.objects.count() == 1
    assert_no_secret_at_rest(token)

    replay = narrator_api.post(url, HTTP_IDEMPOTENCY_KEY="k1")

    # The organiser whose answer was lost gets a working link; the lost one is revoked.
    assert replay.status_code == 201
    assert replay["Idempotent-Replayed"] == "true"
    assert replay.json()["character"] == player.pk
    fresh = token_of(replay.json()["url"])
    assert fresh != token
    assert_no_secret_at_rest(token, fresh)
    assert logs_in(token) == 400
    assert logs_in(fresh) == 200


def test_the_cards_page_changes_no_code_and_mints_no_link(clock, event, player, medic, narrator_api):
    first = narrator_api.get(f"/events/{event.pk}/sheets/")
    assert first.status_code == 200
    html = first.content.decode()
    assert html.count("<svg") == 2 and player.code in html and medic.code in html
    cards = set(LoginToken.objects.values_list("token_hash", flat=True))
    assert len(cards) == 2 and not LoginToken.objects.filter(kind=LoginToken.LINK).exists()
    narrator_api.get(f"/events/{event.pk}/sheets/")
    assert set(LoginToken.objects.values_list("token_hash", flat=True)) == cards


def test_printing_does_not_revoke_a_link_sent_before(clock, event, player, narrator_api):
    old = token_of(narrator_api.post(f"/api/characters/{player.pk}/login-link/").json()["url"])
    assert narrator_api.get(f"/events/{event.pk}/sheets/").status_code == 200
    assert narrator_api.post(f"/events/{event.pk}/sheets/").status_code == 405
    assert logs_in(old) == 200


def test_new_codes_need_the_pages_csrf_token(clock, event, player, narrator_user):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(narrator_user)
    browser.get(f"/events/{event.pk}/sheets/")
    cards = set(LoginToken.objects.values_list("token_hash", flat=True))
    assert browser.post(f"/events/{event.pk}/sheets/new-codes/",
                        {"character": "all", "confirm": "yes"}).status_code == 403
    assert set(LoginToken.objects.values_list("token_hash", flat=True)) == cards
