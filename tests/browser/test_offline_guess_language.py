"""Offline guesses speak the phone's language: a declaration tapped with no network shows
the state it leads to from the outcome table the phone kept (js/declared_offline.js), and
that table's labels must be in the language the player chose, not in the one the phone
spoke when it last fetched the table.

A French game (gn_fr): the phone first follows the game's language, keeps the outcome
table, then its player chooses Español in the top bar. In a dead zone a hit must read
"Herido" and "Recuperación de combate", never "Blessé" or "Récupération des points de
combat" among the Spanish text."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from browser_helpers import eventually, screenshot
from crowd import crowd_event

pytestmark = pytest.mark.django_db(transaction=True)

FRENCH_LABELS = ("Blessé", "Récupération des points de combat", "Dans le coma", "Coma dans")


def _log_in(page, link):
    page.goto(link)
    page.locator("form button").click()
    return page


def test_a_spanish_players_offline_guess_is_in_spanish(server_url, phone):
    crowd = crowd_event(server_url, characters=12, playing_for=timedelta(hours=1))
    alice = crowd.characters[3]
    # A phone whose player has not chosen yet: it speaks the game's language (French).
    page = _log_in(phone("es", chosen=False, browser_locale="es-ES"), crowd.link_for(alice, server_url))
    expect(page.locator("#state-label")).to_have_text("En pleine forme")
    eventually(page, f"localStorage.getItem('snap:outcomes:{alice.pk}') !== null")
    eventually(page, f"JSON.parse(localStorage.getItem('snap:outcomes:{alice.pk}')).value.data.states.wounded.label === 'Blessé'")

    # The player chooses Spanish; the page reloads in it.
    page.get_by_label("Langue").select_option("es")
    expect(page.locator("#state-label")).to_have_text("En plena forma")
    page.wait_for_timeout(2500)   # the table's refetch is spread over up to 1.7 s

    page.context.set_offline(True)
    page.get_by_role("button", name="Golpeado por un arma cortante").click()
    page.locator("button.armed").click()

    expect(page.locator(".pending-mark")).to_contain_text("Aún sin confirmar")
    expect(page.locator("#state-label")).to_have_text("Herido")
    expect(page.locator(".next")).to_contain_text("En coma en")
    expect(page.locator("#next-countdown")).to_have_text(re.compile(r"^1[45]:\d\d$"))
    text = page.locator("#app").inner_text()
    assert "Recuperación de combate" in text
    for french in FRENCH_LABELS:
        assert french not in text, f"French {french!r} on a Spanish screen"
    screenshot(page, "player-offline-guess-es")
    assert page.errors == []
