"""Septenario: an effect with the standard duration lasts one Conflict (Norma general:
"unos dos minutos o hasta el final de un duelo o un combate"; fights less than two
minutes apart are the same Conflict). With `effect_conflict_mode: sliding` (the default)
the effect's end follows the character's Conflict on the phone; `fixed` keeps the end
worked out when it was pushed."""
from __future__ import annotations

from datetime import timedelta

import pytest

from fixtures import act, client_for, personaje, septenario_event, snapshot

pytestmark = pytest.mark.django_db


def push(api, event, **body):
    response = api.post(f"/api/events/{event.pk}/effects/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def shown(api, character) -> dict:
    effect, = snapshot(api, character)["effects"]
    return effect


def texts(api, character) -> list[str]:
    return [e["text"] for e in snapshot(api, character)["effects"]]


@pytest.fixture
def game(clock, narrator_user, request):
    options = getattr(request, "param", {})
    event = septenario_event(narrator_user, **options)
    return (event, personaje(event, narrator_user),
            personaje(event, narrator_user, "Mateo"))


def test_each_blow_of_the_conflict_pushes_the_effects_end_back(clock, game, narrator_api):
    event, lucia, mateo = game
    lucia_api = client_for(lucia.user, "es")
    clock.advance(10)
    push(narrator_api, event, text="Efecto: miedo", character_ids=[lucia.pk, mateo.pk])
    assert shown(lucia_api, lucia)["ends_game_s"] == 130          # two minutes
    clock.advance(90)                                             # 100: Lucía is hit
    assert act(lucia_api, lucia, "hit", location="left_arm").status_code == 200
    effect = shown(lucia_api, lucia)
    assert (effect["ends_game_s"], effect["duration_s"], effect["remaining_s"]) == (220, 210, 120)
    assert effect["ends_at"] == (event.wall_time(0) + timedelta(seconds=220)).isoformat()
    assert shown(narrator_api, mateo)["ends_game_s"] == 130       # Mateo was not in it
    clock.advance(100)                                            # 200: the fight goes on
    act(lucia_api, lucia, "hit", location="torso")
    assert shown(lucia_api, lucia)["ends_game_s"] == 320
    clock.advance(119)
    assert texts(lucia_api, lucia) == ["Efecto: miedo"]
    clock.advance(1)
    assert texts(lucia_api, lucia) == []


def test_an_effect_that_ended_does_not_come_back_with_the_next_fight(clock, game, narrator_api):
    event, lucia, _ = game
    lucia_api = client_for(lucia.user, "es")
    push(narrator_api, event, text="Efecto: miedo", character_ids=[lucia.pk])
    clock.advance(150)
    act(lucia_api, lucia, "hit", location="left_arm")
    assert texts(lucia_api, lucia) == []


def test_a_conflict_closed_by_a_narrator_ends_the_effect_after_its_two_minutes(
        clock, game, narrator_api):
    event, lucia, _ = game
    lucia_api = client_for(lucia.user, "es")
    act(lucia_api, lucia, "hit", location="left_arm")            # Conflict until 120
    clock.advance(100)
    push(narrator_api, event, text="Efecto: sangras", character_ids=[lucia.pk])
    clock.advance(10)
    act(lucia_api, lucia, "hit", location="right_arm")           # until 230
    assert shown(lucia_api, lucia)["ends_game_s"] == 230
    clock.advance(90)                                            # 200: over, says a narrator
    assert act(narrator_api, lucia, "conflict_over").status_code == 200
    assert shown(lucia_api, lucia)["ends_game_s"] == 220          # pushed at 100, + 2 min
    clock.advance(20)
    assert texts(lucia_api, lucia) == []


@pytest.mark.parametrize("game", [{"effect_conflict_mode": "fixed"}], indirect=True)
def test_with_fixed_effects_the_end_is_the_one_given_when_pushed(clock, game, narrator_api):
    event, lucia, _ = game
    lucia_api = client_for(lucia.user, "es")
    clock.advance(10)
    push(narrator_api, event, text="Efecto: miedo", character_ids=[lucia.pk])
    clock.advance(90)
    act(lucia_api, lucia, "hit", location="left_arm")
    assert shown(lucia_api, lucia)["ends_game_s"] == 130
    clock.advance(30)
    assert texts(lucia_api, lucia) == []


def test_an_effect_with_a_duration_or_for_everyone_keeps_its_end(clock, game, narrator_api):
    event, lucia, _ = game
    lucia_api = client_for(lucia.user, "es")
    push(narrator_api, event, text="Efecto: sueño", duration_s=60, character_ids=[lucia.pk])
    push(narrator_api, event, text="Efecto: terremoto", everyone=True)
    clock.advance(50)
    act(lucia_api, lucia, "hit", location="left_arm")
    ends = {e["text"]: e["ends_game_s"] for e in snapshot(lucia_api, lucia)["effects"]}
    assert ends == {"Efecto: sueño": 60, "Efecto: terremoto": 120}
