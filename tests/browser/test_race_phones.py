"""The zombie race's phone screens ("Rugles by Night", a French race) in a real phone
browser: the survivor's countdown, lives and punches, a zombie pulling a flag that the
survivor's phone shows live, the organisers' mass start, leaderboard, safety board, overdue
alert, entry actions and finger readout, and the public results page (no phone number).

The race is built with the services, as tests/race/ and race/demo.py build it. What the
test process itself changes reaches no phone (its publishing would need the event loop
Playwright holds in this thread): the phones act, or a helper thread does (`in_thread`)."""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.utils import timezone
from playwright.sync_api import expect

from browser_helpers import screenshot, wait_until_listening
from live.publish import narrators_group
from players.models import Event, Membership
from players.services import event_create, login_token_issue
from race.models import Checkpoint, Course, Entry, Punch
from race.services.alerts import alerts_sweep
from race.services.courses import checkpoint_create, course_create
from race.services.entries import entry_gear_check, entry_register
from race.services.punches import punch_record
from race.publish import results_group
from race.services.running import entry_finish, entry_start

pytestmark = pytest.mark.django_db(transaction=True)

GEAR_OK = {"vest": True, "light": True, "phone": True}
RUGLES = (48.8227, 0.7064)
BALISES = [("31", "Église Saint-Germain"), ("32", "Pont sur la Risle"), ("33", "Lavoir"),
           ("34", "Ancienne tréfilerie")]


@dataclass
class Night:
    race: Event
    famille: Course
    lucie: Entry
    rescapes: Entry
    hugo: Entry
    organiser: object
    links: dict


def rugles_by_night(server_url: str) -> Night:
    """A famille course (1 h 30) of four balises worth 20 points, not yet confirmed; Lucie
    (solo) and Les Rescapés (a team) with their gear checked, Hugo without; a zombie."""
    users = get_user_model().objects
    organiser = users.create_user(username="organisateur", is_staff=True)
    race = event_create(name="Rugles by Night", ruleset="zombie_race", language="fr",
                        by=organiser, start_clock=True)
    famille = course_create(event=race, name="famille", by=organiser, points_per_checkpoint=20)
    for i, (code, name) in enumerate(BALISES):
        checkpoint_create(course=famille, code=code, name=name, by=organiser,
                          lat=RUGLES[0] + 0.001 * i, lon=RUGLES[1])

    def register(name, finger, phone, members=(), ready=True):
        entry = entry_register(event=race, course=famille, name=name, finger=finger, phone=phone,
                               kind="team" if members else "solo", members=list(members),
                               deposit_taken=True, by=organiser)
        return entry_gear_check(entry=entry, gear=GEAR_OK, by=organiser) if ready else entry

    lucie = register("Lucie Martin", 2001, "06 12 34 56 01")
    rescapes = register("Les Rescapés", 2002, "06 12 34 56 02", members=("Marc Petit", "Julie Petit"))
    hugo = register("Hugo Lambert", 2004, "06 12 34 56 04", ready=False)
    zombie = users.create_user(username="igor", first_name="Igor le Zombie")
    Membership.objects.create(event=race, user=zombie, role=Membership.ZOMBIE)
    link = lambda user: f"{server_url}/login/{login_token_issue(event=race, user=user)}"  # noqa: E731
    links = {"lucie": link(lucie.character.user), "rescapes": link(rescapes.character.user),
             "zombie": link(zombie), "organiser": link(organiser)}
    return Night(race, famille, lucie, rescapes, hugo, organiser, links)


def in_thread(work, *args, **kwargs):
    """Run a service where it may publish to the phones (its own thread, no event loop);
    returns what it returns."""
    done = []

    def run():
        try:
            done.append((True, work(*args, **kwargs)))
        except Exception as error:  # noqa: BLE001 - reported to the test below
            done.append((False, error))
        finally:
            connections.close_all()
    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=30)
    (ok, value), = done
    assert ok, value
    return value


def open_in_french(phone, link: str, ready: str):
    """An English phone opening a race: it switches to the race's French by itself."""
    page = phone("en", chosen=False)
    page.goto(link)
    page.locator("form button").click()  # the login page's button
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator(ready)).to_be_visible()
    return page


def safety_row_of(organiser, entry):
    return organiser.locator(f"#race-safety .safety-row[data-entry='{entry.pk}']")


def two_taps(scope, name: str):
    scope.get_by_role("button", name=name, exact=True).click()
    scope.locator("button.armed").click()


