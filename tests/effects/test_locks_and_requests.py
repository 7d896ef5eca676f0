"""Locks (rules §4.3, GA16): a padlock moves between a red loop (closed) and a green one
(open); anyone may try, the journal keeps who and when. Requests to the organisers
(GA17): destroying or damaging an object is never really done; a player asks, a narrator
answers with an effect that reaches the player."""
from __future__ import annotations

import pytest

from effects.models import Effect, Item, OrganiserRequest
from fixtures import client_for, snapshot
from players.models import JournalEntry
from fixtures import fingerprint

pytestmark = pytest.mark.django_db

DOOR = {"name": "Porte de la cave", "kind": "lock", "tag_text": "Serrure"}
QUESTION = "Je brise le vieux coffre à coups de hache"


def create(api, event, **body):
    response = api.post(f"/api/events/{event.pk}/items/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def move(api, character, code, key=None, **body):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/characters/{character.pk}/items/{code}/use/", body, format="json",
                    **headers)


def listed(api, event) -> dict:
    return {i["code"]: i for i in api.get(f"/api/events/{event.pk}/items/").json()["items"]}


def ask(api, character, text=QUESTION, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/characters/{character.pk}/requests/", {"text": text}, format="json",
                    **headers)


def open_requests(api, event):
    return api.get(f"/api/events/{event.pk}/requests/?status=open")


def reply(api, request_id, key=None, **body):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/requests/{request_id}/answer/", body, format="json", **headers)


# --- locks -------------------------------------------------------------------------------------

def test_a_lock_is_created_closed_and_scanned_with_its_position(clock, event, player,
                                                                narrator_api, player_api):
    door = create(narrator_api, event, **DOOR)

    assert (door["kind"], door["closed"], door["single_use"]) == ("lock", True, False)
    scanned = player_api.get(f"/api/characters/{player.pk}/items/{door['code']}/").json()
    assert (scanned["closed"], scanned["actions"], scanned["used"]) == (True, ["unlock"], False)
    opened = create(narrator_api, event, **DOOR, closed=False)
    assert listed(narrator_api, event)[opened["code"]]["actions"] == ["lock"]


def test_anyone_moves_the_padlock_and_the_journal_says_who_and_when(
        clock, event, player, other_player, narrator_api, player_api):
    door = create(narrator_api, event, **DOOR)
    clock.advance(90)

    response = move(player_api, player, door["code"])

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["action"], body["closed"], body["item"]["actions"]) == ("unlock", False, ["lock"])
    line = JournalEntry.objects.get(event=event, kind="item", what="unlock")
    assert (line.character_id, line.detail["by_character"]["name"]) == (player.pk, "Alice")
    assert (line.game_s, line.detail["closed"]) == (90, False)
    shown = listed(narrator_api, event)[door["code"]]
    assert (shown["closed"], shown["used_by"]["name"], shown["used_game_s"]) == (False, "Alice", 90)

    # Anyone may try a lock: another character closes it again.
    assert move(client_for(other_player.user), other_player, door["code"]).json()["closed"]
    shown = listed(narrator_api, event)[door["code"]]
    assert (shown["closed"], shown["used_by"]["name"]) == (True, "Denis")
    assert JournalEntry.objects.filter(event=event, kind="item", what="lock").count() == 1


def test_a_retry_with_the_same_key_moves_the_padlock_once(clock, event, player, narrator_api,
                                                          player_api):
    door = create(narrator_api, event, **DOOR)

    first = move(player_api, player, door["code"], key="door-1")
    again = move(player_api, player, door["code"], key="door-1")

    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["closed"] is False
    assert Item.objects.get(code=door["code"]).closed is False
    assert JournalEntry.objects.filter(event=event, kind="item", what="unlock").count() == 1


def test_a_padlock_already_where_wanted_is_named_and_left(clock, event, player, narrator_api):
    door = create(narrator_api, event, **DOOR)
    before = fingerprint()

    response = move(client_for(player.user, "fr"), player, door["code"], closed=True)

    assert response.status_code == 409
    assert response.json() == {"error": "lock_already", "detail":
                               "Porte de la cave : le cadenas est déjà sur la boucle rouge."}
    assert fingerprint() == before


def test_players_cannot_move_a_padlock_while_the_game_is_paused(clock, event, player,
                                                                narrator_api, player_api):
    door = create(narrator_api, event, **DOOR)
    narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "pause"}, format="json")
    assert move(player_api, player, door["code"]).json()["error"] == "game_paused"
    assert move(narrator_api, player, door["code"]).json()["closed"] is False


@pytest.mark.parametrize("body,named", [
    ({**DOOR, "effect_text": "Effet : la porte grince"}, "a lock carries no effect"),
    ({**DOOR, "single_use": True}, "a lock is never used up"),
    ({**DOOR, "loaded": True}, "only a firearm has a holder or is loaded"),
    ({"name": "Dague", "kind": "tag", "closed": False}, "only a lock is open or closed"),
])
def test_a_bad_lock_is_refused_and_named(body, named, clock, event, narrator_api):
    response = narrator_api.post(f"/api/events/{event.pk}/items/", body, format="json")
    assert response.status_code == 400, response.content
    assert named in response.json()["detail"]
    assert Item.objects.count() == 0


