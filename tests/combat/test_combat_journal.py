"""The journal lines a narrator reads when settling a dispute after a fight: who did what
(the player who tapped, or "system" for what the clock ended), to whom, and the details
that decide it (the duel's scores, a union's sides, a beating's kind, a shot's distance).
Read as the narrator's journal screen shows them (GET /api/events/{id}/journal/)."""
from __future__ import annotations

import pytest

from combat.services.schedule import fights_sweep
from combat.tasks import end_fight
from effects.models import Item
from test_acharnement import start as beat, stop as stop_beating, tired_denis  # noqa: F401
from test_duels import answer, challenge
from test_firearms import gunsmith, pistol, post as firearm, shoot  # noqa: F401
from test_unions import claim, gang  # noqa: F401

pytestmark = pytest.mark.django_db


def narrator_reads(narrator_api, event, kind, what) -> list[dict]:
    rows = narrator_api.get(f"/api/events/{event.pk}/journal/").json()["entries"]
    return [r for r in rows if (r["kind"], r["what"]) == (kind, what)]


def by_whom(rows) -> list[tuple]:
    return [(r["character"], r["who"]) for r in rows]


# -- duels ----------------------------------------------------------------------------------

def test_a_duel_is_journalled_under_who_challenged_then_who_answered(
        clock, event, player, other_player, player_api, denis_api, narrator_api):
    duel = challenge(player_api, player, other_player).json()["duel"]
    proposed = narrator_reads(narrator_api, event, "duel", "proposed")
    assert sorted(by_whom(proposed)) == [("Alice", "Alice"), ("Denis", "Alice")]
    assert proposed[0]["detail"] == {"duel": duel, "challenger": "Alice", "defender": "Denis",
                                     "reason": "", "results": {"challenger": "", "defender": ""}}
    clock.advance(5)
    answer(denis_api, duel)
    resolved = narrator_reads(narrator_api, event, "duel", "resolved")
    assert sorted(by_whom(resolved)) == [("Alice", "Denis"), ("Denis", "Denis")]
    assert {r["game_s"] for r in resolved} == {5}
    assert resolved[0]["detail"] == {"duel": duel, "challenger": "Alice", "defender": "Denis",
                                     "reason": "", "results": {"challenger": "lost", "defender": "won"},
                                     "scores": {"challenger": 2, "defender": 3}}


def test_a_declined_duel_is_journalled_under_the_defender(clock, event, player, other_player,
                                                          player_api, denis_api, narrator_api):
    duel = challenge(player_api, player, other_player).json()["duel"]
    answer(denis_api, duel, accept=False)
    declined = narrator_reads(narrator_api, event, "duel", "declined")
    assert sorted(by_whom(declined)) == [("Alice", "Denis"), ("Denis", "Denis")]


# -- unions -----------------------------------------------------------------------------

def test_a_union_is_journalled_with_its_sides_under_the_claimant_then_the_clock(
        clock, event, gang, other_player, narrator_api):
    (leader, leader_api), *others = gang
    union = claim(leader_api, leader, [c for c, _ in others], [other_player]).json()["union"]
    sides = {"union": union, "attackers": ["Brute 0", "Brute 1", "Brute 2", "Brute 3"],
             "defenders": ["Denis"]}
    claimed = narrator_reads(narrator_api, event, "union", "claimed")
    assert sorted(by_whom(claimed)) == [(name, "Brute 0") for name in
                                        ("Brute 0", "Brute 1", "Brute 2", "Brute 3", "Denis")]
    assert {str(r["detail"]) for r in claimed} == {str(sides)}
    clock.advance(3)
    assert end_fight("union", union) is True
    resolved = narrator_reads(narrator_api, event, "union", "resolved")
    assert {r["who"] for r in resolved} == {"system"} and len(resolved) == 5
    assert resolved[0]["detail"] == sides


