"""Languages everywhere, tried at a phone's and a tablet's size on a browser whose own
locale is another than the app's: the narrators' view of a 300-character event, a
player's countdown, the printed sheets, the page of a used login link, the manifest, the
demo's referee with the chrony and its pass label, and the race organiser's bar."""
from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

from club.models import Member
from club.services.chrony import chrony_check_record, replica_register
from crowd import crowd_event
from players.models import Event

pytestmark = pytest.mark.django_db(transaction=True)

CASES = [(lang, tablet) for lang in ("fr", "es", "en") for tablet in (False, True)]
CASE_IDS = [f"{lang}-{'tablet' if tablet else 'phone'}" for lang, tablet in CASES]
# The browser's own locale, another than the app's: Intl's default would betray it.
OTHER_LOCALE = {"fr": "en-US", "es": "en-US", "en": "fr-FR"}
WORDS = {
    "fr": {"phrase": "Coma dans", "wounded": "Blessé", "sheets": "Cartes des personnages",
           "combat": "Combat : 2", "used": "Ce lien de connexion ne fonctionne plus",
           "app": "Compagnon de jeu", "organiser": "Organisateur", "referee": "Arbitre",
           "licence": "N° de licence, p. ex. RAT-0042", "pass": "CHRONY VALIDÉ",
           "weight": "0,20 g"},
    "es": {"phrase": "En coma en", "wounded": "Herido", "sheets": "Tarjetas de personajes",
           "combat": "Combate: 2", "used": "Este enlace de acceso ya no funciona",
           "app": "Compañero de juego", "organiser": "Organizador", "referee": "Árbitro",
           "licence": "N.º de licencia, p. ej. RAT-0042", "pass": "CRONO APROBADO",
           "weight": "0,20 g"},
    "en": {"phrase": "In a coma in", "wounded": "Wounded", "sheets": "Character cards",
           "combat": "Combat score: 2", "used": "This login link no longer works",
           "app": "Game companion", "organiser": "Organiser", "referee": "Referee",
           "licence": "Licence number, e.g. RAT-0042", "pass": "CHRONY PASSED",
           "weight": "0.20 g"},
}
# A time of day as the app's language writes it: never "2:03 PM" in French or Spanish.
CLOCK = {"fr": r"^\d\d:\d\d(:\d\d)?$", "es": r"^\d{1,2}:\d\d(:\d\d)?$", "en": r"^\d{1,2}:\d\d(:\d\d)?\s?[AP]M$"}
COUNTDOWN = re.compile(r"^\d{1,2}:\d\d$")


def log_in(page, link: str) -> None:
    page.goto(link)
    page.locator("form button").click()  # the login page's button


def manifest_of(page, server_url: str) -> dict:
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    return page.request.get(f"{server_url}{href}").json()


@pytest.mark.parametrize(("lang", "tablet"), CASES, ids=CASE_IDS)
def test_the_narrators_view_of_300_its_sheets_and_manifest_speak_the_apps_language(
        server_url, phone, lang, tablet):
    crowd = crowd_event(server_url, language=lang)
    words = WORDS[lang]
    page = phone(lang, tablet=tablet, browser_locale=OTHER_LOCALE[lang])
    log_in(page, crowd.narrator_link)
    # "Next to fall" and each row phrase the countdown as the language does.
    expect(page.locator(".fall").first).to_contain_text(words["phrase"], timeout=30000)
    expect(page.locator(".fall .countdown").first).to_have_text(COUNTDOWN)
    first_row = page.locator(".char-row").first
    expect(first_row.locator(".when")).to_contain_text(words["phrase"])
    expect(first_row.locator(".when .countdown")).to_have_text(COUNTDOWN)

    # The journal's times and states in the app's language, not the browser's.
    page.locator(".journal-panel button").first.click()
    expect(page.locator(".journal li .muted").first).to_have_text(re.compile(CLOCK[lang]))
    expect(page.locator(".journal")).to_contain_text(f"→ {words['wounded']})")
    expect(page.locator(".journal")).not_to_contain_text("→ wounded)")

    manifest = manifest_of(page, server_url)
    assert (manifest["lang"], manifest["name"]) == (lang, words["app"])
    assert page.errors == []

    # The printed sheets: the players' words, in the event's language.
    page.goto(f"{server_url}/events/{crowd.event.pk}/sheets/")
    assert page.locator("html").get_attribute("lang") == lang
    expect(page).to_have_title(re.compile(words["sheets"]))
    expect(page.locator("article.card").first).to_contain_text(words["combat"])
    expect(page.locator("article.card")).to_have_count(300)


