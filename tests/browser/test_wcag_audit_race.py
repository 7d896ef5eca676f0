"""The zombie race's screens under the same axe-core audit as the game's (test_wcag_audit.py,
docs/accessibility.md): a team racing (countdown, flags, the balise form), a zombie (the bib
form), the organisers (summary, an overdue runner on the safety board), at 390
and 820 px, in the dark mode in French, English and Spanish (the language chosen on the
phone wins over the race's) and in the day mode."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from race.services.running import entry_start
from test_display_modes import chosen
from test_race_phones import in_thread, rugles_by_night
from test_wcag_audit import AXE, violations

pytestmark = pytest.mark.django_db(transaction=True)

# Who opens the race, and what shows once their screen is drawn.
SCREENS = {"survivor": ("rescapes", "#race-status"), "zombie": ("zombie", "#bib-code"),
           "organiser": ("organiser", "#race-summary")}


# Every language in the app's own dark mode; the day mode's colours in one (they are the
# same whatever the words).
RUNS = [("dark", "fr"), ("dark", "es"), ("dark", "en"), ("day", "fr")]


@pytest.mark.parametrize(("display", "lang"), RUNS, ids=[f"{d}-{l}" for d, l in RUNS])
@pytest.mark.parametrize("who", list(SCREENS))
def test_a_race_screen_has_no_wcag_violation(server_url, phone, who, display, lang):
    night = in_thread(rugles_by_night, server_url)
    # Lucie out for 1 h 46 on a 1 h 30 course: her countdown is over, she shows overdue.
    in_thread(entry_start, entry=night.lucie, at=timezone.now() - timedelta(minutes=106), by=night.organiser)
    in_thread(entry_start, entry=night.rescapes, by=night.organiser)
    key, ready = SCREENS[who]
    page = phone(lang, AXE + chosen(display))
    page.goto(night.links[key])
    page.locator("form button").click()                 # the login page's button
    expect(page.locator(ready)).to_be_visible()
    assert page.evaluate("document.documentElement.dataset.display") == display
    assert violations(page, 390) == []
    assert violations(page, 820) == []
    assert page.errors == []
