"""The phone app tried as its users would: a player, a medic and a narrator, in French,
Spanish and English, online and offline, with a phone whose clock is wrong."""
from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from browser_helpers import SERVICE_WORKER_READY, eventually, screenshot
from health.models import HealthState
from players.models import Character, Event
from players.services import (character_create, event_create, login_token_issue,
                              team_get_or_create)

pytestmark = pytest.mark.django_db(transaction=True)


@dataclass
class Game:
    event: Event
    alice: Character
    bruno: Character
    links: dict


def make_game(server_url: str, **options) -> Game:
    narrator = get_user_model().objects.create_user(username="mj", is_staff=True)
    # Organisers may shorten any duration; a 3-second first aid keeps the test short.
    event = event_create(name="Le Manoir", ruleset="gn_fr", by=narrator, start_clock=True,
                         options={"first_aid_s": 3, **options})
    team = team_get_or_create(event=event, name="Invités")
    alice = character_create(event=event, name="Alice", sheet={"combat_base": 2}, team=team)
    bruno = character_create(event=event, name="Bruno", kits={"kps": 2},
                             sheet={"combat_base": 2, "skills": {"first_aid": "novice"}})
    links = {who: f"{server_url}/login/{login_token_issue(event=event, user=user)}"
             for who, user in (("alice", alice.user), ("bruno", bruno.user), ("narrator", narrator))}
    return Game(event, alice, bruno, links)


def declare(page, label: str) -> None:
    """Two taps, as on the phone: the first arms the button, the second confirms."""
    page.get_by_role("button", name=label).click()
    page.locator("button.armed").click()


def open_player(page, game: Game):
    page.goto(game.links["alice"])
    page.locator("form button").click()  # the login page's button
    expect(page.locator("#state-label")).to_be_visible()
    return page


LABELS = {
    "fr": {"healthy": "En pleine forme", "wounded": "Blessé", "hit": "Touché par une arme blessante",
           "before": "Coma dans"},
    "es": {"healthy": "En plena forma", "wounded": "Herido", "hit": "Golpeado por un arma cortante",
           "before": "En coma en"},
    "en": {"healthy": "Healthy", "wounded": "Wounded", "hit": "Hit by a wounding weapon",
           "before": "In a coma in"},
}


@pytest.mark.parametrize("lang", ["fr", "es", "en"])
def test_a_wounded_player_sees_the_countdown(server_url, phone, lang):
    game = make_game(server_url)
    page = open_player(phone(lang), game)
    words = LABELS[lang]
    expect(page.locator("#state-label")).to_have_text(words["healthy"])
    screenshot(page, f"player-healthy-{lang}")

    declare(page, words["hit"])
    expect(page.locator("#state-label")).to_have_text(words["wounded"])
    expect(page.locator(".next")).to_contain_text(words["before"])
    expect(page.locator("#next-countdown")).to_have_text(re.compile(r"^1[45]:\d\d$"))
    assert HealthState.objects.get(pk=game.alice.pk).status == "wounded"
    screenshot(page, f"player-wounded-{lang}")
    assert page.errors == []


def test_a_medic_gives_first_aid_and_the_patient_sees_it_without_reloading(server_url, phone):
    game = make_game(server_url)
    patient = open_player(phone("fr"), game)
    declare(patient, LABELS["fr"]["hit"])
    expect(patient.locator("#state-label")).to_have_text("Blessé")

    medic = phone("fr")
    medic.goto(game.links["bruno"])
    medic.locator("form button").click()  # the login page's button
    medic.get_by_role("link", name="Médecin").click()
    medic.get_by_label("Code du patient").fill(game.alice.code.lower())
    medic.get_by_role("button", name="Chercher").click()
    expect(medic.get_by_text("Soigner Alice")).to_be_visible()
    screenshot(medic, "medic-choose-fr")
    medic.locator("form.treatment-option").filter(has_text="Premiers secours").get_by_role("button", name="Commencer").click()
    confirm = medic.get_by_role("button", name="Confirmer : soin terminé")
    expect(confirm).to_be_disabled()
    screenshot(medic, "medic-treating-fr")
    expect(confirm).to_be_enabled(timeout=10000)
    confirm.click()
    expect(medic.locator("#app").get_by_role("status")).to_contain_text("terminé")

    # The patient's phone was not reloaded: the live channel brought the new deadline.
    expect(patient.locator("#next-countdown")).to_have_text(re.compile(r"^(1:00:00|59:\d\d)$"))
    assert Character.objects.get(pk=game.bruno.pk).kits == {"kps": 1}
    assert patient.errors == [] and medic.errors == []


