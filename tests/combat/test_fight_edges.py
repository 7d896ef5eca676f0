"""Two edges every kind of fight shares: the word a fighter lying inert is told about
themselves (A25: Tired's first minute), and the registry of timed ends through which the
sweeper ends whatever a lost task missed (combat/services/schedule.py)."""
from __future__ import annotations

import pytest

from combat.services import schedule
from combat.services.schedule import fights_sweep, timed_end
from fixtures import act, client_for, snapshot
from test_acharnement import start as beat, tired_denis  # noqa: F401
from test_unions import claim, gang  # noqa: F401

pytestmark = pytest.mark.django_db


def test_a_fighter_in_their_inert_minute_is_told_they_are_inert(clock, event, player, player_api,
                                                                tired_denis, narrator_api):
    """A1/A25: fallen Tired, Alice lies inert for a minute; her phone says so, in her own
    language, rather than naming the state she will be in once she gets up."""
    act(narrator_api, player, "set_state", state="tired")
    clock.advance(30)
    refused = beat(player_api, player, tired_denis)
    assert (refused.status_code, refused.json()["error"]) == (409, "actor_cannot")
    assert refused.json()["detail"] == "Sustained beating: you cannot do that while inert."
    in_french = beat(client_for(player.user, "fr"), player, tired_denis).json()["detail"]
    assert in_french == "Acharnement : impossible dans votre état (inerte)."
    clock.advance(31)                                                # up again, still Tired
    later = beat(player_api, player, tired_denis).json()["detail"]
    assert later == "Sustained beating: you cannot do that while Tired."


def test_a_kind_of_fight_registered_with_its_timed_end_is_ended_by_the_sweeper(
        clock, event, gang, other_player, denis_api, monkeypatch):
    """What a kind of fight registers (its pending rows, the field of their instant, the
    service that ends one) is what the sweeper uses when a task was lost: registered
    afresh here, the union still falls on Denis at its third second."""
    registered = schedule.TIMED_ENDS["union"]
    monkeypatch.setattr(schedule, "TIMED_ENDS", {})
    timed_end("union", pending=registered.pending, due_field=registered.due_field,
              end=registered.end)
    (leader, leader_api), *others = gang
    assert claim(leader_api, leader, [c for c, _ in others], [other_player]).status_code == 201
    clock.advance(2.9)
    assert fights_sweep() == 0
    clock.advance(0.1)
    assert fights_sweep() == 1
    assert snapshot(denis_api, other_player)["state"]["key"] == "tired"
