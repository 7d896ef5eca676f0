"""The safety team (Membership role "safety"): invited like a referee, they answer the
calls for help beside the narrators (take, close, the board, the plan, "seen", checking
someone out) and hear them live and on their locked phones; the game stays the
narrators': no settings, no plan upload, no "out for real", no character, no live game."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model

from fixtures import act, client_for, connect, next_snapshot
from players.models import Invitation, Membership
from players.services import membership_grant
from players.access_services import membership_remove
from players.setup_services import invitation_accept, invitation_create
from safety.alerts import help_push
from safety.models import Contact, HelpCall

from safety.models import SafetySettings
from pushkit import Browser
from test_help_live_and_push import push_service, safety_message  # noqa: F401 (a fixture)
from test_site_plan import image_bytes


@pytest.fixture
def safety_user(event):
    user = get_user_model().objects.create_user(username="Sam")
    membership_grant(event=event, user=user, role=Membership.SAFETY)
    return user


@pytest.fixture
def safety_api(safety_user):
    return client_for(safety_user)


def help_call(api, event, key="call-1", kind="injured"):
    return api.post(f"/api/events/{event.pk}/help/", {"kind": kind}, format="json",
                    HTTP_IDEMPOTENCY_KEY=key)


def test_an_organiser_invites_the_safety_team_with_a_link(clock, event, narrator_user):
    raw = invitation_create(event=event, role=Membership.SAFETY, by=narrator_user)
    user, joined = invitation_accept(raw=raw, name="Sam")
    assert joined == event
    assert list(Membership.objects.filter(user=user).values_list("role", flat=True)) == ["safety"]
    assert Invitation.objects.get(used_by=user).role == "safety"


def test_the_set_up_page_offers_the_safety_team(clock, event, narrator_user):
    page = client_for(narrator_user, lang="fr")
    page.force_login(narrator_user)
    answer = page.post(f"/events/{event.pk}/team/invite/", {"role": "safety"})
    assert answer.status_code == 302
    html = page.get(f"/events/{event.pk}/setup/").content.decode()
    assert '<option value="safety">' in html
    assert Invitation.objects.filter(event=event, role="safety").count() == 1


def test_the_safety_team_takes_and_closes_a_call_and_reads_the_board(
        clock, event, player, player_api, safety_api):
    called = help_call(player_api, event).json()
    listed = safety_api.get(f"/api/events/{event.pk}/help/").json()
    assert listed["organiser"] is True and [c["id"] for c in listed["calls"]] == [called["id"]]

    taken = safety_api.post(f"/api/help/{called['id']}/take/", HTTP_IDEMPOTENCY_KEY="take")
    assert taken.status_code == 200, taken.content
    assert (taken.json()["status"], taken.json()["taken_by"]) == ("taken", "Sam")
    closed = safety_api.post(f"/api/help/{called['id']}/close/", {"outcome": "treated"},
                             format="json", HTTP_IDEMPOTENCY_KEY="close")
    assert closed.status_code == 200, closed.content
    assert HelpCall.objects.get(pk=called["id"]).status == HelpCall.CLOSED

    board = safety_api.get(f"/api/events/{event.pk}/safety/")
    assert board.status_code == 200
    assert board.json()["narrator"] is False
    assert [c["id"] for c in board.json()["calls"]] == [called["id"]]


def test_the_safety_team_marks_seen_and_checks_out_and_in(clock, event, player, player_api,
                                                          safety_api):
    player_api.get(f"/api/characters/{player.pk}/")            # on the field
    seen = safety_api.post(f"/api/characters/{player.pk}/seen/", HTTP_IDEMPOTENCY_KEY="seen")
    assert seen.status_code == 200, seen.content
    out = safety_api.post(f"/api/characters/{player.pk}/check-out/", {"out": True}, format="json",
                          HTTP_IDEMPOTENCY_KEY="out")
    assert out.status_code == 200 and out.json()["checked_out_at"]
    back = safety_api.post(f"/api/characters/{player.pk}/check-out/", {"out": False},
                           format="json", HTTP_IDEMPOTENCY_KEY="back")
    assert back.status_code == 200 and back.json()["checked_out_at"] is None
    contact = Contact.objects.get(character=player)
    assert contact.acknowledged_by_label == "Sam" and contact.checked_out_at is None


def test_the_safety_team_reads_the_plan_but_does_not_change_it(clock, event, narrator_api,
                                                               safety_api):
    uploaded = narrator_api.post(f"/api/events/{event.pk}/safety/plan/", image_bytes(),
                                 content_type="image/png", HTTP_IDEMPOTENCY_KEY="plan")
    assert uploaded.status_code == 201, uploaded.content
    assert safety_api.get(uploaded.json()["image_url"]).status_code == 200
    refused = safety_api.post(f"/api/events/{event.pk}/safety/plan/", image_bytes(),
                              content_type="image/png", HTTP_IDEMPOTENCY_KEY="plan-2")
    assert refused.status_code == 404
    points = [{"x": 10, "y": 10, "latitude": 45.76, "longitude": 4.83},
              {"x": 90, "y": 50, "latitude": 45.7601, "longitude": 4.8315}]
    assert safety_api.post(f"/api/events/{event.pk}/safety/plan/points/", {"points": points},
                           format="json", HTTP_IDEMPOTENCY_KEY="points").status_code == 404


def test_the_safety_team_sees_nothing_of_the_game_and_decides_nothing_of_it(
        clock, event, player, safety_api):
    assert safety_api.post(f"/api/events/{event.pk}/safety/settings/", {"silent_after_min": 5},
                           format="json", HTTP_IDEMPOTENCY_KEY="s").status_code == 404
    assert not SafetySettings.objects.filter(event=event).exists()
    assert safety_api.post(f"/api/characters/{player.pk}/out-for-real/", {"reason": "ankle"},
                           format="json", HTTP_IDEMPOTENCY_KEY="o").status_code == 404
    for url in (f"/api/characters/{player.pk}/", f"/api/characters/{player.pk}/history/",
                f"/api/events/{event.pk}/characters/", f"/api/events/{event.pk}/journal/"):
        answer = safety_api.get(url)
        assert answer.status_code == 404, (url, answer.status_code)
        assert "Alice" not in answer.content.decode()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_safety_teams_socket_hears_calls_and_no_game(
        clock, event, player, player_api, narrator_api, safety_api, settings):
    settings.LIVE_CHECK_MIN_INTERVAL_S = 0
    phone, connected, _ = await connect(safety_api, f"event={event.pk}")
    assert connected
    first = await phone.receive_json_from(timeout=5)
    assert first["type"] == "safety_snapshot" and "characters" not in first

    # A wound is game state: the narrators hear it, the safety team does not.
    assert (await sync_to_async(act)(narrator_api, player, "hit_wounding")).status_code == 200
    # Nor does a heartbeat that claims to hold a character get its snapshot.
    await phone.send_json_to({"type": "ping", "versions": {str(player.pk): -1}})
    assert (await phone.receive_json_from(timeout=5))["type"] == "pong"
    assert await phone.receive_nothing(timeout=0.5)

    answer = await sync_to_async(help_call)(player_api, event, kind="lost")
    assert answer.status_code == 201
    told = await phone.receive_json_from(timeout=1)
    assert told["type"] == "safety" and told["call"]["kind"] == "lost"
    assert told["call"]["character"]["name"] == "Alice"
    assert await phone.receive_nothing(timeout=0.5)
    await phone.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_removed_safety_member_loses_the_socket_and_a_player_never_gets_one(
        clock, event, player, player_api, narrator_user, safety_user, safety_api):
    phone, connected, _ = await connect(safety_api, f"event={event.pk}")
    assert connected and (await phone.receive_json_from(timeout=5))["type"] == "safety_snapshot"
    membership = await Membership.objects.select_related("event", "user").aget(
        user=safety_user, role=Membership.SAFETY)
    await sync_to_async(membership_remove)(membership=membership, by=narrator_user)
    while (message := await phone.receive_output(timeout=1))["type"] != "websocket.close":
        pass
    assert message["code"] == 4403

    refused, connected, _ = await connect(player_api, f"event={event.pk}")
    assert connected and (await refused.receive_output(timeout=5))["code"] == 4403


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_narrator_hears_a_call_once_and_the_game_as_before(
        clock, event, player, player_api, narrator_api, narrator_user):
    await sync_to_async(membership_grant)(event=event, user=narrator_user, role=Membership.SAFETY)
    phone, connected, _ = await connect(narrator_api, f"event={event.pk}")
    assert connected
    assert (await phone.receive_json_from(timeout=5))["type"] == "event_snapshot"
    await sync_to_async(act)(narrator_api, player, "hit_wounding")
    assert (await next_snapshot(phone))["character"]["id"] == player.pk
    await sync_to_async(help_call)(player_api, event)
    assert (await safety_message(phone))["call"]["kind"] == "injured"
    assert await phone.receive_nothing(timeout=0.5)
    await phone.disconnect()


def test_the_push_of_a_call_reaches_the_safety_team(clock, event, player, player_api,
                                                    safety_user, narrator_user, push_service):
    safety_phone, organiser_phone = Browser(), Browser()
    safety_phone.subscribe(safety_user, push_service.url("/safety"))
    organiser_phone.subscribe(narrator_user, push_service.url("/organiser"))
    called = help_call(player_api, event).json()

    assert help_push(call_id=called["id"]) == 2
    by_path = {request.path: request for request in push_service.received}
    assert set(by_path) == {"/safety", "/organiser"}
    shown = safety_phone.read(by_path["/safety"])
    assert shown["kind"] == "help_call" and shown["url"] == f"/#/safety/{event.pk}"
