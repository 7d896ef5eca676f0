"""Septenario on the phone: what the character is shown able and unable to do agrees with
the rulebook and with its load panel. Incapacitado may still use objects and crawl [L41];
Sobrecarga forbids running, more Carga any movement [L26]; weakness from hunger forbids
running [L15]."""
from __future__ import annotations

from datetime import timedelta

import pytest

from fixtures import act, client_for, create_item, carry, personaje, septenario_event, snapshot
from schedule.services.days import days_run_due

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(clock, narrator_user):
    return septenario_event(narrator_user)


def able(snap) -> tuple[set, set]:
    state = snap["state"]
    return {c["key"] for c in state["can"]}, {c["key"] for c in state["cannot"]}


def test_L41_the_incapacitated_can_use_objects_and_crawl(game, narrator_user):
    lucia = personaje(game, narrator_user)
    api = client_for(lucia.user, "es")
    snap = act(api, lucia, "hit", location="torso").json()["snapshot"]
    assert snap["state"]["key"] == "incapacitated" and snap["state"]["inert"] is True
    can, cannot = able(snap)
    assert {"objects", "crawl"} <= can
    assert not {"objects", "crawl"} & cannot
    assert {"run", "walk", "fight", "traits", "first_aid"} <= cannot
    labels = [c["label"] for c in snap["state"]["can"]]
    assert "usar objetos" in labels and "arrastrarse lentamente" in labels


def test_L41_the_offline_outcome_of_a_torso_wound_says_the_same(game, narrator_user):
    lucia = personaje(game, narrator_user)
    api = client_for(lucia.user, "es")
    table = api.get(f"/api/characters/{lucia.pk}/outcomes/").json()
    torso = next(o for o in table["outcomes"]["hit"]
                 if o["params"]["location"] == "torso" and o["params"]["weapon"] == "standard"
                 and o["params"]["solid"])
    assert torso["state"] == "incapacitated"
    assert {"objects", "crawl"} <= set(torso["can"])
    assert not {"objects", "crawl"} & set(torso["cannot"])


@pytest.mark.parametrize("carried, status, can, cannot", [
    (5, "normal", {"run", "walk"}, set()),
    (6, "overloaded", {"walk"}, {"run"}),
    (7, "overloaded", {"walk"}, {"run"}),
    (8, "immobile", set(), {"run", "walk", "crawl"}),
])
def test_L26_carga_limits_running_and_walking_as_the_load_panel_says(
        game, narrator_user, carried, status, can, cannot):
    lucia = personaje(game, narrator_user, carried=[{"name": "Fardo", "load": carried}])
    snap = snapshot(client_for(lucia.user, "es"), lucia)
    assert snap["load"]["status"] == status
    shown_can, shown_cannot = able(snap)
    assert can <= shown_can and cannot <= shown_cannot
    assert not cannot & shown_can


def test_L26_picking_an_object_up_takes_running_away_and_dropping_it_gives_it_back(
        game, narrator_user, narrator_api):
    lucia = personaje(game, narrator_user, carried=[{"name": "Mochila", "load": 5}])
    api = client_for(lucia.user, "es")
    chest = create_item(narrator_api, game, name="Cofre", load=2)
    assert carry(api, lucia, chest["code"]).status_code == 200
    snap = snapshot(api, lucia)
    assert snap["load"]["status"] == "overloaded" and "run" in able(snap)[1]
    assert carry(api, lucia, chest["code"], verb="drop").status_code == 200
    snap = snapshot(api, lucia)
    assert snap["load"]["status"] == "normal" and "run" in able(snap)[0]


def _day_end(narrator_api, game, clock) -> None:
    """A day end the organisers scheduled an hour from now, run when it is due."""
    due = clock.now + timedelta(hours=1)
    made = narrator_api.post(f"/api/events/{game.pk}/days/",
                             {"kind": "day_end", "due_at": due.isoformat()}, format="json")
    assert made.status_code == 201, made.content
    clock.advance(3600)
    days_run_due(event_id=game.pk)


def test_L15_weak_from_hunger_the_character_cannot_run(
        game, narrator_user, narrator_api, clock):
    lucia = personaje(game, narrator_user)
    api = client_for(lucia.user, "es")
    _day_end(narrator_api, game, clock)
    snap = snapshot(api, lucia)
    assert snap["values"]["hungry"] is True and "run" in able(snap)[0]   # hungry, not weak yet
    _day_end(narrator_api, game, clock)
    snap = snapshot(api, lucia)
    assert "weak" in {f["key"] for f in snap["flags"]}
    assert "run" in able(snap)[1] and "run" not in able(snap)[0]
    assert "walk" in able(snap)[0]
    assert act(api, lucia, "ate").status_code == 200
    assert "run" in able(snapshot(api, lucia))[0]