def test_a_survivor_runs_a_zombie_pulls_a_flag_and_the_organisers_see_it_live(server_url, phone):
    night = in_thread(rugles_by_night, server_url)
    qr31 = Checkpoint.objects.get(course=night.famille, code="31").qr

    # The phone knows its entry from the login (/api/me/): the course, not started yet.
    survivor = open_in_french(phone, night.links["lucie"], "#race-status")
    expect(survivor.locator("#race-status")).to_have_text("Pas encore parti")

    # The organisers give the mass start: Lucie and the team start, Hugo (no gear) does not.
    organiser = open_in_french(phone, night.links["organiser"], "#race-summary")
    organiser.get_by_role("tab", name="Départs").click()
    course = organiser.locator(f"#race-courses [data-course='{night.famille.pk}']")
    two_taps(course, "Départ en masse : famille")
    answer = course.locator(".start-answer")
    expect(answer).to_contain_text("2 partis : Lucie Martin, Les Rescapés")
    expect(answer).to_contain_text("Hugo Lambert")
    expect(answer).to_contain_text("gilet de sécurité jaune")

    # The start arrives live on the survivor's phone, with the countdown and two flags.
    expect(survivor.locator("#race-status")).to_have_text("En course")
    expect(survivor.locator("#lives-count")).to_have_text("2 / 2")
    expect(survivor.locator(".race-lives .flag-icon:not(.lost)")).to_have_count(2)
    expect(survivor.locator("#race-time")).to_have_text(re.compile(r"^1:(29:[0-5]\d|30:00)$"))
    expect(survivor.locator(".race-time")).to_contain_text("Temps restant")

    # A balise scanned (typed here: a headless browser has no camera) counts.
    survivor.get_by_label("Code sous le QR de la balise").fill(qr31)
    survivor.get_by_role("button", name="Pointer", exact=True).click()
    expect(survivor.locator("#found-count")).to_have_text("1 / 4")
    expect(survivor.locator(".punch-list")).to_contain_text("31 Église Saint-Germain")
    expect(survivor.locator(".race-note.ok")).to_contain_text("Balise 31 Église Saint-Germain pointée : elle compte.")
    # The number printed on the map is not the QR: refused, with the server's reason
    # (tests/browser/test_scanning.py types the code printed under the QR).
    survivor.get_by_label("Code sous le QR de la balise").fill("32")
    survivor.get_by_role("button", name="Pointer", exact=True).click()
    expect(survivor.locator(".race-note.refusal")).to_contain_text(
        "32 est le numéro de la balise sur la carte : tapez les six caractères")
    expect(survivor.locator("#found-count")).to_have_text("1 / 4")

    # The organisers' leaderboard moved with the punch, and warns the points are not confirmed.
    organiser.get_by_role("tab", name="Classement").click()
    board = organiser.locator(f"#race-leaderboard [data-course='{night.famille.pk}']")
    expect(board.locator(f"tr[data-entry='{night.lucie.pk}']")).to_contain_text("1/4")
    expect(board.locator("[data-warning=points_unconfirmed]")).to_contain_text("Points par balise non confirmés")

    # A zombie scans Lucie's bib and confirms every rule the server names.
    zombie = open_in_french(phone, night.links["zombie"], "#bib-code")
    zombie.get_by_label("Code du dossard").fill(night.lucie.character.code.lower())
    zombie.get_by_role("button", name="Chercher").click()
    bib = zombie.locator("#bib")
    expect(bib).to_contain_text("Lucie Martin")
    expect(bib).to_contain_text("2 vies restantes")
    boxes = bib.locator("input[data-confirmation]")
    expect(boxes).to_have_count(5)
    expect(bib).to_contain_text("à plus de 5 m de toute balise")
    for i in range(4):
        boxes.nth(i).check()
    zombie.get_by_role("button", name="Enregistrer le drapeau arraché").click()
    # A box left unticked: the phone does not send it (each one is required).
    expect(zombie.locator("#grab-result")).to_have_count(0)
    assert night.lucie.life_losses.count() == 0
    boxes.nth(4).check()
    screenshot(zombie, "race-zombie")
    zombie.get_by_role("button", name="Enregistrer le drapeau arraché").click()
    expect(zombie.locator("#grab-result")).to_contain_text("Drapeau arraché : Lucie Martin")
    expect(zombie.locator("#grab-result")).to_contain_text("1 vie restante")

    # Lucie's phone shows it live: one flag left, the other crossed out.
    expect(survivor.locator("#lives-count")).to_have_text("1 / 2")
    expect(survivor.locator(".race-lives .flag-icon.lost")).to_have_count(1)
    expect(survivor.locator(".race-lives")).to_contain_text("vie arrachée par un zombie")
    expect(survivor.locator("#race-score")).to_have_text("-25")       # 20 - 3 x 10 - 15
    survivor.wait_for_timeout(300)
    screenshot(survivor, "race-survivor")

    # The organisers: the leaderboard counts the lost life; confirming the points removes
    # the warning.
    expect(board.locator(f"tr[data-entry='{night.lucie.pk}']")).to_contain_text("≈ -25")
    board.get_by_role("button", name="Confirmer les points").click()
    expect(board.locator("[data-warning=points_unconfirmed]")).to_have_count(0)
    assert Course.objects.get(pk=night.famille.pk).points_confirmed

    # The safety board lists both starters still out, with the phone numbers.
    organiser.get_by_role("tab", name="Sécurité").click()
    safety = organiser.locator("#race-safety")
    row = safety.locator(f".safety-row[data-entry='{night.lucie.pk}']")
    expect(row).to_contain_text("Lucie Martin")
    expect(row).to_contain_text("06 12 34 56 01")
    expect(row.locator(".race-due")).to_contain_text(re.compile(r"^encore 1:[23]\d:\d\d$"))
    expect(safety).to_contain_text("Les Rescapés")
    expect(organiser.locator("#race-summary")).to_contain_text("Encore dehors : 2")
    for page in (survivor, zombie, organiser):
        assert page.errors == []


