"""A phone's self-check ("Is this phone ready for the game?"): the phone reports it for its
own character, the latest report is kept, and the narrators read, per character, whether
its phone is ready and how many phones fail each check, counting the phones that never
reported. A player never sees another's phone."""
from __future__ import annotations

import pytest
from channels.layers import get_channel_layer
from django.utils import timezone
from asgiref.sync import async_to_sync

from live.publish import narrators_group
from players.models import PHONE_CHECKS, PhoneReadiness
from players.services import character_create
from tests.fixtures import client_for

pytestmark = pytest.mark.django_db

ALL_OK = {key: {"ok": True, "detail": ""} for key in PHONE_CHECKS}


def report(api, character, checks=None, key="k1", at=None, **extra):
    body = {"checks": checks or ALL_OK, "checked_at": (at or timezone.now()).isoformat(), **extra}
    return api.post(f"/api/characters/{character.pk}/readiness/", body, format="json",
                    HTTP_IDEMPOTENCY_KEY=key)


def failing(*keys, detail="denied"):
    return {key: {"ok": key not in keys, "detail": detail if key in keys else ""} for key in PHONE_CHECKS}


@pytest.fixture
def phones(clock, event, player, other_player, narrator_user):
    """Four characters: Alice's phone cannot work offline nor scan (plain http), Denis's
    is ready, Eva's cannot work offline and its battery is low, Félix never checked."""
    eva = character_create(event=event, name="Eva", sheet={"combat_base": 1}, by=narrator_user)
    felix = character_create(event=event, name="Félix", sheet={"combat_base": 1}, by=narrator_user)
    for character, checks in ((player, failing("secure_context", "offline", "camera", "wake_lock")),
                              (other_player, ALL_OK), (eva, failing("offline", "battery"))):
        api = client_for(character.user)
        assert report(api, character, checks).status_code == 200
    return {"alice": player, "denis": other_player, "eva": eva, "felix": felix}


def test_the_narrators_count_the_phones_not_ready_per_check(phones, narrator_api, event):
    answer = narrator_api.get(f"/api/events/{event.pk}/phones/")
    assert answer.status_code == 200
    counts = answer.json()["counts"]
    assert counts["characters"] == 4
    assert counts["ready"] == 1 and counts["not_ready"] == 2 and counts["never_reported"] == 1
    assert counts["failing"] == {"secure_context": 1, "offline": 2, "camera": 1, "notifications": 0,
                                 "wake_lock": 1, "clock": 0, "storage": 0, "battery": 1}
    rows = {row["character"]: row for row in answer.json()["characters"]}
    assert rows[phones["denis"].pk]["ready"] is True
    assert rows[phones["alice"].pk]["ready"] is False
    assert rows[phones["alice"].pk]["failing"] == ["secure_context", "offline", "camera", "wake_lock"]
    assert rows[phones["felix"].pk] == {"character": phones["felix"].pk, "reported": False, "ready": None,
                                        "failing": [], "checked_at": None, "battery_level": None,
                                        "clock_offset_ms": None}


def test_a_newer_check_replaces_the_older_and_a_late_replay_of_an_old_one_does_not(phones, clock, narrator_api,
                                                                                   event):
    alice = phones["alice"]
    api = client_for(alice.user)
    first_check = timezone.now()
    clock.advance(300)
    # Fixed (https, the certificate trusted): everything passes now.
    assert report(api, alice, ALL_OK, key="k2", battery_level=0.8, clock_offset_ms=-1200).json()["ready"] is True
    # The outbox replays an older check that had waited: it is kept out.
    late = report(api, alice, failing("offline"), key="k3", at=first_check)
    assert late.status_code == 200 and late.json()["kept"] is False and late.json()["ready"] is True
    counts = narrator_api.get(f"/api/events/{event.pk}/phones/").json()["counts"]
    assert counts["ready"] == 2 and counts["failing"]["offline"] == 1
    kept = PhoneReadiness.objects.get(pk=alice.pk)
    assert kept.battery_level == 0.8 and kept.clock_offset_ms == -1200 and kept.failing == []


def test_a_report_sent_twice_with_one_key_is_applied_once(phones, clock):
    eva = phones["eva"]
    api = client_for(eva.user)
    clock.advance(60)
    checked_at = timezone.now()
    once = report(api, eva, ALL_OK, key="same", at=checked_at)
    clock.advance(60)   # the answer was lost; the outbox sends the same write again
    again = report(api, eva, ALL_OK, key="same", at=checked_at)
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == once.json()
    assert PhoneReadiness.objects.get(pk=eva.pk).checked_at.isoformat() == once.json()["checked_at"]


def test_a_player_reports_only_for_their_own_character_and_never_reads_the_others(phones, clock, event):
    alice, denis = phones["alice"], phones["denis"]
    api = client_for(alice.user)
    assert report(api, denis, failing("offline")).status_code in (403, 404)
    assert PhoneReadiness.objects.get(pk=denis.pk).failing == []
    assert api.get(f"/api/events/{event.pk}/phones/").status_code == 404


def test_a_narrator_cannot_report_for_a_players_phone(phones, clock, narrator_api):
    assert report(narrator_api, phones["felix"]).status_code == 403
    assert not PhoneReadiness.objects.filter(pk=phones["felix"].pk).exists()


@pytest.mark.parametrize("lang, words", [("fr", "Ce champ est obligatoire"), ("es", "Este campo es requerido"),
                                         ("en", "This field is required")])
def test_a_report_missing_a_check_is_refused_in_the_players_language_and_changes_nothing(
        phones, clock, lang, words):
    felix = phones["felix"]
    api = client_for(felix.user, lang=lang)
    checks = {key: value for key, value in ALL_OK.items() if key != "camera"}
    answer = report(api, felix, checks)
    assert answer.status_code == 400
    assert "camera" in answer.json()["detail"] and words in answer.json()["detail"]
    assert not PhoneReadiness.objects.filter(pk=felix.pk).exists()


def test_the_narrators_hear_a_report_at_once(phones, clock, event, django_capture_on_commit_callbacks):
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(narrators_group(event.pk), channel)
    api = client_for(phones["felix"].user)
    with django_capture_on_commit_callbacks(execute=True):
        assert report(api, phones["felix"], failing("notifications", detail="default")).status_code == 200
    message = async_to_sync(layer.receive)(channel)
    assert message["type"] == "phone.message"
    assert message["phone"]["character"] == phones["felix"].pk
    assert message["phone"]["failing"] == ["notifications"]