@pytest.mark.parametrize(("lang", "tablet"), CASES, ids=CASE_IDS)
def test_a_player_sees_the_countdown_and_a_used_link_in_the_games_language(
        server_url, phone, lang, tablet):
    crowd = crowd_event(server_url, language=lang)
    words = WORDS[lang]
    wounded = crowd.characters[0]            # the crowd's first is wounded
    link = crowd.link_for(wounded, server_url)
    # No language chosen, a browser in another: the phone speaks its game's language.
    page = phone(lang, chosen=False, tablet=tablet, browser_locale=OTHER_LOCALE[lang])
    log_in(page, link)
    expect(page.locator("#state-label")).to_have_text(words["wounded"], timeout=20000)
    expect(page.locator(".next")).to_contain_text(words["phrase"])
    expect(page.locator("#next-countdown")).to_have_text(COUNTDOWN)
    expect(page.locator(".history li .muted").first).to_have_text(re.compile(CLOCK[lang]))
    manifest = manifest_of(page, server_url)
    assert (manifest["lang"], manifest["name"]) == (lang, words["app"])
    assert page.errors == []

    # The same link, already used, opened on another phone: what to do, in the game's words.
    other = phone(lang, chosen=False, tablet=tablet, browser_locale=OTHER_LOCALE[lang])
    other.goto(link)
    other.locator("form button").click()
    expect(other.locator("h1")).to_have_text(words["used"])
    assert other.locator("html").get_attribute("lang") == lang


def demo_links() -> dict[str, dict[str, str]]:
    """The login links load_demo prints, by event and by person (their path only)."""
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    links, event = {}, None
    for line in out.getvalue().splitlines():
        if line.startswith("Demo event: "):
            event = line[len("Demo event: "):].split(" (id ")[0]
            links[event] = {}
        elif "/login/" in line and event:
            who, url = line.strip().rsplit(" ", 1)
            links[event][who.strip()] = "/login/" + url.split("/login/")[1]
    return links


@pytest.mark.parametrize(("lang", "tablet"), CASES, ids=CASE_IDS)
def test_the_demo_has_a_referee_with_the_chrony_and_the_race_organiser_is_named(
        server_url, phone, lang, tablet):
    links = demo_links()
    words = WORDS[lang]
    terrier = Event.objects.get(ruleset="airsoft_rats")
    Event.objects.filter(pk=terrier.pk).update(language=lang)   # the day played in `lang`
    karim = Member.objects.get(licence_number="RAT-DEMO-01")
    orga = get_user_model().objects.get(username="orga")
    replica = replica_register(event=terrier, member=karim, label="M4 CQB", type="rifle",
                               calibre_mm=6, by=orga)
    chrony_check_record(replica=replica, kind="check_in", bb_weight_g=0.20, speed_mps=100, by=orga)

    referee = phone(lang, tablet=tablet, browser_locale=OTHER_LOCALE[lang])
    log_in(referee, f"{server_url}{links['Démo — Airsoft au Terrier']['Nadia (referee)']}")
    expect(referee).to_have_url(re.compile(f"#/referee/{terrier.pk}$"))
    expect(referee.locator("#topbar nav")).to_contain_text(words["referee"])
    referee.locator('[role="tab"][data-tab="chrony"]').click()
    expect(referee.get_by_placeholder(words["licence"])).to_be_visible()
    assert referee.errors == []
    # The replica's pass label, printed from the referee's phone, in the day's language.
    referee.goto(f"{server_url}/replicas/{replica.pk}/label/")
    expect(referee.locator(".pass")).to_have_text(words["pass"])
    expect(referee.locator(".label")).to_contain_text(words["weight"])

    organiser = phone(lang, tablet=tablet, browser_locale=OTHER_LOCALE[lang])
    race = links["Démo — Rugles by Night"]
    log_in(organiser, f"{server_url}{race['organisateur (organiser)']}")
    # The top bar names the event and the role (an organiser of several events tells them apart).
    expect(organiser.locator("#topbar nav a").first).to_have_text(f"Démo — Rugles by Night — {words['organiser']}")
    assert organiser.errors == []
