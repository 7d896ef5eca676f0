"""A redraw keeps a keyboard, switch or screen-reader user's place on the player's phone:
an effect pushed, a narrator's change of state, the player's own declaration and a
banner's OK each redraw the screen, and the focus stays on the control it was on (or, when
that control is gone, goes to the next banner or the screen's heading, never to the top of
the page)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_helpers import log_in_from_the_link, manor_with_alice, off_the_browser_thread
from effects.services.effects import effect_push
from health.services import character_act

pytestmark = pytest.mark.django_db(transaction=True)

FOCUSED = "(() => { const el = document.activeElement; return el === document.body ? 'BODY' : " \
          "(el.getAttribute('aria-label') || el.textContent).trim(); })()"


def focused(page) -> str:
    return page.evaluate(FOCUSED)


def test_each_redraw_keeps_the_focus_where_the_player_was(server_url, phone):
    narrator, event, alice = manor_with_alice()
    page = phone("fr")
    log_in_from_the_link(page, server_url, event=event, character=alice)

    qr_button = page.get_by_role("button", name="Afficher mon QR code")
    qr_button.focus()
    page.keyboard.press("Shift+Tab")              # the control before it, by the keyboard
    page.keyboard.press("Tab")
    assert focused(page) == "Afficher mon QR code"

    # An effect pushed: the screen is redrawn, the focus stays.
    off_the_browser_thread(effect_push, event=event, characters=[alice], text="Un frisson glacé",
                           duration_s=600, set_state=None, by=narrator)
    expect(page.locator(".effects")).to_contain_text("Un frisson glacé")
    assert focused(page) == "Afficher mon QR code"

    # A narrator's change of state: the same.
    off_the_browser_thread(character_act, character=alice, action="hit_wounding", params={}, by=narrator,
                           as_narrator=True)
    expect(page.locator("#state-label")).to_have_text("Blessé")
    assert focused(page) == "Afficher mon QR code"

    # The player's own declaration, by the keyboard: two presses of Enter.
    out = page.get_by_role("button", name="Je me mets hors-jeu (bras levé, poing fermé)")
    out.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    expect(page.locator(".pending-mark, #state-label")).not_to_have_count(0)
    page.wait_for_timeout(1500)                    # the answer's redraw
    assert focused(page) != "BODY"

    # A banner's OK, by the keyboard: on to the next banner, then the screen's heading.
    oks = page.locator("#banners .banner-ok")
    expect(oks).to_have_count(2)                   # the effect and the state change
    oks.first.focus()
    page.keyboard.press("Enter")
    expect(oks).to_have_count(1)
    assert focused(page) == "OK : vu"
    page.keyboard.press("Enter")
    expect(oks).to_have_count(0)
    assert page.evaluate("document.activeElement.tagName") == "H1"
    assert page.errors == []
