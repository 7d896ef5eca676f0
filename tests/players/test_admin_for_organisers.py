"""The admin as an organiser reads it: in their language (their choice, else their events'),
with real plurals, and only the pages their events' rules use."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from players.services import event_create

pytestmark = pytest.mark.django_db


def organiser_of(*rulesets, language="fr", cookie=None, accept="en") -> Client:
    user = get_user_model().objects.create_user(username="camille", is_staff=True)
    for n, ruleset in enumerate(rulesets):
        event_create(name=f"Jeu {n}", ruleset=ruleset, language=language, by=user)
    browser = Client(HTTP_ACCEPT_LANGUAGE=accept)
    if cookie:
        browser.cookies["django_language"] = cookie
    browser.force_login(user)
    return browser


def test_a_french_gn_organiser_reads_the_admin_in_french_with_real_plurals(clock):
    page = organiser_of("gn_fr", accept="en").get("/admin/").content.decode()
    assert '<html lang="fr"' in page
    assert "Lignes du journal" in page and "Personnages" in page
    assert "Journal entrys" not in page


def test_the_organisers_own_choice_wins(clock):
    page = organiser_of("gn_fr", cookie="es").get("/admin/").content.decode()
    assert "Líneas del diario" in page


@pytest.mark.parametrize("lang, plurals", [
    ("en", ["Journal entries", "Entries", "Punches", "Lives lost"]),
    ("fr", ["Lignes du journal", "Inscriptions", "Poinçons", "Vies perdues"]),
    ("es", ["Líneas del diario", "Inscripciones", "Picadas", "Vidas perdidas"]),
])
def test_plurals_in_each_language(lang, plurals, clock):
    page = organiser_of("zombie_race", language=lang).get("/admin/").content.decode()
    for plural in plurals:
        assert plural in page
    assert "entrys" not in page and "Punchs" not in page and "losss" not in page


def test_a_gn_organiser_sees_only_the_gn_pages(clock):
    page = organiser_of("gn_fr").get("/admin/").content.decode()
    assert "Duels" in page and "Acharnements" in page
    for other in ("Poinçons", "Parcours", "Sanctions", "Répliques", "Parties", "Soins au combat"):
        assert other not in page, other


def test_an_airsoft_organiser_sees_the_club_and_not_the_race(clock):
    page = organiser_of("airsoft_rats").get("/admin/").content.decode()
    assert "Sanctions" in page and "Passages au chrony" in page and "Soins au combat" in page
    assert "Poinçons" not in page and "Duels" not in page
