"""An id that does not exist answers exactly like one that exists but is not the caller's:
the same 404 `not_found` in the caller's language, so that trying ids one after another
tells a player nothing about the duels, treatments, effects or requests of others."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from combat.services.duels import duel_propose
from effects.services.effects import effect_push
from effects.services.requests import request_ask
from fixtures import client_for
from health.treatments import treatment_start
from players.services import event_create

pytestmark = pytest.mark.django_db

MISSING = 999_999_999


@pytest.fixture
def stranger(clock):
    """A narrator of another game."""
    user = get_user_model().objects.create_user(username="narrator2", is_staff=True)
    event_create(name="Other GN", ruleset="gn_fr", by=user, start_clock=True)
    return user


def others_rows(event, player, other_player, medic, narrator_user) -> dict:
    duel = duel_propose(challenger=other_player, opponent_code=medic.code, by=other_player.user)
    treatment = treatment_start(medic=medic, patient=other_player, action="metabolic_analysis",
                                params={}, by=medic.user)
    [effect] = effect_push(event=event, characters=[other_player], text="Effet : froid",
                           duration_s=None, set_state=None, by=narrator_user)
    asked = request_ask(character=other_player, text="Je force le coffre", by=other_player.user)
    return {"duel": duel.pk, "treatment": treatment.pk, "effect": effect.pk, "request": asked.pk}


# (who asks, method, url, body)
CALLS = [
    ("player", "post", "/api/duels/{duel}/answer/", {"accept": True}),
    ("player", "get", "/api/treatments/{treatment}/", None),
    ("player", "post", "/api/treatments/{treatment}/complete/", None),
    ("stranger", "delete", "/api/effects/{effect}/", None),
    ("stranger", "post", "/api/requests/{request}/answer/", {"text": "Le coffre s'ouvre"}),
]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("who,method,url,body", CALLS)
def test_a_missing_id_reads_like_someone_elses(who, method, url, body, lang, event, player,
                                               other_player, medic, narrator_user, stranger):
    rows = others_rows(event, player, other_player, medic, narrator_user)
    api = client_for(player.user if who == "player" else stranger, lang)

    def call(ids):
        return getattr(api, method)(url.format(**ids), body, format="json")

    someone_elses = call(rows)
    missing = call({key: MISSING for key in rows})
    assert someone_elses.status_code == missing.status_code == 404
    assert missing.json() == someone_elses.json()
    assert missing.json()["error"] == "not_found"