def test_the_organisers_see_an_overdue_survivor_ring_and_record_what_happens(server_url, phone):
    night = in_thread(rugles_by_night, server_url)
    # Lucie started 1 h 46 ago on a 1 h 30 course: 16 minutes overdue, past the alert's 15.
    in_thread(entry_start, entry=night.lucie, at=timezone.now() - timedelta(minutes=106), by=night.organiser)
    in_thread(entry_start, entry=night.rescapes, by=night.organiser)

    organiser = open_in_french(phone, night.links["organiser"], "#race-summary")
    safety = organiser.locator("#race-safety")
    late = safety.locator(f".safety-row[data-entry='{night.lucie.pk}']")
    expect(late).to_have_class(re.compile(r"overdue"))
    expect(late.locator(".race-due")).to_have_text(re.compile(r"^16:\d\d de retard$"))
    expect(late).to_contain_text("06 12 34 56 01")
    # The most overdue first.
    expect(safety.locator(".safety-row").first).to_have_attribute("data-entry", str(night.lucie.pk))
    expect(organiser.locator("#race-summary")).to_contain_text("en retard : 1")

    # The alert rings (beat's sweeper) and shows at the top with the phone number.
    wait_until_listening(narrators_group(night.race.pk))
    in_thread(alerts_sweep)
    alert = organiser.locator(".race-alert")
    expect(alert).to_contain_text("Lucie Martin (famille) n'est pas rentré : 16 min de retard. Tél. 06 12 34 56 01")
    expect(alert.get_by_role("link", name=re.compile("06 12 34 56 01"))).to_have_attribute("href", "tel:0612345601")
    organiser.wait_for_timeout(300)
    screenshot(organiser, "race-organiser")

    # Entries: a marshal's out-of-zone costs a life, voided with a reason, then the finish.
    organiser.get_by_role("tab", name="Inscrits").click()
    lucie = organiser.locator(f"details.entry[data-entry='{night.lucie.pk}']")
    lucie.locator(":scope > summary").click()
    two_taps(lucie, "Sortie de la zone de course")
    expect(lucie.locator(".race-note.ok")).to_contain_text("Fait : Sortie de la zone de course")
    expect(lucie.locator(":scope > summary .flag-icon.lost")).to_have_count(1)
    lucie.get_by_label("Pourquoi l'annuler").fill("Vue dans la zone par un autre signaleur")
    two_taps(lucie, "Annuler la perte")
    expect(lucie.locator(".losses .voided")).to_contain_text("Vue dans la zone")
    expect(lucie.locator(":scope > summary .flag-icon.lost")).to_have_count(0)
    lucie.get_by_label("Drapeaux à la ceinture (facultatif)").fill("2")
    two_taps(lucie, "Arrivée")
    expect(lucie.locator(":scope > summary")).to_contain_text("Arrivé")
    two_taps(lucie, "Doigt rendu, caution rendue")
    expect(lucie).to_contain_text("Doigt : rendu")
    # Hugo cannot start without his gear: the refusal names it.
    hugo = organiser.locator(f"details.entry[data-entry='{night.hugo.pk}']")
    hugo.locator(":scope > summary").click()
    two_taps(hugo, "Partir maintenant")
    expect(hugo.locator(".race-note.refusal")).to_contain_text("gilet de sécurité jaune")

    # The team's phone, opened with a login link that names its entry, hands the finger
    # and the belt to Julie; the organisers see the new carrier.
    team = open_in_french(phone, night.links["rescapes"]
                          + f"#/survivor/{night.rescapes.character_id}?entry={night.rescapes.pk}", "#race-time")
    expect(team.locator(".race-head")).to_contain_text("Porteur : Marc Petit")
    team.get_by_label("Nouveau porteur").select_option("Julie Petit")
    team.get_by_role("button", name="Changer de porteur").click()
    expect(team.locator(".race-head")).to_contain_text("Porteur : Julie Petit")
    expect(team.locator(".race-carrier")).to_contain_text("Julie Petit porte maintenant le doigt et la ceinture.")
    organiser.get_by_role("tab", name="Sécurité").click()
    expect(safety_row_of(organiser, night.rescapes)).to_contain_text("porteur : Julie Petit")

    # The finger readout: a bad file imports nothing and names its bad lines.
    organiser.get_by_role("tab", name="Import").click()
    bad = "doigt;balise;heure\n2002;31;22:10:05\n9999;32;22:11:00\n2002;77;22:12:00\n2002;33;vers dix heures\n"
    organiser.get_by_label("Fichier du doigt (CSV)").set_input_files(
        files=[{"name": "lecture.csv", "mimeType": "text/csv", "buffer": bad.encode()}])
    organiser.get_by_role("button", name="Importer", exact=True).click()
    result = organiser.locator("#import-result")
    expect(result).to_contain_text("fichier refusé, rien n'est importé : 3 ligne(s) invalide(s)")
    expect(result.locator("tbody tr")).to_have_count(3)
    expect(result.locator("tbody tr").nth(0)).to_contain_text("3")
    expect(result.locator("tbody tr").nth(0)).to_contain_text("aucun inscrit n'a le doigt 9999")
    expect(result.locator("tbody tr").nth(2)).to_contain_text("vers dix heures")
    start = Entry.objects.get(pk=night.rescapes.pk).started_at.astimezone(timezone.get_current_timezone())
    good = "finger,checkpoint,time\n" + "".join(
        f"2002,{code},{(start + timedelta(minutes=5 + i)).isoformat()}\n" for i, code in enumerate(("31", "32")))
    organiser.get_by_label("Fichier du doigt (CSV)").set_input_files(
        files=[{"name": "lecture.csv", "mimeType": "text/csv", "buffer": good.encode()}])
    organiser.get_by_role("button", name="Importer", exact=True).click()
    expect(result).to_contain_text("2 pointages lus : 2 importés, 0 déjà là, 1 inscrits.")
    organiser.get_by_role("tab", name="Classement").click()
    expect(organiser.locator(f"#race-leaderboard tr[data-entry='{night.rescapes.pk}']")).to_contain_text("2/4")
    assert organiser.errors == []


