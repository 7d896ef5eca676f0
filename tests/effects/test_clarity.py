""""Claridad" (septenario L16): a player asks what is in use on their character and reads
the explanation of its Rasgos, of the effects on it (the catalogue's named effects with
their explanation) and of its state. Narrators push the catalogue's effects by name."""
from __future__ import annotations

import pytest

from effects.models import Effect
from fixtures import act, client_for, snapshot
from players.models import JournalEntry
from fixtures import carry, create_item, personaje, septenario_event

pytestmark = pytest.mark.django_db

PRIMEROS_AUXILIOS = ("Usados durante Medio Minuto, un Personaje Incapacitado pasa a Grave y "
                     "uno inconsciente sin Trauma queda en coma. Se puede usar estando Grave.")


@pytest.fixture
def game(clock, narrator_user):
    return septenario_event(narrator_user)


@pytest.fixture
def lucia(game, narrator_user):
    return personaje(game, narrator_user, abilities=["primeros_auxilios", "vuelo"])


@pytest.fixture
def mateo(game, narrator_user):
    return personaje(game, narrator_user, "Mateo")


@pytest.fixture
def lucia_api(lucia):
    return client_for(lucia.user, "es")


def clarity(api, character) -> dict:
    response = api.get(f"/api/characters/{character.pk}/clarity/")
    assert response.status_code == 200, response.content
    return response.json()


