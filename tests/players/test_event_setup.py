"""An organiser's first hour without a shell: the first account from the link `./run`
prints, an event from the form (an unknown ruleset or option is refused there, by the API
and by the admin), co-narrators and referees invited by a link and removed."""
from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from fixtures import client_for
from players.models import Event, Invitation, Membership

pytestmark = pytest.mark.django_db


def setup_link(capsys) -> str:
    call_command("setup_link")
    found = re.search(r"/setup/(\S+)", capsys.readouterr().out)
    return found.group(1) if found else ""


def french() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="fr")


def test_the_first_run_link_makes_the_first_organiser_once(capsys):
    token = setup_link(capsys)
    browser = french()

    page = browser.get(f"/setup/{token}")
    assert page.status_code == 200 and "Premier organisateur" in page.content.decode()
    response = browser.post(f"/setup/{token}", {"name": "Camille"})

    assert response.status_code == 302 and response["Location"] == "/events/new/"
    camille = get_user_model().objects.get(first_name="Camille")
    assert camille.is_staff and camille.is_superuser
    assert browser.get("/events/new/").status_code == 200
    assert french().post(f"/setup/{token}", {"name": "Intrus"}).status_code == 400
    assert setup_link(capsys) == ""     # the server has its administrator: no more links
    assert not get_user_model().objects.filter(first_name="Intrus").exists()


def organiser() -> Client:
    user = get_user_model().objects.create_user(username="camille", first_name="Camille", is_staff=True)
    browser = french()
    browser.force_login(user)
    return browser


GN_FORM = {"ruleset": "gn_fr", "name": "Le Manoir des Brumes", "language": "fr",
           "time_zone": "Europe/Paris", "display": "night", "starts_on": "2027-05-14"}


def test_the_form_creates_a_paused_event_with_the_options_changed(clock):
    browser = organiser()
    form = browser.get("/events/new/?ruleset=gn_fr").content.decode()
    assert "Le jeu commence en pause" in form and "Reprendre le jeu" in form
    assert "wounded_deadline_s" in form and "par défaut : 900 (15 min)" in form
    assert "valeurs permises : max, replace" in form
    assert "GN — règles de santé et de médecine" in browser.get("/events/new/").content.decode()
    assert "Affichage des téléphones" in form and '<option value="night">Nuit : rouge sur noir' in form

    response = browser.post("/events/new/", {**GN_FORM, **_defaults_for("gn_fr"),
                                             "opt_wounded_deadline_s": "1200",
                                             "opt_first_aid_stack": "replace"})

    assert response.status_code == 302, response.content.decode()[:3000]
    event = Event.objects.get(name="Le Manoir des Brumes")
    assert event.options == {"wounded_deadline_s": 1200, "first_aid_stack": "replace"}
    assert (event.language, event.time_zone, str(event.starts_on)) == ("fr", "Europe/Paris", "2027-05-14")
    assert event.display == "night"
    assert not event.running
    assert Membership.objects.filter(event=event, user__username="camille", role="narrator").exists()
    page = browser.get(response["Location"]).content.decode()
    assert "Événement créé." in page


def _defaults_for(ruleset: str) -> dict:
    """The form's option fields as the browser sends them untouched (a ticked box is 'on')."""
    from frontend.event_form import EventSetupForm
    from frontend.setup_views import SETUP
    words = {k: v["en"] for k, v in SETUP.items()}
    form = EventSetupForm(ruleset=ruleset, words=words)
    sent = {}
    for bound in form.option_fields():
        value = bound.initial
        if isinstance(value, bool):
            if value:
                sent[bound.name] = "on"
        else:
            sent[bound.name] = value
    return sent


@pytest.mark.parametrize("change, message", [
    ({"ruleset": "GN français"}, "Règles inconnues"),
    ({"opt_bogus": "3"}, "Option inconnue pour ces règles : bogus."),
    ({"opt_first_aid_stack": "sometimes"}, "sometimes"),
    ({"time_zone": "Mars/Olympus"}, "Mars/Olympus"),
    ({"display": "neon"}, "neon"),
])
def test_the_form_refuses_an_unknown_ruleset_or_option(change, message, clock):
    browser = organiser()
    response = browser.post("/events/new/", {**GN_FORM, **_defaults_for("gn_fr"), **change})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Event.objects.exists()


