"""The printed character cards (PDF and the browser's print) and the paper casualty card:
300 cards fit in under 40 A4 pages at 8 to a page, every QR code on the paper decodes to a
login that works, and each ruleset's casualty card reads in its language."""
from __future__ import annotations

import io
import re

import pypdfium2
import pytest
import zxingcpp
from rest_framework.test import APIClient

from players.models import LoginToken
from players.services import characters_create, event_create, team_get_or_create

pytestmark = pytest.mark.django_db


def roster(event, by, count: int) -> list:
    teams = [team_get_or_create(event=event, name=f"Maison {n}") for n in range(6)]
    return characters_create(event=event, by=by, rows=[
        {"name": f"Amélie-Éléonore de la Fontaine-Saint-Aubin {n:03d}", "sheet": {}, "kits": {},
         "team": teams[n % 6]} for n in range(count)])


def decoded_pages(pdf: bytes) -> list[list[str]]:
    """Every QR code of every page, as a phone's camera would read the paper (150 dpi)."""
    document = pypdfium2.PdfDocument(io.BytesIO(pdf))
    pages = []
    for page in document:
        image = page.render(scale=150 / 72).to_pil()
        pages.append([barcode.text for barcode in zxingcpp.read_barcodes(image)
                      if barcode.format == zxingcpp.BarcodeFormat.QRCode])
    return pages


def test_300_cards_at_8_a_page_fit_in_38_pages_and_every_qr_logs_in(clock, narrator_user,
                                                                     narrator_api):
    event = event_create(name="Le Manoir des Brumes", ruleset="gn_fr", by=narrator_user)
    characters = roster(event, narrator_user, 300)

    response = narrator_api.get(f"/events/{event.pk}/sheets.pdf?per_page=8")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    pages = decoded_pages(response.content)
    assert len(pages) == 38 <= 40
    assert [len(found) for found in pages] == [8] * 37 + [4]
    urls = [url for found in pages for url in found]
    assert len(set(urls)) == 300
    assert all(re.fullmatch(r"http://127\.0\.0\.1:8000/login/[A-Z2-9]{12}", url) for url in urls)
    # Every decoded code is a character's card code and logs in as that character.
    assert LoginToken.objects.filter(kind=LoginToken.CARD).count() == len(characters)
    for url in urls[:3] + urls[-3:]:
        phone = APIClient()
        assert phone.post("/api/login/", {"token": url.rsplit("/", 1)[1]}, format="json").status_code == 200
    # Printing again gives the same codes.
    again = narrator_api.get(f"/events/{event.pk}/sheets.pdf?per_page=8")
    assert sorted(u for found in decoded_pages(again.content) for u in found) == sorted(urls)


@pytest.mark.parametrize("per_page, pages", [(1, 5), (4, 2), (8, 1)])
def test_the_pdf_lays_out_1_4_or_8_cards_a_page(per_page, pages, clock, narrator_user, narrator_api):
    event = event_create(name="Petit jeu", ruleset="gn_fr", by=narrator_user)
    roster(event, narrator_user, 5)
    pdf = narrator_api.get(f"/events/{event.pk}/sheets.pdf?per_page={per_page}").content
    found = decoded_pages(pdf)
    assert len(found) == pages
    assert sum(len(f) for f in found) == 5


def test_the_card_text_is_in_the_events_language(clock, narrator_user, narrator_api):
    event = event_create(name="La Fortaleza", ruleset="septenario_es", language="es", by=narrator_user)
    roster(event, narrator_user, 2)
    html = narrator_api.get(f"/events/{event.pk}/sheets/?per_page=4").content.decode()
    assert "Escanea este QR con la cámara del móvil" in html
    assert "Sin cámara: abre 127.0.0.1:8000 y escribe el código." in html
    assert html.count('class="card"') == 2 and "La Fortaleza" in html
    text = "".join(page.get_textpage().get_text_range() for page in pypdfium2.PdfDocument(
        io.BytesIO(narrator_api.get(f"/events/{event.pk}/sheets.pdf?per_page=4").content)))
    assert "Escanea este QR" in text and "Maison 1" in text


# Each ruleset's card in its language: a state, a timer of it with its duration and the
# state it leads to, and what moves a character out of it.
CASUALTY = {
    "gn_fr": ("fr", "Fiche blessés", ["Blessé", "Délai de soins: 15 min → Dans le coma",
                                      "Premiers secours (1 min, KPS (bande blanche))"]),
    "septenario_es": ("es", "Ficha de heridos", ["Incapacitado", "→ Muerto"]),
    "airsoft_rats": ("fr", "Fiche blessés", ["Touché — comptez jusqu'à 10",
                                             "Compte jusqu'à 10: 10 s → À terre — en attente d'un médecin"]),
    "zombie_race": ("fr", "Fiche blessés", ["Survivant"]),
}


@pytest.mark.parametrize("ruleset", sorted(CASUALTY))
def test_each_rulesets_casualty_card_prints_in_its_language(ruleset, clock, narrator_user, narrator_api):
    lang, title, lines = CASUALTY[ruleset]
    event = event_create(name="Jeu", ruleset=ruleset, language=lang, by=narrator_user)

    html = narrator_api.get(f"/events/{event.pk}/casualty-card/").content.decode().replace("&#x27;", "'")
    pdf = narrator_api.get(f"/events/{event.pk}/casualty-card/?format=pdf")

    assert f'<html lang="{lang}">' in html and title in html
    for line in lines:
        assert line in html
    assert pdf["Content-Type"] == "application/pdf"
    text = "".join(page.get_textpage().get_text_range() for page in pypdfium2.PdfDocument(io.BytesIO(pdf.content)))
    assert title in text and lines[0] in text


def test_the_casualty_card_follows_the_events_options(clock, narrator_user, narrator_api):
    event = event_create(name="Jeu", ruleset="gn_fr", options={"wounded_deadline_s": 1200},
                         by=narrator_user)
    html = narrator_api.get(f"/events/{event.pk}/casualty-card/").content.decode()
    assert "Délai de soins: 20 min → Dans le coma" in html
