"""Live requests and care at a real event's size (300 characters), on a phone and a tablet:
a player's request to the organisers rings on the narrators' view at once (a banner until
"OK", vibration) and leaves it when another narrator answers it; a medic's screen says
what a treatment did; the patient reads "being treated by Bruno, 0:42 left" while it runs."""
from __future__ import annotations

import re
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from playwright.sync_api import expect

from browser_helpers import screenshot, wait_until_listening
from crowd import crowd_event
from effects.models import OrganiserRequest
from effects.services.requests import request_answer
from live.publish import narrators_group
from players.models import Character
from players.services import character_create, event_options_store

pytestmark = pytest.mark.django_db(transaction=True)

User = get_user_model()
SIZES = [pytest.param(False, id="phone"), pytest.param(True, id="tablet")]
QUESTION = "I break the old chest open with my axe"
# A phone's vibration, observed: every call of navigator.vibrate is kept.
VIBRATE_STUB = """
window.__vibrations = [];
Object.defineProperty(Navigator.prototype, "vibrate", {
  configurable: true, value(pattern) { window.__vibrations.push(pattern); return true; } });
"""


def in_thread(work, **kwargs):
    """A service run where it may publish to the phones (a thread with no event loop)."""
    done = []

    def run():
        try:
            done.append(work(**kwargs))
        finally:
            connections.close_all()
    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    assert done, "the service failed"
    return done[0]


def log_in(page, link: str) -> None:
    page.goto(link)
    page.locator("form button").click()  # the login page's button


@pytest.mark.parametrize("tablet", SIZES)
def test_a_request_rings_on_the_narrators_view_and_leaves_it_once_answered(server_url, phone,
                                                                          tablet):
    crowd = crowd_event(server_url)
    asker = crowd.characters[150]                      # "Joueur 151", far down the list
    narrator = phone("fr", init_script=VIBRATE_STUB, tablet=tablet)
    log_in(narrator, crowd.narrator_link)
    expect(narrator.locator(".selection-bar .count")).to_have_text("Affichés : 300 · cochés : 0",
                                                                   timeout=30000)
    panel = narrator.locator(".requests-panel")
    expect(panel).to_contain_text("Aucune demande en attente.")
    wait_until_listening(narrators_group(crowd.event.pk))

    player = phone("en", tablet=tablet)
    log_in(player, crowd.link_for(asker, server_url))
    expect(player.locator("#state-label")).to_have_text("Healthy")
    player.locator("details.ask-panel summary").click()
    player.get_by_label("Your request").fill(QUESTION)
    player.locator(".ask-panel").get_by_role("button", name="Send").click()
    expect(player.locator(".ask-panel [role=status]")).to_contain_text("Sent:")

    # At once (no poll): a banner at the top naming who asks and what, with vibration.
    banner = narrator.locator("#banners .banner-request")
    expect(banner).to_have_text(re.compile(f"Demande de Joueur 151 : {QUESTION}"), timeout=5000)
    expect(banner).to_be_in_viewport()
    expect(panel.locator("article.request")).to_contain_text(QUESTION)
    assert narrator.evaluate("window.__vibrations.length") >= 1
    screenshot(narrator, f"narrator-request-{'tablet' if tablet else 'phone'}")
    banner.get_by_role("button", name="OK").click()
    expect(banner).to_have_count(0)
    expect(panel.locator("article.request")).to_have_count(1)     # still to be answered

    # Another narrator answers it: it leaves this screen's list without a reload, and no
    # banner rings for an answer.
    asked = OrganiserRequest.objects.get()
    in_thread(request_answer, request=asked, text="Effet : le coffre s'ouvre", by=User.objects.get(username="orga"))
    expect(panel.locator("article.request")).to_have_count(0)
    expect(panel).to_contain_text("Aucune demande en attente.")
    expect(narrator.locator("#banners .banner")).to_have_count(0)
    expect(player.locator(".effects")).to_contain_text("Effet : le coffre s'ouvre")
    assert narrator.errors == [] and player.errors == []


