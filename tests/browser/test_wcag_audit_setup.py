"""The organisers' server-made pages under the same axe-core audit as the phone app's
(test_wcag_audit.py, docs/accessibility.md): choosing the rules of a new event, the event
form with its options, an event's set-up page (its organisers, its invitations), and the
race's public results, at 390 and 820 px, in fr, es and en."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from test_race_phones import in_thread, rugles_by_night
from test_wcag_audit import AXE, violations

pytestmark = pytest.mark.django_db(transaction=True)

PAGES = {"rules": ("/events/new/", "form"), "form": ("/events/new/?ruleset=gn_fr", "form"),
         "setup": ("/events/{id}/setup/", "main"), "results": ("/race/{id}/results/", "main")}


@pytest.mark.parametrize("lang", ["fr", "es", "en"])
@pytest.mark.parametrize("name", list(PAGES))
def test_an_organisers_page_has_no_wcag_violation(server_url, phone, name, lang):
    night = in_thread(rugles_by_night, server_url)
    page = phone(lang, AXE)
    page.goto(night.links["organiser"])                  # a staff organiser's login link
    page.locator("form button").click()
    expect(page.locator("#topbar a").first).to_be_visible()
    path, ready = PAGES[name]
    page.goto(server_url + path.format(id=night.race.pk))
    expect(page.locator(ready).first).to_be_visible()
    assert violations(page, 390) == []
    assert violations(page, 820) == []
