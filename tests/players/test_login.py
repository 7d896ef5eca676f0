"""One-time login links: a narrator issues one per character (as a URL or a printable QR
code); a phone opens a session with it once, before it expires. Only its hash is stored."""
from __future__ import annotations

import hashlib
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from players.models import JournalEntry, LoginToken

pytestmark = pytest.mark.django_db


def issue_link(narrator_api, character) -> str:
    response = narrator_api.post(f"/api/characters/{character.pk}/login-link/")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["character"] == character.pk
    assert body["url"].startswith(f"{settings.PUBLIC_URL}/login/")
    return body["url"].rsplit("/", 1)[1]


def test_login_link_opens_a_session_once_through_the_api(clock, event, player, narrator_api):
    token = issue_link(narrator_api, player)
    phone = APIClient()
    assert phone.get("/api/me/").status_code == 403

    response = phone.post("/api/login/", {"token": token}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["event"] == event.pk
    assert [c["name"] for c in response.json()["characters"]] == ["Alice"]
    me = phone.get("/api/me/")
    assert me.status_code == 200
    assert me.json()["characters"] == [{"id": player.pk, "name": "Alice", "event": event.pk,
                                        "code": player.code, "medic": False,
                                        "race_entry": None}]
    assert me.json()["events"] == [{"id": event.pk, "name": "Test GN", "ruleset": "gn_fr",
                                    "language": "fr", "display": "dark", "roles": ["player"]}]
    assert phone.get(f"/api/characters/{player.pk}/").json()["character"]["name"] == "Alice"

    second = APIClient().post("/api/login/", {"token": token}, format="json")
    assert second.status_code == 400
    assert second.json() == {
        "error": "invalid_login",
        "detail": "This login link is invalid, expired or already used; ask an organiser for "
                  "a new one."}


def test_login_link_opened_in_the_browser_redirects_home(clock, event, player, narrator_api):
    token = issue_link(narrator_api, player)
    browser = Client()

    response = browser.post(f"/login/{token}")

    assert response.status_code == 302
    assert response["Location"] == "/"
    me = browser.get("/api/me/")
    assert me.status_code == 200
    assert [c["id"] for c in me.json()["characters"]] == [player.pk]

    again = Client(HTTP_ACCEPT_LANGUAGE="fr").post(f"/login/{token}")
    assert again.status_code == 400
    assert "Ce lien de connexion est invalide, expiré ou déjà utilisé" in again.content.decode()


def test_a_link_used_in_the_browser_cannot_be_used_through_the_api(clock, player, narrator_api):
    token = issue_link(narrator_api, player)
    assert Client().post(f"/login/{token}").status_code == 302
    response = APIClient().post("/api/login/", {"token": token}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_login"


def test_the_refusal_reads_in_the_phones_language(clock, player, narrator_api):
    token = issue_link(narrator_api, player)
    APIClient().post("/api/login/", {"token": token}, format="json")
    response = APIClient(HTTP_ACCEPT_LANGUAGE="es").post("/api/login/", {"token": token},
                                                        format="json")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("Este enlace de acceso no es válido")


def test_an_expired_link_is_refused(clock, player, narrator_api):
    token = issue_link(narrator_api, player)
    clock.advance(settings.LOGIN_TOKEN_TTL_S + 1)

    phone = APIClient()
    response = phone.post("/api/login/", {"token": token}, format="json")

    assert response.status_code == 400
    assert response.json()["error"] == "invalid_login"
    assert phone.get("/api/me/").status_code == 403
    assert Client().post(f"/login/{token}").status_code == 400
    assert LoginToken.objects.get().used_at is None


def test_a_link_just_before_expiry_still_works(clock, player, narrator_api):
    token = issue_link(narrator_api, player)
    clock.advance(settings.LOGIN_TOKEN_TTL_S - 1)
    assert APIClient().post("/api/login/", {"token": token}, format="json").status_code == 200


@pytest.mark.parametrize("token", ["nope", "", " "])
def test_a_made_up_token_is_refused(token, clock, player):
    response = APIClient().post("/api/login/", {"token": token}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] in ("invalid_login", "bad_input")


def test_the_raw_token_is_not_stored(clock, player, narrator_api):
    token = issue_link(narrator_api, player)

    stored = LoginToken.objects.get()
    assert stored.token_hash != token
    assert stored.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert stored.user_id == player.user_id
    assert not LoginToken.objects.filter(token_hash=token).exists()
    for line in JournalEntry.objects.all():
        assert token not in str(line.detail) and token not in line.what


def test_a_new_link_revokes_the_older_ones(clock, player, narrator_api):
    """A reprinted sheet or a new link replaces a lost one: the lost one no longer logs in."""
    first = issue_link(narrator_api, player)
    second = issue_link(narrator_api, player)
    assert first != second

    old = APIClient().post("/api/login/", {"token": first}, format="json")
    assert old.status_code == 400
    assert old.json()["error"] == "invalid_login"
    assert Client().post(f"/login/{first}").status_code == 400
    assert APIClient().post("/api/login/", {"token": second}, format="json").status_code == 200


def test_a_new_link_for_someone_else_leaves_the_players_link_working(clock, player, other_player,
                                                                    narrator_api):
    token = issue_link(narrator_api, player)
    issue_link(narrator_api, other_player)
    assert APIClient().post("/api/login/", {"token": token}, format="json").status_code == 200


def test_issuing_and_using_a_link_is_journalled(clock, event, player, narrator_api):
    token = issue_link(narrator_api, player)
    APIClient().post("/api/login/", {"token": token}, format="json")
    lines = list(JournalEntry.objects.filter(event=event, kind="login"))
    assert [(line.what, line.actor_label) for line in lines] == [("link_issued", "narrator"),
                                                                 ("link_used", "Alice")]


def test_the_qr_endpoint_returns_an_svg_of_a_working_link(clock, player, narrator_api):
    response = narrator_api.post(f"/api/characters/{player.pk}/login-qr.svg")

    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    svg = response.content.decode()
    assert "<svg" in svg and svg.rstrip().endswith("</svg>")
    assert LoginToken.objects.filter(user=player.user).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_phones_opening_the_same_link_at_once_get_one_session(clock, player, narrator_api):
    token = issue_link(narrator_api, player)
    both_ready = threading.Barrier(2)

    def open_link(_):
        both_ready.wait()
        try:
            return APIClient().post("/api/login/", {"token": token}, format="json").status_code
        finally:
            connection.close()  # each thread has its own database connection

    with ThreadPoolExecutor(2) as pool:
        assert sorted(pool.map(open_link, range(2))) == [200, 400]
    assert JournalEntry.objects.filter(kind="login", what="link_used").count() == 1


def test_a_deactivated_players_link_is_refused_and_kept(clock, player, narrator_api):
    """An organiser who deactivates an account in /admin/ shuts its unused links too."""
    token = issue_link(narrator_api, player)
    player.user.is_active = False
    player.user.save()

    phone = APIClient()
    response = phone.post("/api/login/", {"token": token}, format="json")

    assert response.status_code == 400
    assert response.json()["error"] == "invalid_login"
    assert phone.get("/api/me/").status_code == 403
    assert LoginToken.objects.get().used_at is None


def test_logging_in_starts_a_new_session(clock, player, other_player, narrator_api):
    """A session id planted before the login (session fixation) never becomes the player's,
    and a phone that was someone else's now plays only the new character."""
    phone = Client()
    assert phone.post(f"/login/{issue_link(narrator_api, other_player)}").status_code == 302
    before = phone.cookies["sessionid"].value

    assert phone.post(f"/login/{issue_link(narrator_api, player)}").status_code == 302

    assert phone.cookies["sessionid"].value != before
    assert [c["name"] for c in phone.get("/api/me/").json()["characters"]] == ["Alice"]
    stale = Client()
    stale.cookies["sessionid"] = before
    # The planted id no longer logs anyone in: "logged out" (401), never the new session.
    assert stale.get("/api/me/").status_code == 401


def test_viewing_the_qr_endpoint_mints_nothing(clock, player, narrator_api):
    """Only the POST issues a link: a page that merely loads an image issues none."""
    assert narrator_api.get(f"/api/characters/{player.pk}/login-qr.svg").status_code == 405
    assert not LoginToken.objects.exists()


def test_opening_a_login_link_shows_a_button_and_uses_nothing(clock, event, player, narrator_api):
    """A chat app's link preview (a GET) leaves the link usable; the page's button logs in."""
    token = issue_link(narrator_api, player)
    browser = Client(HTTP_ACCEPT_LANGUAGE="es")

    page = browser.get(f"/login/{token}")

    assert page.status_code == 200
    html = page.content.decode()
    assert '<form method="post">' in html and "<button" in html
    assert 'lang="fr"' in html  # the event's language, not the browser's
    assert "Se connecter sur ce téléphone" in html
    assert LoginToken.objects.get().used_at is None
    assert browser.get("/api/me/").status_code == 403

    assert browser.post(f"/login/{token}").status_code == 302
    assert [c["id"] for c in browser.get("/api/me/").json()["characters"]] == [player.pk]


def test_an_unknown_links_page_reads_in_the_browsers_language(clock, player):
    page = Client(HTTP_ACCEPT_LANGUAGE="es").get("/login/made-up")
    assert page.status_code == 200
    assert 'lang="es"' in page.content.decode()
    assert "Acceder en este teléfono" in page.content.decode()


def test_the_login_page_checks_csrf(clock, player, narrator_api):
    """The button's form carries the CSRF token, so no other site can log a phone in."""
    token = issue_link(narrator_api, player)
    browser = Client(enforce_csrf_checks=True)
    assert browser.post(f"/login/{token}").status_code == 403
    page = browser.get(f"/login/{token}")
    csrf = page.cookies["csrftoken"].value
    assert browser.post(f"/login/{token}", {"csrfmiddlewaretoken": csrf}).status_code == 302
