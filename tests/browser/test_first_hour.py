"""An organiser's first hour with nothing but `./run` and a browser, in French, on a phone
and on a tablet: the first-run link makes their account, the form makes a gn_fr event with
two options changed, a co-narrator joins by an invitation link, 300 characters are
imported (the result stays on screen), the cards are printed twice and the first print's
codes still log in, one character gets a new code (only theirs changes), the game starts."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_helpers import off_the_browser_thread
from players.models import Event, Membership
from players.setup_services import setup_token_issue
from test_setup_on_phones import roster

pytestmark = pytest.mark.django_db(transaction=True)


def printed_codes(page) -> dict[str, str]:
    """{character name: code} as the cards page prints them."""
    names = page.locator("article.card .name").all_inner_texts()
    codes = page.locator("article.card .code").all_inner_texts()
    return dict(zip(names, codes))


@pytest.mark.parametrize("tablet", [pytest.param(False, id="phone"), pytest.param(True, id="tablet")])
def test_a_new_organiser_sets_up_and_starts_a_game_from_the_browser(server_url, phone, tablet):
    token = off_the_browser_thread(setup_token_issue)
    page = phone("fr", tablet=tablet)

    # The first-run link `./run` prints: the account.
    page.goto(f"{server_url}/setup/{token}")
    page.get_by_label("Votre nom").fill("Camille")
    page.get_by_role("button", name="Créer mon compte").click()

    # The event form: the rules with their description, then the options.
    page.get_by_label("GN — règles de santé et de médecine").check()
    page.get_by_role("button", name="Suivant").click()
    expect(page.get_by_role("note")).to_contain_text("Le jeu commence en pause")
    page.get_by_label("Nom de l'événement").fill("Le Manoir des Brumes")
    page.get_by_label("Premier jour du jeu").fill("2027-05-14")
    page.get_by_label("wounded_deadline_s").fill("1200")
    page.get_by_label("first_aid_stack").select_option("replace")
    if not tablet:
        page.screenshot(path=str(_shot("event-form-phone")))   # the top of the form
    page.get_by_role("button", name="Créer l'événement").click()
    expect(page.get_by_role("status")).to_contain_text("Événement créé.")
    event = off_the_browser_thread(lambda: Event.objects.get(name="Le Manoir des Brumes"))
    assert event.options == {"wounded_deadline_s": 1200, "first_aid_stack": "replace"}
    assert not event.running

    # A co-narrator, invited by a link, joins from their own phone.
    page.get_by_label("Rôle").select_option("narrator")
    page.get_by_role("button", name="Inviter").click()
    link = page.locator("[data-invitation]").inner_text().strip()
    lea = phone("fr", tablet=tablet)
    lea.goto(f"{server_url}/invite/{link.rsplit('/', 1)[1]}")   # PUBLIC_URL is not the test server
    lea.get_by_label("Votre nom").fill("Léa")
    lea.get_by_role("button", name="Rejoindre").click()
    expect(lea.get_by_role("link", name="Le Manoir des Brumes — Narrateur")).to_be_visible()
    page.reload()
    expect(page.locator("ul.team")).to_contain_text("Léa — Narrateur / organisateur")

    # The roster: 300 imported, the result stays on screen.
    page.get_by_role("link", name="Vue narrateur").click()
    expect(page.get_by_role("link", name="Le Manoir des Brumes — Narrateur")).to_be_visible()
    panel = page.locator(".roster-panel")
    panel.get_by_label("Fichier des personnages (CSV)").set_input_files(
        files=[{"name": "personnages.csv", "mimeType": "text/csv", "buffer": roster(300)}])
    panel.get_by_role("button", name="Importer les personnages").click()
    result = page.locator("#roster-result")
    expect(result).to_contain_text("300 personnages importés.", timeout=30000)
    expect(page.locator(".selection-bar .count")).to_have_text("Affichés : 300 · cochés : 0", timeout=30000)
    page.wait_for_timeout(1500)
    expect(result).to_contain_text("300 personnages importés.")

    # The cards, printed twice: the same codes; a first-print code logs in.
    cards = page.context.new_page()
    cards.goto(f"{server_url}/events/{event.pk}/sheets/")
    first = printed_codes(cards)
    assert len(first) == 300
    if not tablet:
        cards.locator(".sheet").first.screenshot(path=str(_shot("cards-page-a4")))
    cards.reload()
    assert printed_codes(cards) == first
    player = phone("fr", tablet=tablet)
    player.goto(f"{server_url}/")
    player.locator("input[name=code]").fill(first["Joueur 017"].lower())
    player.get_by_role("button", name="Se connecter").click()
    player.locator("form button").click()           # the login page's button
    expect(player.get_by_role("link", name="Joueur 017")).to_be_visible()

    # A new code for one character only.
    cards.locator("summary").click()
    cards.get_by_label("Un personnage (carte perdue ou volée) :").select_option(label="Joueur 042")
    cards.get_by_label("Je comprends : sa carte imprimée ne permettra plus de se connecter.").check()
    cards.get_by_role("button", name="Nouveau code pour ce personnage").click()
    expect(cards.get_by_role("status")).to_contain_text("Nouveau code pour Joueur 042")
    cards.goto(f"{server_url}/events/{event.pk}/sheets/")
    second = printed_codes(cards)
    assert second["Joueur 042"] != first["Joueur 042"]
    assert {k: v for k, v in second.items() if k != "Joueur 042"} == \
        {k: v for k, v in first.items() if k != "Joueur 042"}

    # The game starts.
    page.get_by_role("button", name="Reprendre le jeu").click()
    expect(page.get_by_role("button", name="Arrêt de jeu")).to_be_visible()
    assert off_the_browser_thread(lambda: Event.objects.get(pk=event.pk).running)
    assert off_the_browser_thread(lambda: Membership.objects.filter(
        event=event, role="narrator").count()) == 2
    assert page.errors == [] and lea.errors == []


def _shot(name: str):
    from browser_helpers import screenshots_dir
    folder = screenshots_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{name}.png"


def test_the_narrator_view_speaks_the_events_language_from_the_start(server_url, phone):
    """An organiser whose phone is in English opens a French event with no character yet:
    the view is French at once, and an import's result is not wiped by a language switch."""
    def setup():
        from django.contrib.auth import get_user_model
        from players.services import event_create, login_token_issue
        orga = get_user_model().objects.create_user(username="orga")
        event = event_create(name="Le Bal", ruleset="gn_fr", by=orga)
        return f"{server_url}/login/{login_token_issue(event=event, user=orga)}"
    link = off_the_browser_thread(setup)
    page = phone("en", chosen=False, browser_locale="en-GB")
    page.goto(link)
    page.locator("form button").click()
    expect(page.get_by_role("button", name="Reprendre le jeu")).to_be_visible(timeout=30000)
    panel = page.locator(".roster-panel")
    panel.get_by_label("Fichier des personnages (CSV)").set_input_files(
        files=[{"name": "p.csv", "mimeType": "text/csv", "buffer": roster(5)}])
    panel.get_by_role("button", name="Importer les personnages").click()
    expect(page.locator("#roster-result")).to_contain_text("5 personnages importés.", timeout=30000)
    page.wait_for_timeout(2000)
    expect(page.locator("#roster-result")).to_contain_text("5 personnages importés.")