def test_a_lock_label_says_the_rule_and_where_to_hang_the_padlock(clock, event, narrator_api):
    create(narrator_api, event, **DOOR)
    create(narrator_api, event, **{**DOOR, "name": "Coffre"}, closed=False)
    page = narrator_api.get(f"/events/{event.pk}/labels/").content.decode()
    assert "boucle verte = ouverte" in page
    assert "cadenas sur la boucle rouge (fermée)" in page
    assert "cadenas sur la boucle verte (ouverte)" in page


# --- requests to the organisers ---------------------------------------------------------------

def test_a_request_shows_in_the_narrators_open_list(clock, event, player, narrator_api,
                                                    player_api):
    clock.advance(30)
    response = ask(player_api, player, f"  {QUESTION}  ")

    assert response.status_code == 201, response.content
    assert (response.json()["status"], response.json()["text"]) == ("open", QUESTION)
    rows = open_requests(narrator_api, event).json()["requests"]
    assert [(r["character"]["name"], r["text"], r["created_game_s"]) for r in rows] == [
        ("Alice", QUESTION, 30)]
    line = JournalEntry.objects.get(event=event, kind="request", what="asked")
    assert (line.character_id, line.detail["text"]) == (player.pk, QUESTION)


def test_a_player_can_neither_read_the_requests_nor_answer(clock, event, player, narrator_api,
                                                           player_api):
    asked = ask(player_api, player).json()
    before = fingerprint()

    assert open_requests(player_api, event).status_code == 404
    assert reply(player_api, asked["id"], text="Effet : le coffre s'ouvre").status_code == 404
    assert fingerprint() == before


def test_the_answer_reaches_the_player_as_an_effect_and_closes_the_request(
        clock, event, player, narrator_api, player_api):
    asked = ask(player_api, player).json()
    answer = "Effet : le coffre s'ouvre, votre hache est émoussée"

    response = reply(narrator_api, asked["id"], key="answer-1", text=answer, duration_s=600)
    again = reply(narrator_api, asked["id"], key="answer-1", text=answer, duration_s=600)

    assert response.status_code == 200, response.content
    assert (response.json()["status"], response.json()["answer"]) == ("answered", answer)
    assert again.json() == response.json()
    effects = snapshot(player_api, player)["effects"]
    assert [(e["text"], e["remaining_s"]) for e in effects] == [(answer, 600)]
    assert Effect.objects.count() == 1
    assert open_requests(narrator_api, event).json()["requests"] == []
    answered = narrator_api.get(f"/api/events/{event.pk}/requests/?status=answered").json()
    assert [r["answered_by"] for r in answered["requests"]] == ["narrator"]
    line = JournalEntry.objects.get(event=event, kind="request", what="answered")
    assert (line.character_id, line.detail["question"]) == (player.pk, QUESTION)
    # Answered once: a second narrator's answer is refused and changes nothing.
    late = reply(narrator_api, asked["id"], text="Effet : autre chose")
    assert (late.status_code, late.json()["error"]) == (409, "request_answered")
    assert Effect.objects.count() == 1


@pytest.mark.parametrize("text,named", [
    ("   ", "the request is empty"),
    ("x" * 1001, "text: Ensure this field has no more than 1000 characters."),
])
def test_a_bad_request_is_a_400_naming_the_problem(text, named, clock, event, player,
                                                   player_api):
    before = fingerprint()
    response = ask(player_api, player, text)
    assert response.status_code == 400, response.content
    assert response.json()["error"] == "bad_input"
    assert named in response.json()["detail"]
    assert fingerprint() == before


@pytest.mark.parametrize("body,named", [
    ({"text": ""}, "text: This field may not be blank."),
    ({"text": "Effet : x", "set_state": "zombie"}, "'zombie' is not a state of this game"),
    ({"text": "Effet : x", "duration_s": 0}, "duration_s"),
])
def test_a_bad_answer_is_a_400_and_leaves_the_request_open(body, named, clock, event, player,
                                                           narrator_api, player_api):
    asked = ask(player_api, player).json()
    before = fingerprint()
    response = reply(narrator_api, asked["id"], **body)
    assert response.status_code == 400, response.content
    assert named in response.json()["detail"]
    assert fingerprint() == before


def test_a_bad_status_filter_is_named(clock, event, narrator_api):
    response = narrator_api.get(f"/api/events/{event.pk}/requests/?status=closed")
    assert response.status_code == 400
    assert "'status' is one of open, answered" in response.json()["detail"]


def test_a_player_cannot_ask_as_another_character(clock, event, player, other_player,
                                                  narrator_api, player_api):
    before = fingerprint()
    response = ask(player_api, other_player)
    assert response.status_code == 404
    assert "Denis" not in response.content.decode()
    # A narrator answers requests; asking is the player's own act.
    assert ask(narrator_api, player).status_code == 403
    assert fingerprint() == before


def test_a_few_requests_wait_at_once(clock, event, player, player_api):
    for n in range(3):
        assert ask(player_api, player, f"{QUESTION} ({n})").status_code == 201
    response = ask(player_api, player)
    assert response.status_code == 409
    assert response.json()["error"] == "requests_waiting"
    assert OrganiserRequest.objects.count() == 3