# Records whether the medic's "confirm" button was disabled when it was first drawn: a
# mutation observer runs before any timer, so a button enabled until the next tick shows.
FIRST_CONFIRM_STATE = """() => {
  window.confirmDisabledWhenShown = null;
  new MutationObserver(() => {
    const button = document.querySelector("#confirm-treatment");
    if (button && window.confirmDisabledWhenShown === null) window.confirmDisabledWhenShown = button.disabled;
  }).observe(document.body, { childList: true, subtree: true });
}"""


@pytest.mark.parametrize("tablet", SIZES)
def test_the_patient_reads_who_treats_them_and_the_medic_reads_what_it_did(server_url, phone,
                                                                          tablet):
    crowd = crowd_event(server_url)
    # Shortened by the organisers: a 40-second first aid, a 3-second surgery in a calm place.
    event_options_store(event=crowd.event, options={"first_aid_s": 40, "surgery_expert_calm_s": 3})
    patient_character = crowd.characters[0]            # "Joueur 001", wounded by the fixture
    bruno = character_create(event=crowd.event, name="Bruno", kits={"kps": 1, "koc": 1},
                             sheet={"combat_base": 2,
                                    "skills": {"first_aid": "novice", "surgery": "expert"}})
    patient = phone("es", tablet=tablet)
    log_in(patient, crowd.link_for(patient_character, server_url))
    expect(patient.locator("#state-label")).to_have_text("Herido")

    medic = phone("fr", tablet=tablet)
    log_in(medic, crowd.link_for(bruno, server_url))
    medic.get_by_role("link", name="Médecin").click()
    medic.get_by_label("Code du patient").fill(patient_character.code)
    medic.get_by_role("button", name="Chercher").click()
    option = medic.locator("form.treatment-option")

    # A first aid runs: the patient's phone names the medic and counts down its 40 s.
    option.filter(has_text="Premiers secours").get_by_role("button", name="Commencer").click()
    treated = patient.locator("p.treated")
    expect(treated).to_have_text(re.compile(r"^Bruno te está curando: quedan 0:[34]\d — Primeros auxilios$"))
    first = patient.locator(".treated-countdown").text_content()
    patient.wait_for_timeout(1300)
    assert patient.locator(".treated-countdown").text_content() < first     # counting down
    screenshot(patient, f"patient-being-treated-{'tablet' if tablet else 'phone'}")

    # Aborted: the line leaves the patient's phone; the medic reads what it meant.
    medic.get_by_role("button", name="Abandonner").click()
    medic.locator("button.armed").click()
    expect(medic.locator(".treatment-outcome")).to_have_text(
        "Premiers secours sur Joueur 001 : abandonné, rien n'est appliqué, aucun kit n'est utilisé.")
    expect(treated).to_have_count(0)

    # A surgery, confirmed: the rules decide its result, which the medic announces.
    medic.get_by_label("Code du patient").fill(patient_character.code)
    medic.get_by_role("button", name="Chercher").click()
    surgery = option.filter(has_text="Chirurgie")
    surgery.get_by_label(re.compile("endroit calme")).check()
    # The confirmation cannot be tapped before the surgery's 3 s are played, not even in
    # the instant its screen appears (the server would refuse it as not finished).
    medic.evaluate(FIRST_CONFIRM_STATE)
    surgery.get_by_role("button", name="Commencer").click()
    expect(treated).to_contain_text("Bruno te está curando")
    confirm = medic.get_by_role("button", name="Confirmer : soin terminé")
    # The patient's phone may hear of it before the medic's own screen is drawn.
    expect(confirm).to_be_visible()
    assert medic.evaluate("window.confirmDisabledWhenShown") is True
    expect(confirm).to_be_enabled(timeout=10000)
    confirm.click()
    outcome = medic.locator(".treatment-outcome")
    expect(outcome).to_contain_text("Chirurgie sur Joueur 001 : terminé.", timeout=15000)
    expect(outcome.locator(".state-label")).to_have_text(
        re.compile(r"^Joueur 001 : Fatigué — En pleine forme dans (30:00|29:5\d)$"))
    screenshot(medic, f"medic-result-{'tablet' if tablet else 'phone'}")
    expect(patient.locator("#state-label")).to_have_text("Cansado")
    expect(treated).to_have_count(0)
    assert Character.objects.get(pk=bruno.pk).kits == {"kps": 1, "koc": 0}
    assert patient.errors == [] and medic.errors == []
