"""The phone screens of an airsoft day at le Terrier (ruleset airsoft_rats, in French by
default): the organiser announces and starts a game from the narrators' screen; a player
hit in medic mode sees the count as a large countdown with what to do; a teammate heals
them from their own phone while the patient sees the count 11 to 20, then "Retour en
jeu"; a referee records a sanction-out that reaches the player's phone, and a failing
replica at the chrony; an excluded member's check-in is refused with its end date.

No Celery worker runs beside the test server: where production's worker would end a heal
on time, the test plays the worker (fights_sweep). The end of the count of 10 needs none:
the phone asks for a fresh snapshot when its count ends, and a read advances the state."""
from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from browser_helpers import off_the_browser_thread, screenshot
from club.models import ChronyCheck
from combat.services.schedule import fights_sweep
from health.models import HealthState
from club.selectors import local_text
from club.services.register import member_check_in, member_create
from club.services.sanctions import sanction_record
from schedule.services.games import game_announce, game_start
from players.models import Membership
from club.models import Sanction
from schedule.models import Game
from players.services import event_create, login_token_issue

pytestmark = pytest.mark.django_db(transaction=True)

MEMBERS = [("Karim Benali", "Rouges", "RAT-0001"), ("Léa Roux", "Rouges", "RAT-0002"),
           ("Hugo Petit", "Bleus", "RAT-0003")]


def terrier(server_url: str):
    """The demo's shape: an organiser, a referee, three club members checked in at the
    desk (two Rouges, one Bleu), the day's options with medic mode."""
    orga = get_user_model().objects.create_user(username="orga", is_staff=True)
    event = event_create(name="Airsoft au Terrier", ruleset="airsoft_rats", language="fr",
                         options={"medic_mode": True}, by=orga)
    referee = get_user_model().objects.create_user(username="arbitre")
    Membership.objects.create(event=event, user=referee, role=Membership.REFEREE)
    players = {}
    for name, team, licence in MEMBERS:
        member = member_create(event=event, by=orga, name=name, phone="+33 6 00 00 00 00",
                               licence_number=licence)
        players[name.split()[0].lower()], _ = member_check_in(event=event, member=member,
                                                              team_name=team, by=orga)
    link = lambda user: f"{server_url}/login/{login_token_issue(event=event, user=user)}"  # noqa: E731
    links = {"orga": link(orga), "referee": link(referee),
             **{key: link(character.user) for key, character in players.items()}}
    return event, orga, players, links


