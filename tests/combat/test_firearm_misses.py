"""Firearms, the shots that do nothing and what the shooter's phone says about them: out
of range (gn_fr: under 10 m; Septenario [L30]: up to 3 m), under one of the conditions
the Septenario shooter declares (moving, one hand...), a condition the game does not
know; and the codes that are not a firearm of this game."""
from __future__ import annotations

import pytest

from effects.models import Item
from fixtures import client_for, personaje, septenario_event, snapshot
from players.models import JournalEntry
from players.services import event_create

pytestmark = pytest.mark.django_db


def post(api, character, item, verb, **body):
    return api.post(f"/api/characters/{character.pk}/firearms/{item.code}/{verb}/", body,
                    format="json")


def shoot(api, character, item, victim, distance_m=2, obstacle=False, **body):
    return post(api, character, item, "shoot", victim_code=victim.code, distance_m=distance_m,
                obstacle=obstacle, **body)


@pytest.fixture
def fortaleza(clock, narrator_user):
    return septenario_event(narrator_user)


@pytest.fixture
def duel_at_dawn(fortaleza, narrator_user):
    """Tomás holds a loaded pistol; Lucía faces him."""
    tomas = personaje(fortaleza, narrator_user, "Tomás")
    lucia = personaje(fortaleza, narrator_user, "Lucía")
    pistol = Item.objects.create(event=fortaleza, name="Pistola", kind=Item.FIREARM,
                                 holder=tomas, loaded=True)
    return (tomas, client_for(tomas.user)), (lucia, client_for(lucia.user)), pistol


def told(shot) -> dict:
    """What the shooter's phone says of the shot (the answer also carries its snapshot)."""
    assert shot.status_code == 200, shot.content
    return {key: shot.json()[key] for key in ("hit", "victim", "loaded", "detail")}


def still_loaded(item) -> bool:
    item.refresh_from_db()
    return item.loaded


# -- out of range: the words differ where the range itself counts -------------------------

def test_gn_fr_a_shot_at_ten_metres_is_out_of_range_under_ten(clock, event, player, player_api,
                                                               other_player, denis_api):
    pistol = Item.objects.create(event=event, name="Revolver", kind=Item.FIREARM, holder=player,
                                 loaded=True)
    shot = shoot(player_api, player, pistol, other_player, distance_m=10)
    assert told(shot) == {"hit": False, "victim": "Denis", "loaded": False, "detail":
                           "A shot counts only under 10 m with no obstacle: this one does nothing."}
    assert snapshot(denis_api, other_player)["state"]["key"] == "healthy"


def test_L30_septenario_a_shot_counts_up_to_three_metres_and_not_beyond(duel_at_dawn):
    """"unos 3 metros ... disparar a mayor distancia es un fallo": at 3 m it hits; at 3.5 m
    the phone says the range counts up to 3 m (not "under")."""
    (tomas, tomas_api), (lucia, lucia_api), pistol = duel_at_dawn
    far = shoot(tomas_api, tomas, pistol, lucia, distance_m=3.5)
    assert told(far) == {"hit": False, "victim": "Lucía", "loaded": False, "detail":
                          "A shot counts only up to 3 m with no obstacle: this one does nothing."}
    assert snapshot(lucia_api, lucia)["state"]["key"] == "unharmed"
    pistol.loaded = True
    pistol.save()
    assert shoot(tomas_api, tomas, pistol, lucia, distance_m=3).json()["hit"] is True


# -- the conditions the shooter declares (Septenario [L30]) -------------------------------

def test_L30_a_shot_while_moving_with_one_hand_misses_and_says_why(duel_at_dawn, narrator_api,
                                                                   fortaleza):
    (tomas, tomas_api), (lucia, lucia_api), pistol = duel_at_dawn
    shot = shoot(tomas_api, tomas, pistol, lucia, conditions=["one_handed", "moving"])
    assert told(shot) == {"hit": False, "victim": "Lucía", "loaded": False, "detail":
                           "The shot misses (the shooter was moving, shot with one hand): the "
                           "bullet is spent for nothing."}
    assert snapshot(lucia_api, lucia)["state"]["key"] == "unharmed"
    assert not still_loaded(pistol)
    rows = narrator_api.get(f"/api/events/{fortaleza.pk}/journal/").json()["entries"]
    missed = [r for r in rows if (r["kind"], r["what"]) == ("firearm", "missed")]
    assert {r["character"] for r in missed} == {"Tomás", "Lucía"}
    assert missed[0]["detail"]["conditions"] == ["moving", "one_handed"]


def test_L30_the_target_in_total_cover_is_not_hit_even_point_blank(duel_at_dawn):
    (tomas, tomas_api), (lucia, _), pistol = duel_at_dawn
    shot = shoot(tomas_api, tomas, pistol, lucia, distance_m=1, conditions=["total_cover"])
    assert shot.json()["hit"] is False
    assert shot.json()["detail"] == ("The shot misses (the target was in total cover): the "
                                     "bullet is spent for nothing.")


def test_a_condition_the_game_does_not_know_is_refused_with_the_ones_it_does(duel_at_dawn):
    """The phone offers only the ruleset's conditions: anything else is a bad request,
    refused before the caps go off."""
    (tomas, tomas_api), (lucia, lucia_api), pistol = duel_at_dawn
    lines = JournalEntry.objects.count()
    refused = shoot(tomas_api, tomas, pistol, lucia, conditions=["moving", "blindfolded"])
    assert refused.status_code == 400, refused.content
    assert refused.json() == {"error": "bad_input", "detail":
                              "Invalid request: conditions must be among: moving, one_handed, "
                              "fighting, total_cover"}
    assert still_loaded(pistol) and JournalEntry.objects.count() == lines
    assert snapshot(lucia_api, lucia)["state"]["key"] == "unharmed"


def test_gn_fr_knows_no_condition_at_all(clock, event, player, player_api, other_player):
    pistol = Item.objects.create(event=event, name="Revolver", kind=Item.FIREARM, holder=player,
                                 loaded=True)
    refused = shoot(player_api, player, pistol, other_player, conditions=["moving"])
    assert refused.status_code == 400, refused.content
    assert refused.json() == {"error": "bad_input",
                              "detail": "Invalid request: conditions must be among: (none)"}
    assert still_loaded(pistol)


# -- what is not a firearm of this game ----------------------------------------------------

def test_a_firearm_of_another_game_is_unknown_here(clock, event, player, player_api,
                                                   narrator_user):
    other_game = event_create(name="Autre GN", ruleset="gn_fr", by=narrator_user,
                              start_clock=True)
    theirs = Item.objects.create(event=other_game, name="Tromblon", kind=Item.FIREARM)
    refused = post(player_api, player, theirs, "take")
    assert refused.status_code == 404
    assert refused.json() == {"error": "unknown_item", "detail": refused.json()["detail"]}
    assert theirs.code in refused.json()["detail"]
    theirs.refresh_from_db()
    assert theirs.holder_id is None
    assert not JournalEntry.objects.filter(kind="firearm").exists()


def test_an_object_that_is_not_a_firearm_cannot_be_taken_as_one(clock, event, player,
                                                                player_api):
    letter = Item.objects.create(event=event, name="Lettre scellée", kind=Item.ENVELOPE)
    for verb in ("take", "load"):
        refused = post(player_api, player, letter, verb)
        assert (refused.status_code, refused.json()["error"]) == (404, "unknown_item"), verb
    letter.refresh_from_db()
    assert (letter.holder_id, letter.loaded) == (None, False)
    assert not JournalEntry.objects.filter(kind="firearm").exists()
