"""The phone's outbox sends a tap at once, even when another write is on its way: a
declaration tapped while a question to the organisers is still being answered (a slow
network) leaves as soon as that answer arrives, not at the outbox's next 15-second round."""
from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from browser_helpers import log_in_from_the_link, manor_with_alice, off_the_browser_thread
from health.models import HealthState

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_tap_made_while_another_write_is_answered_leaves_with_it(server_url, phone):
    narrator, event, alice = manor_with_alice()
    page = phone("fr")
    log_in_from_the_link(page, server_url, event=event, character=alice)

    held = []       # the question's request, held as a slow network would
    page.route("**/api/characters/*/requests/", lambda route: held.append(route))
    page.locator("details.ask-panel summary").click()
    page.get_by_label("Votre demande").fill("Puis-je ouvrir le coffre ?")
    page.locator(".ask-panel").get_by_role("button", name="Envoyer").click()
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert held, "the question never left"

    # Tapped while the question waits for its answer.
    page.get_by_role("button", name="Touché par une arme blessante").click()
    page.locator("button.armed").click()
    page.wait_for_timeout(1000)
    held[0].continue_()
    released = time.monotonic()
    expect(page.locator("#state-label")).to_have_text("Blessé")
    expect(page.locator(".pending-mark")).to_have_count(0, timeout=5000)   # confirmed by the server
    assert time.monotonic() - released < 5     # not the 15-second round
    assert off_the_browser_thread(lambda: HealthState.objects.get(pk=alice.pk).status) == "wounded"
    assert page.errors == []