def play_the_worker(until, timeout: float = 20) -> None:
    """What production's Celery worker does at a fight's end (a heal's count to 20)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        off_the_browser_thread(fights_sweep)
        if until():
            return
        time.sleep(0.2)
    raise AssertionError("the fight did not end in time")


def open_player(page, link, state: str):
    page.goto(link)
    page.locator("form button").click()  # the login page's button
    expect(page.locator("#state-label")).to_have_text(state)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    return page


def declare(page, label: str):
    """The likely declaration, first and largest; two taps, as every declaration."""
    primary = page.locator(".primary-action button.action")
    expect(primary).to_have_text(label)
    primary.click()
    page.locator(".primary-action button.armed").click()


def test_a_game_announced_a_hit_counted_and_a_teammate_heals(server_url, phone):
    event, _orga, players, links = terrier(server_url)
    organiser = phone("fr")
    organiser.goto(links["orga"])
    organiser.locator("form button").click()  # the login page's button
    staff = organiser.locator("#staff-panels")
    expect(staff.get_by_role("tab", name="Parties")).to_have_attribute("aria-selected", "true")
    expect(staff).to_contain_text("Aucune partie annoncée.")

    # The organiser announces game 1: the day's medic mode, a heal of 5 s.
    staff.get_by_label("Scénario", exact=True).fill("Capture du drapeau")
    staff.get_by_label("Description").fill("Ramenez le drapeau de l'autre équipe à votre spawn.")
    expect(staff.get_by_label("Mode médecin")).to_be_checked()
    staff.get_by_text("Autres options du scénario").click()
    staff.get_by_label("Compte du soin, de 11 à 20 (s)").fill("5")
    staff.get_by_role("button", name="Annoncer", exact=True).click()
    expect(staff).to_contain_text("Partie 1 annoncée")
    game = Game.objects.get(event=event)
    assert game.options == {"medic_mode": True, "medics": "any_teammate",
                            "respawn_policy": "on_arrival_at_spawn", "heal_count_s": 5}

    karim = open_player(phone("fr", chosen=False), links["karim"], "Au spawn")
    banner = karim.locator("#game-banner")
    start = karim.evaluate("(iso) => new Date(iso).toLocaleTimeString('fr', {hour: '2-digit', minute: '2-digit'})",
                           game.start_at.isoformat())      # the phone's time zone
    # Past midnight the phone names the day too ("mer. 2 déc. 00:20").
    expect(banner).to_contain_text(
        re.compile(rf"Prochaine partie à (\S+ \d+ \S+ )?{re.escape(start)} — Capture du drapeau, mode médecin"))
    expect(banner.locator(".game-countdown")).to_have_text(re.compile(r"^[23]\d:\d\d$"))
    lea = open_player(phone("fr", chosen=False), links["léa"], "Au spawn")

    # Started: everyone back to spawn, and in play (respawn on arrival).
    staff.get_by_role("button", name="Lancer la partie 1").click()
    staff.locator("button.armed").click()
    expect(staff.get_by_role("button", name="Terminer la partie 1")).to_be_visible()
    expect(karim.locator("#state-label")).to_have_text("En jeu")
    expect(banner).to_contain_text("Partie 1 en cours — Capture du drapeau, mode médecin")
    expect(karim.locator("#state-hint")).to_have_text("Jouez. Touché : criez « out » !")

    declare(karim, "Touché !")
    expect(karim.locator("#state-label")).to_have_text("Touché — comptez jusqu'à 10")
    expect(karim.locator("#state-hint")).to_have_text("Arrêtez-vous, main levée, comptez lentement jusqu'à 10.")
    count = karim.locator("#airsoft-count")
    expect(count).to_have_text(re.compile(r"^(10|9|8)$"))
    expect(karim.locator(".count-block")).to_contain_text("Compte jusqu'à 10")
    expect(karim.locator("#topbar .waiting")).to_have_count(0)      # the outbox is empty again
    screenshot(karim, "airsoft-player-count")

    # The count ends: the phone reads its new state (no worker needed).
    expect(karim.locator("#state-label")).to_have_text("À terre — en attente d'un médecin", timeout=15000)
    karim.locator(".primary-action button.action").click()          # "Je demande un médecin"
    medic_form = karim.locator("form.action-form[data-action=request_medic]")
    medic_form.get_by_label("La zone est").select_option("dangerous")
    medic_form.get_by_role("button", name="Déclarer").click()
    expect(karim.locator(".airsoft-state .flag")).to_have_text("Médecin demandé")

    # An opponent cannot heal him: the server's refusal, as it says it.
    hugo = open_player(phone("fr", chosen=False), links["hugo"], "En jeu")
    hugo.get_by_role("button", name="Soigner un coéquipier").click()
    hugo.get_by_label("Code du coéquipier", exact=True).fill(players["karim"].code)
    hugo.get_by_role("button", name="Soigner (deux mains)").click()
    expect(hugo.locator("#heal-tool .message")).to_contain_text("n'est pas dans votre équipe")

    # Léa heals him from her phone.
    lea.get_by_role("button", name="Soigner un coéquipier").click()
    lea.get_by_label("Code du coéquipier", exact=True).fill(players["karim"].code.lower())
    lea.get_by_role("button", name="Soigner (deux mains)").click()
    running = lea.locator("#heal-running")
    expect(running).to_contain_text("Vous soignez Karim Benali")
    expect(running).to_contain_text("Ne tirez pas")
    expect(running.get_by_role("button", name="J'arrête le soin")).to_be_visible()
    expect(running.get_by_role("button", name="J'ai tiré")).to_be_visible()
    expect(lea.locator("#heal-tool")).to_be_hidden()
    expect(karim.locator("#state-label")).to_have_text("Soin en cours — comptez de 11 à 20")
    expect(karim.locator(".count-who")).to_contain_text("Léa Roux vous soigne")
    # A heal of 5 s: the server counts 11 to 15, one number a second, as the player speaks.
    expect(karim.locator("#airsoft-count")).to_have_text(re.compile(r"^1[12]$"))
    expect(karim.locator("#airsoft-count")).to_have_text("13", timeout=5000)
    screenshot(lea, "airsoft-medic")

    play_the_worker(lambda: HealthState.objects.get(pk=players["karim"].pk).status != "being_healed")
    expect(karim.locator("#state-label")).to_have_text("Soigné — criez « retour en jeu »")
    expect(running).to_have_count(0)
    expect(lea.locator("#heal-tool .last-heal")).to_contain_text("Karim Benali")
    with karim.expect_response(lambda r: r.url.endswith("/actions/") and r.request.method == "POST") as sent:
        declare(karim, "« Retour en jeu ! »")
    assert sent.value.status == 200, (sent.value.status, sent.value.text()[:500])
    expect(karim.locator("#state-label")).to_have_text("En jeu")
    assert HealthState.objects.get(pk=players["karim"].pk).status == "in_play"

    # The organiser ends the game: phones stop showing it.
    staff.get_by_role("button", name="Terminer la partie 1").click()
    staff.locator("button.armed").click()
    expect(banner).to_have_count(0)
    for page in (organiser, karim, lea, hugo):
        assert page.errors == []


def test_a_referee_sanctions_and_measures_a_replica(server_url, phone):
    event, orga, players, links = terrier(server_url)
    game = off_the_browser_thread(game_announce, event=event, by=orga, scenario="Capture du drapeau",
                                  start_at=timezone.now() + timedelta(minutes=5), options={})
    off_the_browser_thread(game_start, game=game, by=orga)
    karim = open_player(phone("fr", chosen=False), links["karim"], "En jeu")

    referee = phone("fr")
    referee.goto(links["referee"])
    referee.locator("form button").click()  # the login page's button
    expect(referee.locator("h1")).to_have_text("Airsoft au Terrier")
    expect(referee.get_by_role("link", name="Arbitre")).to_be_visible()
    staff = referee.locator("#staff-panels")
    expect(staff).to_contain_text("Partie 1 en cours — Capture du drapeau, mode médecin")
    expect(staff.get_by_role("tab")).to_have_text(["Parties", "Sanctions", "Chrony"])   # no check-in
    staff.get_by_role("tab", name="Sanctions").click()
    kinds = staff.get_by_label("Sanction", exact=True)
    expect(kinds.locator("option")).to_have_text(["Avertissement", "Mise « out » : retour au spawn"])

    staff.get_by_label("N° de licence du joueur").fill("rat-0001")
    kinds.select_option("sanction_out")
    staff.get_by_label("Motif (obligatoire)").fill("A tiré à moins de 3 m")
    staff.get_by_role("button", name="Enregistrer la sanction").click()
    expect(staff.locator(".sanction-result")).to_contain_text("Enregistrée : mise « out » — Karim Benali")
    expect(karim.locator("#state-label")).to_have_text("Out — retour au spawn")
    expect(karim.locator("#state-hint")).to_contain_text("retournez à votre spawn")
    expect(karim.locator(".primary-action button.action")).to_have_text("Je suis au spawn")
    expect(staff.locator(".sanctions li")).to_have_count(1)
    expect(staff.locator(".sanctions li").first).to_contain_text("A tiré à moins de 3 m")

    # Cheating twice: rule B13 makes the second a grave fault, and the answer says so.
    for _ in range(2):
        staff.get_by_label("N° de licence du joueur").fill("RAT-0003")
        kinds.select_option("warning")
        staff.get_by_label("Motif (obligatoire)").fill("Ne s'est pas annoncé touché")
        staff.get_by_label("Triche avérée").check()
        staff.get_by_role("button", name="Enregistrer la sanction").click()
        expect(staff.locator(".sanctions li")).to_have_count(2 + _)
    expect(staff.locator(".sanction-result .escalated")).to_contain_text("Une tricherie répétée est une faute grave")
    screenshot(referee, "airsoft-referee")

    # The chrony: a replica registered, then measured at 1.35 J.
    staff.get_by_role("tab", name="Chrony").click()
    staff.get_by_label("N° de licence du propriétaire").fill("RAT-0002")
    staff.get_by_label("Nom de la réplique").fill("M4 CQB")
    staff.locator("form.replica-form").get_by_role("button", name="Enregistrer").click()
    expect(staff.locator(".chrony-panel")).to_contain_text("Enregistrée : M4 CQB de Léa Roux")
    measure = staff.locator("form.check-form")
    expect(measure.get_by_label("Réplique")).to_contain_text("M4 CQB (Léa Roux)")
    measure.get_by_label("Poids de la bille (g)").fill("0.20")
    measure.get_by_label("Vitesse (m/s)").fill("116.2")
    measure.get_by_role("button", name="Enregistrer la mesure").click()
    result = staff.locator("#chrony-result")
    expect(result).to_contain_text("ÉCHEC")
    expect(result.locator(".reasons")).to_have_text("1,35 J > 1,2 J")
    expect(result.locator(".energy")).to_contain_text("1,35 J (limite 1,2 J)")
    expect(staff.locator(".replica-list li")).to_contain_text("ÉCHEC")
    assert ChronyCheck.objects.get().passed is False
    screenshot(referee, "airsoft-chrony")
    assert karim.errors == [] and referee.errors == []


def test_an_excluded_member_is_refused_at_check_in(server_url, phone):
    event, orga, _players, links = terrier(server_url)
    marc = member_create(event=event, by=orga, name="Marc Dupuis", phone="+33 6 11 11 11 11",
                         licence_number="RAT-0099")
    ends = timezone.now() + timedelta(days=30)
    sanction_record(event=event, member=marc, kind=Sanction.EXCLUDED, ends_at=ends,
                    reason="Tir volontaire à bout portant", by=orga)
    member_create(event=event, by=orga, name="Inès Garnier", phone="+33 6 22 22 22 22",
                  licence_number="RAT-0005")
    organiser = phone("fr")
    organiser.goto(links["orga"])
    organiser.locator("form button").click()  # the login page's button
    staff = organiser.locator("#staff-panels")
    staff.get_by_role("tab", name="Inscriptions").click()
    staff.get_by_label("N° de licence ou nom").fill("rat-0099")
    staff.get_by_role("button", name="Inscrire", exact=True).click()
    refusal = staff.locator(".checkin-result .refusal")
    expect(refusal).to_contain_text("Marc Dupuis ne peut pas jouer : exclusion du terrain")
    expect(refusal).to_contain_text(f"jusqu'au {local_text(ends)}")
    expect(refusal).to_contain_text("Inscription refusée.")
    assert not event.characters.filter(name="Marc Dupuis").exists()

    # Found in the register by name, checked in to a team.
    staff.get_by_label("N° de licence ou nom").fill("Inès")
    staff.get_by_label("Équipe").fill("Bleus")
    staff.get_by_role("button", name="Chercher dans le registre").click()
    staff.locator(".members li", has_text="Inès Garnier").get_by_role("button", name="Inscrire").click()
    expect(staff.locator(".checkin-result")).to_contain_text("Inès Garnier est inscrit·e. Équipe Bleus.")
    expect(organiser.locator(".char-row")).to_have_count(4)

    # Organisers pick a player from the live list, and may record a grave fault.
    staff.get_by_role("tab", name="Sanctions").click()
    staff.get_by_label("Joueur", exact=True).select_option(label="Karim Benali (Rouges)")
    staff.get_by_label("Sanction", exact=True).select_option("removed_from_game")
    staff.get_by_label("Motif (obligatoire)").fill("Alcool sur le terrain")
    staff.get_by_role("button", name="Enregistrer la sanction").click()
    expect(staff.locator(".sanction-result")).to_contain_text("Enregistrée : sortie de la partie en cours — Karim Benali")
    expect(organiser.locator(".char-row", has_text="Karim Benali")).to_contain_text("Sorti de la partie")
    organiser.screenshot(path="/tmp/airsoft/organiser.png", full_page=True,
                         style="#topbar { position: static !important; }")
    assert organiser.errors == []
