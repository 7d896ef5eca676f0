"""Setting up an event without a shell, on a phone and on a tablet: the organiser imports
a 300-character roster from a spreadsheet (a file with bad lines imports nothing and names
them), sees the 300 in the live view, opens the sheets to print and the admin, where only
their event's rows are; a race's organiser imports 300 entries the same way."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from browser_helpers import off_the_browser_thread
from players.models import Character
from players.services import character_create, event_create, login_token_issue
from race.models import Entry
from race.services.courses import course_create

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = [pytest.param(False, id="phone"), pytest.param(True, id="tablet")]
TEAMS = ["Corbeaux", "Loups", "Hiboux", "Renards", "Cerfs", "Ours"]


def roster(count: int, bad: dict | None = None) -> bytes:
    """A spreadsheet's roster as a French organiser saves it (`;`), `bad` {line: row}."""
    lines = ["nom;équipe;combat;first_aid;kits"]
    lines += [f"Joueur {i:03d};{TEAMS[i % len(TEAMS)]};{1 + i % 4};{'novice' if i % 25 == 0 else ''};"
              f"{'kps:2' if i % 25 == 0 else ''}" for i in range(1, count + 1)]
    for line, row in (bad or {}).items():
        lines[line - 1] = row
    return ("\n".join(lines) + "\n").encode()


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("tablet", SIZES)
def test_an_organiser_sets_up_300_characters_from_a_file(server_url, phone, tablet):
    def setup():
        orga = get_user_model().objects.create_user(username="orga")   # no staff flag: an organiser
        event = event_create(name="Le Grand Bal", ruleset="gn_fr", by=orga, start_clock=True)
        other = event_create(name="Un autre GN", ruleset="gn_fr", by=None)
        character_create(event=other, name="Intrus d'ailleurs")
        return event, f"{server_url}/login/{login_token_issue(event=event, user=orga)}"
    event, link = off_the_browser_thread(setup)
    page = phone("fr", tablet=tablet)
    page.goto(link)
    page.locator("form button").click()  # the login page's button
    expect(page.locator(".selection-bar .count")).to_have_text("Affichés : 0 · cochés : 0", timeout=30000)
    panel = page.locator(".roster-panel")
    expect(panel.locator(".roster-columns")).to_contain_text("combat")
    expect(panel.locator(".roster-columns")).to_contain_text("first_aid")
    file = panel.get_by_label("Fichier des personnages (CSV)")
    result = page.locator("#roster-result")

    # Two bad lines among 300: nothing is imported, both are named with their numbers.
    bad = roster(300, {42: "Joueur 041;Loups;9;;", 120: "Joueur 007;Ours;2;;"})
    file.set_input_files(files=[{"name": "personnages.csv", "mimeType": "text/csv", "buffer": bad}])
    panel.get_by_role("button", name="Importer les personnages").click()
    expect(result).to_contain_text("fichier refusé, rien n'est importé : 2 ligne(s) invalide(s)", timeout=30000)
    lines = result.locator("tbody tr")
    expect(lines).to_have_count(2)
    expect(lines.nth(0)).to_contain_text("42")
    expect(lines.nth(0)).to_contain_text("combat doit être un nombre entier de 0 à 5, pas « 9 »")
    expect(lines.nth(1)).to_contain_text("120")
    expect(lines.nth(1)).to_contain_text("Joueur 007 est aussi à la ligne 8")
    assert not Character.objects.filter(event=event).exists()
    assert no_sideways_scroll(page)

    # The fixed file: 300 characters, in the live view at once, with their sheets to print.
    file.set_input_files(files=[{"name": "personnages.csv", "mimeType": "text/csv", "buffer": roster(300)}])
    panel.get_by_role("button", name="Importer les personnages").click()
    expect(result).to_contain_text("300 personnages importés.", timeout=30000)
    expect(page.locator(".selection-bar .count")).to_have_text("Affichés : 300 · cochés : 0", timeout=30000)
    expect(result.get_by_role("link", name="Imprimer les fiches de personnage")).to_have_attribute(
        "href", f"/events/{event.pk}/sheets/")
    assert no_sideways_scroll(page)

    # The same file again (a second tap, days later): refused, no twins.
    file.set_input_files(files=[{"name": "personnages.csv", "mimeType": "text/csv", "buffer": roster(300)}])
    panel.get_by_role("button", name="Importer les personnages").click()
    expect(result).to_contain_text("300 ligne(s) invalide(s)", timeout=30000)
    expect(lines.nth(0)).to_contain_text("Joueur 001 est déjà un personnage de cet événement")
    assert Character.objects.filter(event=event).count() == 300

    sheets = page.context.new_page()
    sheets.goto(f"{server_url}/events/{event.pk}/sheets/")
    expect(sheets.locator("article.card")).to_have_count(300)
    expect(sheets.locator(".sheet")).to_have_count(38)      # 8 cards to an A4 page
    sheets.goto(f"{server_url}/events/{event.pk}/sheets/?per_page=4")
    expect(sheets.locator("article.card").filter(has_text="Joueur 025")).to_contain_text("novice")

    # The admin, for their event only.
    admin = page.context.new_page()
    admin.goto(f"{server_url}/admin/players/character/?q=Joueur+150")
    expect(admin.locator("#result_list")).to_contain_text("Joueur 150")
    admin.goto(f"{server_url}/admin/players/character/?all=")
    expect(admin.locator("body")).not_to_contain_text("Intrus d'ailleurs")
    expect(admin.locator("body")).not_to_contain_text("Un autre GN")
    assert page.errors == []


