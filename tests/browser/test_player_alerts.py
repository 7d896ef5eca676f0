"""What matters reaches the player, and offline truth, tried on a phone and a tablet, one
player among the 300 of a real event (crowd.py):
- a declaration tapped with no network shows its state and countdown at once, marked as
  not yet confirmed; once the network is back the server confirms it, counted from the
  tap;
- an incoming effect, a change of state and an announcement show as a banner at the top
  until acknowledged, with vibration and sound, and stay in the history;
- Urgence / Emergencia is in the top bar of the player's, the medic's and the narrators'
  screens: one tap, then a confirmation that says what will happen."""
from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from playwright.sync_api import expect

from browser_helpers import eventually, off_the_browser_thread, screenshot
from crowd import crowd_event
from effects.services.effects import effect_push
from health.models import HealthState
from health.services import character_act
from players.models import Event, JournalEntry
from players.services import character_create, event_create, login_token_issue
from schedule.services.games import game_announce

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "fr": {"healthy": "En pleine forme", "wounded": "Blessé", "hit": "Touché par une arme blessante",
           "before": "Coma dans", "pending": "Pas encore confirmé", "offline": "Pas de réseau",
           "confirmed": "Confirmé par le serveur : Blessé", "emergency": "Urgence",
           "stop": "Arrêter le jeu pour tout le monde", "cancel": "Annuler",
           "declared": "Urgence déclarée", "changed": "Votre état a changé : Blessé", "medic": "Médecin"},
    "es": {"healthy": "En plena forma", "wounded": "Herido", "hit": "Golpeado por un arma cortante",
           "before": "En coma en", "pending": "Aún sin confirmar", "offline": "Sin red",
           "confirmed": "Confirmado por el servidor: Herido", "emergency": "Emergencia",
           "stop": "Parar el juego para todos", "cancel": "Cancelar",
           "declared": "Emergencia declarada", "changed": "Tu estado ha cambiado: Herido", "medic": "Médico"},
    "en": {"healthy": "Healthy", "wounded": "Wounded", "hit": "Hit by a wounding weapon",
           "before": "In a coma in", "pending": "Not yet confirmed", "offline": "No network",
           "confirmed": "Confirmed by the server: Wounded", "emergency": "Emergency",
           "stop": "Stop the game for everyone", "cancel": "Cancel",
           "declared": "Emergency declared", "changed": "Your state changed: Wounded", "medic": "Medic"},
}

# A phone's vibration, observed: every call of navigator.vibrate is kept.
VIBRATE_STUB = """
window.__vibrations = [];
Object.defineProperty(Navigator.prototype, "vibrate", {
  configurable: true, value(pattern) { window.__vibrations.push(pattern); return true; } });
"""
# Its sound, observed: every tone the app starts is counted (it still plays).
SOUND_STUB = """
window.__tones = 0;
const createOscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.__tones += 1; return createOscillator.call(this); };
"""

# Real seconds in the dead zone: the server knows when this phone last reached it with
# nothing waiting (live/phone_contact.py), so a tap cannot be moved back further than
# that (tests/health/test_late_tap_bounds.py); counting from the tap shows in seconds.
DEAD_ZONE_S = 12


def log_in(page, link):
    page.goto(link)
    page.locator("form button").click()  # the login page's button
    return page


def declare(page, label: str) -> None:
    page.get_by_role("button", name=label).click()
    page.locator("button.armed").click()


@pytest.mark.parametrize("tablet", [False, True], ids=["phone", "tablet"])
@pytest.mark.parametrize("lang", ["fr", "es", "en"])
def test_a_wound_declared_offline_shows_at_once_and_is_confirmed_from_the_tap(server_url, phone,
                                                                              lang, tablet):
    # The game has been running for an hour.
    crowd = crowd_event(server_url, playing_for=timedelta(hours=1))
    alice = crowd.characters[150]
    words = WORDS[lang]
    page = log_in(phone(lang, tablet=tablet), crowd.link_for(alice, server_url))
    expect(page.locator("#state-label")).to_have_text(words["healthy"])
    # The outcome table is kept for when the network goes.
    eventually(page, f"localStorage.getItem('snap:outcomes:{alice.pk}') !== null")

    page.context.set_offline(True)
    declare(page, words["hit"])

    # At once, with no answer from the server: the state, its countdown, not confirmed.
    expect(page.locator("#state-label")).to_have_text(words["wounded"])
    expect(page.locator(".pending-mark")).to_contain_text(words["pending"])
    expect(page.locator(".next")).to_contain_text(words["before"])
    expect(page.locator("#next-countdown")).to_have_text(re.compile(r"^1[45]:\d\d$"))
    expect(page.locator(".message")).to_contain_text(words["offline"])
    assert HealthState.objects.get(pk=alice.pk).status == "healthy"

    # Some time in the dead zone, then the network comes back.
    time.sleep(DEAD_ZONE_S)
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")

    expect(page.locator(".message")).to_contain_text(words["confirmed"])
    expect(page.locator(".pending-mark")).to_have_count(0)
    expect(page.locator("#state-label")).to_have_text(words["wounded"])
    # The server's countdown: fifteen minutes from the tap, not from the arrival.
    expect(page.locator("#next-countdown")).to_have_text(re.compile(r"^14:[0-4]\d$"))
    health = HealthState.objects.get(pk=alice.pk)
    assert health.status == "wounded"
    line = JournalEntry.objects.get(character=alice, kind="action")
    waited = parse_datetime(line.detail["received_at"]) - parse_datetime(line.detail["tapped_at"])
    assert waited.total_seconds() >= DEAD_ZONE_S
    assert page.errors == []


