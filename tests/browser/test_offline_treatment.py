"""A medic confirms a first aid in a dead zone before the patient's coma, and the network
comes back after it: the confirmation carries its tap and beats the coma, and the medic's
screen says "sent" as soon as the server answered (not "no network" until a recheck)."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils.dateparse import parse_datetime
from playwright.sync_api import expect

from browser_helpers import screenshot
from health.models import HealthState
from players.models import JournalEntry
from test_phone_app import LABELS, declare, make_game, open_player

pytestmark = pytest.mark.django_db(transaction=True)

DEADLINE_S = 40     # Wounded -> Coma, shortened by the organisers for the test


def test_first_aid_confirmed_offline_in_time_beats_the_coma_and_says_sent(server_url, phone):
    game = make_game(server_url, wounded_deadline_s=DEADLINE_S)
    patient = open_player(phone("fr"), game)
    declare(patient, LABELS["fr"]["hit"])
    expect(patient.locator("#state-label")).to_have_text("Blessé")
    wounded_at = JournalEntry.objects.get(character=game.alice, kind="action").at
    coma_at = wounded_at + timedelta(seconds=DEADLINE_S)

    medic = phone("fr")
    medic.goto(game.links["bruno"])
    medic.locator("form button").click()
    medic.get_by_role("link", name="Médecin").click()
    medic.get_by_label("Code du patient").fill(game.alice.code)
    medic.get_by_role("button", name="Chercher").click()
    medic.locator("form.treatment-option").filter(has_text="Premiers secours").get_by_role(
        "button", name="Commencer").click()
    confirm = medic.get_by_role("button", name="Confirmer : soin terminé")
    expect(confirm).to_be_enabled(timeout=10000)

    medic.context.set_offline(True)                 # the dead zone
    confirm.click()
    expect(medic.locator(".message")).to_contain_text("Pas de réseau")
    screenshot(medic, "medic-confirmed-offline-fr")
    # Still out of range when the coma's deadline passes.
    time.sleep(max(0.0, coma_at.timestamp() + 3 - time.time()))

    medic.context.set_offline(False)
    medic.evaluate("window.dispatchEvent(new Event('online'))")
    # Within the outbox's round trip, well before the screen's 5 s recheck.
    expect(medic.locator(".message")).to_have_text("Envoyé : le serveur l'a enregistré.",
                                                   timeout=3000)
    expect(medic.locator("#app").get_by_role("status")).to_contain_text("terminé")
    expect(medic.get_by_text("Pas de réseau")).to_have_count(0)
    screenshot(medic, "medic-sent-fr")

    line = JournalEntry.objects.get(character=game.alice, what="first_aid:completed")
    tapped = parse_datetime(line.detail["tapped_at"])
    assert tapped < coma_at < parse_datetime(line.detail["received_at"])
    assert HealthState.objects.get(pk=game.alice.pk).status == "wounded"
    expect(patient.locator("#state-label")).to_have_text("Blessé")
    assert medic.errors == []
