"""Acharnement: five full minutes on a victim who cannot defend, started and stopped by
the attacker; the victim's recovery waits for it (A14)."""
from __future__ import annotations

import pytest

from combat.services.schedule import fights_sweep
from combat.tasks import end_fight
from fixtures import act, snapshot
from players.models import JournalEntry

pytestmark = pytest.mark.django_db


def start(api, attacker, victim, kind="bare_hands"):
    return api.post(f"/api/characters/{attacker.pk}/acharnements/",
                    {"victim_code": victim.code, "kind": kind}, format="json")


def stop(api, acharnement_id):
    return api.post(f"/api/acharnements/{acharnement_id}/stop/", format="json")


def recover_due(api, character):
    return next(t["game_s"] for t in snapshot(api, character)["timers"] if t["key"] == "recover")


@pytest.fixture
def tired_denis(clock, other_player, narrator_api):
    act(narrator_api, other_player, "set_state", state="tired")     # recovers at 10:00
    return other_player


def test_bare_hands_for_five_minutes_wounds_a_tired_victim(clock, event, player, player_api,
                                                            tired_denis, denis_api):
    clock.advance(400)
    started = start(player_api, player, tired_denis)
    assert started.status_code == 201, started.content
    assert recover_due(denis_api, tired_denis) == 700               # held until the end
    beating = next(f for f in snapshot(denis_api, tired_denis)["fights"] if f["kind"] == "acharnement")
    assert (beating["role"], beating["other"], beating["ends"]["remaining_s"]) == ("victim", "Alice", 300)

    clock.advance(299)
    assert fights_sweep() == 0
    assert snapshot(denis_api, tired_denis)["state"]["key"] == "tired"   # 10:00 passed: held
    clock.advance(1)
    assert fights_sweep() == 1
    assert snapshot(denis_api, tired_denis)["state"]["key"] == "wounded"  # G10


def test_stopped_early_it_does_nothing_and_the_recovery_comes_back(clock, event, player,
                                                                   player_api, tired_denis,
                                                                   denis_api):
    clock.advance(400)
    beating = start(player_api, player, tired_denis).json()["acharnement"]
    clock.advance(100)
    stopped = stop(player_api, beating)
    assert stopped.json()["status_of_acharnement"] == "stopped"
    assert recover_due(denis_api, tired_denis) == 600               # as before the beating
    clock.advance(100)
    fights_sweep()
    assert snapshot(denis_api, tired_denis)["state"]["key"] == "healthy"


def test_a_wounding_weapon_for_five_minutes_puts_a_wounded_victim_in_a_coma(
        clock, event, player, player_api, other_player, denis_api, narrator_api):
    act(narrator_api, other_player, "hit_wounding")
    beating = start(player_api, player, other_player, kind="wounding_weapon").json()["acharnement"]
    clock.advance(300)
    assert end_fight("acharnement", beating) is True
    assert snapshot(denis_api, other_player)["state"]["key"] == "coma"   # G13
    assert end_fight("acharnement", beating) is False                   # a second delivery
    assert JournalEntry.objects.filter(what="acharnement_wounding").count() == 1


@pytest.mark.parametrize("kind, victim_state", [("bare_hands", "healthy"), ("bare_hands", "wounded"),
                                                ("wounding_weapon", "tired")])
def test_the_victim_must_be_in_the_right_state_at_the_start(kind, victim_state, clock, event,
                                                            player, player_api, other_player,
                                                            narrator_api):
    if victim_state != "healthy":
        act(narrator_api, other_player, "set_state", state=victim_state)
    lines = JournalEntry.objects.count()
    refused = start(player_api, player, other_player, kind=kind)
    assert refused.status_code == 409, refused.content
    assert JournalEntry.objects.count() == lines


def test_a_tired_attacker_cannot_beat_anyone(clock, event, player, player_api, tired_denis,
                                             narrator_api):
    act(narrator_api, player, "set_state", state="tired")
    clock.advance(61)
    refused = start(player_api, player, tired_denis)
    # The attacker is told about themselves, in the second person: their own state.
    assert (refused.status_code, refused.json()["error"]) == (409, "actor_cannot")
    assert refused.json()["detail"] == "Sustained beating: you cannot do that while Tired."


def test_only_the_attacker_stops_it_and_stopping_after_the_end_completes_it(
        clock, event, player, player_api, tired_denis, denis_api):
    beating = start(player_api, player, tired_denis).json()["acharnement"]
    assert stop(denis_api, beating).status_code == 404
    clock.advance(300)
    assert stop(player_api, beating).json()["status_of_acharnement"] == "completed"
    assert snapshot(denis_api, tired_denis)["state"]["key"] == "wounded"
    assert stop(player_api, beating).status_code == 409


def test_an_unknown_kind_is_refused_with_the_known_ones(clock, event, player, player_api,
                                                        tired_denis):
    refused = start(player_api, player, tired_denis, kind="teeth")
    assert refused.status_code == 400
    assert "bare_hands" in refused.json()["detail"] and "wounding_weapon" in refused.json()["detail"]
