"""The phone screens of a Septenario de Normas game (the Spanish ruleset), in a real phone
browser: Spanish by default whatever the browser speaks, the body map, Coraje, Trauma and
Carga, a hit declared with where it landed (the armour takes the first, the second makes
the arm useless), Claridad, the Golpe Mortal offered on the scan-a-character screen, the
narrators' named effects and days, and the Emergencia button every game has."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from browser_helpers import screenshot
from effects.services.items import item_create
from effects.models import Item
from health.models import HealthState
from health.services import character_act
from players.models import Event
from schedule.models import GameDay
from players.services import character_create, event_create, login_token_issue

pytestmark = pytest.mark.django_db(transaction=True)

SHEET = {"trauma": 2, "coraje": 2, "armour": "light", "abilities": ["primeros_auxilios"],
         "carried": [{"name": "Espada", "load": 1}]}


def fortaleza(server_url: str):
    narrator = get_user_model().objects.create_user(username="narrador", is_staff=True)
    event = event_create(name="La Fortaleza", ruleset="septenario_es", language="es",
                         by=narrator, start_clock=True)
    lucia = character_create(event=event, name="Lucía", sheet=SHEET, by=narrator)
    denis = character_create(event=event, name="Denis", sheet={"trauma": 2, "coraje": 1},
                             by=narrator)
    links = {who: f"{server_url}/login/{login_token_issue(event=event, user=user)}"
             for who, user in (("lucia", lucia.user), ("denis", denis.user),
                               ("narrator", narrator))}
    return event, lucia, denis, links


def open_player(page, link):
    page.goto(link)
    page.locator("form button").click()  # the login page's button
    # A French browser: the first snapshot names the game's language and the page
    # reloads in Spanish once.
    expect(page.locator("#state-label")).to_have_text("Ileso")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    return page


def declare_hit(page, location: str, *, tap: bool):
    page.get_by_role("button", name="He recibido un golpe").click()
    form = page.locator("form.action-form[data-action=hit]")
    expect(form).to_be_visible()
    if tap:      # on the body figure
        page.locator("#body-map [data-location=%s]" % location).click()
    else:        # from the list
        form.get_by_label("Dónde").select_option(location)
    expect(form.get_by_label("Dónde")).to_have_value(location)
    expect(form.get_by_label("Arma", exact=True)).to_have_value("standard")
    expect(form.get_by_label("Golpe sólido (no un roce)")).to_be_checked()   # its default
    form.get_by_role("button", name="Declarar").click()
    expect(form).to_have_count(0)


def test_a_septenario_player_sees_the_body_map_and_declares_two_hits(server_url, phone):
    _event, lucia, _denis, links = fortaleza(server_url)
    page = open_player(phone("fr", chosen=False), links["lucia"])

    body = page.locator("#body-map")
    expect(body).to_contain_text("Brazo izquierdo")
    expect(body).to_contain_text("Armadura ligera: 1 / 1")
    expect(page.locator("[data-point=coraje]")).to_contain_text("Coraje2 / 5")
    expect(page.locator("[data-point=trauma]")).to_contain_text("Trauma2 / 2")
    load = page.locator("#load")
    expect(load).to_contain_text("Carga")
    expect(load).to_contain_text("1 / 5")
    expect(load).to_contain_text("Carga normal")
    expect(load).to_contain_text("Espada")
    expect(page.get_by_role("button", name="Emergencia")).to_be_visible()

    declare_hit(page, "left_arm", tap=True)
    expect(page.locator(".actions .message")).to_contain_text("La armadura ha absorbido el golpe.")
    expect(body.locator(".limb[data-location=left_arm]")).to_have_class(re.compile(r"status-ok"))
    expect(page.locator("#armour-left")).to_have_text("0 / 1")
    expect(page.locator(".conflict")).to_contain_text("En Conflicto")
    expect(page.locator("#conflict-countdown")).to_have_text(re.compile(r"^(2:00|1:[45]\d)$"))

    declare_hit(page, "left_arm", tap=False)
    expect(page.locator("#state-label")).to_have_text("Herido")
    expect(body.locator("li", has_text="Brazo izquierdo")).to_contain_text("inútil")
    expect(body.locator(".limb[data-location=left_arm]")).to_have_class(re.compile(r"status-useless"))
    expect(page.locator(".actions .message")).to_contain_text("Suelta lo que sujete la extremidad herida.")
    health = HealthState.objects.get(pk=lucia.pk)
    assert health.status == "wounded" and health.values["limbs"] == {"left_arm": "useless"}

    page.wait_for_timeout(300)      # a countdown refresh, for the picture
    screenshot(page, "septenario-player")
    assert page.errors == []


def test_claridad_explains_the_rasgos_and_a_refusal_comes_in_spanish(server_url, phone):
    _event, _lucia, _denis, links = fortaleza(server_url)
    page = open_player(phone("en", chosen=False), links["lucia"])

    rasgos = page.locator(".clarity")
    expect(rasgos).to_contain_text("Primeros Auxilios")
    page.get_by_role("button", name=re.compile("^Claridad")).click()
    answer = page.locator(".clarity-answer")
    expect(answer).to_contain_text("Ileso")
    expect(answer).to_contain_text("Medio Minuto")

    # A melee blow to the head does not count: the server's refusal is shown as it says it.
    page.get_by_role("button", name="He recibido un golpe").click()
    form = page.locator("form.action-form[data-action=hit]")
    form.get_by_label("Dónde").select_option("head")
    form.get_by_role("button", name="Declarar").click()
    expect(page.locator(".actions .message")).to_contain_text("cabeza")
    expect(form).to_be_visible()                    # still open, to correct it
    assert page.errors == []


def test_a_player_carries_an_object_by_its_code_and_drops_it(server_url, phone):
    event, lucia, _denis, links = fortaleza(server_url)
    shield = item_create(event=event, by=None, name="Escudo", kind="tag", load=3)
    page = open_player(phone("es"), links["lucia"])
    panel = page.locator(".object-panel")
    panel.get_by_label("Código del objeto").fill(shield.code)
    panel.get_by_role("button", name="Buscar").click()
    panel.get_by_role("button", name="Cargar").click()
    expect(panel.locator(".carry-note")).to_contain_text("Lo llevas. Carga: 4 / 5")
    load = page.locator("#load")
    expect(load).to_contain_text("4 / 5")
    expect(load).to_contain_text("Escudo")
    assert Item.objects.get(pk=shield.pk).holder_id == lucia.pk

    load.locator("li", has_text="Escudo").get_by_role("button", name="Soltar").click()
    expect(load).to_contain_text("1 / 5")
    expect(load).not_to_contain_text("Escudo")
    expect(panel.get_by_role("button", name="Cargar")).to_be_visible()   # the panel follows
    assert Item.objects.get(pk=shield.pk).holder_id is None
    assert page.errors == []


def test_the_scan_a_character_screen_offers_the_golpe_mortal(server_url, phone):
    _event, _lucia, denis, links = fortaleza(server_url)
    page = open_player(phone("es"), links["lucia"])
    page.get_by_role("link", name="Médico").click()
    page.get_by_label("Código del paciente").fill(denis.code)
    page.get_by_role("button", name="Buscar").click()
    expect(page.locator("form.treatment-option[data-action=first_aid]")).to_contain_text("Primeros Auxilios")
    golpe = page.locator("form.treatment-option[data-action=golpe_mortal]")
    expect(golpe).to_contain_text("Golpe Mortal")
    armed = golpe.get_by_label("Con un arma a mano")
    expect(armed).to_be_visible()
    expect(armed).to_be_checked()          # the declared default: with a weapon, 2 s
    assert page.errors == []


def test_the_medic_learns_that_the_patient_died_during_the_first_aid(server_url, phone):
    _event, _lucia, denis, links = fortaleza(server_url)
    character_act(character=denis, action="hit", params={"location": "torso"}, by=None,
                  as_narrator=True)
    page = open_player(phone("es"), links["lucia"])
    page.get_by_role("link", name="Médico").click()
    page.get_by_label("Código del paciente").fill(denis.code)
    page.get_by_role("button", name="Buscar").click()
    page.locator("form.treatment-option[data-action=first_aid]").get_by_role(
        "button", name="Empezar").click()
    expect(page.locator("#treatment-countdown")).to_be_visible()
    character_act(character=denis, action="set_state", params={"state": "dead"}, by=None,
                  as_narrator=True)
    expect(page.locator("#app").get_by_role("status")).to_contain_text(re.compile(r"interrumpido: \w+ ha muerto\. No se aplica nada\."), timeout=10000)
    expect(page.locator("#treatment-countdown")).to_have_count(0)
    assert page.errors == []


def test_narrators_push_a_named_effect_and_schedule_a_dawn(server_url, phone):
    event, lucia, _denis, links = fortaleza(server_url)
    player = open_player(phone("es"), links["lucia"])
    narrator = phone("en", chosen=False)
    narrator.goto(links["narrator"])
    narrator.locator("form button").click()  # the login page's button
    expect(narrator.locator(".char-row")).to_have_count(2)
    expect(narrator.locator("html")).to_have_attribute("lang", "es")

    narrator.locator(".char-row", has_text="Lucía").get_by_role("checkbox").check()
    narrator.get_by_role("button", name="Enviar un efecto").click()
    narrator.get_by_label("Efecto del catálogo").select_option("derribo")
    narrator.get_by_role("button", name="Enviar", exact=True).click()
    expect(player.locator(".effects")).to_contain_text("Derribo: Caes al suelo.")

    narrator.get_by_role("button", name="Cerrar").click()
    days = narrator.locator(".days-panel")
    expect(days).to_be_visible()
    due = (timezone.localtime() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    days.get_by_label("Cuál").select_option("dawn")
    narrator.evaluate("""(due) => { const input = document.querySelector('.days-panel input[name=due_at]');
                                     input.value = due; }""", due)
    days.get_by_role("button", name="Programar").click()
    expect(days.locator("li")).to_contain_text("amanecer")
    expect(days.locator("li")).to_contain_text("programado")
    assert GameDay.objects.filter(event=event, kind="dawn").count() == 1
    days.get_by_role("button", name="Cancelar").click()
    days.locator("button.armed").click()
    expect(days).to_contain_text("Ningún amanecer ni fin del día programado.")
    assert GameDay.objects.filter(event=event).count() == 0
    screenshot(narrator, "septenario-narrator")
    assert player.errors == [] and narrator.errors == []


def test_every_game_has_the_emergency_button_and_gn_fr_no_body_map(server_url, phone):
    narrator = get_user_model().objects.create_user(username="mj", is_staff=True)
    event = event_create(name="Le Manoir", ruleset="gn_fr", by=narrator, start_clock=True)
    alice = character_create(event=event, name="Alice", sheet={"combat_base": 2})
    organiser = phone("fr")
    organiser.goto(f"{server_url}/login/{login_token_issue(event=event, user=narrator)}")
    organiser.locator("form button").click()  # the login page's button
    expect(organiser.locator(".char-row")).to_have_count(1)
    expect(organiser.locator(".days-panel")).to_be_hidden()          # no days in gn_fr
    page = phone("fr", chosen=False)
    page.goto(f"{server_url}/login/{login_token_issue(event=event, user=alice.user)}")
    page.locator("form button").click()  # the login page's button
    expect(page.locator("#state-label")).to_have_text("En pleine forme")
    expect(page.locator(".points")).to_contain_text("2 / 2")
    for absent in ("#body-map", "#load", ".clarity:not([hidden])", "form.action-form"):
        expect(page.locator(absent)).to_have_count(0)

    # One tap in the top bar, then the confirmation that says what will happen.
    page.get_by_role("button", name="Urgence").click()
    page.get_by_label("Que se passe-t-il ? (facultatif)").fill("Une cheville tordue")
    page.get_by_role("button", name="Arrêter le jeu pour tout le monde").click()
    expect(page.locator(".emergency-status")).to_contain_text("Urgence déclarée")
    expect(page.locator(".state .paused")).to_be_visible()
    assert Event.objects.get(pk=event.pk).running is False
    alert = organiser.locator(".emergency-alert")
    expect(alert).to_contain_text("Alice")
    expect(alert).to_contain_text("Une cheville tordue")
    expect(organiser.get_by_role("button", name="Reprendre le jeu")).to_be_visible()
    assert page.errors == [] and organiser.errors == []