def test_a_union_rebalanced_is_journalled_under_who_joined(clock, event, gang, other_player,
                                                           player, player_api, narrator_api):
    (leader, leader_api), *others = gang
    union = claim(leader_api, leader, [c for c, _ in others], [other_player]).json()["union"]
    clock.advance(1)
    player_api.post(f"/api/characters/{player.pk}/unions/join/",
                    {"defender_code": other_player.code}, format="json")
    rebalanced = narrator_reads(narrator_api, event, "union", "rebalanced")
    assert {r["who"] for r in rebalanced} == {"Alice"} and len(rebalanced) == 6
    assert rebalanced[0]["detail"] == {
        "union": union, "attackers": ["Brute 0", "Brute 1", "Brute 2", "Brute 3"],
        "defenders": ["Denis", "Alice"], "joiner": "Alice"}


# -- acharnement ------------------------------------------------------------------------------

def test_a_beating_is_journalled_under_the_attacker_and_completed_by_the_clock(
        clock, event, player, player_api, tired_denis, narrator_api):
    beating = beat(player_api, player, tired_denis).json()["acharnement"]
    who_and_kind = {"acharnement": beating, "kind": "bare_hands", "attacker": "Alice",
                    "victim": "Denis"}
    started = narrator_reads(narrator_api, event, "acharnement", "started")
    assert sorted(by_whom(started)) == [("Alice", "Alice"), ("Denis", "Alice")]
    assert [r["detail"] for r in started] == [who_and_kind, who_and_kind]
    clock.advance(300)
    assert fights_sweep() == 1
    completed = narrator_reads(narrator_api, event, "acharnement", "completed")
    assert sorted(by_whom(completed)) == [("Alice", "system"), ("Denis", "system")]
    assert {r["game_s"] for r in completed} == {300}
    assert completed[0]["detail"] == who_and_kind


def test_a_beating_stopped_is_journalled_under_the_attacker(clock, event, player, player_api,
                                                            tired_denis, narrator_api):
    beating = beat(player_api, player, tired_denis).json()["acharnement"]
    clock.advance(60)
    stop_beating(player_api, beating)
    stopped = narrator_reads(narrator_api, event, "acharnement", "stopped")
    assert sorted(by_whom(stopped)) == [("Alice", "Alice"), ("Denis", "Alice")]
    assert stopped[0]["detail"]["attacker"] == "Alice"


# -- firearms ----------------------------------------------------------------------------

def test_a_firearm_is_journalled_under_who_loaded_took_and_shot_it(
        clock, event, pistol, gunsmith, player, player_api, other_player, narrator_api):
    smith, smith_api = gunsmith
    firearm(smith_api, smith, pistol, "load")
    firearm(player_api, player, pistol, "take")
    shoot(player_api, player, pistol, other_player, distance_m=9.5)
    gun = {"firearm": pistol.code, "name": "Revolver"}
    [loaded] = narrator_reads(narrator_api, event, "firearm", "loaded")
    assert (loaded["character"], loaded["who"], loaded["detail"]) == ("Armurier", "Armurier", gun)
    [taken] = narrator_reads(narrator_api, event, "firearm", "taken")
    assert (taken["character"], taken["who"], taken["detail"]) == ("Alice", "Alice", gun)
    shot = narrator_reads(narrator_api, event, "firearm", "shot")
    assert sorted(by_whom(shot)) == [("Alice", "Alice"), ("Denis", "Alice")]
    assert shot[0]["detail"] == {**gun, "distance_m": 9.5, "obstacle": False, "conditions": []}


def test_a_missed_shot_is_journalled_under_the_shooter(clock, event, player, player_api,
                                                       other_player, narrator_api):
    gun = Item.objects.create(event=event, name="Revolver", kind=Item.FIREARM, holder=player,
                              loaded=True)
    shoot(player_api, player, gun, other_player, distance_m=12, obstacle=True)
    missed = narrator_reads(narrator_api, event, "firearm", "missed")
    assert sorted(by_whom(missed)) == [("Alice", "Alice"), ("Denis", "Alice")]
    assert missed[0]["detail"] == {"firearm": gun.code, "name": "Revolver", "distance_m": 12,
                                   "obstacle": True, "conditions": []}
