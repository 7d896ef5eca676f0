"""A survivor whose phone cannot scan types the code printed under the balise's QR (six
letters and digits, race/balise_codes.py): it punches as the QR does, in any case and
with the spaces someone typed; the number printed on the maps and a wrong code are
refused, in the survivor's language, and change nothing. The organisers see each
balise's code and print it under its QR."""
from __future__ import annotations

import secrets

import pytest

from common.i18n import refusal_text
from fixtures import client_for, fingerprint
from players.models import JournalEntry
from race.balise_codes import typed_code
from race.models import Punch
from race.services.courses import checkpoint_create
from rulesets import RuleRefused
from racekit import balise, punch, start, view

pytestmark = pytest.mark.django_db


@pytest.fixture
def lucie(enrol, organiser_api):
    entry = enrol("Lucie", 101)
    start(organiser_api, entry)
    return entry


def test_the_code_under_the_qr_punches_like_the_qr(clock, lucie, famille):
    phone = client_for(lucie.character.user, "fr")
    code = typed_code(balise(famille, "32").qr)
    assert len(code) == 6 and code.isalnum() and not set(code) & set("01IO")
    clock.advance(12 * 60)

    typed = f" {code[:3].lower()} {code[3:]} "                # as typed in the dark
    response = punch(phone, lucie, typed, key="typed-32")

    assert response.status_code == 201, response.content
    made, = response.json()["punches"]
    assert made["checkpoint"] == {"code": "32", "name": "Balise 32"}
    assert made["source"] == "phone" and made["counted"] is True
    # Scanning the QR a minute later is the same balise: a duplicate, not a second find.
    clock.advance(60)
    again = punch(phone, lucie, balise(famille, "32"))
    assert again.json()["found"] == 1
    assert [p["reason"] for p in again.json()["punches"]] == [None, "balise déjà pointée"]
    assert JournalEntry.objects.filter(character=lucie.character, what="punch").count() == 2


def test_the_code_of_a_balise_of_another_course_is_recorded_not_counted(clock, lucie, enfant):
    response = punch(client_for(lucie.character.user, "fr"), lucie,
                     typed_code(balise(enfant, "11").qr))
    assert response.status_code == 201, response.content
    assert response.json()["punches"][0]["reason"] == "balise d'un autre parcours"


@pytest.mark.parametrize("lang,words", [
    ("fr", "32 est le numéro de la balise sur la carte : tapez les six caractères imprimés sous "
           "son QR, ou scannez le QR."),
    ("es", "32 es el número de la baliza en el mapa: escribe los seis caracteres impresos bajo "
           "su QR, o escanea el QR."),
    ("en", "32 is the balise's number on the map: type the six characters printed under its QR "
           "code, or scan the QR."),
])
def test_the_number_printed_on_the_maps_is_refused_and_says_what_to_type(lang, words, clock,
                                                                         lucie, famille):
    before = fingerprint()
    response = punch(client_for(lucie.character.user, lang), lucie, "32")
    assert response.status_code == 400
    assert response.json()["detail"] == words       # what to type, no "invalid request"
    assert fingerprint() == before and Punch.objects.count() == 0


def test_a_wrong_code_is_refused_and_changes_nothing(clock, lucie, famille):
    right = typed_code(balise(famille, "31").qr)
    wrong = next(c for c in ("ABCDEF", "GHJKLM") if c != right)
    before = fingerprint()
    response = punch(client_for(lucie.character.user, "fr"), lucie, wrong)
    assert response.status_code == 400
    # What to type instead, in the runner's words (no "invalid request").
    assert response.json()["error"] == "unknown_balise"
    assert response.json()["detail"] == (f"« {wrong} » n'est pas une balise de famille : tapez les "
                                         f"six caractères imprimés sous le QR de la balise, ou "
                                         f"scannez le QR.")
    assert fingerprint() == before and Punch.objects.count() == 0


def test_an_organiser_may_type_the_number_or_the_code(clock, lucie, famille, organiser_api):
    by_code = punch(organiser_api, lucie, typed_code(balise(famille, "33").qr).lower())
    by_number = punch(organiser_api, lucie, "34")
    assert by_code.status_code == 201 and by_number.status_code == 201
    assert [p["checkpoint"]["code"] for p in view(organiser_api, lucie)["punches"]] == ["33", "34"]
    assert {p["source"] for p in view(organiser_api, lucie)["punches"]} == {"organiser"}


def test_the_organisers_see_each_code_and_print_it_under_the_qr(client, race, famille,
                                                                organiser_api, narrator_user):
    listed = organiser_api.get(f"/api/race/events/{race.pk}/courses/").json()
    checkpoints = listed["courses"][0]["checkpoints"]
    assert {c["code"]: c["typed_code"] for c in checkpoints} == {
        code: typed_code(balise(famille, code).qr) for code in ("31", "32", "33", "34")}

    page = client_for(narrator_user, "fr").get(f"/race/{race.pk}/balises/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Balises à imprimer" in html and "Impossible de scanner ? Tapez ce code :" in html
    for c in checkpoints:
        label = html.split(f'data-balise="{c["code"]}"')[1].split("</section>")[0]
        assert f'<p class="typed">{c["typed_code"]}</p>' in label and "<svg" in label
    # The QR content itself is on the page only inside the drawn QR code.
    assert checkpoints[0]["qr"] not in html
    assert client.get(f"/race/{race.pk}/balises/").status_code == 302         # log in first


def test_no_two_balises_of_a_race_share_a_code(clock, race, famille, narrator_user):
    """The code is six characters worked out from the QR: an organiser's own QR whose code
    another balise of the race already has is refused (found here by a birthday search)."""
    seen, taken = {}, {typed_code(cp.qr) for cp in famille.checkpoints.all()}
    while True:
        qr = f"BALISE-{secrets.token_hex(6)}"
        code = typed_code(qr)
        if code in seen and code not in taken:
            break
        seen[code] = qr
    checkpoint_create(course=famille, code="41", by=narrator_user, qr=seen[code])
    with pytest.raises(RuleRefused) as refused:
        checkpoint_create(course=famille, code="42", by=narrator_user, qr=qr)
    assert refusal_text(refused.value, "en") == (
        f"Invalid request: the code under QR '{qr}' ({code}) is already another balise's: choose "
        "another QR")
    assert not famille.checkpoints.filter(code="42").exists()


def test_a_zombie_types_the_code_printed_on_the_bib(clock, lucie, race, zombie_api):
    code = lucie.character.code
    typed = f"{code[:3].lower()}-{code[3:].lower()}"
    found = zombie_api.get(f"/api/race/events/{race.pk}/bibs/{typed}/")
    assert found.status_code == 200, found.content
    assert found.json()["entry"]["name"] == "Lucie"
    before = fingerprint()
    assert zombie_api.get(f"/api/race/events/{race.pk}/bibs/ZZZ-ZZZ/").status_code == 404
    assert fingerprint() == before
