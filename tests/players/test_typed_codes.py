"""The code printed under a QR (a character's sheet and phone, an object's label, a
survivor's bib) is accepted wherever the QR is, as a person types it when their phone
cannot scan: in lower case, with a space or a dash to keep their place. A wrong code is
refused in the caller's language and changes nothing."""
from __future__ import annotations

import pytest

from fixtures import check_in, client_for, create_item, fingerprint, game, member  # noqa: F401
from fixtures import referee_api, referee_user, sanction, start_treatment  # noqa: F401
from health.models import Treatment
from players.models import Character

pytestmark = pytest.mark.django_db


def typed(code: str) -> str:
    """"K7PQ2M" as typed in the dark: "k7p-q2m"; an object's "ABCDEFGH": "abcd efgh"."""
    half = len(code) // 2
    return f"{code[:half].lower()}{'-' if len(code) == 6 else ' '}{code[half:].lower()}"


def test_a_medic_finds_and_treats_a_patient_by_the_typed_code(player, medic, medic_api):
    player_api = client_for(player.user)
    assert player_api.post(f"/api/characters/{player.pk}/actions/",
                           {"action": "hit_wounding", "params": {}}, format="json").status_code == 200
    found = medic_api.get(f"/api/characters/{medic.pk}/patients/{typed(player.code)}/")
    assert found.status_code == 200, found.content
    assert found.json()["patient"]["name"] == "Alice"

    started = medic_api.post(f"/api/characters/{medic.pk}/treatments/",
                             {"patient_code": typed(player.code), "action": "first_aid",
                              "params": {}}, format="json")
    assert started.status_code == 201, started.content
    assert Treatment.objects.get().patient == player


@pytest.mark.parametrize("lang,words", [
    ("fr", "Aucun personnage de ce jeu n'a le code « ZZZ-ZZZ »."),
    ("es", "Ningún personaje de este evento tiene el código «ZZZ-ZZZ»."),
])
def test_a_wrong_patient_code_is_refused_and_changes_nothing(lang, words, player, medic):
    api = client_for(medic.user, lang)
    before = fingerprint()
    looked = api.get(f"/api/characters/{medic.pk}/patients/ZZZ-ZZZ/")
    started = api.post(f"/api/characters/{medic.pk}/treatments/",
                       {"patient_code": "ZZZ-ZZZ", "action": "first_aid", "params": {}},
                       format="json")
    assert looked.status_code == started.status_code == 404
    assert looked.json()["detail"] == started.json()["detail"] == words
    assert fingerprint() == before


def test_an_object_is_found_and_given_by_the_typed_codes(event, player, other_player,
                                                         narrator_api):
    potion = create_item(narrator_api, event, name="Fiole bleue", kind="medicine",
                         secret_text="Effet : sommeil")
    api = client_for(player.user, "fr")
    found = api.get(f"/api/characters/{player.pk}/items/{typed(potion['code'])}/")
    assert found.status_code == 200, found.content
    assert found.json()["name"] == "Fiole bleue"

    given = api.post(f"/api/characters/{player.pk}/items/{typed(potion['code'])}/use/",
                     {"target_code": typed(other_player.code)}, format="json")
    assert given.status_code == 200, given.content
    assert given.json()["done"] == "C'est fait : Denis doit lire le verso."


def test_a_wrong_object_code_is_refused_and_changes_nothing(event, player, narrator_api):
    create_item(narrator_api, event, name="Dague", kind="tag", effect_text="Effet : froid")
    api = client_for(player.user, "fr")
    before = fingerprint()
    response = api.post(f"/api/characters/{player.pk}/items/ZZZZ-ZZZZ/use/", {}, format="json")
    assert response.status_code == 404
    assert response.json()["detail"] == "Aucun objet de ce jeu n'a le code « ZZZZ-ZZZZ »."
    assert fingerprint() == before


def test_a_duel_names_the_opponent_by_the_typed_code(player, other_player, player_api):
    response = player_api.post(f"/api/characters/{player.pk}/duels/",
                               {"opponent_code": typed(other_player.code)}, format="json")
    assert response.status_code == 201, response.content


def test_a_referee_types_the_code_on_the_players_qr(game, member, narrator_api, referee_api):  # noqa: F811
    character = check_in(narrator_api, game, "RAT-0042").json()["character"]
    given = sanction(referee_api, game, character_code=typed(character["code"]), kind="warning")
    assert given.status_code == 201, given.content
    assert given.json()["sanction"]["character"] == Character.objects.get(pk=character["id"]).pk
