"""Race tracking for safety, on a runner's phone: the organisers of "Rugles by Night" track
races, Lucie is running; her phone (which allows its position) says in French that it
shares her position until she finishes, and her position reaches the organisers' safety
board; a team whose phone does not allow its position is told the organisers cannot see it. Built like tests/browser/test_race_phones.py."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from race.services.running import entry_start
from safety.models import Contact
from safety.services import settings_store
from test_race_phones import in_thread, open_in_french, rugles_by_night

pytestmark = pytest.mark.django_db(transaction=True)

LUCIE_AT = {"latitude": 48.8241, "longitude": 0.7071, "accuracy": 9}


def test_a_running_runner_s_phone_says_it_shares_and_the_board_shows_where_she_is(server_url, phone):
    night = in_thread(rugles_by_night, server_url)
    in_thread(settings_store, event=night.race, by=night.organiser, race_tracking=True)
    in_thread(entry_start, entry=night.lucie, by=night.organiser)
    in_thread(entry_start, entry=night.rescapes, by=night.organiser)

    runner = phone("en", chosen=False)
    runner.context.grant_permissions(["geolocation"], origin=server_url)
    runner.context.set_geolocation(LUCIE_AT)
    runner.goto(night.links["lucie"])
    runner.locator("form button").click()
    expect(runner.locator("#race-status")).to_have_text("En course")
    expect(runner.locator(".tracking-banner")).to_have_text(
        "Votre position est partagée avec les organisateurs pour votre sécurité jusqu'à votre arrivée.")
    expect(runner.locator(".tracking-banner")).not_to_have_class("tracking-denied")

    organiser = open_in_french(phone, night.links["organiser"], "#race-summary")
    organiser.goto(f"{server_url}/#/safety/{night.race.pk}")
    row = organiser.locator(f".safety-position[data-character='{night.lucie.character_id}']")
    expect(row).to_contain_text("Lucie Martin")
    expect(row).to_contain_text("48.82410, 0.70710")
    contact = Contact.objects.get(pk=night.lucie.character_id)
    assert (contact.latitude, contact.longitude, contact.accuracy_m) == (48.8241, 0.7071, 9)
    # The organiser's own phone shares nothing: it runs no race.
    expect(organiser.locator(".tracking-banner")).to_be_hidden()

    # A phone that does not allow its position says the organisers cannot see where they are.
    refusing = open_in_french(phone, night.links["rescapes"], "#race-status")
    expect(refusing.locator(".tracking-banner.tracking-denied")).to_have_text(
        "Votre téléphone ne donne pas sa position : les organisateurs ne peuvent pas voir où vous êtes.")
    assert Contact.objects.get(pk=night.rescapes.character_id).position_at is None
    assert runner.errors == [] and organiser.errors == [] and refusing.errors == []
