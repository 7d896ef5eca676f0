"""Access taken away closes the open sockets at once (close code 4403, within a second),
through the real channel layer (Redis): a lost phone cut off, a narrator's role removed, a
player erased, an account deactivated. The heartbeat's re-join checks access again, so a
revocation missed while Redis lost the groups still closes the socket. The new phone of a
cut-off player is not touched."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from fixtures import act, client_for, connect, next_snapshot
from rest_framework.test import APIClient
from test_heartbeat import lose_groups

from players.access_services import account_store, membership_remove
from players.models import Membership
from players.services import login_token_issue

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def closed_within(phone, seconds: float) -> int:
    """The close code the phone gets within `seconds` (snapshots before it are skipped)."""
    while True:
        message = await phone.receive_output(timeout=seconds)
        if message["type"] == "websocket.close":
            return message["code"]


def logged_in_phone(event, character) -> APIClient:
    phone = APIClient()
    token = login_token_issue(event=event, user=character.user)
    assert phone.post("/api/login/", {"token": token}, format="json").status_code == 200
    return phone


@pytest.fixture
def organiser(event):
    user = get_user_model().objects.create_user(username="orga")
    event.memberships.create(user=user, role="narrator")
    return user


async def test_a_lost_phone_is_closed_within_a_second_and_the_new_phone_keeps_working(
        clock, event, player, organiser, narrator_api):
    lost_api = await sync_to_async(logged_in_phone)(event, player)
    lost, connected, _ = await connect(lost_api, f"character={player.pk}")
    assert connected and (await next_snapshot(lost))["character"]["id"] == player.pk
    organiser_api = await sync_to_async(client_for)(organiser)

    cut = await sync_to_async(organiser_api.post)(f"/api/characters/{player.pk}/lost-phone/")

    assert cut.status_code == 200, cut.content
    assert await closed_within(lost, 1) == 4403
    new_api = APIClient()
    token = cut.json()["login"]["url"].rsplit("/login/", 1)[1]
    assert (await sync_to_async(new_api.post)("/api/login/", {"token": token}, format="json")).status_code == 200
    new, connected, _ = await connect(new_api, f"character={player.pk}")
    assert connected and (await next_snapshot(new))["state"]["key"] == "healthy"
    # The old socket's session cannot come back either.
    again, connected, _ = await connect(lost_api, f"character={player.pk}")
    assert await closed_within(again, 1) == 4403
    await sync_to_async(act)(narrator_api, player, "hit_wounding")
    assert (await next_snapshot(new))["state"]["key"] == "wounded"
    await new.send_json_to({"type": "ping", "versions": {str(player.pk): 0}})
    assert (await next_snapshot(new))["state"]["key"] == "wounded"   # its heartbeat too
    await new.disconnect()


async def test_a_removed_narrator_loses_every_open_socket(clock, event, player, organiser,
                                                          narrator_user):
    organiser_api = await sync_to_async(client_for)(organiser)
    view, connected, _ = await connect(organiser_api, f"event={event.pk}")
    assert connected and (await view.receive_json_from(timeout=5))["type"] == "event_snapshot"
    watching, connected, _ = await connect(organiser_api, f"character={player.pk}")
    assert connected and await next_snapshot(watching)
    other_api = await sync_to_async(client_for)(narrator_user)
    colleague, connected, _ = await connect(other_api, f"event={event.pk}")
    assert connected and (await colleague.receive_json_from(timeout=5))["type"] == "event_snapshot"

    membership = await Membership.objects.select_related("event", "user").aget(
        user=organiser, role="narrator")
    await sync_to_async(membership_remove)(membership=membership, by=narrator_user)

    assert await closed_within(view, 1) == 4403
    assert await closed_within(watching, 1) == 4403
    assert await colleague.receive_nothing(timeout=0.3)       # the other narrator stays
    await colleague.disconnect()


async def test_an_erased_player_loses_the_open_socket(clock, event, player, player_api,
                                                      narrator_api):
    phone, connected, _ = await connect(player_api, f"character={player.pk}")
    assert connected and await next_snapshot(phone)

    erased = await sync_to_async(narrator_api.post)(f"/api/characters/{player.pk}/erase/",
                                                    {"confirm": True}, format="json")

    assert erased.status_code == 200, erased.content
    assert await closed_within(phone, 1) == 4403


async def test_a_deactivated_account_loses_the_open_socket(clock, event, player, player_api,
                                                           narrator_user):
    phone, connected, _ = await connect(player_api, f"character={player.pk}")
    assert connected and await next_snapshot(phone)
    user = player.user
    user.is_active = False
    await sync_to_async(account_store)(user=user, by=narrator_user)
    assert await closed_within(phone, 1) == 4403


async def test_the_heartbeat_does_not_rejoin_after_a_revocation_it_missed(
        clock, event, player, organiser, narrator_user, narrator_api):
    """Redis lost the groups, so the revocation reached no socket: the next heartbeat, which
    would re-join the groups, checks access first and closes instead."""
    organiser_api = await sync_to_async(client_for)(organiser)
    view, connected, _ = await connect(organiser_api, f"event={event.pk}")
    assert connected and (await view.receive_json_from(timeout=5))["type"] == "event_snapshot"
    await sync_to_async(lose_groups)()
    membership = await Membership.objects.select_related("event", "user").aget(
        user=organiser, role="narrator")
    await sync_to_async(membership_remove)(membership=membership, by=narrator_user)
    assert await view.receive_nothing(timeout=0.3)             # missed

    await view.send_json_to({"type": "ping", "client_time": 1.0, "versions": {str(player.pk): 0}})

    assert await closed_within(view, 1) == 4403
    await sync_to_async(act)(narrator_api, player, "hit_wounding")
    assert await view.receive_nothing(timeout=0.3)             # not re-joined