def push(api, event, **body) -> dict:
    response = api.post(f"/api/events/{event.pk}/effects/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


# --- Claridad -------------------------------------------------------------------------------

def test_clarity_explains_the_characters_abilities(lucia, lucia_api):
    shown = clarity(lucia_api, lucia)

    assert shown["abilities"] == [
        {"key": "primeros_auxilios", "label": "Primeros Auxilios", "explains": PRIMEROS_AUXILIOS},
        # Typed by hand on the sheet but not in the rules: named, nothing to explain.
        {"key": "vuelo", "label": "vuelo", "explains": None}]
    assert shown["state"] == {"key": "unharmed", "label": "Ileso"}
    assert (shown["effects"], shown["load"]) == ([], None)


def test_clarity_explains_an_active_catalogue_effect(clock, lucia, lucia_api, narrator_api):
    push(narrator_api, lucia.event, catalogue="derribo", character_ids=[lucia.pk])
    push(narrator_api, lucia.event, text="Efecto: oyes voces", everyone=True)

    derribo, voices = clarity(lucia_api, lucia)["effects"]

    assert (derribo["catalogue"], derribo["label"], derribo["explains"]) == (
        "derribo", "Derribo", "Caes al suelo.")
    assert derribo["text"] == "Derribo: Caes al suelo."
    assert derribo["remaining_s"] == 120
    assert (voices["text"], voices["catalogue"], voices["explains"]) == (
        "Efecto: oyes voces", None, None)
    clock.advance(120)
    assert clarity(lucia_api, lucia)["effects"] == []


def test_clarity_names_the_state_and_an_overload(lucia, lucia_api, narrator_api):
    act(lucia_api, lucia, "hit", location="left_arm")
    carry(lucia_api, lucia, create_item(narrator_api, lucia.event, name="Saco", load=6)["code"])

    shown = clarity(lucia_api, lucia)

    assert shown["state"] == {"key": "wounded", "label": "Herido"}
    assert shown["load"]["label"] == "Sobrecarga"
    assert shown["load"]["meaning"].startswith("No puedes moverte rápido ni usar Evasión")


def test_clarity_is_for_the_characters_player_and_narrators(lucia, mateo, narrator_api):
    assert client_for(mateo.user).get(f"/api/characters/{lucia.pk}/clarity/").status_code == 404
    assert clarity(client_for(mateo.user, "en"), mateo)["state"]["label"] == "Unharmed"
    english = clarity(narrator_api, lucia)["abilities"][0]
    assert english["label"] == "First Aid"
    assert english["explains"].startswith("Used for half a minute")


def test_clarity_in_a_game_without_abilities(event, player, player_api):
    shown = clarity(player_api, player)
    assert (shown["abilities"], shown["effects"], shown["load"]) == ([], [], None)
    assert shown["state"]["key"] == "healthy"


# --- the catalogue --------------------------------------------------------------------------

def test_the_ruleset_lists_its_catalogue_and_abilities_for_narrators(narrator_api):
    rules = narrator_api.get("/api/rulesets/septenario_es/").json()
    assert rules["catalogue"]["muerte"]["action"] == "muerte"
    assert rules["catalogue"]["derribo"]["explains"] == "You fall to the ground."
    assert rules["abilities"]["primeros_auxilios"]["skill"] == "first_aid"
    assert rules["abilities"]["evasion"]["explains"].startswith("Dodges a declared effect")


def test_a_catalogue_effect_with_an_action_goes_through_the_rules(lucia, mateo, narrator_api):
    answer = push(narrator_api, lucia.event, catalogue="muerte", character_ids=[lucia.pk])

    assert snapshot(narrator_api, lucia)["state"]["key"] == "dead"
    assert snapshot(narrator_api, mateo)["state"]["key"] == "unharmed"
    effect = Effect.objects.get(push_id=answer["push_id"])
    assert (effect.catalogue_key, effect.text) == ("muerte", "Muerte: Mata automáticamente: "
                                                   "ignora toda la Norma de vida y muerte "
                                                   "(ni Coraje ni Rasgos).")
    death = JournalEntry.objects.get(event=lucia.event, kind="action", what="muerte")
    assert (death.character_id, death.after["status"]) == (lucia.pk, "dead")
    assert death.detail["catalogue"] == "muerte"


def test_a_catalogue_action_refused_for_one_character_changes_nothing(lucia, narrator_api):
    push(narrator_api, lucia.event, catalogue="muerte", character_ids=[lucia.pk])
    effects, journal = Effect.objects.count(), JournalEntry.objects.count()

    response = narrator_api.post(f"/api/events/{lucia.event.pk}/effects/",
                                 {"catalogue": "muerte", "character_ids": [lucia.pk]},
                                 format="json")

    assert response.status_code == 409
    assert response.json()["error"] == "not_in_state"
    assert (Effect.objects.count(), JournalEntry.objects.count()) == (effects, journal)


def test_a_catalogue_action_to_everyone_skips_whom_it_does_not_apply_to(lucia, mateo,
                                                                        narrator_api,
                                                                        narrator_user):
    push(narrator_api, lucia.event, catalogue="muerte", character_ids=[lucia.pk])
    version = snapshot(narrator_api, lucia)["version"]

    push(narrator_api, lucia.event, catalogue="muerte", everyone=True)

    assert snapshot(narrator_api, mateo)["state"]["key"] == "dead"
    killed = JournalEntry.objects.get(event=lucia.event, kind="action", character=mateo)
    assert (killed.what, killed.actor, killed.detail["as_narrator"]) == ("muerte", narrator_user, True)
    skipped = JournalEntry.objects.get(event=lucia.event, what="not_applied")
    assert (skipped.kind, skipped.actor, skipped.character_id) == ("effect", narrator_user, lucia.pk)
    assert (skipped.detail["action"], skipped.detail["refusal"]) == ("muerte", "not_in_state")
    assert skipped.detail["why"]                      # the refusal, as the journal reads it
    assert snapshot(narrator_api, lucia)["version"] == version + 1   # the effect reached her


@pytest.mark.parametrize("body,named", [
    ({"catalogue": "dragon"}, "'dragon' is not in this game's effect catalogue (known: "
                              "derribo, dormido, muerte, paralisis, quemadura_solar, radiacion)"),
    ({"catalogue": "muerte", "set_state": "grave"}, "the catalogue effect 'muerte' already says "
                                                    "what happens to the character"),
    ({"text": "  "}, "text: This field is required, unless a catalogue effect is named."),
])
def test_a_bad_catalogue_push_is_named_and_changes_nothing(body, named, lucia, narrator_api):
    effects, journal = Effect.objects.count(), JournalEntry.objects.count()
    response = narrator_api.post(f"/api/events/{lucia.event.pk}/effects/",
                                 {**body, "character_ids": [lucia.pk]}, format="json")
    assert response.status_code == 400, response.content
    assert named in response.json()["detail"]
    assert (Effect.objects.count(), JournalEntry.objects.count()) == (effects, journal)
    assert snapshot(narrator_api, lucia)["state"]["key"] == "unharmed"


def test_a_typed_text_replaces_the_catalogue_default(lucia, lucia_api, narrator_api):
    push(narrator_api, lucia.event, catalogue="radiacion", text="Efecto: el contador suena",
         character_ids=[lucia.pk])
    effect, = clarity(lucia_api, lucia)["effects"]
    assert (effect["text"], effect["label"]) == ("Efecto: el contador suena", "Radiación")
