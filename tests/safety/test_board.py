"""The safety board, for every kind of event: who has not been heard from for N minutes
(the event's option), whose battery is low, who is still out after the end; each row can
be marked seen (journalled); still out per event and per team. Time is the test's clock."""
from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async

from fixtures import START, client_for, connect, next_snapshot
from players.models import JournalEntry
from players.services import event_create
from safety.models import Contact


def board(api, event):
    response = api.get(f"/api/events/{event.pk}/safety/")
    assert response.status_code == 200, response.content
    return response.json()


def listed(api, event) -> dict[str, list[str]]:
    return {row["character"]["name"]: row["reasons"] for row in board(api, event)["rows"]}


def test_a_silent_phone_is_listed_after_the_events_delay_and_leaves_once_seen(
        clock, event, player, other_player, player_api, narrator_api):
    other_api = client_for(other_player.user)
    player_api.get(f"/api/characters/{player.pk}/")          # any request is a contact
    other_api.get(f"/api/characters/{other_player.pk}/")
    assert Contact.objects.get(pk=player.pk).last_seen_at == START
    answer = narrator_api.post(f"/api/events/{event.pk}/safety/settings/", {"silent_after_min": 30},
                               format="json")
    assert answer.status_code == 200 and answer.json()["silent_after_min"] == 30

    clock.advance(20 * 60)
    other_api.get(f"/api/characters/{other_player.pk}/")      # Denis is heard from again
    clock.advance(9 * 60)
    assert listed(narrator_api, event) == {}
    clock.advance(61)                                         # Alice: 30 min and 1 s of silence
    assert listed(narrator_api, event) == {"Alice": ["silent"]}
    row, = board(narrator_api, event)["rows"]
    assert row["last_seen_at"] == START.isoformat()

    seen = narrator_api.post(f"/api/characters/{player.pk}/seen/", HTTP_IDEMPOTENCY_KEY="seen-1")
    assert seen.status_code == 200
    assert listed(narrator_api, event) == {}
    line = JournalEntry.objects.get(kind="safety", what="seen")
    assert (line.character_id, line.actor_label) == (player.pk, "narrator")
    clock.advance(30 * 60)                                    # silent for the delay again
    assert set(listed(narrator_api, event)) == {"Alice", "Denis"}


def test_a_phone_writes_its_last_contact_at_most_once_a_minute(clock, event, player, player_api):
    player_api.get(f"/api/characters/{player.pk}/")
    clock.advance(30)
    player_api.get(f"/api/characters/{player.pk}/")
    assert Contact.objects.get(pk=player.pk).last_seen_at == START
    clock.advance(31)
    player_api.get(f"/api/characters/{player.pk}/")
    assert Contact.objects.get(pk=player.pk).last_seen_at == START + timedelta(seconds=61)


def test_a_crowd_s_contacts_noted_together_cost_one_read_and_one_upsert_a_minute(
        clock, event, narrator_user, django_assert_num_queries):
    from players.services import character_create
    from safety.contact import phones_seen
    crowd = [character_create(event=event, name=f"Joueur {n}", sheet={"combat_base": 2},
                              by=narrator_user) for n in range(40)]
    users = [c.user_id for c in crowd]
    with django_assert_num_queries(2):          # however many phones connected in that second
        phones_seen(user_ids=users)
    assert {c.last_seen_at for c in Contact.objects.filter(character__in=crowd)} == {START}
    clock.advance(30)
    with django_assert_num_queries(0):          # all of them already noted this minute
        phones_seen(user_ids=users)
    clock.advance(31)
    with django_assert_num_queries(2):
        phones_seen(user_ids=users[:25])
    seen = dict(Contact.objects.filter(character__in=crowd).values_list("character_id", "last_seen_at"))
    assert [seen[c.pk] for c in crowd] == [START + timedelta(seconds=61)] * 25 + [START] * 15


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_live_socket_is_a_contact_on_connect_and_at_its_heartbeat(
        clock, event, player, player_api, settings):
    settings.LIVE_CHECK_MIN_INTERVAL_S = 0
    phone, connected, _ = await connect(player_api, f"character={player.pk}")
    assert connected
    await next_snapshot(phone)
    contact = await sync_to_async(Contact.objects.get)(pk=player.pk)
    assert contact.last_seen_at == START
    clock.advance(5 * 60)
    await phone.send_json_to({"type": "ping", "client_time": 1, "versions": {}})
    assert (await phone.receive_json_from(timeout=5))["type"] == "pong"
    contact = await sync_to_async(Contact.objects.get)(pk=player.pk)
    assert contact.last_seen_at == START + timedelta(minutes=5)
    await phone.disconnect()