@pytest.mark.parametrize("body, field", [
    ({"ruleset": "GN français"}, "ruleset"),
    ({"options": {"bogus": 3}}, "bogus"),
    ({"options": {"first_aid_stack": "sometimes"}}, "first_aid_stack"),
    ({"time_zone": "Mars/Olympus"}, "time_zone"),
    ({"display": "neon"}, "display"),
])
def test_the_api_refuses_an_unknown_ruleset_or_option(body, field, clock, narrator_user):
    api = client_for(narrator_user, "fr")
    response = api.post("/api/events/", {"name": "X", "ruleset": "gn_fr", **body}, format="json")
    assert response.status_code == 400
    assert field in response.content.decode()
    assert not Event.objects.exists()


@pytest.mark.parametrize("change, message", [
    ({"ruleset": "GN français"}, "GN français"),
    ({"options": '{"bogus": 3}'}, "bogus"),
    ({"options": '{"first_aid_stack": "sometimes"}'}, "sometimes"),
    ({"display": "neon"}, "neon"),
])
def test_the_admin_refuses_an_unknown_ruleset_or_option(change, message, clock):
    browser = organiser()
    body = {"name": "X", "ruleset": "gn_fr", "options": "{}", "language": "fr",
            "time_zone": "Europe/Paris", "display": "dark", "retention_days": 90, "announcement": "{}",
            "clock_elapsed_s": 0, "characters-TOTAL_FORMS": 0, "characters-INITIAL_FORMS": 0,
            **change}
    response = browser.post("/admin/players/event/add/", body)
    assert response.status_code == 200      # the form again, with the error
    assert message in response.content.decode()
    assert not Event.objects.exists()
    ok = browser.post("/admin/players/event/add/", {**body, "ruleset": "gn_fr", "options": "{}", "display": "dark"})
    assert ok.status_code == 302
    assert Membership.objects.filter(event=Event.objects.get(), user__username="camille").exists()


def test_a_co_narrator_is_invited_by_link_and_removed(clock):
    browser = organiser()
    browser.post("/events/new/", {**GN_FORM, **_defaults_for("gn_fr")})
    event = Event.objects.get()

    assert browser.post(f"/events/{event.pk}/team/invite/", {"role": "narrator"}).status_code == 302
    page = browser.get(f"/events/{event.pk}/setup/").content.decode()
    url = re.search(r"data-invitation>([^<]+)<", page).group(1)
    assert "<svg" in page
    token = url.rsplit("/", 1)[1]

    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    invite = phone.get(f"/invite/{token}").content.decode()
    assert '<html lang="fr">' in invite and "Narrateur / organisateur" in invite
    assert phone.post(f"/invite/{token}", {"name": "Léa"}).status_code == 302
    assert phone.get(f"/api/events/{event.pk}/characters/").status_code == 200
    assert Client().post(f"/invite/{token}", {"name": "Encore"}).status_code == 400

    lea = Membership.objects.get(event=event, user__first_name="Léa")
    assert "Léa" in browser.get(f"/events/{event.pk}/setup/").content.decode()
    assert browser.post(f"/events/{event.pk}/team/remove/", {"membership": lea.pk}).status_code == 302
    assert phone.get(f"/api/events/{event.pk}/characters/").status_code in (403, 404)
    assert not Invitation.objects.filter(used_at__isnull=True).exists()


def test_only_the_events_organisers_invite(clock, event, player, player_api):
    assert player_api.post(f"/events/{event.pk}/team/invite/", {"role": "narrator"}).status_code == 404
    assert not Invitation.objects.exists()


def test_the_events_display_is_what_its_phones_start_in(clock):
    browser = organiser()
    made = browser.post("/api/events/", {"name": "Rugles by Night", "ruleset": "zombie_race",
                                         "display": "night"}, content_type="application/json")
    assert made.status_code == 201, made.content.decode()
    assert Event.objects.get(pk=made.json()["id"]).display == "night"
    events = browser.get("/api/me/").json()["events"]
    assert [(e["name"], e["display"]) for e in events] == [("Rugles by Night", "night")]
