"""The object panel on the player's screen, in a real phone browser: a player types an
object's code (or scans its label with the phone's camera app, which opens the app on
/?object=CODE), reads its tag, swallows a medicine or makes someone else swallow it, or
unlocks a door."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from effects.services.items import item_create
from effects.models import Effect
from players.services import character_create, event_create, login_token_issue

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "Effet : vous dormez dix minutes"


def game(server_url: str):
    narrator = get_user_model().objects.create_user(username="mj", is_staff=True)
    event = event_create(name="Le Manoir", ruleset="gn_fr", by=narrator, start_clock=True)
    alice = character_create(event=event, name="Alice", sheet={"combat_base": 2})
    denis = character_create(event=event, name="Denis", sheet={"combat_base": 2})
    potion = item_create(event=event, by=narrator, name="Fiole bleue", kind="medicine",
                         tag_text="Effet : en cas d'ingestion, lire le verso",
                         secret_text=SECRET, effect_duration_s=600)
    link = f"{server_url}/login/{login_token_issue(event=event, user=alice.user)}"
    return alice, denis, potion, link


def open_panel(page, link, server_url=None, code=None):
    page.goto(link)
    page.locator("form button").click()  # the login page's button
    expect(page.locator("#state-label")).to_be_visible()
    if code:                                  # the label's QR code, read by the camera app
        page.goto(f"{server_url}/?object={code}")
        expect(page.locator("#state-label")).to_be_visible()
    return page.locator(".object-panel")


def test_a_player_swallows_a_medicine_and_reads_the_verso(server_url, phone):
    alice, _denis, potion, link = game(server_url)
    page = phone("fr")
    panel = open_panel(page, link)

    panel.get_by_label("Code de l'objet").fill(potion.code.lower())
    panel.get_by_role("button", name="Chercher").click()
    expect(panel.get_by_text("lire le verso")).to_be_visible()
    assert SECRET not in panel.inner_text()
    panel.get_by_role("button", name="Ingérer").click()
    panel.get_by_role("button", name="Moi").click()

    expect(panel.get_by_role("status")).to_contain_text(SECRET)
    expect(panel.get_by_role("status")).to_contain_text("Pendant 10:00")
    expect(panel.get_by_text("Déjà utilisé.")).to_be_visible()
    assert Effect.objects.get(character=alice).text == SECRET
    assert page.errors == []


def test_a_player_makes_someone_else_swallow_it_and_never_reads_the_verso(server_url, phone):
    alice, denis, potion, link = game(server_url)
    page = phone("es")
    panel = open_panel(page, link, server_url, code=potion.code)

    panel.get_by_role("button", name="Ingerir").click()
    panel.get_by_label("Su código").fill(denis.code)
    panel.get_by_role("button", name="Hacérselo ingerir").click()

    expect(panel.get_by_role("status")).to_contain_text("Hecho: Denis debe leer el reverso.")
    assert SECRET not in page.content()
    assert Effect.objects.get().character_id == denis.pk
    assert page.errors == []


def test_a_player_unlocks_a_door_and_is_told_where_to_hang_the_padlock(server_url, phone):
    alice, _denis, _potion, link = game(server_url)
    door = item_create(event=alice.event, by=None, name="Porte de la cave", kind="lock")
    page = phone("fr")
    panel = open_panel(page, link, server_url, code=door.code)

    expect(panel).to_contain_text("Fermée : le cadenas est sur la boucle rouge.")
    panel.get_by_role("button", name="Déverrouiller").click()
    panel.get_by_role("button", name="Touchez encore pour déverrouiller").click()

    expect(panel.get_by_role("status")).to_contain_text("passez maintenant le cadenas sur la boucle verte")
    expect(panel).to_contain_text("Ouverte : le cadenas est sur la boucle verte.")
    door.refresh_from_db()
    assert (door.closed, door.used_by_id) == (False, alice.pk)
    assert page.errors == []