def test_a_low_battery_is_listed_until_charging_or_seen(clock, event, player, player_api,
                                                       narrator_api):
    url = f"/api/characters/{player.pk}/battery/"
    assert player_api.post(url, {"level": 0.5, "charging": False}, format="json").status_code == 200
    assert listed(narrator_api, event) == {}
    player_api.post(url, {"level": 0.12, "charging": False}, format="json")
    assert listed(narrator_api, event) == {"Alice": ["battery_low"]}
    row, = board(narrator_api, event)["rows"]
    assert row["battery"]["level"] == 12
    player_api.post(url, {"level": 0.12, "charging": True}, format="json")
    assert listed(narrator_api, event) == {}
    player_api.post(url, {"level": 0.10, "charging": False}, format="json")
    narrator_api.post(f"/api/characters/{player.pk}/seen/")
    assert listed(narrator_api, event) == {}
    clock.advance(60)
    player_api.post(url, {"level": 0.08, "charging": False}, format="json")   # a new reading
    assert listed(narrator_api, event) == {"Alice": ["battery_low"]}
    # The event's threshold is an option.
    narrator_api.post(f"/api/events/{event.pk}/safety/settings/", {"battery_low_pct": 5}, format="json")
    assert listed(narrator_api, event) == {}


def test_a_bad_battery_reading_is_refused(clock, event, player, player_api):
    response = player_api.post(f"/api/characters/{player.pk}/battery/", {"level": 1.5}, format="json")
    assert response.status_code == 400 and "level" in str(response.json())
    assert not Contact.objects.filter(battery_level__isnull=False).exists()


def test_still_out_per_team_and_not_checked_out_after_the_end(clock, event, player, other_player,
                                                             player_api, narrator_api):
    other_api = client_for(other_player.user)
    player_api.get("/api/me/")
    other_api.get("/api/me/")
    answer = board(narrator_api, event)
    assert answer["still_out"] == 2
    assert answer["teams"] == [{"team": "Invités", "still_out": 1}, {"team": None, "still_out": 1}]
    narrator_api.post(f"/api/events/{event.pk}/safety/settings/",
                      {"ends_at": (START + timedelta(hours=2)).isoformat(), "silent_after_min": 600},
                      format="json")
    out = player_api.post(f"/api/characters/{player.pk}/check-out/", {}, format="json",
                          HTTP_IDEMPOTENCY_KEY="out-1")
    assert out.status_code == 200 and out.json()["checked_out_at"] == START.isoformat()
    assert board(narrator_api, event)["still_out"] == 1
    assert listed(narrator_api, event) == {}
    clock.advance(2 * 3600)
    answer = board(narrator_api, event)
    assert answer["ended"] is True
    assert listed(narrator_api, event) == {"Denis": ["not_checked_out"]}
    assert answer["teams"] == [{"team": None, "still_out": 1}]
    # An organiser checks Denis out for him, and can put Alice back on the field.
    narrator_api.post(f"/api/characters/{other_player.pk}/check-out/", {}, format="json")
    assert board(narrator_api, event)["still_out"] == 0
    back = narrator_api.post(f"/api/characters/{player.pk}/check-out/", {"out": False}, format="json")
    assert back.status_code == 200 and back.json()["checked_out_at"] is None
    assert board(narrator_api, event)["still_out"] == 1
    assert list(JournalEntry.objects.filter(kind="safety", character__isnull=False)
                .values_list("what", "actor_label")) == [
        ("checked_out", "Alice"), ("checked_out", "narrator"), ("checked_in", "narrator")]


def test_players_cannot_read_the_board_others_battery_or_check_others_out(
        clock, event, player, other_player, player_api, narrator_api):
    other_api = client_for(other_player.user)
    assert other_api.post(f"/api/characters/{player.pk}/battery/", {"level": 0.5},
                          format="json").status_code == 404
    assert other_api.post(f"/api/characters/{player.pk}/check-out/", {}, format="json").status_code == 404
    assert other_api.post(f"/api/characters/{player.pk}/seen/").status_code == 404
    assert player_api.post(f"/api/characters/{player.pk}/seen/").status_code == 403
    assert player_api.post(f"/api/characters/{player.pk}/check-out/", {"out": False},
                           format="json").status_code == 403
    assert player_api.get(f"/api/events/{event.pk}/safety/").status_code == 404
    assert player_api.post(f"/api/events/{event.pk}/safety/settings/", {"silent_after_min": 1},
                           format="json").status_code == 404
    assert not Contact.objects.filter(checked_out_at__isnull=False).exists()


@pytest.mark.parametrize("ruleset", ["septenario_es", "airsoft_rats", "zombie_race"])
def test_every_kind_of_event_has_its_board(clock, narrator_user, narrator_api, ruleset):
    event = event_create(name="Another game", ruleset=ruleset, by=narrator_user, start_clock=True)
    answer = board(narrator_api, event)
    assert (answer["still_out"], answer["rows"], answer["calls"]) == (0, [], [])
