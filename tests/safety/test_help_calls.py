"""I need help (real): a call from any phone reaches the organisers without pausing the
game; one takes it, everyone sees who; it is closed with an outcome; the caller sees that
it was received and who is coming. A player reads only their own calls."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model

from fixtures import START, client_for
from players.models import Event, JournalEntry
from players.services import membership_grant
from safety.models import HelpCall

POSITION = {"latitude": 45.7612, "longitude": 4.8321, "accuracy_m": 12.5}


@pytest.fixture
def second_organiser(event):
    user = get_user_model().objects.create_user(username="camille")
    membership_grant(event=event, user=user, role="narrator")
    return user


def call(api, event, key="call-1", **body):
    body = {"kind": "injured", **body}
    return api.post(f"/api/events/{event.pk}/help/", body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_a_call_reaches_the_organisers_with_its_position_and_pauses_nothing(
        clock, event, player, player_api, narrator_api):
    tapped = START - timedelta(seconds=40)     # tapped offline, sent when the network came back
    response = call(player_api, event, note="twisted ankle near the mill", position=POSITION,
                    tapped_at=tapped.isoformat())
    assert response.status_code == 201, response.content
    mine = response.json()
    assert (mine["status"], mine["kind"], mine["taken_by"]) == ("open", "injured", None)
    assert mine["tapped_at"] == tapped.isoformat()
    assert "position" not in mine and "note" not in mine

    assert Event.objects.get(pk=event.pk).running           # the game goes on
    board = narrator_api.get(f"/api/events/{event.pk}/help/").json()
    assert board["organiser"] is True
    seen, = board["calls"]
    assert seen["character"] == {"id": player.pk, "name": "Alice", "team": "Invités"}
    assert seen["note"] == "twisted ankle near the mill"
    assert seen["position"] == POSITION
    assert seen["tapped_at"] == tapped.isoformat() and seen["received_at"] == START.isoformat()
    line = JournalEntry.objects.get(kind="safety", what="help_called")
    assert line.character_id == player.pk
    # The journal keeps the fact, not the note or the position (those follow the person).
    assert "twisted" not in str(line.detail) and "45.76" not in str(line.detail)


def test_a_call_retried_with_its_key_is_one_call(clock, event, player, player_api):
    one = call(player_api, event, key="same")
    two = call(player_api, event, key="same")
    assert one.status_code == two.status_code == 201
    assert one.json()["id"] == two.json()["id"]
    assert HelpCall.objects.count() == 1


@pytest.mark.parametrize("body, problem", [
    ({"kind": "bored"}, "kind"),
    ({"kind": "lost", "note": "x" * 501}, "note"),
    ({"kind": "lost", "position": {"latitude": 91, "longitude": 4}}, "latitude"),
    ({"kind": "lost", "position": {"latitude": 45, "longitude": 4, "accuracy_m": -1}}, "accuracy_m"),
])
def test_a_bad_call_is_refused_and_changes_nothing(clock, event, player, player_api, body, problem):
    response = player_api.post(f"/api/events/{event.pk}/help/", body, format="json")
    assert response.status_code == 400
    assert problem in str(response.json())
    assert not HelpCall.objects.exists()


def test_a_tap_in_the_future_is_refused(clock, event, player, player_api):
    response = call(player_api, event, tapped_at=(START + timedelta(minutes=5)).isoformat())
    assert response.status_code == 400
    assert response.json()["error"] == "tap_in_future"
    assert not HelpCall.objects.exists()


def test_one_organiser_takes_the_call_the_other_and_the_caller_see_who(
        clock, event, player, player_api, narrator_api, second_organiser):
    call_id = call(player_api, event).json()["id"]
    taken = narrator_api.post(f"/api/help/{call_id}/take/", HTTP_IDEMPOTENCY_KEY="take-1")
    assert taken.status_code == 200
    assert (taken.json()["status"], taken.json()["taken_by"]) == ("taken", "narrator")

    other = client_for(second_organiser, "fr").post(f"/api/help/{call_id}/take/")
    assert other.status_code == 409
    assert other.json()["error"] == "help_taken" and "narrator" in other.json()["detail"]
    seen_by_other, = client_for(second_organiser).get(f"/api/events/{event.pk}/help/").json()["calls"]
    assert seen_by_other["taken_by"] == "narrator"

    mine, = player_api.get(f"/api/events/{event.pk}/help/").json()["calls"]
    assert (mine["status"], mine["taken_by"]) == ("taken", "narrator")
    # Taken again by the one who has it: the same answer.
    assert narrator_api.post(f"/api/help/{call_id}/take/").status_code == 200

    clock.advance(600)
    closed = narrator_api.post(f"/api/help/{call_id}/close/", {"outcome": "evacuated",
                                                              "note": "driven to the car park"},
                               format="json")
    assert closed.status_code == 200
    assert (closed.json()["status"], closed.json()["outcome"]) == ("closed", "evacuated")
    again = narrator_api.post(f"/api/help/{call_id}/close/", {"outcome": "treated"}, format="json")
    assert again.status_code == 409 and again.json()["error"] == "help_closed"
    mine, = player_api.get(f"/api/events/{event.pk}/help/").json()["calls"]
    assert (mine["status"], mine["outcome"]) == ("closed", "evacuated")
    assert list(JournalEntry.objects.filter(kind="safety").values_list("what", flat=True)) == [
        "help_called", "help_taken", "help_closed"]
    assert Event.objects.get(pk=event.pk).running


def test_players_never_read_or_handle_another_persons_call(
        clock, event, player, other_player, player_api):
    call_id = call(player_api, event, position=POSITION).json()["id"]
    other_api = client_for(other_player.user)
    answer = other_api.get(f"/api/events/{event.pk}/help/").json()
    assert answer == {**answer, "calls": [], "organiser": False}
    assert other_api.post(f"/api/help/{call_id}/take/").status_code == 404
    assert other_api.post(f"/api/help/{call_id}/close/", {"outcome": "treated"},
                          format="json").status_code == 404
    assert player_api.post(f"/api/help/{call_id}/take/").status_code == 404   # not even the caller
    assert other_api.get(f"/api/events/{event.pk}/safety/").status_code == 404
    assert HelpCall.objects.get().status == "open"


def test_someone_outside_the_event_cannot_call(clock, event):
    stranger = client_for(get_user_model().objects.create_user(username="stranger"))
    assert call(stranger, event).status_code == 404
    assert not HelpCall.objects.exists()