def test_the_narrator_pushes_an_effect_and_pauses_the_game(server_url, phone):
    game = make_game(server_url)
    player = open_player(phone("en"), game)
    narrator = phone("en")
    narrator.goto(game.links["narrator"])
    narrator.locator("form button").click()  # the login page's button
    expect(narrator.locator(".char-row")).to_have_count(2)
    narrator.locator(".char-row", has_text="Alice").get_by_role("checkbox").check()
    narrator.get_by_role("button", name="Push an effect").click()   # the sheet, from anywhere
    narrator.get_by_placeholder("Effect: …").fill("Effet : tu as froid")   # English, not French
    narrator.get_by_placeholder("Minutes (empty: until removed)").fill("10")
    narrator.get_by_role("button", name="Push", exact=True).click()
    expect(player.locator(".effects")).to_contain_text("Effet : tu as froid")
    expect(player.locator(".effects .countdown")).to_have_text(re.compile(r"^(10:00|9:5\d)$"))

    # The sheet closed first: on a phone it now reaches up over the pause button (the top
    # bar grew: the event-named links, Phone check, Safety, I need help).
    narrator.get_by_role("button", name="Close").click()
    declare(narrator, "Pause the game")
    expect(player.locator(".paused")).to_be_visible()
    expect(narrator.locator(".char-row", has_text="Alice")).to_contain_text("Effet : tu as froid")
    screenshot(narrator, "narrator-en")
    assert player.errors == [] and narrator.errors == []


def test_offline_the_app_opens_from_cache_and_replays_the_outbox(server_url, phone):
    game = make_game(server_url)
    page = open_player(phone("fr"), game)
    assert page.evaluate(SERVICE_WORKER_READY), "the service worker did not install"
    page.reload()                                   # now controlled by the service worker
    eventually(page, "navigator.serviceWorker.controller !== null")
    expect(page.locator("#state-label")).to_have_text("En pleine forme")

    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#state-label")).to_have_text("En pleine forme")
    expect(page.locator("#topbar")).to_contain_text("Hors ligne")
    declare(page, "Touché par une arme assommante")
    expect(page.locator(".message")).to_contain_text("Pas de réseau")
    expect(page.locator("#topbar")).to_contain_text("1 en attente d'envoi")
    screenshot(page, "player-offline-fr")
    assert HealthState.objects.get(pk=game.alice.pk).values["combat_loss"] == 0

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator(".points")).to_contain_text("1 / 2")
    expect(page.locator("#topbar")).not_to_contain_text("en attente")
    assert HealthState.objects.get(pk=game.alice.pk).values["combat_loss"] == 1   # applied once


def test_an_offline_reload_right_after_the_first_login_shows_every_tool(server_url, phone):
    game = make_game(server_url)
    page = open_player(phone("fr"), game)
    expect(page.locator(".fight-tools")).to_be_visible()
    assert page.evaluate(SERVICE_WORKER_READY), "the service worker did not install"
    eventually(page, "navigator.serviceWorker.controller !== null")
    page.wait_for_timeout(1500)                     # the screen reads again through the worker

    page.context.set_offline(True)                  # no online reload in between
    page.reload()
    expect(page.locator("#state-label")).to_have_text("En pleine forme")
    expect(page.locator(".fight-tools")).to_be_visible()     # the ruleset's read was kept
    expect(page.locator("#topbar")).to_contain_text("Hors ligne")
    assert page.errors == []


SKEWED_CLOCK = """
(() => {
  const skew = %d;
  const RealDate = Date;
  class SkewedDate extends RealDate {
    constructor(...args) { if (args.length) super(...args); else super(RealDate.now() + skew); }
    static now() { return RealDate.now() + skew; }
  }
  globalThis.Date = SkewedDate;
})();
"""


