"""No login secret at rest: an idempotent write whose answer is a login link keeps only
what is needed to issue a fresh one, and a replay answers that fresh one (which revokes
the link of the lost answer). Printed sheets mint their QR codes on a POST only."""
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


def test_the_sheets_page_shows_without_minting(clock, event, player, medic, narrator_api):
    page = narrator_api.get(f"/events/{event.pk}/sheets/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "<svg" not in html
    assert player.code in html and medic.code in html
    assert '<form method="post"' in html
    assert not LoginToken.objects.exists()


def test_printing_the_sheets_revokes_the_links_printed_before(clock, event, player, narrator_api):
    old = token_of(narrator_api.post(f"/api/characters/{player.pk}/login-link/").json()["url"])
    printed = narrator_api.post(f"/events/{event.pk}/sheets/")
    assert printed.status_code == 200
    assert "<svg" in printed.content.decode()
    assert logs_in(old) == 400
    assert LoginToken.objects.filter(user=player.user, used_at__isnull=True,
                                     expires_at__gt=clock.now).count() == 1


def test_printing_needs_the_pages_csrf_token(clock, event, narrator_user):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(narrator_user)
    assert browser.post(f"/events/{event.pk}/sheets/").status_code == 403
    assert not LoginToken.objects.exists()
