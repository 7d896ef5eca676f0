"""A lost or stolen phone cut off by an organiser of its event (players/access_services.py):
every session of the character's login ends at once (401 logged_out, in the phone's
language), a new login QR code is issued, and the player's new phone, logged in with it,
is not touched by anything done before. The open websockets' side is in
tests/live/test_access_revoked.py."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from fixtures import act, client_for
from players.models import JournalEntry
from players.services import character_create, event_create, login_token_issue

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(event):
    """An organiser of the event with no staff or superuser rights: a narrator membership."""
    user = get_user_model().objects.create_user(username="orga")
    event.memberships.create(user=user, role="narrator")
    return user


def phone_logged_in(event, character, lang="es") -> APIClient:
    """A phone that opened the character's login link, as a player does."""
    phone = APIClient(HTTP_ACCEPT_LANGUAGE=lang)
    token = login_token_issue(event=event, user=character.user)
    assert phone.post("/api/login/", {"token": token}, format="json").status_code == 200
    return phone


def token_of(url: str) -> str:
    return url.rsplit("/login/", 1)[1]


def test_a_lost_phone_is_cut_off_and_the_new_phone_logs_in(clock, event, player, organiser):
    lost = phone_logged_in(event, player)
    assert lost.get(f"/api/characters/{player.pk}/").status_code == 200

    response = client_for(organiser).post(f"/api/characters/{player.pk}/lost-phone/")

    assert response.status_code == 200, response.content
    login = response.json()["login"]
    assert login["qr_svg"].startswith("<svg") and login["url"] in response.content.decode()
    refused = lost.get(f"/api/characters/{player.pk}/")
    assert refused.status_code == 401
    assert refused.json()["error"] == "logged_out"
    assert refused.json()["detail"].startswith("Este teléfono se ha desconectado")
    assert refused["WWW-Authenticate"]
    # The stolen phone declares a hit: refused, nothing applied.
    assert act(lost, player, "hit_wounding").status_code == 401
    line = JournalEntry.objects.get(kind="login", what="sessions_ended")
    assert line.character_id == player.pk and line.actor_id == organiser.pk

    new = APIClient()
    assert new.post("/api/login/", {"token": token_of(login["url"])}, format="json").status_code == 200
    assert new.get(f"/api/characters/{player.pk}/").json()["state"]["key"] == "healthy"
    assert act(new, player, "hit_wounding").status_code == 200
    assert lost.get(f"/api/characters/{player.pk}/").status_code == 401   # still out


def test_the_lost_phones_unused_links_stop_working(clock, event, player, organiser):
    printed = login_token_issue(event=event, user=player.user)
    client_for(organiser).post(f"/api/characters/{player.pk}/lost-phone/")
    answer = APIClient().post("/api/login/", {"token": printed}, format="json")
    assert answer.status_code == 400 and answer.json()["error"] == "invalid_login"


def test_a_replay_issues_a_fresh_link_and_does_not_cut_off_the_new_phone(clock, event, player,
                                                                        organiser):
    """The organiser's answer was lost on the way and the tap is sent again: the new phone,
    already logged in, keeps its session."""
    organiser_api = client_for(organiser)
    first = organiser_api.post(f"/api/characters/{player.pk}/lost-phone/", HTTP_IDEMPOTENCY_KEY="cut-1")
    new = APIClient()
    new.post("/api/login/", {"token": token_of(first.json()["login"]["url"])}, format="json")

    again = organiser_api.post(f"/api/characters/{player.pk}/lost-phone/", HTTP_IDEMPOTENCY_KEY="cut-1")

    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json()["login"]["url"] != first.json()["login"]["url"]
    assert again.json()["login"]["qr_svg"].startswith("<svg")
    assert new.get(f"/api/characters/{player.pk}/").status_code == 200
    assert JournalEntry.objects.filter(what="sessions_ended").count() == 1


def test_an_organiser_may_not_cut_off_a_phone_of_another_organisers_event(clock, event, player):
    stranger = get_user_model().objects.create_user(username="other-orga")
    event_create(name="Other GN", ruleset="gn_fr", by=stranger)
    phone = phone_logged_in(event, player)

    response = client_for(stranger).post(f"/api/characters/{player.pk}/lost-phone/")

    assert response.status_code == 404
    assert phone.get(f"/api/characters/{player.pk}/").status_code == 200
    assert not JournalEntry.objects.filter(what="sessions_ended").exists()


def test_a_player_may_not_cut_off_anyone(clock, event, player, other_player, player_api):
    assert player_api.post(f"/api/characters/{other_player.pk}/lost-phone/").status_code == 404
    assert player_api.post(f"/api/characters/{player.pk}/lost-phone/").status_code == 404
    assert player_api.get(f"/api/characters/{player.pk}/").status_code == 200


def test_an_organisers_own_account_is_not_cut_off_from_the_phones(clock, event, organiser,
                                                                   narrator_user):
    """A character played on a staff account: its password is the administrators' to change."""
    character = character_create(event=event, name="Staff", sheet={"combat_base": 1})
    character.user = narrator_user
    character.save(update_fields=["user"])

    response = client_for(organiser, "fr").post(f"/api/characters/{character.pk}/lost-phone/")

    assert response.status_code == 409
    assert response.json()["error"] == "lost_phone_staff_account"
    assert "compte d'organisateur" in response.json()["detail"]
    assert client_for(narrator_user).get(f"/api/events/{event.pk}/journal/").status_code == 200


def test_a_browser_that_never_logged_in_is_told_not_authenticated(clock, player):
    response = APIClient().get(f"/api/characters/{player.pk}/")
    assert response.status_code == 403 and response.json()["error"] == "not_authenticated"
