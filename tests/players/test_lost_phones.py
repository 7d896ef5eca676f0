"""A lost phone: a narrator reissues one person's login QR code (their older links stop
working); a used link's page tells, in the event's language, what to do; the session a
link opens outlives closing the browser (an iPhone's home-screen app keeps it)."""
from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from players.models import JournalEntry
from players.services import character_create, login_token_issue
from tests.fixtures import septenario_event

pytestmark = pytest.mark.django_db


def test_reissuing_the_qr_code_revokes_the_lost_phones_link(clock, event, player, narrator_api,
                                                            narrator_user):
    lost = login_token_issue(event=event, user=player.user, by=narrator_user)

    response = narrator_api.post(f"/api/characters/{player.pk}/login-qr.svg")

    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert b"<svg" in response.content
    refused = Client().post(f"/login/{lost}")
    assert refused.status_code == 400
    assert "Ce lien de connexion ne fonctionne plus" in refused.content.decode()
    replaced = JournalEntry.objects.filter(kind="login", what="card_code_replaced")
    assert replaced.count() == 1 and replaced.get().actor_id == narrator_user.pk


def test_a_player_cannot_reissue_someone_elses_qr_code(clock, event, player, other_player):
    from tests.fixtures import client_for
    response = client_for(player.user).post(f"/api/characters/{other_player.pk}/login-qr.svg")
    assert response.status_code in (403, 404)


@pytest.mark.parametrize("browser_language", ["en", "fr", ""])
def test_the_used_link_page_speaks_the_events_language_and_says_what_to_do(
        clock, narrator_user, browser_language):
    event = septenario_event(narrator_user)
    lucia = character_create(event=event, name="Lucía", sheet={})
    token = login_token_issue(event=event, user=lucia.user)
    assert Client().post(f"/login/{token}").status_code == 302

    again = Client(HTTP_ACCEPT_LANGUAGE=browser_language).post(f"/login/{token}")

    page = again.content.decode()
    assert again.status_code == 400
    assert '<html lang="es">' in page
    assert "Este enlace de acceso ya no funciona" in page
    assert "Pide un nuevo QR de acceso a un narrador" in page
    assert 'href="/"' in page


def test_an_unknown_link_reads_in_the_phones_language(clock):
    page = Client(HTTP_ACCEPT_LANGUAGE="es").post("/login/made-up").content.decode()
    assert "Este enlace de acceso ya no funciona" in page


def test_the_session_cookie_outlives_the_browser(clock, event, player):
    """A session cookie (no expiry) dies when iOS closes a home-screen app; a persistent
    one keeps the player logged in for the whole event and after."""
    token = login_token_issue(event=event, user=player.user)
    response = Client().post(f"/login/{token}")

    session = response.cookies[settings.SESSION_COOKIE_NAME]
    assert int(session["max-age"]) >= 30 * 24 * 3600
    assert session["expires"]
    assert session["httponly"]
    assert not settings.SESSION_EXPIRE_AT_BROWSER_CLOSE
