"""Objects with a tag (rules §3.2, GA15): whoever touches a tagged object reads it and
undergoes its effect; a medicine's effect reaches whoever ingests it, also when someone
else made them swallow it; a sealed envelope's, whoever opens it. The verso is shown only
to the one it reaches (and to narrators)."""
from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from effects.models import Effect, Item
from fixtures import client_for, snapshot
from players.models import JournalEntry
from players.services import character_create, event_create

pytestmark = pytest.mark.django_db

SECRET = "Effet : vous vous endormez pour 10 minutes"
POTION = {"name": "Fiole bleue", "kind": "medicine", "secret_text": SECRET,
          "effect_duration_s": 600,
          "tag_text": "Effet : en cas d'ingestion, lire les effets décrits au verso"}
CURSED = {"name": "Dague maudite", "kind": "tag", "effect_text": "Effet : vous avez froid",
          "tag_text": "Effet : qui touche cette dague a froid", "effect_duration_s": 300}
LETTER = {"name": "Lettre cachetée", "kind": "envelope", "tag_text": "À n'ouvrir qu'à minuit",
          "secret_text": "Effet : vous savez que le majordome ment"}


def create(api, event, **body):
    response = api.post(f"/api/events/{event.pk}/items/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def use(api, character, code, key=None, **body):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/characters/{character.pk}/items/{code}/use/", body, format="json",
                    **headers)


def texts(api, character) -> list[str]:
    return [e["text"] for e in snapshot(api, character)["effects"]]


def journal_length(event) -> int:
    return JournalEntry.objects.filter(event=event).count()


# --- organisers ------------------------------------------------------------------------------

def test_narrator_creates_and_lists_objects(clock, event, narrator_api):
    potion = create(narrator_api, event, **POTION)
    dagger = create(narrator_api, event, **CURSED)

    assert re.fullmatch(r"[A-HJ-NP-Z2-9]{8}", potion["code"])
    assert potion["code"] != dagger["code"]
    assert (potion["single_use"], dagger["single_use"]) == (True, False)
    assert potion["secret_text"] == SECRET
    listed = narrator_api.get(f"/api/events/{event.pk}/items/").json()["items"]
    assert [(i["code"], i["used"], i["used_by"]) for i in listed] == [
        (potion["code"], False, None), (dagger["code"], False, None)]
    created = JournalEntry.objects.filter(event=event, kind="item", what="created")
    assert [line.detail["item"] for line in created] == [potion["code"], dagger["code"]]


