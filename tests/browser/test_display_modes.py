"""Sun and night (docs/accessibility.md): the night mode turns every colour into red light
on black, the day mode is black on white and passes the same WCAG audit as the app's own
dark one, a mode chosen on the phone stays after a reload, "automatic" follows the phone's
high-contrast setting, else the event's choice, and forced colours give every control an
edge."""
from __future__ import annotations

import io

import pytest
from PIL import Image
from playwright.sync_api import expect

from browser_helpers import off_the_browser_thread, screenshot
from crowd import crowd_event
from players.models import Event
from test_reflow_and_targets import SCREENS, open_screen
from test_wcag_audit import AXE, violations

pytestmark = pytest.mark.django_db(transaction=True)


def chosen(mode: str) -> str:
    """An init script: this phone chose `mode` on its self-check screen before."""
    return f"try {{ localStorage.setItem('display', '{mode}'); }} catch (error) {{}}"


def colours(page) -> list[tuple[int, int, int]]:
    picture = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    return list(picture.get_flattened_data())


@pytest.mark.parametrize(("ruleset", "who"), SCREENS, ids=[f"{r}-{w}" for r, w in SCREENS])
def test_the_day_mode_has_no_wcag_violation(server_url, phone, ruleset, who):
    page = open_screen(phone, server_url, ruleset, who, "fr", init_script=AXE + chosen("day"))
    assert page.evaluate("document.documentElement.dataset.display") == "day"
    assert violations(page, 390) == []
    if (ruleset, who) in (("gn_fr", "player"), ("gn_fr", "narrator")):
        screenshot(page, f"display-day-{who}-fr")
    assert page.errors == []


def test_the_night_mode_chosen_on_the_phone_is_red_light_only_and_stays(server_url, phone):
    page = open_screen(phone, server_url, "gn_fr", "player", "fr")
    before = colours(page)
    assert any(g > 60 or b > 60 for _, g, b in before)          # the dark mode has colours
    page.goto(page.url.split("#")[0] + "#/check")
    page.get_by_label("Nuit : rouge sur noir").check()
    expect(page.locator("html")).to_have_attribute("data-display", "night")
    page.get_by_role("button", name="Aller au jeu").click()
    expect(page.locator(".state-label")).to_be_visible()
    page.reload()
    expect(page.locator(".state-label")).to_be_visible()
    assert page.evaluate("document.documentElement.dataset.display") == "night"
    after = colours(page)
    assert max(max(g, b) for _, g, b in after) <= 2, "green or blue light in the night mode"
    assert max(r for r, _, _ in after) >= 250                    # the words are bright red
    screenshot(page, "display-night-player-fr")
    assert page.errors == []


def test_automatic_follows_the_phones_high_contrast_setting(server_url, phone):
    page = open_screen(phone, server_url, "gn_fr", "player", "fr")
    assert page.evaluate("document.documentElement.dataset.display") == "dark"
    page.emulate_media(contrast="more")
    expect(page.locator("html")).to_have_attribute("data-display", "day")
    page.emulate_media(contrast="no-preference")
    expect(page.locator("html")).to_have_attribute("data-display", "dark")


def test_forced_colours_give_every_control_an_edge_and_no_filter(server_url, phone):
    page = open_screen(phone, server_url, "gn_fr", "player", "fr", init_script=chosen("night"))
    page.emulate_media(forced_colors="active")
    styles = page.evaluate("""() => ({
      filter: getComputedStyle(document.documentElement).filter,
      edges: [...document.querySelectorAll('button')].filter((b) => b.checkVisibility())
        .map((b) => getComputedStyle(b).borderTopStyle)})""")
    assert styles["filter"] == "none"
    assert styles["edges"] and set(styles["edges"]) == {"solid"}


def test_automatic_starts_in_the_events_display_and_the_players_choice_wins(server_url, phone):
    crowd = crowd_event(server_url, characters=2, language="fr")
    off_the_browser_thread(lambda: Event.objects.filter(pk=crowd.event.pk).update(display="night"))
    page = phone("fr")
    page.goto(crowd.link_for(crowd.characters[0], server_url))
    page.locator("form button").click()
    expect(page.locator(".state-label")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("data-display", "night")
    page.goto(page.url.split("#")[0] + "#/check")
    expect(page.get_by_label("Automatique (celui du téléphone ou du jeu)")).to_be_checked()
    page.get_by_label("Sombre").check()
    expect(page.locator("html")).to_have_attribute("data-display", "dark")
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-display", "dark")
    assert page.errors == []


def test_a_text_size_chosen_in_the_app_grows_every_screen_and_stays(server_url, phone):
    page = open_screen(phone, server_url, "gn_fr", "player", "fr")
    root_px = "parseFloat(getComputedStyle(document.documentElement).fontSize)"
    label_px = "parseFloat(getComputedStyle(document.querySelector('.state-label')).fontSize)"
    assert page.evaluate(root_px) == 18
    before = page.evaluate(label_px)
    page.goto(page.url.split("#")[0] + "#/check")
    page.get_by_label("150\u202f%").check()
    assert page.evaluate(root_px) == 27
    page.get_by_role("button", name="Aller au jeu").click()
    page.reload()
    expect(page.locator(".state-label")).to_be_visible()
    assert page.evaluate(root_px) == 27
    assert page.evaluate(label_px) == pytest.approx(before * 1.5)
    assert page.errors == []