@pytest.mark.parametrize("tablet", SIZES)
def test_a_race_organiser_imports_300_entries_from_a_file(server_url, phone, tablet):
    def setup():
        orga = get_user_model().objects.create_user(username="organisateur", is_staff=True)
        race = event_create(name="Rugles by Night", ruleset="zombie_race", language="fr", by=orga,
                            start_clock=True)
        course_create(event=race, name="famille", by=orga, points_per_checkpoint=20)
        return race, f"{server_url}/login/{login_token_issue(event=race, user=orga)}"
    race, link = off_the_browser_thread(setup)
    page = phone("fr", tablet=tablet)
    page.goto(link)
    page.locator("form button").click()
    expect(page.locator("#race-summary")).to_be_visible(timeout=30000)
    page.get_by_role("tab", name="Import").click()
    file = page.get_by_label("Fichier des inscriptions (CSV)")
    result = page.locator("#entries-import-result")
    header = "nom;parcours;doigt;téléphone;membres\n"
    rows = [f"Coureur {i:03d};famille;{1000 + i};06 00 00 {i // 100:02d} {i % 100:02d};" for i in range(300)]
    bad = rows[:]
    bad[9] = "Coureur 009;nocturne;1009;06 00 00 00 09;"
    bad[19] = "Les Rescapés;famille;1019;06 00 00 00 19;Paul"
    file.set_input_files(files=[{"name": "inscrits.csv", "mimeType": "text/csv",
                                 "buffer": (header + "\n".join(bad) + "\n").encode()}])
    page.get_by_role("button", name="Inscrire depuis le fichier").click()
    expect(result).to_contain_text("fichier refusé, rien n'est importé : 2 ligne(s) invalide(s)", timeout=30000)
    expect(result.locator("tbody tr").nth(0)).to_contain_text("11")
    expect(result.locator("tbody tr").nth(0)).to_contain_text("nocturne")
    expect(result.locator("tbody tr").nth(1)).to_contain_text("21")
    assert not Entry.objects.filter(event=race).exists()
    file.set_input_files(files=[{"name": "inscrits.csv", "mimeType": "text/csv",
                                 "buffer": (header + "\n".join(rows) + "\n").encode()}])
    page.get_by_role("button", name="Inscrire depuis le fichier").click()
    expect(result).to_contain_text("300 inscriptions enregistrées.", timeout=30000)
    assert Entry.objects.filter(event=race).count() == 300
    assert no_sideways_scroll(page)
    assert page.errors == []
