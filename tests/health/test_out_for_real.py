"""A real injury is not a game state: a narrator marks a character out for real; that
character's timers stop, and only theirs (everyone else's keep running); lifting it
resumes them from where they were. Time is the test's clock."""
from __future__ import annotations

from fixtures import act, client_for, snapshot
from health.models import HealthState
from health.services import characters_sweep
from players.models import Event, JournalEntry


def hold(api, character, out=True, reason="sprained ankle, first-aiders with her", key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/characters/{character.pk}/out-for-real/",
                    {"out": out, "reason": reason}, format="json", **headers)


def test_one_characters_timers_pause_while_the_rest_of_the_event_runs(
        clock, event, player, other_player, player_api, narrator_api):
    for character in (player, other_player):
        assert act(narrator_api, character, "hit_wounding").status_code == 200
    assert snapshot(player_api, player)["next"]["remaining_s"] == 900

    clock.advance(300)                            # 10 minutes left before the coma
    response = hold(narrator_api, player, key="hold-1")
    assert response.status_code == 200, response.content
    assert response.json()["out_for_real"] is True and response.json()["timers"] == {}
    seen = snapshot(narrator_api, player)
    assert seen["out_for_real"]["reason"] == "sprained ankle, first-aiders with her"
    assert seen["next"] is None and seen["state"]["key"] == "wounded"

    clock.advance(1200)                           # 20 minutes of real first aid
    characters_sweep()
    assert HealthState.objects.get(pk=other_player.pk).status == "coma"   # the game went on
    assert HealthState.objects.get(pk=player.pk).status == "wounded"
    assert Event.objects.get(pk=event.pk).running
    # Nothing of the game lands on her meanwhile.
    refused = act(narrator_api, player, "hit_wounding")
    assert refused.status_code == 409 and refused.json()["error"] == "out_for_real"

    lifted = hold(narrator_api, player, out=False)
    assert lifted.status_code == 200 and lifted.json()["out_for_real"] is False
    after = snapshot(player_api, player)
    assert after["out_for_real"] is None
    assert after["next"]["remaining_s"] == 600    # from where it was
    clock.advance(599)
    characters_sweep()
    assert HealthState.objects.get(pk=player.pk).status == "wounded"
    clock.advance(2)
    characters_sweep()
    assert HealthState.objects.get(pk=player.pk).status == "coma"
    assert list(JournalEntry.objects.filter(kind="real_injury").values_list("what", flat=True)) == [
        "held", "lifted"]


def test_holding_twice_keeps_the_first_and_the_board_lists_it_apart(
        clock, event, player, narrator_api):
    hold(narrator_api, player)
    hold(narrator_api, player, reason="another reason")
    assert HealthState.objects.get(pk=player.pk).held_reason == "sprained ankle, first-aiders with her"
    rows = narrator_api.get(f"/api/events/{event.pk}/safety/").json()["rows"]
    assert [(r["character"]["name"], r["reasons"], r["out_for_real"]) for r in rows] == [
        ("Alice", ["out_for_real"], {"reason": "sprained ankle, first-aiders with her"})]


def test_only_narrators_mark_out_for_real_and_a_reason_is_needed(
        clock, event, player, other_player, player_api, narrator_api):
    assert hold(player_api, player).status_code == 403
    assert hold(client_for(other_player.user), player).status_code == 404
    empty = hold(narrator_api, player, reason="  ")
    assert empty.status_code == 400 and "reason" in empty.json()["detail"]
    assert HealthState.objects.get(pk=player.pk).held_since_s is None