@pytest.mark.parametrize("body,named", [
    ({**POTION, "effect_set_state": "zombie"}, "'zombie' is not a state of this game"),
    ({"name": "Pilule", "kind": "medicine"}, "a medicine needs effect_text or secret_text"),
    ({"name": "Pistolet", "kind": "firearm", "effect_text": "Effet : boum"},
     "a firearm carries no effect"),
    ({**CURSED, "loaded": True}, "only a firearm has a holder or is loaded"),
    ({"name": "Caillou", "kind": "tag", "effect_set_state": "tired"},
     "an effect needs effect_text or secret_text"),
    ({"name": "Caillou", "kind": "rock"}, "kind"),
])
def test_a_bad_object_is_refused_and_named(body, named, clock, event, narrator_api):
    response = narrator_api.post(f"/api/events/{event.pk}/items/", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"] == "bad_input"
    assert named in response.json()["detail"]
    assert Item.objects.count() == 0


# --- scanning ---------------------------------------------------------------------------------

def test_a_scan_shows_the_tag_but_never_the_verso(clock, event, player, narrator_api,
                                                  player_api):
    potion = create(narrator_api, event, **POTION, effect_text="Effet : sommeil")

    response = player_api.get(f"/api/characters/{player.pk}/items/{potion['code'].lower()}/")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["name"] == "Fiole bleue"
    assert body["tag_text"] == POTION["tag_text"]
    assert (body["kind"], body["actions"], body["used"]) == ("medicine", ["ingest"], False)
    text = response.content.decode()
    assert "endormez" not in text and "sommeil" not in text
    assert not {"secret_text", "effect_text", "effect_set_state"} & set(body)


def test_a_firearm_shows_whether_loaded_and_who_holds_it(clock, event, player, narrator_api,
                                                         player_api):
    gun = create(narrator_api, event, name="Revolver", kind="firearm",
                 tag_text="Arme à feu : 6 coups", holder_code=player.code, loaded=True)
    body = player_api.get(f"/api/characters/{player.pk}/items/{gun['code']}/").json()
    assert (body["actions"], body["loaded"], body["holder"]) == ([], True, "Alice")

    response = use(player_api, player, gun["code"])
    assert response.status_code == 409
    assert response.json() == {"error": "item_not_usable",
                               "detail": "Revolver cannot be used this way."}


@pytest.mark.parametrize("lang,message", [
    ("en", "No object of this game has the code 'ZZZZ9999'."),
    ("fr", "Aucun objet de ce jeu n'a le code « ZZZZ9999 »."),
    ("es", "Ningún objeto de este evento tiene el código «ZZZZ9999»."),
])
def test_an_unknown_code_is_named(lang, message, clock, player):
    api = client_for(player.user, lang)
    for response in (api.get(f"/api/characters/{player.pk}/items/ZZZZ9999/"),
                     use(api, player, "ZZZZ9999")):
        assert response.status_code == 404
        assert response.json() == {"error": "unknown_item", "detail": message}


def test_an_object_of_another_event_is_unknown(clock, event, player, narrator_user,
                                               player_api):
    elsewhere = event_create(name="Other GN", ruleset="gn_fr", by=narrator_user, start_clock=True)
    foreign = create(client_for(narrator_user), elsewhere, **CURSED)
    journal = journal_length(event)

    scanned = player_api.get(f"/api/characters/{player.pk}/items/{foreign['code']}/")
    assert scanned.status_code == 404
    response = use(player_api, player, foreign["code"])

    assert response.status_code == 404
    assert foreign["code"] in response.json()["detail"]
    assert texts(player_api, player) == []
    assert journal_length(event) == journal


# --- touching, ingesting, opening ------------------------------------------------------------

def test_touching_a_tag_applies_its_effect_to_the_reader(clock, event, player, other_player,
                                                         narrator_api, player_api):
    dagger = create(narrator_api, event, **CURSED)

    response = use(player_api, player, dagger["code"])

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["action"], body["revealed"]) == ("touch", "Effet : vous avez froid")
    assert body["effect"]["duration_s"] == 300
    effects = snapshot(player_api, player)["effects"]
    assert [(e["text"], e["remaining_s"]) for e in effects] == [("Effet : vous avez froid", 300)]
    assert texts(narrator_api, other_player) == []
    # A tag is read by everyone who touches it.
    assert use(client_for(other_player.user), other_player, dagger["code"]).status_code == 200
    assert texts(narrator_api, other_player) == ["Effet : vous avez froid"]


def test_a_tag_without_an_effect_offers_nothing(clock, event, player, narrator_api, player_api):
    sign = create(narrator_api, event, name="Panneau", kind="tag", tag_text="Propriété privée")
    assert player_api.get(f"/api/characters/{player.pk}/items/{sign['code']}/").json()[
        "actions"] == []
    assert use(player_api, player, sign["code"]).status_code == 409


def test_a_medicine_ingested_by_oneself_reveals_the_verso(clock, event, player, narrator_api,
                                                          player_api):
    potion = create(narrator_api, event, **POTION)

    response = use(player_api, player, potion["code"])

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["action"], body["revealed"], body["target"]) == ("ingest", SECRET,
                                                                 {"name": "Alice"})
    assert body["effect"]["text"] == SECRET
    assert (body["item"]["used"], body["item"]["actions"]) == (True, [])
    assert texts(player_api, player) == [SECRET]
    line = JournalEntry.objects.get(event=event, kind="item", what="ingest")
    assert line.character_id == player.pk
    assert line.detail["by_character"]["name"] == line.detail["target"]["name"] == "Alice"


