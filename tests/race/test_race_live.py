"""Live screens: once a punch, a life or a finish commits, the organisers' screens (the
event's narrators group) get the changed entry and the course's fresh leaderboard, the
survivor's phone gets its own entry, and an overdue alert rings with the phone number."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from race.tasks import sweep_overdue_alerts
from racekit import balise, grab, punch, start, survivor_api
from fixtures import connect

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def race_messages(ws, *kinds: str) -> list[dict]:
    """The next race message of each kind, in the order asked (skipping anything else)."""
    found = {}
    while len(found) < len(kinds):
        message = await ws.receive_json_from(timeout=5)
        if message["type"] == "race" and message["kind"] in kinds:
            found.setdefault(message["kind"], message)
    return [found[kind] for kind in kinds]


async def test_a_punch_moves_the_organisers_leaderboard_and_the_survivors_phone(
        clock, race, famille, enrol, organiser_api, zombie_api):
    lucie = await sync_to_async(enrol)("Lucie", 101, phone="06 11 22 33 44")
    await sync_to_async(start)(organiser_api, lucie)
    organisers, connected, _ = await connect(organiser_api, f"event={race.pk}&lang=fr")
    assert connected
    phone_api = await sync_to_async(survivor_api)(lucie)
    phone, connected, _ = await connect(phone_api, f"character={lucie.character_id}&lang=fr")
    assert connected

    clock.advance(12 * 60)
    qr = await sync_to_async(balise)(famille, "31")
    await sync_to_async(punch)(phone_api, lucie, qr)

    board, entries = await race_messages(organisers, "leaderboard", "entries")
    assert board["course"]["name"] == "famille"
    assert [(r["name"], r["found"], r["score"]) for r in board["unranked"]] == [("Lucie", 1, -10)]
    assert entries["entries"][0]["entry"]["phone"] == "06 11 22 33 44"
    mine, = await race_messages(phone, "entry")
    assert mine["found"] == 1 and mine["status"]["label"] == "En course"
    assert "phone" not in mine["entry"]

    await sync_to_async(grab)(zombie_api, race, lucie)
    mine, = await race_messages(phone, "entry")
    assert mine["lives"]["remaining"] == 1
    await organisers.disconnect()
    await phone.disconnect()


async def test_the_overdue_alert_rings_on_the_organisers_screens(clock, race, enrol,
                                                               organiser_api):
    paul = await sync_to_async(enrol)("Paul", 103, phone="07 99 88 77 66")
    await sync_to_async(start)(organiser_api, paul)
    organisers, connected, _ = await connect(organiser_api, f"event={race.pk}&lang=fr")
    assert connected
    clock.advance(105 * 60)

    assert await sync_to_async(sweep_overdue_alerts)() == 1

    alert, = await race_messages(organisers, "overdue_alert")
    assert alert["entry"]["name"] == "Paul" and alert["phone"] == "07 99 88 77 66"
    assert alert["overdue_s"] == 900
    assert alert["text"] == "Paul (famille) n'est pas rentré : 15 min de retard. Tél. 07 99 88 77 66"
    await organisers.disconnect()
