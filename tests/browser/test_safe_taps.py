"""Safe taps, as a narrator lives them among the 300 characters of a real event (crowd.py):
a death by correction and a push to everyone ask first, in a dialog naming who and what
happens; cancelling changes nothing; the undo toast restores what was done."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from crowd import crowd_event
from effects.models import Effect
from health.models import HealthState
from test_narrator_at_300 import open_narrator as open_narrator_of_300
from test_narrator_at_300 import search
from test_phone_app import make_game

pytestmark = pytest.mark.django_db(transaction=True)


def open_narrator(phone, game, tablet):
    narrator = phone("fr", tablet=tablet)
    narrator.goto(game.links["narrator"])
    narrator.locator("form button").click()  # the login page's button
    expect(narrator.locator(".char-row")).to_have_count(2)
    return narrator


def open_sheet_for(narrator, name: str):
    """Tick the character's row and open the sheet: one character's correction is there."""
    narrator.locator(".char-row", has_text=name).get_by_role("checkbox").check()
    narrator.get_by_role("button", name="Envoyer un effet").click()
    return narrator.locator(".action-sheet")


def state_of(character) -> str:
    return HealthState.objects.get(character=character).status


@pytest.mark.parametrize("tablet", [False, True], ids=["phone", "tablet"])
def test_a_death_by_correction_names_the_character_and_the_consequence(server_url, phone, tablet):
    crowd = crowd_event(server_url)
    alice = crowd.characters[150]
    name = alice.name
    narrator = open_narrator_of_300(phone, crowd, tablet=tablet)
    search(narrator, name, 1)
    row = narrator.locator(".char-row", has_text=name)
    sheet = open_sheet_for(narrator, name)

    sheet.get_by_label(f"Changer l'état de {name}").select_option(label="Mort")
    dialog = narrator.get_by_role("dialog", name=f"Passer {name} à « Mort » ?")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(f"le téléphone de {name} l'affiche")
    dialog.get_by_role("button", name="Annuler").click()
    expect(dialog).to_have_count(0)
    expect(sheet.get_by_label(f"Changer l'état de {name}")).to_have_value("")
    assert state_of(alice) == "healthy"

    sheet.get_by_label(f"Changer l'état de {name}").select_option(label="Mort")
    narrator.get_by_role("dialog").get_by_role("button", name="Passer à « Mort »").click()
    expect(row.locator(".row-state")).to_contain_text("Mort")
    assert state_of(alice) == "dead"
    assert HealthState.objects.filter(character__event=crowd.event, status="dead").count() == 1
    assert narrator.errors == []


@pytest.mark.parametrize("tablet", [False, True], ids=["phone", "tablet"])
def test_a_push_to_everyone_names_how_many(server_url, phone, tablet):
    crowd = crowd_event(server_url)
    narrator = open_narrator_of_300(phone, crowd, tablet=tablet)
    narrator.get_by_role("button", name="Envoyer un effet").click()
    form = narrator.locator("form.effect-form")
    form.get_by_placeholder("Effet : …").fill("Effet : la nuit tombe")
    form.locator("select[name=target]").select_option(label="Tout le monde")
    form.get_by_role("button", name="Envoyer", exact=True).click()

    dialog = narrator.get_by_role("dialog", name="Envoyer cet effet à tout le monde (300 personnages) ?")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Annuler").click()
    expect(dialog).to_have_count(0)
    night = Effect.objects.filter(event=crowd.event, text="Effet : la nuit tombe")
    assert not night.exists()

    form.get_by_role("button", name="Envoyer", exact=True).click()
    narrator.get_by_role("dialog").get_by_role("button", name="Envoyer à 300 personnages").click()
    expect(form.get_by_placeholder("Effet : …")).to_have_value("")
    # Every row on screen shows it, at the top of the list as at the bottom.
    expect(narrator.locator(".char-row").first).to_contain_text("la nuit tombe")
    narrator.locator(".list-box").evaluate("(el) => { el.scrollTop = el.scrollHeight; }")
    expect(narrator.locator(".char-row", has_text="Joueur 300")).to_contain_text("la nuit tombe")
    assert night.count() == 1   # one effect on every character
    assert narrator.errors == []


@pytest.mark.parametrize("tablet", [False, True], ids=["phone", "tablet"])
def test_the_undo_toast_restores_the_state(server_url, phone, tablet):
    game = make_game(server_url)
    narrator = open_narrator(phone, game, tablet)
    row = narrator.locator(".char-row", has_text="Alice")
    open_sheet_for(narrator, "Alice").get_by_label("Changer l'état de Alice").select_option(label="Mort")
    narrator.get_by_role("dialog").get_by_role("button", name="Passer à « Mort »").click()
    expect(row.locator(".row-state")).to_contain_text("Mort")

    toast = narrator.locator(".undo-toast")
    expect(toast).to_contain_text("Alice → Mort")
    toast.get_by_role("button", name="Annuler (10 s)").click()

    expect(toast).to_contain_text("Annulé.")
    expect(row.locator(".row-state")).to_contain_text("En pleine forme")
    assert state_of(game.alice) == "healthy"
    assert narrator.errors == []