def test_a_medicine_fed_to_someone_else_reaches_them_not_the_feeder(
        clock, event, player, other_player, narrator_api, player_api):
    potion = create(narrator_api, event, **POTION)

    response = use(player_api, player, potion["code"], target_code=other_player.code.lower())

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["done"] == "Done: Denis must read the back."
    assert "endormez" not in response.content.decode()
    assert texts(narrator_api, other_player) == [SECRET]
    assert texts(player_api, player) == []
    feeder = player_api.get(f"/api/characters/{player.pk}/").content.decode()
    history = player_api.get(f"/api/characters/{player.pk}/history/").content.decode()
    assert "endormez" not in feeder and "endormez" not in history
    line = JournalEntry.objects.get(event=event, kind="item", what="ingest")
    assert (line.character_id, line.detail["by_character"]["id"]) == (other_player.pk, player.pk)
    listed = narrator_api.get(f"/api/events/{event.pk}/items/").json()["items"][0]
    assert (listed["used"], listed["used_by"]["name"]) == (True, "Alice")


def test_the_done_message_follows_the_feeders_language(clock, event, player, other_player,
                                                       narrator_api):
    potion = create(narrator_api, event, **POTION)
    response = use(client_for(player.user, "fr"), player, potion["code"],
                   target_code=other_player.code)
    assert response.json()["done"] == "C'est fait : Denis doit lire le verso."


def test_a_single_use_object_is_refused_the_second_time(clock, event, player, other_player,
                                                        narrator_api, player_api):
    potion = create(narrator_api, event, **POTION)
    assert use(player_api, player, potion["code"]).status_code == 200
    journal, effects = journal_length(event), Effect.objects.count()
    version = snapshot(narrator_api, other_player)["version"]

    response = use(client_for(other_player.user), other_player, potion["code"])

    assert response.status_code == 409
    assert response.json() == {"error": "item_used",
                               "detail": "Fiole bleue was already used: it works only once."}
    assert journal_length(event) == journal
    assert Effect.objects.count() == effects
    assert snapshot(narrator_api, other_player)["version"] == version
    assert Item.objects.get(code=potion["code"]).used_by_id == player.pk


def test_opening_an_envelope_reveals_its_content(clock, event, player, narrator_api,
                                                 player_api):
    letter = create(narrator_api, event, **LETTER)
    assert player_api.get(f"/api/characters/{player.pk}/items/{letter['code']}/").json()[
        "actions"] == ["open"]

    body = use(player_api, player, letter["code"]).json()

    assert (body["action"], body["revealed"]) == ("open", LETTER["secret_text"])
    assert texts(player_api, player) == [LETTER["secret_text"]]
    assert use(player_api, player, letter["code"]).status_code == 409


@pytest.mark.parametrize("item", [LETTER, CURSED])
def test_only_a_medicine_can_be_given_to_someone_else(item, clock, event, player, other_player,
                                                      narrator_api, player_api):
    made = create(narrator_api, event, **item)
    response = use(player_api, player, made["code"], target_code=other_player.code)
    assert response.status_code == 400
    assert response.json()["error"] == "item_self_only"
    assert texts(narrator_api, other_player) == texts(player_api, player) == []


def test_an_object_that_states_a_health_level_goes_through_the_rules(clock, event, player,
                                                                     narrator_api, player_api):
    poison = create(narrator_api, event, **{**POTION, "secret_text": "Effet : poison violent",
                                            "effect_set_state": "wounded"})

    assert use(player_api, player, poison["code"]).status_code == 200

    state = snapshot(player_api, player)
    assert state["state"]["key"] == "wounded"
    assert state["next"]["leads_to"]["key"] == "coma"
    change = JournalEntry.objects.get(event=event, kind="action", character=player)
    assert (change.what, change.before["status"], change.after["status"]) == (
        "set_state", "healthy", "wounded")


