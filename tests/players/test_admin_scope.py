"""The admin covers every model, and an event's organisers use it for their events only:
requests against the real admin, as the organiser's browser sends them."""
from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client

from fixtures import client_for
from players.models import Character, Event, Membership, Team
from players.services import character_create, event_create, login_token_issue, team_get_or_create

PROJECT_APPS = {"common", "players", "live", "schedule", "club", "health", "combat", "effects",
                "frontend", "push", "race", "rehearsals"}


def test_every_model_of_the_project_is_in_the_admin():
    missing = [f"{m._meta.app_label}.{m.__name__}" for m in apps.get_models()
               if m._meta.app_label in PROJECT_APPS and m not in admin.site._registry]
    assert not missing


@pytest.fixture
def two_events(clock, db):
    people = get_user_model().objects
    anna, boris = people.create_user(username="anna"), people.create_user(username="boris")
    a = event_create(name="Event A", ruleset="gn_fr", by=anna, start_clock=True)
    b = event_create(name="Event B", ruleset="gn_fr", by=boris, start_clock=True)
    a_char = character_create(event=a, name="Alma", team=team_get_or_create(event=a, name="Rouges"))
    b_char = character_create(event=b, name="Bastien", team=team_get_or_create(event=b, name="Verts"))
    return anna, a, a_char, b, b_char


def organiser_browser(user, event) -> Client:
    """An organiser logs in as everyone does, with a one-time link, then opens /admin/."""
    browser = Client()
    browser.cookies["django_language"] = "en"   # chosen in the app's menu (the admin follows it)
    raw = login_token_issue(event=event, user=user)
    assert browser.post("/api/login/", {"token": raw}, content_type="application/json").status_code == 200
    return browser


@pytest.mark.django_db
def test_an_organiser_sees_and_changes_only_their_events_rows(two_events):
    anna, a, a_char, b, b_char = two_events
    browser = organiser_browser(anna, a)
    assert browser.get("/admin/").status_code == 200
    listing = browser.get("/admin/players/character/").content.decode()
    assert "Alma" in listing and "Bastien" not in listing
    events = browser.get("/admin/players/event/").content.decode()
    assert "Event A" in events and "Event B" not in events
    # Another event's rows: not shown, not changed, not deleted, not chosen.
    assert browser.get(f"/admin/players/character/{b_char.pk}/change/").status_code in (302, 404)
    assert browser.get(f"/admin/players/event/{b.pk}/change/").status_code in (302, 404)
    browser.post(f"/admin/players/character/{b_char.pk}/change/", {
        "event": b.pk, "name": "Renamed", "sheet": "{}", "kits": "{}"})
    browser.post(f"/admin/players/character/{b_char.pk}/delete/", {"post": "yes"})
    b_char.refresh_from_db()
    assert b_char.name == "Bastien"
    refused = browser.post("/admin/players/character/add/", {
        "event": b.pk, "name": "Intrus", "sheet": "{}", "kits": "{}"})
    assert refused.status_code == 200 and "Select a valid choice" in refused.content.decode()
    assert not Character.objects.filter(name="Intrus").exists()
    form = browser.get("/admin/players/character/add/").content.decode()
    assert "Event A" in form and "Event B" not in form and "Verts" not in form
    # Their own rows: changed and added like a superuser would.
    changed = browser.post(f"/admin/players/character/{a_char.pk}/change/", {
        "event": a.pk, "team": a_char.team_id, "name": "Alma Duval", "sheet": "{}", "kits": "{}"})
    assert changed.status_code == 302, changed.content.decode()[:3000]
    assert Character.objects.get(pk=a_char.pk).name == "Alma Duval"
    added = browser.post("/admin/players/character/add/", {
        "event": a.pk, "name": "Nouvelle", "sheet": '{"combat_base": 2}', "kits": "{}"})
    assert added.status_code == 302
    assert Character.objects.get(name="Nouvelle").event == a


