"""What is printed or installed speaks the right language: the character sheets the
event's (the players'), the print button the organiser's, the manifest the one asked for."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from players.services import character_create, event_create

pytestmark = pytest.mark.django_db


def test_the_cards_speak_the_events_language_and_the_controls_the_organisers():
    organiser = get_user_model().objects.create_user(username="org", is_staff=True)
    event = event_create(name="La Fortaleza", ruleset="gn_fr", language="es", by=organiser)
    character_create(event=event, name="Inés", by=organiser,
                     sheet={"combat_base": 2, "skills": {"first_aid": "novice"}})
    client = APIClient()
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    html = client.get(f"/events/{event.pk}/sheets/?per_page=4").content.decode()
    assert '<html lang="es">' in html and "Código de acceso" in html
    assert "Combate: 2" in html and "Primeros auxilios (novato)" in html
    assert "Escanea este QR con la cámara del móvil" in html
    assert "Printing changes no code" in html and "Cards per A4 page:" in html  # the organiser's


@pytest.mark.parametrize(("lang", "name"), [("fr", "Compagnon de jeu"), ("es", "Compañero de juego"),
                                            ("en", "Game companion")])
def test_the_manifest_is_served_in_each_language(client, lang, name):
    manifest = client.get(f"/manifest.webmanifest?lang={lang}").json()
    assert (manifest["lang"], manifest["name"], manifest["id"]) == (lang, name, "/")
    shell = client.get("/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert f'href="/manifest.webmanifest?lang={lang}"' in shell
    assert client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="es").json()["lang"] == "es"
