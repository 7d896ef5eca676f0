"""The admission's gate (live/admission.py `Gate`): a phone beyond what the process
sustains is answered before any other layer runs (origin, session, routing, consumer),
and every admitted socket gives its place back however it ends."""
from __future__ import annotations

import pytest
from fixtures import connect
from test_admission import first_answer

from live import admission

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def fresh_door(monkeypatch, settings):
    settings.LIVE_RETRY_MIN_S, settings.LIVE_RETRY_MAX_S, settings.LIVE_RETRY_JITTER_S = 1, 30, 1
    monkeypatch.setattr(admission, "door", admission.Door())


async def test_a_refused_phone_is_told_to_come_back_before_its_origin_or_login_are_read(settings):
    """No cookie and another site's origin: the gate answers first, as it would a phone."""
    settings.LIVE_CONNECTS_IN_PROGRESS_MAX = 0
    phone, connected, _ = await connect(None, "character=1", origin=b"https://elsewhere.example")
    assert connected
    kind, retry_after_ms = await first_answer(phone)
    assert kind == "busy" and 1000 <= retry_after_ms <= 31_000
    assert admission.door.in_progress == 0


async def test_an_admitted_socket_that_its_origin_denies_gives_its_place_back():
    phone, connected, _ = await connect(None, "character=1", origin=b"https://elsewhere.example")
    assert not connected
    await phone.disconnect()          # what a server does once it has refused the handshake
    assert admission.door.in_progress == 0


async def test_an_admitted_phone_without_a_login_gives_its_place_back(player):
    phone, connected, _ = await connect(None, f"character={player.pk}")
    assert connected
    assert await first_answer(phone) == ("closed", 4403)
    await phone.disconnect()
    assert admission.door.in_progress == 0
