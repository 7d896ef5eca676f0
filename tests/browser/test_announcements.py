"""What a screen reader says on the player's phone, counted as it would hear it: the screen
is not a live region, its countdowns are silent timers, and one status region says each
thing once (js/announce.js): a state change (the player's own too), "1 minute left" with
its words, an effect; a wounded player idle for ten seconds hears nothing."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_helpers import eventually, log_in_from_the_link, manor_with_alice, off_the_browser_thread
from effects.services.effects import effect_push
from health.services import character_act

pytestmark = pytest.mark.django_db(transaction=True)

# What a screen reader would say, recorded from the page's first script on: the text of a
# live region each time it changes (polite, assertive, status, alert, log), and an alert
# inserted with text. Changes inside a timer or an aria-live="off" part are not said.
COUNT_ANNOUNCEMENTS = """
window.__said = [];
const LIVE = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]';
const last = new WeakMap();
new MutationObserver((records) => {
  const touched = new Set();
  for (const record of records) {
    const node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
    if (!node || node.closest('[role="timer"], [aria-live="off"]')) continue;
    const region = node.closest(LIVE);
    if (region) touched.add(region);
    for (const added of record.addedNodes) {
      if (added.nodeType === 1 && added.matches(LIVE)) touched.add(added);
    }
  }
  for (const region of touched) {
    const text = region.textContent.trim();
    if (!region.isConnected || !text || last.get(region) === text) continue;
    last.set(region, text);
    window.__said.push(text);
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def said(page) -> list[str]:
    return page.evaluate("window.__said.slice()")


def test_a_wounded_player_hears_each_thing_once_and_silence_in_between(server_url, phone):
    # The coma 75 s after the wound: "1 minute left" comes 15 s after it.
    narrator, event, alice = manor_with_alice(wounded_deadline_s=75)
    page = phone("fr", COUNT_ANNOUNCEMENTS)
    log_in_from_the_link(page, server_url, event=event, character=alice)
    page.wait_for_timeout(1500)
    before = len(said(page))

    off_the_browser_thread(character_act, character=alice, action="hit_wounding", params={}, by=narrator,
                           as_narrator=True)
    expect(page.locator("#state-label")).to_have_text("Blessé")
    page.wait_for_timeout(1500)
    new = said(page)[before:]
    assert new == ["Votre état : Blessé"], new     # once, not the banner again nor the screen

    # Ten seconds of a running countdown: nothing is said.
    quiet = len(said(page))
    page.wait_for_timeout(10000)
    assert said(page)[quiet:] == []
    expect(page.locator("#next-countdown")).to_have_attribute("role", "timer")

    # A minute before the coma: said once, in words.
    eventually(page, "window.__said.some((text) => text.startsWith('Plus qu\\'une minute'))", timeout_s=20)
    page.wait_for_timeout(1500)
    minute = [text for text in said(page)[quiet:] if "minute" in text]
    assert len(minute) == 1 and "Coma dans" in minute[0], said(page)[quiet:]

    # An effect: its words once (its banner does not say them again when redrawn).
    mark = len(said(page))
    off_the_browser_thread(effect_push, event=event, characters=[alice], text="Un frisson glacé",
                           duration_s=600, set_state=None, by=narrator)
    expect(page.locator("#banners .banner").filter(has_text="Un frisson glacé")).to_be_visible()
    page.wait_for_timeout(1500)
    assert [text for text in said(page)[mark:] if "frisson" in text] == ["Un frisson glacé"]

    # Asked for: the time left, spoken.
    page.get_by_role("button", name="Lire mon temps").click()
    eventually(page, "window.__said.some((text) => text.startsWith('Blessé. Coma dans'))")
    assert page.errors == []