def test_an_unknown_target_code_is_named(clock, event, player, narrator_api, player_api):
    potion = create(narrator_api, event, **POTION)
    response = use(player_api, player, potion["code"], target_code="ZZZZ99")
    assert response.status_code == 404
    assert response.json()["detail"] == "No character of this event has the code 'ZZZZ99'."
    assert Item.objects.get(code=potion["code"]).used_game_s is None


def test_players_cannot_use_objects_while_the_game_is_paused(clock, event, player, narrator_api,
                                                             player_api):
    potion = create(narrator_api, event, **POTION)
    narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "pause"}, format="json")
    response = use(player_api, player, potion["code"])
    assert response.status_code == 409
    assert response.json()["error"] == "game_paused"
    # A narrator settles it for the player during the stop.
    assert use(narrator_api, player, potion["code"]).json()["revealed"] == SECRET


# --- who may act as whom -------------------------------------------------------------------------

def test_a_player_cannot_use_an_object_as_another_character(clock, event, player, other_player,
                                                            narrator_api, player_api):
    potion = create(narrator_api, event, **POTION)
    journal = journal_length(event)

    scanned = player_api.get(f"/api/characters/{other_player.pk}/items/{potion['code']}/")
    response = use(player_api, other_player, potion["code"], target_code=player.code)

    assert (scanned.status_code, response.status_code) == (404, 404)
    assert "Denis" not in response.content.decode()
    assert journal_length(event) == journal
    assert Item.objects.get(code=potion["code"]).used_game_s is None


def test_a_narrator_acts_for_a_character(clock, event, player, other_player, narrator_api):
    potion = create(narrator_api, event, **POTION)
    response = use(narrator_api, player, potion["code"], target_code=other_player.code)
    assert response.status_code == 200, response.content
    assert texts(narrator_api, other_player) == [SECRET]


# --- retries -------------------------------------------------------------------------------------

def test_a_retry_with_the_same_key_gets_the_same_answer_and_applies_once(
        clock, event, player, narrator_api, player_api):
    dagger = create(narrator_api, event, **CURSED)

    first = use(player_api, player, dagger["code"], key="touch-1")
    clock.advance(5)
    again = use(player_api, player, dagger["code"], key="touch-1")

    assert again.status_code == first.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert texts(player_api, player) == ["Effet : vous avez froid"]
    assert JournalEntry.objects.filter(event=event, kind="item", what="touch").count() == 1


# --- printable labels ----------------------------------------------------------------------

def test_labels_show_tag_code_qr_and_a_verso_only_where_needed(clock, event, settings,
                                                               narrator_api):
    settings.PUBLIC_URL = "https://gn.example.org"
    potion = create(narrator_api, event, **POTION)
    dagger = create(narrator_api, event, **CURSED)

    response = narrator_api.get(f"/events/{event.pk}/labels/")

    assert response.status_code == 200
    html = response.content.decode()
    assert potion["code"] in html and dagger["code"] in html
    assert "en cas d&#x27;ingestion" in html and "qui touche cette dague" in html
    assert html.count("<svg") == 2
    assert html.count('class="verso"') == 1 and "endormez" in html
    assert "vous avez froid" not in html  # a tag's effect is not printed: its tag is


def test_labels_are_for_narrators_only(clock, event, player, narrator_api, player_api):
    create(narrator_api, event, **POTION)
    assert player_api.get(f"/events/{event.pk}/labels/").status_code == 404
    anonymous = APIClient().get(f"/events/{event.pk}/labels/")
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/admin/login/")
    stranger = get_user_model().objects.create_user(username="narrator2", is_staff=True)
    character_create(event=event_create(name="Other GN", ruleset="gn_fr", by=stranger),
                     name="Zoé", by=stranger)
    assert client_for(stranger).get(f"/events/{event.pk}/labels/").status_code == 404


def test_organisers_find_objects_in_the_admin(clock, event, narrator_api):
    create(narrator_api, event, **POTION)
    admin = get_user_model().objects.create_superuser(username="admin")
    browser = client_for(admin)
    assert "Fiole bleue" in browser.get("/admin/effects/item/").content.decode()
    assert browser.get("/admin/effects/item/add/").status_code == 200
