"""Sending the same roster twice never makes twins, even when the file was re-saved by
another program (accents decomposed by a Mac, no-break or zero-width spaces, fullwidth
letters) or a name was typed with look-alike Cyrillic letters: the refusal names the
character or the line it duplicates, and nothing is imported."""
from __future__ import annotations

import unicodedata

import pytest

from fixtures import fingerprint
from players.models import Character

ROSTER = ["Zoé Marchal", "Hélène Blanc", "Ivan Gris"]
VARIANTS = {
    "NFD": lambda n: unicodedata.normalize("NFD", n),
    "zero-width space": lambda n: n.replace(" ", " \u200b"),
    "no-break space": lambda n: n.replace(" ", "\u00a0"),
    "double space": lambda n: n.replace(" ", "  "),
    "fullwidth": lambda n: "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in n),
    "upper case": str.upper,
    "Cyrillic look-alikes": lambda n: n.replace("a", "\u0430").replace("e", "\u0435").replace("o", "\u043e"),
}


def post(api, event, names):
    text = "name;team\n" + "".join(f"{n};Bleus\n" for n in names)
    return api.post(f"/api/events/{event.pk}/roster/", text.encode(), content_type="text/csv")


@pytest.mark.django_db
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_same_roster_resaved_makes_no_twin(event, narrator_api, variant):
    assert post(narrator_api, event, ROSTER).status_code == 201
    before = fingerprint()
    resaved = [VARIANTS[variant](n) for n in ROSTER]
    assert resaved != ROSTER
    response = post(narrator_api, event, resaved)
    assert response.status_code == 400, (variant, response.content)
    rows = response.json()["rows"]
    assert [r["line"] for r in rows] == [2, 3, 4]
    assert "Zoé Marchal" in rows[0]["reason"] and "already a character" in rows[0]["reason"]
    assert fingerprint() == before


@pytest.mark.django_db
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_twins_inside_one_file_name_the_line_they_duplicate(event, narrator_api, variant):
    before = fingerprint()
    response = post(narrator_api, event, ["Ivan Gris", "Zoé Marchal", VARIANTS[variant]("Zoé Marchal")])
    assert response.status_code == 400, variant
    assert [(r["line"], r["reason"].endswith("is also on line 3")) for r in response.json()["rows"]] == [(4, True)]
    assert fingerprint() == before


@pytest.mark.django_db
def test_different_names_are_still_different(event, narrator_api):
    response = post(narrator_api, event, ["Zoé Marchal", "Zoe Marchal", "Zoé Marchall", "Ivan Gris 2"])
    assert response.status_code == 201, response.content
    assert Character.objects.filter(event=event, name__in=[
        "Zoé Marchal", "Zoe Marchal", "Zoé Marchall", "Ivan Gris 2"]).count() == 4
