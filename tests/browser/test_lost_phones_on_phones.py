"""A lost phone, as the narrator and the player live it in a real event of 300 characters
(crowd.py): the narrator finds the player, makes a new login QR code for them, ticked in
the list (two taps, the second naming what happens), the new code
opens the player's screen on another phone, and the lost link shows, in the event's
language, that it no longer works and what to do."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_helpers import screenshot
from crowd import crowd_event
from test_narrator_at_300 import open_narrator, search

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("tablet", [False, True], ids=["phone", "tablet"])
def test_a_narrator_reissues_a_lost_phones_login_qr_code(server_url, phone, tablet):
    crowd = crowd_event(server_url)
    alice = crowd.characters[150]
    name = alice.name
    lost_link = crowd.link_for(alice, server_url)           # the one on the lost phone
    narrator = open_narrator(phone, crowd, tablet=tablet)
    search(narrator, name, 1)
    narrator.locator(".char-row", has_text=name).get_by_role("checkbox").check()
    narrator.get_by_role("button", name="Envoyer un effet").click()
    row = narrator.locator(".action-sheet .one")          # the ticked character's part
    expect(row).to_contain_text(name)

    row.get_by_role("button", name="Nouveau QR de connexion").click()
    armed = row.locator("button.armed")
    expect(armed).to_have_text(f"Touchez encore : les anciens liens de {name} ne marcheront plus")
    armed.click()

    dialog = narrator.get_by_role("dialog", name=f"Nouveau QR de connexion de {name}")
    expect(dialog).to_be_visible()
    code = dialog.get_by_role("img", name=f"QR de connexion de {name}")
    expect(code).to_be_visible()
    assert code.get_attribute("src").startswith("data:image/svg+xml")
    assert code.bounding_box()["width"] >= 200   # another phone's camera must read it
    expect(row).to_contain_text("Nouveau code créé ; les anciens liens ne marchent plus.")
    dialog.get_by_role("button", name="Terminé").click()
    expect(dialog).to_have_count(0)

    # The lost phone's link, opened on a phone speaking English: the event's French wins.
    lost = phone("en", chosen=False, tablet=tablet)
    lost.goto(lost_link)
    lost.locator("form button").click()
    expect(lost.get_by_role("heading")).to_have_text("Ce lien de connexion ne fonctionne plus")
    expect(lost.locator("body")).to_contain_text("Demandez un nouveau QR de connexion à un narrateur")
    lost.get_by_role("link", name="Ouvrir l'appli").click()
    expect(lost.locator("#state-label")).to_have_count(0)   # it did not log in
    assert narrator.errors == []


def test_a_stolen_phone_is_cut_off_and_says_it_was_logged_out(server_url, phone):
    """The narrator cuts off a stolen phone still logged in: its screen goes within seconds
    and says, in its own language, that it was logged out (and still does after a reload);
    the new login QR code is shown to the narrator."""
    crowd = crowd_event(server_url, characters=20)
    alice = crowd.characters[5]
    name = alice.name
    stolen = phone("es")
    stolen.goto(crowd.link_for(alice, server_url))
    stolen.locator("form button").click()
    expect(stolen.locator("#state-label")).to_be_visible()
    narrator = open_narrator(phone, crowd, tablet=False, count=20)
    search(narrator, name, 1)
    narrator.locator(".char-row", has_text=name).get_by_role("checkbox").check()
    narrator.get_by_role("button", name="Envoyer un effet").click()
    row = narrator.locator(".action-sheet .one")

    row.get_by_role("button", name="Téléphone perdu").click()
    armed = row.locator("button.armed")
    expect(armed).to_have_text(f"Touchez encore : tous les téléphones connectés comme {name} seront déconnectés")
    armed.click()

    dialog = narrator.get_by_role("dialog", name=f"Nouveau QR de connexion de {name}")
    expect(dialog).to_contain_text(f"Tous les téléphones connectés comme {name} sont déconnectés.")
    code = dialog.get_by_role("img", name=f"QR de connexion de {name}")
    assert code.get_attribute("src").startswith("data:image/svg+xml")
    assert code.bounding_box()["width"] >= 200
    expect(row).to_contain_text("Téléphone coupé ; un nouveau code a été créé.")

    gone = stolen.get_by_role("heading", name="Este teléfono se ha desconectado")
    expect(gone).to_be_visible(timeout=5000)
    expect(stolen.locator("#state-label")).to_have_count(0)
    expect(stolen.get_by_role("button", name="Emergencia")).to_be_hidden()   # no login to call with
    expect(stolen.locator("#app")).to_contain_text("escanea el nuevo QR de acceso")
    box = gone.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= stolen.viewport_size["width"]
    screenshot(stolen, "stolen-phone-logged-out-es")
    stolen.reload()
    expect(gone).to_be_visible()
    expect(stolen.locator("#state-label")).to_have_count(0)
    assert stolen.errors == [] and narrator.errors == []
