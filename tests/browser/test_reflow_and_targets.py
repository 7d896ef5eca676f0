"""Every phone screen narrowed to 320 px, and with its text at 200 %: nothing scrolls
sideways and no state label is cut (WCAG 2.2 1.4.10 Reflow, 1.4.4 Resize text). At a
phone's size every target is at least 44 px square: the app's own bar, above WCAG 2.5.8's
24 px, for a cold thumb in a glove (docs/accessibility.md)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_helpers import off_the_browser_thread, screenshot
from crowd import crowd_event
from health.services import character_act
from test_airsoft_phones import terrier

pytestmark = pytest.mark.django_db(transaction=True)

TARGET_PX = 44
# What a finger taps. A link inside a sentence is exempt (WCAG's inline exception), and so
# is the body figure's limbs: a shortcut to the hit form's list of places, which is the
# equivalent control (WCAG 2.5.8's "equivalent" exception). A checkbox is tapped through
# its label, so the label is what is measured.
AUDIT = """(targetPx) => {
  const root = document.documentElement;
  const describe = (el) => `${el.tagName.toLowerCase()}${el.className ? '.' + String(el.className).trim().split(/\\s+/).join('.') : ''}`
    + ` "${(el.getAttribute('aria-label') || el.textContent || el.value || '').trim().slice(0, 40)}"`;
  const sideways = [];
  if (root.scrollWidth > root.clientWidth + 1) {
    for (const el of document.querySelectorAll('body *')) {
      const box = el.getBoundingClientRect();
      if (box.width && box.right > root.clientWidth + 1 && el.checkVisibility()) sideways.push(describe(el));
    }
    sideways.unshift(`the page is ${root.scrollWidth} px wide in ${root.clientWidth}`);
  }
  const cut = [...document.querySelectorAll('.state-label')]
    .filter((el) => el.checkVisibility() && el.scrollWidth > el.clientWidth + 1).map(describe);
  const small = [];
  const targets = 'button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button]';
  for (const el of document.querySelectorAll(targets)) {
    if (!el.checkVisibility() || el.disabled) continue;
    if (el.matches('a:not(.button)') && el.closest('p, li, td, .hint')) continue;
    if (el.closest('svg.body-figure')) continue;
    const measured = el.matches('input[type=checkbox], input[type=radio]') ? (el.closest('label') || el) : el;
    const box = measured.getBoundingClientRect();
    if (box.width < targetPx - 0.5 || box.height < targetPx - 0.5) {
      small.push(`${describe(el)} ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return {sideways: sideways.slice(0, 8), cut, small};
}"""


def audit(page) -> dict:
    page.wait_for_timeout(300)     # the redraw after a resize or a new text size
    return page.evaluate(AUDIT, TARGET_PX)


def _wound(character, narrator):
    character_act(character=character, action="hit_wounding", params={}, by=narrator, as_narrator=True)


def open_screen(phone, server_url, ruleset: str, who: str, lang: str, init_script: str | None = None):
    """A phone on one screen of a game of `ruleset`, in a state that shows its most: a
    wounded player's countdown, a medic's tools, a narrator's list of twelve; for airsoft,
    the club day of le Terrier (its organiser, a member checked in)."""
    page = phone(lang, init_script)
    if ruleset == "airsoft_rats":
        _, _, players, links = terrier(server_url)
        page.goto(links["orga" if who == "narrator" else next(iter(players))])
    else:
        crowd = crowd_event(server_url, characters=12, ruleset=ruleset, language=lang,
                            medics=1 if who == "medic" else 0)
        character = crowd.characters[1]                 # Joueur 002: the medic when there is one
        if who == "player" and ruleset == "gn_fr":
            off_the_browser_thread(_wound, character, crowd.narrator)
        page.goto(crowd.narrator_link if who == "narrator" else crowd.link_for(character, server_url))
    page.locator("form button").click()                 # the login page's button
    expect(page.locator(".char-row, .state-label").first).to_be_visible()
    return page


SCREENS = [("gn_fr", "player"), ("gn_fr", "medic"), ("gn_fr", "narrator"),
           ("airsoft_rats", "player"), ("airsoft_rats", "narrator"),
           ("septenario_es", "player"), ("septenario_es", "narrator")]


@pytest.mark.parametrize("lang", ["fr", "es", "en"])
@pytest.mark.parametrize(("ruleset", "who"), SCREENS, ids=[f"{r}-{w}" for r, w in SCREENS])
def test_a_screen_reflows_at_320_px_and_at_200_percent_text_and_its_targets_are_44_px(
        server_url, phone, ruleset, who, lang):
    page = open_screen(phone, server_url, ruleset, who, lang)

    at_phone_size = audit(page)
    assert not at_phone_size["small"], "under 44 px:\n" + "\n".join(at_phone_size["small"])
    assert not at_phone_size["sideways"] + at_phone_size["cut"], at_phone_size

    page.set_viewport_size({"width": 320, "height": 640})
    narrow = audit(page)
    assert not narrow["sideways"] + narrow["cut"], "at 320 px:\n" + "\n".join(narrow["sideways"] + narrow["cut"])

    # Text twice the app's own size, as a phone's text-size setting makes it.
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("""() => { const root = document.documentElement;
      root.style.setProperty("font-size", 2 * parseFloat(getComputedStyle(root).fontSize) + "px", "important"); }""")
    large_text = audit(page)
    assert not large_text["sideways"] + large_text["cut"], \
        "at 200 % text:\n" + "\n".join(large_text["sideways"] + large_text["cut"])
    if (ruleset, who, lang) == ("gn_fr", "narrator", "fr"):
        screenshot(page, "narrator-text-200-percent-fr")
    assert page.errors == []