@pytest.mark.parametrize("tablet", [False, True], ids=["phone", "tablet"])
def test_an_effect_and_a_new_state_stay_at_the_top_until_acknowledged(server_url, phone, tablet):
    crowd = crowd_event(server_url)
    event, narrator, alice = crowd.event, crowd.narrator, crowd.characters[150]
    page = log_in(phone("fr", VIBRATE_STUB + SOUND_STUB, tablet=tablet), crowd.link_for(alice, server_url))
    expect(page.locator("#state-label")).to_have_text("En pleine forme")
    page.locator("#state-label").click()            # browsers allow sound after a first tap
    page.mouse.wheel(0, 2000)                       # reading the bottom of the screen

    off_the_browser_thread(effect_push, event=event, characters=[alice], text="Un frisson te parcourt l'échine",
                           duration_s=600, set_state=None, by=narrator)

    banner = page.locator("#banners .banner").filter(has_text="Un frisson te parcourt l'échine")
    expect(banner).to_be_visible()
    assert banner.bounding_box()["y"] < 60           # at the top of the screen, wherever it was read
    eventually(page, "window.__vibrations.length === 1 && window.__tones === 3")   # three beeps
    page.wait_for_timeout(1500)
    expect(banner).to_be_visible()                  # it stays until acknowledged...
    page.reload()
    expect(banner).to_be_visible()                  # ...even after a reload

    off_the_browser_thread(character_act, character=alice, action="hit_wounding", params={}, by=narrator,
                           as_narrator=True)
    changed = page.locator("#banners .banner").filter(has_text="Votre état a changé : Blessé")
    expect(changed).to_be_visible()
    eventually(page, "window.__vibrations.length === 1")     # counted since the reload
    if not tablet:
        screenshot(page, "player-banner")

    banner.get_by_role("button", name="OK : vu").click()
    expect(banner).to_have_count(0)
    changed.get_by_role("button", name="OK : vu").click()
    expect(page.locator("#banners .banner")).to_have_count(0)
    history = page.locator(".history")
    expect(history).to_contain_text("Un frisson te parcourt l'échine")
    expect(history).to_contain_text("Blessé")
    assert page.errors == []


def test_an_announced_game_is_a_banner_and_stays_in_the_history(server_url, phone):
    orga = get_user_model().objects.create_user(username="orga", is_staff=True)
    event = event_create(name="Airsoft au Terrier", ruleset="airsoft_rats", language="fr", by=orga)
    karim = character_create(event=event, name="Karim")
    page = log_in(phone("fr", VIBRATE_STUB), f"{server_url}/login/{login_token_issue(event=event, user=karim.user)}")
    expect(page.locator("#state-label")).to_be_visible()

    off_the_browser_thread(game_announce, event=event, by=orga, scenario="Capture du drapeau",
                           start_at=timezone.now() + timedelta(minutes=30))

    banner = page.locator("#banners .banner").filter(has_text="Prochaine partie à")
    expect(banner).to_contain_text("Capture du drapeau")
    eventually(page, "window.__vibrations.length >= 1")
    banner.get_by_role("button", name="OK : vu").click()
    expect(banner).to_have_count(0)
    expect(page.locator(".history")).to_contain_text("Prochaine partie à")
    assert page.errors == []


@pytest.mark.parametrize("tablet", [False, True], ids=["phone", "tablet"])
def test_emergencia_is_one_tap_and_a_confirmation_on_every_screen(server_url, phone, tablet):
    crowd = crowd_event(server_url, medics=1)
    event = crowd.event
    words = WORDS["es"]
    player = log_in(phone("es", tablet=tablet), crowd.link_for(crowd.characters[150], server_url))
    expect(player.locator("#state-label")).to_have_text(words["healthy"])
    player.get_by_role("button", name=words["emergency"]).click()
    sheet = player.get_by_role("dialog")
    expect(sheet).to_contain_text("el juego se para para todos")
    sheet.get_by_role("button", name=words["cancel"]).click()
    expect(sheet).to_be_hidden()
    assert not JournalEntry.objects.filter(event=event, kind="emergency").exists()  # a tap alone does nothing

    medic = log_in(phone("es", tablet=tablet), crowd.link_for(crowd.characters[1], server_url))
    medic.get_by_role("link", name=words["medic"]).click()
    expect(medic.get_by_label("Código del paciente")).to_be_visible()
    medic.get_by_role("button", name=words["emergency"]).click()
    medic.get_by_role("dialog").get_by_label("¿Qué pasa? (opcional)").fill("Un tobillo torcido de verdad")
    medic.get_by_role("dialog").get_by_role("button", name=words["stop"]).click()
    expect(medic.locator(".emergency-status")).to_contain_text(words["declared"])
    assert Event.objects.get(pk=event.pk).running is False
    expect(player.locator(".paused")).to_be_visible()

    narrator = log_in(phone("es", tablet=tablet), crowd.narrator_link)
    expect(narrator.locator(".selection-bar .count")).to_have_text("Mostrados: 300 · marcados: 0")
    narrator.get_by_role("button", name=words["emergency"]).click()
    narrator.get_by_role("dialog").get_by_role("button", name=words["stop"]).click()
    expect(narrator.locator(".emergency-status")).to_contain_text(words["declared"])
    assert JournalEntry.objects.filter(event=event, kind="emergency").count() == 2
    expect(narrator.locator(".emergency-alert").first).to_be_visible()
    assert player.errors == [] and medic.errors == [] and narrator.errors == []
