"""Carga (septenario §5, §4.5): a character carries its starting gear and the objects it
picks up by scanning their label. Up to 5 it moves normally; up to 7 it is overloaded
(no running, no Evasión, mimes a heavy load); beyond 7 it cannot move."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.asgi import application
from effects.models import Item
from live.snapshots import character_for_snapshot, character_snapshot
from fixtures import client_for, snapshot
from players.models import JournalEntry
from fixtures import carry, create_item, drop, personaje, septenario_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(clock, narrator_user):
    return septenario_event(narrator_user)


@pytest.fixture
def lucia(game, narrator_user):
    return personaje(game, narrator_user, carried=[{"name": "Armadura ligera", "load": 2},
                                                   {"name": "Espada"}])


@pytest.fixture
def lucia_api(lucia):
    return client_for(lucia.user, "es")


def load(api, character) -> dict:
    return snapshot(api, character)["load"]


def journal(event) -> int:
    return JournalEntry.objects.filter(event=event).count()


# --- what a character carries ---------------------------------------------------------------

def test_the_sheet_lists_the_starting_gear_with_the_default_load(lucia, lucia_api):
    shown = load(lucia_api, lucia)

    assert shown["items"] == [{"name": "Armadura ligera", "load": 2, "code": None},
                              {"name": "Espada", "load": 1, "code": None}]
    assert (shown["total"], shown["capacity"], shown["overload_max"]) == (3, 5, 7)
    assert (shown["status"], shown["label"]) == ("normal", "Carga normal")


def test_an_object_without_a_load_weighs_the_events_default(clock, narrator_user,
                                                            narrator_api):
    game = septenario_event(narrator_user, default_item_carga=2)
    mateo = personaje(game, narrator_user, "Mateo", carried=[{"name": "Mochila"}])
    rope = create_item(narrator_api, game, name="Cuerda")
    heavy = create_item(narrator_api, game, name="Yunque", load=4)
    scanned = narrator_api.get(f"/api/characters/{mateo.pk}/items/{rope['code']}/").json()
    assert scanned["load"] == 2                    # what picking it up would add

    assert carry(narrator_api, mateo, rope["code"]).status_code == 200
    assert carry(narrator_api, mateo, heavy["code"]).status_code == 200

    shown = load(narrator_api, mateo)
    assert [(i["name"], i["load"], i["code"]) for i in shown["items"]] == [
        ("Mochila", 2, None), ("Cuerda", 2, rope["code"]), ("Yunque", 4, heavy["code"])]
    assert (shown["total"], shown["status"]) == (8, "immobile")


@pytest.mark.parametrize("loads,status", [
    ([5], "normal"), ([5, 1], "overloaded"), ([4, 3], "overloaded"), ([7, 1], "immobile"),
    ([], "normal"),
])
def test_load_thresholds_are_five_and_seven(loads, status, game, narrator_user, narrator_api):
    mateo = personaje(game, narrator_user, "Mateo",
                      carried=[{"name": f"Fardo {n}", "load": n} for n in loads])
    shown = load(narrator_api, mateo)
    assert (shown["total"], shown["status"]) == (sum(loads), status)


@pytest.mark.parametrize("lang,overloaded,immobile", [
    ("es", "No puedes moverte rápido ni usar Evasión, y has de simular que cargas un gran peso.",
     "Llevas demasiado: no puedes moverte. Suelta algo para poder moverte de nuevo."),
    ("fr", "Vous ne pouvez ni vous déplacer vite ni utiliser Évasion, et devez simuler que "
           "vous portez un grand poids.",
     "Vous portez trop : vous ne pouvez plus bouger. Posez quelque chose pour pouvoir repartir."),
    ("en", "You cannot move fast or use Evasion, and must act as if carrying a heavy weight.",
     "You carry too much: you cannot move. Drop something to move again."),
])
def test_picking_up_and_dropping_moves_through_the_thresholds(lang, overloaded, immobile,
                                                              lucia, narrator_api):
    api = client_for(lucia.user, lang)
    sack = create_item(narrator_api, lucia.event, name="Saco", load=3)
    anvil = create_item(narrator_api, lucia.event, name="Yunque", load=2)

    picked = carry(api, lucia, sack["code"]).json()["load"]           # 3 + 3
    assert (picked["total"], picked["status"], picked["meaning"]) == (6, "overloaded", overloaded)
    picked = carry(api, lucia, anvil["code"]).json()["load"]          # 6 + 2
    assert (picked["total"], picked["status"], picked["meaning"]) == (8, "immobile", immobile)
    dropped = drop(api, lucia, sack["code"]).json()["load"]           # 8 - 3
    assert (dropped["total"], dropped["status"]) == (5, "normal")
    assert load(api, lucia) == dropped


# --- carrying and dropping ------------------------------------------------------------------

def test_carry_and_drop_are_idempotent_and_journalled(lucia, lucia_api, narrator_api):
    sword = create_item(narrator_api, lucia.event, name="Espada larga", load=2)
    version = snapshot(lucia_api, lucia)["version"]

    first = carry(lucia_api, lucia, sword["code"].lower(), key="carry-1")
    again = carry(lucia_api, lucia, sword["code"].lower(), key="carry-1")

    assert first.status_code == again.status_code == 200, first.content
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    body = first.json()
    assert (body["action"], body["carried"], body["item"]["name"]) == ("carry", True, "Espada larga")
    assert body["load"]["total"] == 5
    assert snapshot(lucia_api, lucia)["version"] == version + 1
    assert Item.objects.get(code=sword["code"]).holder_id == lucia.pk
    lines = JournalEntry.objects.filter(event=lucia.event, kind="item", what="carry")
    assert [(line.character_id, line.actor, line.detail["item"], line.detail["load"])
            for line in lines] == [(lucia.pk, lucia.user, sword["code"], 2)]

    assert drop(lucia_api, lucia, sword["code"], key="drop-1").json()["carried"] is False
    assert drop(lucia_api, lucia, sword["code"], key="drop-1").status_code == 200
    assert Item.objects.get(code=sword["code"]).holder_id is None
    assert snapshot(lucia_api, lucia)["version"] == version + 2
    assert load(lucia_api, lucia)["total"] == 3


def test_carrying_twice_or_dropping_what_one_does_not_carry_is_refused(lucia, lucia_api,
                                                                       narrator_api):
    sword = create_item(narrator_api, lucia.event, name="Espada larga")
    carry(lucia_api, lucia, sword["code"])
    journal_before, version = journal(lucia.event), snapshot(lucia_api, lucia)["version"]

    again = carry(lucia_api, lucia, sword["code"])
    assert again.status_code == 409
    assert again.json() == {"error": "item_carried_already",
                            "detail": "Lucía ya lleva Espada larga."}
    drop(lucia_api, lucia, sword["code"])
    nothing = drop(lucia_api, lucia, sword["code"])
    assert nothing.status_code == 409
    assert nothing.json()["detail"] == "Lucía no lleva Espada larga: no hay nada que soltar."
    assert journal(lucia.event) == journal_before + 1          # the one real drop
    assert snapshot(lucia_api, lucia)["version"] == version + 1


def test_taking_an_object_from_someone_moves_it_to_the_takers_load(lucia, lucia_api,
                                                                   narrator_user, narrator_api):
    mateo = personaje(lucia.event, narrator_user, "Mateo")
    mateo_api = client_for(mateo.user, "es")
    bag = create_item(narrator_api, lucia.event, name="Bolsa de monedas", load=1)
    carry(mateo_api, mateo, bag["code"])
    mateo_version = snapshot(mateo_api, mateo)["version"]

    assert carry(lucia_api, lucia, bag["code"]).status_code == 200

    assert [i["name"] for i in load(lucia_api, lucia)["items"]][-1] == "Bolsa de monedas"
    assert load(mateo_api, mateo)["items"] == []
    assert snapshot(mateo_api, mateo)["version"] == mateo_version + 1
    taken = JournalEntry.objects.get(event=lucia.event, what="carry", character=lucia)
    assert taken.detail["taken_from"] == mateo.pk


def test_a_swallowed_medicine_weighs_nothing_any_more(lucia, lucia_api, narrator_api):
    vial = create_item(narrator_api, lucia.event, name="Vial", kind="medicine", load=1,
                       secret_text="Efecto: te sientes mejor")
    carry(lucia_api, lucia, vial["code"])
    assert load(lucia_api, lucia)["total"] == 4

    used = lucia_api.post(f"/api/characters/{lucia.pk}/items/{vial['code']}/use/", {},
                          format="json")

    assert used.status_code == 200, used.content
    assert load(lucia_api, lucia)["total"] == 3
    refused = carry(lucia_api, lucia, vial["code"])
    assert (refused.status_code, refused.json()["error"]) == (409, "item_used")


def test_a_lock_stays_on_its_door(lucia, lucia_api, narrator_api):
    door = create_item(narrator_api, lucia.event, name="Candado", kind="lock")
    response = carry(lucia_api, lucia, door["code"])
    assert response.status_code == 409
    assert response.json()["error"] == "item_not_carriable"
    assert Item.objects.get(code=door["code"]).holder_id is None


# --- who may carry, and bad codes -----------------------------------------------------------

def test_a_player_cannot_carry_for_another_character(lucia, narrator_user, narrator_api):
    mateo = personaje(lucia.event, narrator_user, "Mateo")
    sword = create_item(narrator_api, lucia.event, name="Espada")
    journal_before = journal(lucia.event)

    for verb in ("carry", "drop"):
        response = carry(client_for(mateo.user), lucia, sword["code"], verb=verb)
        assert response.status_code == 404, response.content
        assert "Lucía" not in response.content.decode()
    assert Item.objects.get(code=sword["code"]).holder_id is None
    assert journal(lucia.event) == journal_before


def test_narrators_carry_for_anyone_even_while_the_game_is_paused(lucia, lucia_api,
                                                                  narrator_api):
    sword = create_item(narrator_api, lucia.event, name="Espada")
    narrator_api.post(f"/api/events/{lucia.event.pk}/clock/", {"action": "pause"}, format="json")

    refused = carry(lucia_api, lucia, sword["code"])
    assert (refused.status_code, refused.json()["error"]) == (409, "game_paused")
    assert carry(narrator_api, lucia, sword["code"]).status_code == 200
    assert Item.objects.get(code=sword["code"]).holder_id == lucia.pk


@pytest.mark.parametrize("lang,message", [
    ("es", "Ningún objeto de este evento tiene el código «ZZZZ9999»."),
    ("en", "No object of this game has the code 'ZZZZ9999'."),
])
def test_an_unknown_code_is_named(lang, message, lucia):
    api = client_for(lucia.user, lang)
    for verb in ("carry", "drop"):
        response = carry(api, lucia, "ZZZZ9999", verb=verb)
        assert response.status_code == 404
        assert response.json() == {"error": "unknown_item", "detail": message}


def test_another_games_object_is_unknown(lucia, lucia_api, narrator_user, narrator_api):
    elsewhere = septenario_event(narrator_user)
    foreign = create_item(narrator_api, elsewhere, name="Espada ajena")
    response = carry(lucia_api, lucia, foreign["code"])
    assert (response.status_code, response.json()["error"]) == (404, "unknown_item")
    assert Item.objects.get(code=foreign["code"]).holder_id is None


def test_a_game_without_carga_shows_no_load_and_refuses_carrying(event, player, player_api,
                                                                 narrator_api):
    dagger = narrator_api.post(f"/api/events/{event.pk}/items/",
                               {"name": "Dague", "kind": "tag"}, format="json").json()
    assert snapshot(player_api, player)["load"] is None

    response = carry(player_api, player, dagger["code"])
    assert response.status_code == 409
    assert response.json() == {"error": "not_in_this_game",
                               "detail": "There is no Carga (carrying load) in this game's rules."}
    weighed = narrator_api.post(f"/api/events/{event.pk}/items/",
                                {"name": "Enclume", "kind": "tag", "load": 3}, format="json")
    assert weighed.status_code == 400
    assert "this game's rules have no Carga" in weighed.json()["detail"]


# --- the snapshot ---------------------------------------------------------------------------

def test_the_snapshot_costs_the_same_queries_however_much_is_carried(lucia, narrator_api):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            now = timezone.now()
            character_snapshot(character_for_snapshot(lucia.pk, now), now)
        return len(captured)

    empty = queries()
    for n in range(6):
        carry(narrator_api, lucia, create_item(narrator_api, lucia.event, name=f"Daga {n}")["code"])
    assert queries() == empty


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_carrying_pushes_a_fresh_snapshot_to_the_phone(clock, narrator_user):
    game = await sync_to_async(septenario_event)(narrator_user)
    lucia = await sync_to_async(personaje)(game, narrator_user)
    lucia_api = await sync_to_async(client_for)(lucia.user, "es")
    narrator_api = await sync_to_async(client_for)(narrator_user)
    sack = await sync_to_async(create_item)(narrator_api, game, name="Saco", load=6)
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"),
               (b"cookie", f"sessionid={lucia_api.cookies['sessionid'].value}".encode())]
    phone = WebsocketCommunicator(application, f"/ws/live/?character={lucia.pk}&lang=es",
                                  headers=headers)
    assert (await phone.connect(timeout=5))[0]
    first = (await phone.receive_json_from(timeout=5))["snapshot"]
    assert first["load"]["status"] == "normal"

    response = await sync_to_async(carry)(lucia_api, lucia, sack["code"], "carry-saco")

    assert response.status_code == 200
    pushed = await phone.receive_json_from(timeout=5)
    assert pushed["type"] == "snapshot"
    assert pushed["snapshot"]["version"] == first["version"] + 1
    assert (pushed["snapshot"]["load"]["total"], pushed["snapshot"]["load"]["label"]) == (
        6, "Sobrecarga")
    await phone.disconnect()
