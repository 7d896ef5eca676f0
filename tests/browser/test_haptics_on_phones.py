"""Buzzes a player can learn, on a phone: a page nobody has touched (a fresh login, a
reload) offers to turn on buzz and sound before any alert is due, and each alert buzzes
the pattern of its meaning (frontend/static/frontend/haptics.js); a wake lock refused (as
Safari refuses one asked for without a fresh tap) is asked for again at the next tap."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_helpers import eventually, log_in_from_the_link, manor_with_alice, off_the_browser_thread
from effects.services.effects import effect_push
from health.services import character_act
from test_player_alerts import VIBRATE_STUB

pytestmark = pytest.mark.django_db(transaction=True)


# A page nobody has tapped since it loaded, as the app reads it (navigator.userActivation).
UNTOUCHED = """
(() => {
  let touched = false;
  window.addEventListener("pointerdown", () => { touched = true; }, true);
  Object.defineProperty(Navigator.prototype, "userActivation", { configurable: true,
    get() { return { get hasBeenActive() { return touched; }, get isActive() { return touched; } }; } });
})();
"""


def vibrations(page) -> list:
    return page.evaluate("window.__vibrations.slice()")


def test_an_untouched_page_offers_the_buzz_and_each_alert_buzzes_its_meaning(server_url, phone):
    narrator, event, alice = manor_with_alice()
    page = phone("fr", VIBRATE_STUB + UNTOUCHED)
    log_in_from_the_link(page, server_url, event=event, character=alice)
    haptics = page.evaluate("self.HAPTICS")

    # Whether a page was touched is the browser's to say, and headless Chromium here counts
    # the login's tap for the pages after it: the page is told it was not touched until a
    # tap on it (UNTOUCHED), as a phone's browser does after a reload.
    page.reload()
    expect(page.locator("#state-label")).to_have_text("En pleine forme")
    offer = page.get_by_role("button", name="Touchez pour activer vibreur et son")
    expect(offer).to_be_visible()                 # before any alert is due
    assert vibrations(page) == []
    offer.click()
    expect(offer).to_be_hidden()
    assert vibrations(page) == [haptics["state"]]     # one buzz: it works

    off_the_browser_thread(effect_push, event=event, characters=[alice], text="Un frisson glacé",
                           duration_s=600, set_state=None, by=narrator)
    eventually(page, "window.__vibrations.length === 2")
    assert vibrations(page)[-1] == haptics["effect"]

    off_the_browser_thread(character_act, character=alice, action="hit_wounding", params={}, by=narrator,
                           as_narrator=True)
    expect(page.locator("#state-label")).to_have_text("Blessé")
    eventually(page, "window.__vibrations.length === 3")
    assert vibrations(page)[-1] == haptics["state"]
    assert len({tuple(pattern) for pattern in haptics.values()}) == len(haptics)
    assert page.errors == []


# A screen wake lock that is refused once (NotAllowedError, Safari without a fresh tap)
# and granted after: each request is counted, the lock held is visible to the test.
WAKE_LOCK_REFUSED_ONCE = """
(() => {
  window.__wakeRequests = 0;
  window.__wakeHeld = false;
  const sentinel = new EventTarget();
  sentinel.release = async () => { window.__wakeHeld = false; sentinel.dispatchEvent(new Event("release")); };
  Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
    async request() {
      window.__wakeRequests += 1;
      if (window.__wakeRequests === 1) throw new DOMException("no gesture", "NotAllowedError");
      window.__wakeHeld = true;
      return sentinel;
    } } });
})();
"""


def test_a_refused_wake_lock_is_asked_again_at_the_next_tap(server_url, phone):
    narrator, event, alice = manor_with_alice()
    page = phone("fr", WAKE_LOCK_REFUSED_ONCE)
    log_in_from_the_link(page, server_url, event=event, character=alice)
    assert page.evaluate("window.__wakeRequests") == 0     # nothing to keep awake for yet

    # Wounded: a countdown to keep on screen, and the lock is refused.
    off_the_browser_thread(character_act, character=alice, action="hit_wounding", params={}, by=narrator,
                           as_narrator=True)
    expect(page.locator("#state-label")).to_have_text("Blessé")
    eventually(page, "window.__wakeRequests === 1")
    assert page.evaluate("window.__wakeHeld") is False
    # Redrawn (an effect arrives): a refused lock is not asked for at every redraw.
    off_the_browser_thread(effect_push, event=event, characters=[alice], text="Un frisson glacé",
                           duration_s=600, set_state=None, by=narrator)
    expect(page.locator("body")).to_contain_text("Un frisson glacé")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__wakeRequests") == 1
    assert page.evaluate("window.__wakeHeld") is False

    page.locator("#state-label").click()                  # any tap on the screen
    eventually(page, "window.__wakeHeld === true")
    assert page.evaluate("window.__wakeRequests") == 2
    page.locator("#state-label").click()                  # held: not asked again
    page.wait_for_timeout(300)
    assert page.evaluate("window.__wakeRequests") == 2
    assert page.errors == []
