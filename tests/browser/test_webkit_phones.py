"""The phone flows in WebKit, the engine of every iPhone browser (tests/browser/webkit.py):
a player logs in from their link and declares a hit, a medic treats them by the typed code
and their phone follows without a reload, a narrator at tablet size pushes an effect that
the player's phone shows at once. Offline: the app opens from the service worker's cache and keeps a declaration in its
outbox while the laptop is out of reach, and sends it once when it is back. The same flows
run in Chromium in test_phone_app.py."""
from __future__ import annotations

import re
import time

import pytest

from health.models import HealthState
from players.models import Character
from test_phone_app import make_game
from webkit import CuttableLink, tap, tap_until, text_of, type_into, virtual_screen, wait_for, webkit_phone  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(driver, link: str) -> None:
    driver.get(link)
    tap(driver, "form button")
    wait_for(driver, lambda d: text_of(d, "#state-label") or text_of(d, ".char-row"), "the first screen")


def declare(driver, label: str) -> None:
    """Two taps, as on the phone: the first arms the button, the second confirms."""
    tap_until(driver, "button", label, shows=lambda d: d.find_elements("css selector", "button.armed"),
              what=f"{label!r} armed")
    tap(driver, "button.armed")


def test_an_iphone_player_logs_in_declares_a_hit_and_sees_the_countdown(server_url, webkit_phone):
    game = make_game(server_url)
    player = webkit_phone("fr")
    log_in(player, game.links["alice"])
    assert "AppleWebKit" in player.execute_script("return navigator.userAgent")
    assert text_of(player, "#state-label") == "En pleine forme"

    declare(player, "Touché par une arme blessante")
    wait_for(player, lambda d: text_of(d, "#state-label") == "Blessé", "Blessé")
    assert re.fullmatch(r"1[45]:\d\d", wait_for(player, lambda d: text_of(d, "#next-countdown"), "the countdown"))
    assert HealthState.objects.get(pk=game.alice.pk).status == "wounded"


def test_an_iphone_medic_treats_by_the_typed_code_and_the_patient_s_phone_follows(server_url, webkit_phone):
    game = make_game(server_url)
    patient = webkit_phone("fr")
    log_in(patient, game.links["alice"])
    declare(patient, "Touché par une arme blessante")
    wait_for(patient, lambda d: text_of(d, "#state-label") == "Blessé", "Blessé")

    medic = webkit_phone("fr")
    log_in(medic, game.links["bruno"])
    tap_until(medic, "a[href^='#/medic/']", shows=lambda d: d.find_elements("css selector", "#patient-code"),
              what="the medic's screen")
    type_into(medic, "#patient-code", game.alice.code.lower())
    tap_until(medic, "button", "Chercher", shows=lambda d: "Soigner Alice" in text_of(d, "#app"),
              what="Soigner Alice")
    tap(medic, "button", "Commencer", within=lambda d: next(
        f for f in d.find_elements("css selector", "form.treatment-option") if "Premiers secours" in f.text))
    wait_for(medic, lambda d: d.find_element("css selector", "#confirm-treatment").is_enabled(),
             "the confirm button enabled", timeout_s=20)
    tap(medic, "#confirm-treatment")
    wait_for(medic, lambda d: "terminé" in (text_of(d, "#app [role=status]") or ""), "the treatment done")

    # Not reloaded: the live channel brought the patient's new deadline.
    wait_for(patient, lambda d: re.fullmatch(r"1:00:00|59:\d\d", text_of(d, "#next-countdown") or ""),
             "the hour the first aid gave")
    assert Character.objects.get(pk=game.bruno.pk).kits == {"kps": 1}


def test_an_ipad_narrator_pushes_an_effect_that_the_iphone_shows_at_once(server_url, webkit_phone):
    game = make_game(server_url)
    player = webkit_phone("en")
    log_in(player, game.links["alice"])
    narrator = webkit_phone("en", tablet=True)
    log_in(narrator, game.links["narrator"])
    wait_for(narrator, lambda d: len(d.find_elements("css selector", ".char-row")) == 2, "two rows")

    def alice_ticked(d):
        box = next(r for r in d.find_elements("css selector", ".char-row")
                   if "Alice" in r.text).find_element("css selector", "input[type=checkbox]")
        if not box.is_selected():
            box.click()         # a row drawn anew under the tap stays unticked: tapped again
        return text_of(d, ".sheet-fab .badge") == "1"
    wait_for(narrator, alice_ticked, "Alice ticked")
    tap_until(narrator, ".sheet-fab", "Push an effect", prefix=True,
              shows=lambda d: d.find_elements("css selector", "[placeholder='Effect: …']"), what="the sheet")
    narrator.find_element("css selector", "[placeholder='Effect: …']").send_keys("Effet : tu as froid")
    narrator.find_element("css selector", "[placeholder='Minutes (empty: until removed)']").send_keys("10")
    tap(narrator, ".action-sheet button", "Push")
    wait_for(narrator, lambda d: text_of(d, ".sheet-status") == "Sent. Characters reached: 1.", "Sent")

    wait_for(player, lambda d: "Effet : tu as froid" in (text_of(d, ".effects") or ""), "the effect")
    assert re.fullmatch(r"10:00|9:5\d", text_of(player, ".effects .countdown"))


SERVICE_WORKER_READY = """const done = arguments[arguments.length - 1];
navigator.serviceWorker.ready.then(() => done(true)); setTimeout(() => done(false), 15000);"""


def test_an_iphone_out_of_reach_opens_from_its_cache_and_sends_its_outbox_once_back(server_url, webkit_phone):
    game = make_game(server_url)
    link = CuttableLink(server_url)
    try:
        player = webkit_phone("fr", origin=link.url)
        log_in(player, game.links["alice"].replace(server_url, link.url))
        assert player.execute_async_script(SERVICE_WORKER_READY), "the service worker did not install"
        player.refresh()                                # now controlled by the service worker
        wait_for(player, lambda d: d.execute_script("return navigator.serviceWorker.controller !== null"),
                 "the service worker in control")
        wait_for(player, lambda d: text_of(d, "#state-label") == "En pleine forme", "En pleine forme")

        link.cut()
        player.refresh()
        wait_for(player, lambda d: text_of(d, "#state-label") == "En pleine forme", "the cached screen")
        wait_for(player, lambda d: "Hors ligne" in text_of(d, "#topbar"), "Hors ligne")
        declare(player, "Touché par une arme assommante")
        wait_for(player, lambda d: "1 en attente d'envoi" in text_of(d, "#topbar"), "1 waiting")
        assert HealthState.objects.get(pk=game.alice.pk).values["combat_loss"] == 0

        link.restore()
        back = time.monotonic()
        # The laptop's return is noticed within about a second (js/api.js): the declaration
        # is recorded within 2 s, not at the outbox's 15-second round.
        while HealthState.objects.get(pk=game.alice.pk).values["combat_loss"] == 0:
            assert time.monotonic() - back < 2, "the outbox waited more than 2 s for the laptop"
            time.sleep(0.05)
        wait_for(player, lambda d: "1 / 2" in (text_of(d, ".points") or ""), "the hit applied")
        wait_for(player, lambda d: "en attente" not in text_of(d, "#topbar"), "nothing waiting")
        assert HealthState.objects.get(pk=game.alice.pk).values["combat_loss"] == 1      # applied once
    finally:
        link.close()
