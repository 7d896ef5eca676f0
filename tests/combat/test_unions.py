"""« L'union fait la force »: more than three times the defenders, bare hands, resolved
three seconds after the claim unless the defenders are rebalanced in time."""
from __future__ import annotations

import pytest

from combat.services.schedule import fights_sweep
from combat.tasks import end_fight
from fixtures import act, snapshot
from players.models import JournalEntry

pytestmark = pytest.mark.django_db


def claim(api, claimant, attackers, defenders, weapon_drawn=False, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/characters/{claimant.pk}/unions/",
                    {"attacker_codes": [c.code for c in attackers],
                     "defender_codes": [c.code for c in defenders], "weapon_drawn": weapon_drawn},
                    format="json", **headers)


def union_of(snap) -> dict:
    found = [f for f in snap["fights"] if f["kind"] == "union"]
    assert len(found) == 1, snap["fights"]
    return found[0]


@pytest.fixture
def gang(fighter):
    return [fighter(f"Brute {n}", 1) for n in range(4)]


def test_four_against_one_wins_after_three_seconds(clock, event, gang, other_player, denis_api):
    (leader, leader_api), *others = gang
    claimed = claim(leader_api, leader, [c for c, _ in others], [other_player])
    assert claimed.status_code == 201, claimed.content
    pending = union_of(snapshot(denis_api, other_player))
    assert (pending["role"], pending["attackers"], pending["defenders"]) == ("defenders", 4, 1)
    assert pending["ends"]["remaining_s"] == 3

    clock.advance(2.9)
    assert fights_sweep() == 0                                     # not before its instant
    clock.advance(0.1)
    assert fights_sweep() == 1

    denis = snapshot(denis_api, other_player)
    assert denis["state"]["key"] == "tired"                        # G05, no duel, no score
    assert union_of(denis)["status"] == "resolved"
    leader_snap = snapshot(leader_api, leader)
    assert leader_snap["state"]["key"] == "healthy"
    score = next(p for p in leader_snap["points"] if p["key"] == "combat_score")
    assert score["value"] == 1                                     # majority loses no point
    assert any(t["key"] == "combat_recovery" for t in leader_snap["timers"])   # a combat event


def test_three_against_one_is_not_enough(clock, event, gang, other_player):
    (leader, leader_api), *others = gang
    lines = JournalEntry.objects.count()
    refused = claim(leader_api, leader, [c for c, _ in others[:2]], [other_player])
    assert refused.status_code == 409
    assert "3 against 1" in refused.json()["detail"]
    assert JournalEntry.objects.count() == lines


def test_only_bare_handed(clock, event, gang, other_player):
    (leader, leader_api), *others = gang
    refused = claim(leader_api, leader, [c for c, _ in others], [other_player], weapon_drawn=True)
    assert refused.status_code == 409 and "weapon" in refused.json()["detail"]


def test_someone_joining_the_defenders_in_time_rebalances_and_nobody_changes(
        clock, event, gang, other_player, denis_api, player, player_api):
    (leader, leader_api), *others = gang
    claim(leader_api, leader, [c for c, _ in others], [other_player])
    clock.advance(2)
    joined = player_api.post(f"/api/characters/{player.pk}/unions/join/",
                             {"defender_code": other_player.code}, format="json")
    assert joined.status_code == 200, joined.content
    assert joined.json()["status_of_union"] == "cancelled"         # 4 <= 3 x 2
    clock.advance(5)
    assert fights_sweep() == 0
    for api, character in ((denis_api, other_player), (player_api, player)):
        snap = snapshot(api, character)
        assert snap["state"]["key"] == "healthy"
        assert union_of(snap)["reason"] == "the sides were rebalanced"


def test_L28_a_defender_joining_at_the_third_second_rebalances(
        clock, event, gang, other_player, denis_api, player, player_api):
    """"si personne n'intervient dans les 3 secondes pour rééquilibrer la balance": the
    third second is still within them, and what is declared at an instant comes before
    what ends at it."""
    (leader, leader_api), *others = gang
    claim(leader_api, leader, [c for c, _ in others], [other_player])
    clock.advance(3)
    joined = player_api.post(f"/api/characters/{player.pk}/unions/join/",
                             {"defender_code": other_player.code}, format="json")
    assert joined.status_code == 200, joined.content
    assert joined.json()["status_of_union"] == "cancelled"
    assert fights_sweep() == 0
    denis = snapshot(denis_api, other_player)
    assert denis["state"]["key"] == "healthy"
    assert union_of(denis)["reason"] == "the sides were rebalanced"


def test_joining_after_the_window_is_too_late(clock, event, gang, other_player, player,
                                              player_api):
    (leader, leader_api), *others = gang
    claim(leader_api, leader, [c for c, _ in others], [other_player])
    clock.advance(3.001)
    late = player_api.post(f"/api/characters/{player.pk}/unions/join/",
                           {"defender_code": other_player.code}, format="json")
    assert late.status_code == 409 and "Denis" in late.json()["detail"]


def test_a_wounded_defender_stays_wounded(clock, event, gang, other_player, denis_api,
                                          narrator_api):
    """G21: the minority's outcome never improves anyone."""
    act(narrator_api, other_player, "hit_wounding")
    clock.advance(61)
    (leader, leader_api), *others = gang
    assert claim(leader_api, leader, [c for c, _ in others], [other_player]).status_code == 201
    clock.advance(3)
    fights_sweep()
    assert snapshot(denis_api, other_player)["state"]["key"] == "wounded"


def test_the_timer_task_and_the_sweeper_resolve_it_once(clock, event, gang, other_player,
                                                        denis_api):
    (leader, leader_api), *others = gang
    union_id = claim(leader_api, leader, [c for c, _ in others], [other_player]).json()["union"]
    clock.advance(3)
    assert end_fight("union", union_id) is True
    version = snapshot(denis_api, other_player)["version"]
    assert end_fight("union", union_id) is False                         # a second delivery
    assert fights_sweep() == 0
    assert snapshot(denis_api, other_player)["version"] == version
    lost = JournalEntry.objects.filter(character=other_player, kind="action", what="union_lost")
    assert lost.count() == 1


def test_a_pause_holds_the_window(clock, event, gang, other_player, denis_api, narrator_api):
    (leader, leader_api), *others = gang
    claim(leader_api, leader, [c for c, _ in others], [other_player])
    clock.advance(1)
    narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "pause"}, format="json")
    clock.advance(60)
    assert fights_sweep() == 0
    narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "resume"}, format="json")
    clock.advance(1.9)
    assert fights_sweep() == 0
    clock.advance(0.1)
    assert fights_sweep() == 1
