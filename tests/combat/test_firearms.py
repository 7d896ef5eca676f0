"""Firearms: in hand and loaded, one shot spends every cap, only under ten metres with no
obstacle; only a character with the skill loads one."""
from __future__ import annotations

import pytest

from effects.models import Item
from fixtures import act, snapshot
from players.models import JournalEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def pistol(event):
    return Item.objects.create(event=event, name="Revolver", kind=Item.FIREARM)


@pytest.fixture
def gunsmith(fighter):
    return fighter("Armurier", 2, skills={"load_firearm": True})


def post(api, character, pistol, verb, **body):
    return api.post(f"/api/characters/{character.pk}/firearms/{pistol.code}/{verb}/", body,
                    format="json")


def shoot(api, character, pistol, victim, distance_m=5, obstacle=False):
    return post(api, character, pistol, "shoot", victim_code=victim.code, distance_m=distance_m,
                obstacle=obstacle)


def test_loaded_in_hand_under_ten_metres_the_victim_is_wounded(clock, event, pistol, gunsmith,
                                                               player, player_api, other_player,
                                                               denis_api):
    smith, smith_api = gunsmith
    assert post(smith_api, smith, pistol, "load").json()["loaded"] is True
    assert post(player_api, player, pistol, "take").status_code == 200
    shot = shoot(player_api, player, pistol, other_player, distance_m=9.5)
    assert shot.status_code == 200, shot.content
    assert shot.json()["hit"] is True
    assert snapshot(denis_api, other_player)["state"]["key"] == "wounded"   # G07
    pistol.refresh_from_db()
    assert pistol.loaded is False                                   # all caps, one shot
    empty = shoot(player_api, player, pistol, other_player)
    assert empty.status_code == 409 and "not loaded" in empty.json()["detail"]


def test_a_second_bullet_puts_a_wounded_victim_in_a_coma(clock, event, pistol, gunsmith, player,
                                                         player_api, other_player, denis_api):
    smith, smith_api = gunsmith
    post(player_api, player, pistol, "take")
    for _ in range(2):
        post(smith_api, smith, pistol, "load")
        shoot(player_api, player, pistol, other_player)
    assert snapshot(denis_api, other_player)["state"]["key"] == "coma"      # G12


@pytest.mark.parametrize("distance_m, obstacle", [(10, False), (25, False), (3, True)])
def test_out_of_range_or_through_an_obstacle_the_shot_is_spent_for_nothing(
        distance_m, obstacle, clock, event, pistol, gunsmith, player, player_api, other_player,
        denis_api):
    smith, smith_api = gunsmith
    post(smith_api, smith, pistol, "load")
    post(player_api, player, pistol, "take")
    shot = shoot(player_api, player, pistol, other_player, distance_m=distance_m, obstacle=obstacle)
    assert shot.json()["hit"] is False
    assert "10 m" in shot.json()["detail"]
    assert snapshot(denis_api, other_player)["state"]["key"] == "healthy"
    pistol.refresh_from_db()
    assert pistol.loaded is False


def test_only_a_character_with_the_skill_loads_it(clock, event, pistol, player, player_api):
    refused = post(player_api, player, pistol, "load")
    assert refused.status_code == 403
    assert "Load a firearm" in refused.json()["detail"]
    pistol.refresh_from_db()
    assert pistol.loaded is False


def test_a_firearm_not_in_hand_does_not_shoot(clock, event, pistol, gunsmith, player, player_api,
                                              other_player):
    smith, smith_api = gunsmith
    post(smith_api, smith, pistol, "load")                           # nobody has taken it
    refused = shoot(player_api, player, pistol, other_player)
    assert refused.status_code == 409 and "Revolver" in refused.json()["detail"]


def test_a_shot_during_a_duel_cancels_it(clock, event, pistol, gunsmith, player, player_api,
                                         other_player, denis_api, fighter):
    boxer, boxer_api = fighter("Boxeur", 2)
    duel = boxer_api.post(f"/api/characters/{boxer.pk}/duels/", {"opponent_code": other_player.code},
                          format="json").json()["duel"]
    smith, smith_api = gunsmith
    post(smith_api, smith, pistol, "load")
    post(player_api, player, pistol, "take")
    shoot(player_api, player, pistol, other_player)
    duel_view = next(f for f in snapshot(denis_api, other_player)["fights"] if f["kind"] == "duel")
    assert duel_view["status"] == "cancelled"                       # G25


def test_unknown_firearm_code_is_404_and_other_verbs_do_not_exist(clock, event, player,
                                                                  player_api, pistol):
    missing = player_api.post(f"/api/characters/{player.pk}/firearms/NOPE99/take/", {},
                              format="json")
    assert missing.status_code == 404 and "NOPE99" in missing.json()["detail"]
    assert player_api.post(f"/api/characters/{player.pk}/firearms/{pistol.code}/melt/", {},
                           format="json").status_code == 404
    assert JournalEntry.objects.filter(kind="firearm").count() == 0