def test_the_public_results_read_well_on_a_phone_and_show_no_phone_number(server_url, phone):
    night = in_thread(rugles_by_night, server_url)

    def run_the_race():
        entry_start(entry=night.lucie, at=timezone.now() - timedelta(minutes=80), by=night.organiser)
        entry_start(entry=night.rescapes, at=timezone.now() - timedelta(minutes=70), by=night.organiser)
        for i, code in enumerate(("31", "32", "33")):
            punch_record(entry=night.lucie, checkpoint=code, by=night.organiser, source=Punch.ORGANISER,
                         at=timezone.now() - timedelta(minutes=70 - 10 * i))
        entry_finish(entry=night.lucie, by=night.organiser)
    in_thread(run_the_race)

    page = phone("en", chosen=False)
    page.goto(f"{server_url}/race/{night.race.pk}/results/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("h1")).to_contain_text("Rugles by Night — Résultats")
    expect(page.locator("table").first).to_contain_text("Lucie Martin")
    expect(page.locator("body")).to_contain_text("Les Rescapés")
    expect(page.locator("body")).not_to_contain_text("Points par balise non confirmés")   # the organisers
    text = page.locator("body").inner_text()
    for secret in ("06 12 34 56", "2001", "2002", night.lucie.character.code, night.rescapes.character.code):
        assert secret not in text
    screenshot(page, "race-results")
    # Nothing wider than the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.emulate_media(media="print")
    expect(page.locator("table").first).to_be_visible()
    assert page.errors == []


def test_the_public_results_update_themselves_when_a_runner_punches(server_url, phone):
    night = in_thread(rugles_by_night, server_url)
    in_thread(entry_start, entry=night.rescapes, by=night.organiser)
    page = phone("es", chosen=False)
    page.goto(f"{server_url}/race/{night.race.pk}/results/")
    rescapes = page.locator("tr", has_text="Les Rescapés")
    expect(rescapes).to_contain_text("0/4")
    page.evaluate("window.__loaded_once = true")
    wait_until_listening(results_group(night.race.pk))

    in_thread(punch_record, entry=night.rescapes, checkpoint="31", by=night.organiser, source=Punch.ORGANISER)
    expect(rescapes).to_contain_text("1/4")
    assert page.evaluate("window.__loaded_once") is True        # read again in place, not reloaded
    assert page.errors == []
