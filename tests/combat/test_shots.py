"""A hit declared with its shooter (airsoft C1, P13, B10): "Criez « retour en jeu » avant
tout geste : sinon rien ne compte." A shot from a player healed who has not yet called
is void (the target stays in play, the shooter's act is counted); from a player in play
it is a hit; from a player out, void with nothing to count."""
from __future__ import annotations

import pytest

from combat.services.shots import shot_declare
from fixtures import client_for
from health.models import HealthState
from health.services import character_act
from players.models import JournalEntry
from players.services import character_create, event_create, team_get_or_create
from rulesets import RuleRefused
from schedule.services.clock import clock_pause

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(clock, narrator_user):
    return event_create(name="Partie au Terrier", ruleset="airsoft_rats", language="fr",
                        options={"medic_mode": True}, by=narrator_user, start_clock=True)


@pytest.fixture
def players(game, narrator_user):
    """Alice (rouge) and Carla (bleu), both in play."""
    made = []
    for name, team in (("Alice", "rouge"), ("Carla", "bleu")):
        character = character_create(event=game, name=name, by=narrator_user,
                                     team=team_get_or_create(event=game, name=team))
        character_act(character=character, action="respawn", params=None, by=character.user,
                      as_narrator=False)
        made.append(character)
    return made


def put(character, state, narrator_user):
    character_act(character=character, action="set_state", params={"state": state},
                  by=narrator_user, as_narrator=True)


def health(character) -> HealthState:
    return HealthState.objects.get(character=character)


def test_P13_a_shot_before_retour_en_jeu_is_void_and_counted_on_the_shooter(
        game, players, narrator_user):
    alice, carla = players
    put(alice, "healed_pending_call", narrator_user)

    shot = shot_declare(target=carla, shooter_code=alice.code, by=carla.user)

    assert shot == {"hit": False, "void": True, "shooter": "Alice", "recorded": True}
    assert health(carla).status == "in_play"
    assert health(alice).status == "healed_pending_call"
    assert health(alice).values["invalid_actions"] == 1
    line = JournalEntry.objects.get(event=game, kind="shot", what="void")
    assert line.character_id == alice.pk and line.detail["target"]["name"] == "Carla"


def test_C1_a_shot_from_a_player_in_play_hits(game, players):
    alice, carla = players
    shot = shot_declare(target=carla, shooter_code=alice.code, by=carla.user)
    assert shot["hit"] is True and shot["void"] is False
    assert health(carla).status == "hit_counting"       # medic mode: count to 10
    assert health(alice).values["invalid_actions"] == 0


def test_after_the_call_the_same_shooter_hits(game, players, narrator_user):
    alice, carla = players
    put(alice, "healed_pending_call", narrator_user)
    character_act(character=alice, action="retour_en_jeu", params=None, by=alice.user,
                  as_narrator=False)
    assert shot_declare(target=carla, shooter_code=alice.code, by=carla.user)["hit"] is True
    assert health(carla).status == "hit_counting"


def test_a_shot_from_a_player_out_is_void_with_nothing_to_count(game, players, narrator_user):
    alice, carla = players
    put(alice, "out_returning", narrator_user)
    shot = shot_declare(target=carla, shooter_code=alice.code, by=carla.user)
    assert shot["void"] is True and shot["recorded"] is False
    assert health(carla).status == "in_play"
    assert health(alice).status == "out_returning"


def test_nobody_shoots_themselves_and_players_wait_for_the_game_to_run(game, players,
                                                                        narrator_user):
    alice, carla = players
    with pytest.raises(RuleRefused) as refused:
        shot_declare(target=carla, shooter_code=carla.code, by=carla.user)
    assert refused.value.code == "not_yourself"
    clock_pause(event=game, by=narrator_user)
    with pytest.raises(RuleRefused) as refused:
        shot_declare(target=carla, shooter_code=alice.code, by=carla.user)
    assert refused.value.code == "game_paused"
    assert health(carla).status == "in_play"


def test_a_ruleset_without_shots_refuses(clock, narrator_user):
    larp = event_create(name="GN", ruleset="gn_fr", by=narrator_user, start_clock=True)
    alice = character_create(event=larp, name="Alice", by=narrator_user)
    bruno = character_create(event=larp, name="Bruno", by=narrator_user)
    with pytest.raises(RuleRefused) as refused:
        shot_declare(target=alice, shooter_code=bruno.code, by=alice.user)
    assert refused.value.code == "not_in_this_game"


def test_the_phone_of_the_one_hit_names_the_shooter(game, players, narrator_user):
    alice, carla = players
    put(alice, "healed_pending_call", narrator_user)
    phone = client_for(carla.user)
    answer = phone.post(f"/api/characters/{carla.pk}/shots/", {"shooter_code": alice.code},
                        format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["void"] is True and answer.json()["snapshot"]["state"]["key"] == "in_play"
    answer = phone.post(f"/api/characters/{carla.pk}/shots/", {"shooter_code": "NOPE1234"},
                        format="json")
    assert answer.status_code == 404 and answer.json()["error"] == "unknown_code"
