"""The phone's live channel when the server refuses it: a session that ended is not
retried for ever, and the phone says what to do."""
from __future__ import annotations

import time

import pytest
from django.contrib.sessions.models import Session
from playwright.sync_api import expect

from test_phone_app import make_game, open_player

pytestmark = pytest.mark.django_db(transaction=True)

# Keep every websocket the page opens, so that the test can cut it and count the retries.
COUNT_SOCKETS = """
(() => {
  const Real = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = class extends Real {
    constructor(...args) { super(...args); window.__sockets.push(this); }
  };
})();
"""

TEXTS = {"fr": "Déconnecté : scannez le QR code de votre fiche de personnage",
         "es": "Sesión cerrada: escanea el código QR de tu hoja de personaje",
         "en": "Logged out: scan the QR code on your character sheet"}


@pytest.mark.parametrize("lang", ["fr", "es", "en"])
def test_a_refused_live_channel_is_not_retried_and_the_phone_says_to_log_in_again(
        server_url, phone, lang):
    game = make_game(server_url)
    page = open_player(phone(lang, COUNT_SOCKETS), game)
    page.wait_for_function("window.__sockets.some((s) => s.readyState === WebSocket.OPEN)")

    Session.objects.all().delete()                 # the server forgets the session
    page.evaluate("window.__sockets.forEach((s) => s.close())")   # the signal drops
    expect(page.locator("#topbar")).to_contain_text(TEXTS[lang])
    opened = page.evaluate("window.__sockets.length")
    time.sleep(3)                                  # a retrying phone would try again by now
    page.evaluate("window.dispatchEvent(new Event('online'))")   # nor when the signal returns
    time.sleep(0.5)
    assert page.evaluate("window.__sockets.length") == opened
    assert page.errors == []