@pytest.mark.parametrize("skew_hours", [1, -1])
def test_a_phone_whose_clock_is_wrong_shows_the_right_countdown(server_url, phone, skew_hours):
    game = make_game(server_url)
    page = open_player(phone("en", SKEWED_CLOCK % (skew_hours * 3600 * 1000)), game)
    assert abs(page.evaluate("Date.now()") / 1000 - __import__("time").time()) > 3000
    declare(page, LABELS["en"]["hit"])
    expect(page.locator("#next-countdown")).to_have_text(re.compile(r"^1[45]:\d\d$"))
    page.wait_for_timeout(1500)     # a few countdown refreshes with the measured offset
    expect(page.locator("#next-countdown")).to_have_text(re.compile(r"^1[45]:\d\d$"))


SCREEN_WORDS = {
    "fr": {"medic": "Médecin", "patient": "Code du patient", "find": "Chercher", "treat": "Soigner Alice",
           "first_aid": "Premiers secours", "push": "Envoyer un effet", "journal": "Afficher le journal",
           "state": "En pleine forme", "close": "Fermer"},
    "es": {"medic": "Médico", "patient": "Código del paciente", "find": "Buscar", "treat": "Tratar a Alice",
           "first_aid": "Primeros auxilios", "push": "Enviar un efecto", "journal": "Mostrar el diario",
           "state": "En plena forma", "close": "Cerrar"},
    "en": {"medic": "Medic", "patient": "Patient code", "find": "Find", "treat": "Treat Alice",
           "first_aid": "First aid", "push": "Push an effect", "journal": "Show the journal",
           "state": "Healthy", "close": "Close"},
}


@pytest.mark.parametrize("lang", ["fr", "es", "en"])
def test_the_medic_and_narrator_screens_speak_each_language(server_url, phone, lang):
    game = make_game(server_url)
    words = SCREEN_WORDS[lang]
    medic = phone(lang)
    medic.goto(game.links["bruno"])
    medic.locator("form button").click()  # the login page's button
    medic.get_by_role("link", name=words["medic"]).click()
    medic.get_by_label(words["patient"]).fill(game.alice.code)
    medic.get_by_role("button", name=words["find"]).click()
    expect(medic.get_by_text(words["treat"])).to_be_visible()
    expect(medic.locator("form.treatment-option")).to_contain_text(words["first_aid"])
    screenshot(medic, f"medic-{lang}")

    narrator = phone(lang)
    narrator.goto(game.links["narrator"])
    narrator.locator("form button").click()  # the login page's button
    expect(narrator.locator(".char-row", has_text="Alice")).to_contain_text(words["state"])
    narrator.get_by_role("button", name=words["push"]).click()
    expect(narrator.get_by_role("heading", name=words["push"])).to_be_visible()
    narrator.get_by_role("button", name=words["close"]).click()
    narrator.get_by_role("button", name=words["journal"]).click()
    expect(narrator.locator(".journal li").first).to_be_visible()
    screenshot(narrator, f"narrator-{lang}")
    assert medic.errors == [] and narrator.errors == []


def test_a_write_whose_first_try_is_still_running_is_asked_again_not_dropped(server_url, phone):
    """The server answers 409 idempotency_in_progress while the first request with the same
    key works: the phone keeps the write and asks again, and gets the stored answer."""
    game = make_game(server_url)
    page = open_player(phone("en"), game)
    busy = {"left": 1}

    def first_try_running(route):
        if route.request.method == "POST" and busy["left"]:
            busy["left"] -= 1
            route.fulfill(status=409, content_type="application/json",
                          body='{"error": "idempotency_in_progress", "detail": "busy"}')
        else:
            route.continue_()
    page.route("**/api/characters/*/actions/", first_try_running)
    declare(page, LABELS["en"]["hit"])
    expect(page.locator("#state-label")).to_have_text(LABELS["en"]["wounded"])
    expect(page.locator("#topbar")).not_to_contain_text("waiting")
    assert busy["left"] == 0
    assert HealthState.objects.get(pk=game.alice.pk).status == "wounded"