@pytest.mark.django_db
def test_the_race_chrony_and_club_records_are_narrowed_too(two_events):
    anna, a, a_char, b, b_char = two_events
    browser = organiser_browser(anna, a)
    index = browser.get("/admin/").content.decode()
    for model in ("/admin/health/healthstate/", "/admin/players/journalentry/"):
        assert model in index, model
    # A GN's organiser is not shown a race's or an airsoft club's pages (their rules have none).
    for model in ("/admin/race/entry/", "/admin/club/sanction/", "/admin/club/chronycheck/"):
        assert model not in index, model
        assert browser.get(model).status_code == 403
    states = browser.get("/admin/health/healthstate/").content.decode()
    assert "Alma" in states and "Bastien" not in states
    journal = browser.get("/admin/players/journalentry/").content.decode()
    assert "Event A" in journal and "Event B" not in journal
    # A record is read, never edited here.
    page = browser.get(f"/admin/health/healthstate/{a_char.pk}/change/")
    assert page.status_code == 200 and 'name="status"' not in page.content.decode()
    assert browser.get(f"/admin/health/healthstate/{b_char.pk}/change/").status_code in (302, 404)


@pytest.mark.django_db
def test_players_and_strangers_stay_out_and_superusers_see_all(two_events):
    anna, a, a_char, b, b_char = two_events
    player = organiser_browser(a_char.user, a)
    assert player.get("/admin/").status_code == 302            # to the admin's login page
    assert player.get("/admin/players/character/").status_code == 302
    root = get_user_model().objects.create_superuser(username="root", password="x")
    listing = client_for(root).get("/admin/players/character/").content.decode()
    assert "Alma" in listing and "Bastien" in listing


@pytest.mark.django_db
def test_the_demo_organiser_opens_the_admin_for_their_event(capsys):
    from django.core.management import call_command
    call_command("load_demo")
    manoir = Event.objects.get(ruleset="gn_fr")
    narrator = Membership.objects.get(event=manoir, role=Membership.NARRATOR).user
    browser = organiser_browser(narrator, manoir)
    listing = browser.get("/admin/players/character/").content.decode()
    assert "Alice Martin" in listing
    assert "Lucía Ferrer" not in listing                       # the Septenario's
    assert browser.get("/admin/players/team/").status_code == 200
    assert Team.objects.filter(event=manoir).exists()


@pytest.mark.django_db
def test_every_list_opens_for_an_organiser_and_a_superuser(two_events):
    anna, a, *_ = two_events
    root = get_user_model().objects.create_superuser(username="root", password="x")
    browsers = {"organiser": organiser_browser(anna, a), "superuser": client_for(root)}
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in PROJECT_APPS:
            continue
        url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        for who, browser in browsers.items():
            expected = 200 if who == "superuser" or model_admin.has_module_permission(
                type("R", (), {"user": anna})()) else 403
            assert browser.get(url).status_code == expected, (who, url)


@pytest.mark.django_db
def test_the_admin_checks_a_sheet_as_the_import_does(two_events):
    anna, a, a_char, *_ = two_events
    browser = organiser_browser(anna, a)
    refused = browser.post("/admin/players/character/add/", {
        "event": a.pk, "name": "Hercule", "sheet": '{"combat_base": 9}', "kits": "{}"})
    assert refused.status_code == 200
    assert "combat_base must be a whole number from 0 to 5, not &#x27;9&#x27;." in refused.content.decode()
    changed = browser.post(f"/admin/players/character/{a_char.pk}/change/", {
        "event": a.pk, "name": "Alma", "sheet": '{"skills": {"first_aid": "master"}}', "kits": "{}"})
    assert changed.status_code == 200 and "first_aid must be one of novice, expert" in changed.content.decode()
    assert not Character.objects.filter(name="Hercule").exists()


def test_moving_a_character_or_its_team_to_another_event_is_refused_with_the_reason(two_events):
    """A character's health, timers and journal belong to its event: the admin refuses to
    move only the row, even for someone who runs both events."""
    anna, a, a_char, b, b_char = two_events
    from health.models import HealthState
    boss = get_user_model().objects.create_superuser(username="boss", password="x")
    browser = Client()
    browser.force_login(boss)
    health_before = HealthState.objects.get(pk=a_char.pk)

    refused = browser.post(f"/admin/players/character/{a_char.pk}/change/", {
        "event": b.pk, "name": "Alma", "sheet": "{}", "kits": "{}"}, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 200
    assert "A character cannot move to another event" in refused.content.decode()
    a_char.refresh_from_db()
    assert a_char.event == a
    assert HealthState.objects.get(pk=a_char.pk).event_id == health_before.event_id == a.pk

    team = a_char.team
    refused = browser.post(f"/admin/players/team/{team.pk}/change/", {"event": b.pk, "name": team.name},
                           HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 200
    assert "A team with characters cannot move to another event" in refused.content.decode()
    team.refresh_from_db()
    assert team.event == a
