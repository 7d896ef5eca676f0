"""A refusal about another character says what the action needs, never what they are:
their health is the rules' secret (only a medic's analysis reveals it). Each refusal path
that acts on someone else is driven through the API as another player, in every
language, and the answer must name none of the target's state labels."""
from __future__ import annotations

import re

import pytest

from fixtures import act, client_for

pytestmark = pytest.mark.django_db

INERT = ["inert", "inerte"]   # the server's own word for an inert character (fr, es)


def duel(api, actor, target, helpers):
    return api.post(f"/api/characters/{actor.pk}/duels/", {"opponent_code": target.code},
                    format="json", **helpers["lang"])


def union_against(api, actor, target, helpers):
    return api.post(f"/api/characters/{actor.pk}/unions/",
                    {"attacker_codes": [c.code for c in helpers["gang"]],
                     "defender_codes": [target.code], "weapon_drawn": False},
                    format="json", **helpers["lang"])


def union_with(api, actor, target, helpers):
    """The target named among the attackers: they must be able to fight too."""
    return api.post(f"/api/characters/{actor.pk}/unions/",
                    {"attacker_codes": [target.code] + [c.code for c in helpers["gang"][:2]],
                     "defender_codes": [helpers["victim"].code], "weapon_drawn": False},
                    format="json", **helpers["lang"])


def beating(api, actor, target, helpers):
    return api.post(f"/api/characters/{actor.pk}/acharnements/",
                    {"victim_code": target.code, "kind": "bare_hands"}, format="json",
                    **helpers["lang"])


def search(api, actor, target, helpers):
    return api.post(f"/api/characters/{actor.pk}/search/",
                    {"target_code": target.code, "location": "les bottes", "strip": False},
                    format="json", **helpers["lang"])


def first_aid(api, actor, target, helpers):
    return api.post(f"/api/characters/{actor.pk}/treatments/",
                    {"patient_code": target.code, "action": "first_aid"}, format="json",
                    **helpers["lang"])


CASES = [   # (the path, the target's state, the refusal code)
    (duel, "coma", "cannot_fight_now"), (duel, "dead", "cannot_fight_now"),
    (duel, "inert", "cannot_fight_now"),
    (union_against, "coma", "cannot_fight_now"), (union_against, "dead", "cannot_fight_now"),
    (union_with, "tired", "cannot_fight_now"), (union_with, "inert", "cannot_fight_now"),
    (beating, "healthy", "not_applicable"), (beating, "coma", "not_applicable"),
    (beating, "dead", "not_applicable"),
    (search, "healthy", "not_searchable"),
    (first_aid, "healthy", "not_applicable"), (first_aid, "dead", "not_applicable"),
]


def put_in(narrator_api, character, state: str) -> None:
    if state == "inert":
        act(narrator_api, character, "hit_wounding")            # falls inert for 60 s
    elif state != "healthy":
        act(narrator_api, character, "set_state", state=state)


def secret_labels(event, character, state: str) -> list[str]:
    status = "wounded" if state == "inert" else state
    labels = list(event.rules().ruleset.states[status]["labels"].values())
    return labels + (INERT if state == "inert" else [])


@pytest.mark.parametrize("lang", ["fr", "es", "en"])
@pytest.mark.parametrize("path, state, code", CASES,
                         ids=[f"{p.__name__}-{s}" for p, s, _ in CASES])
def test_a_refusal_about_someone_else_never_names_their_state(
        path, state, code, lang, clock, event, player, medic, other_player, fighter,
        narrator_api):
    gang = [fighter(f"Brute {n}", 1)[0] for n in range(4)]
    victim = fighter("Victime", 1)[0]
    actor = medic if path is first_aid else player
    put_in(narrator_api, other_player, state)
    clock.advance(1)
    helpers = {"gang": gang, "victim": victim, "lang": {"HTTP_ACCEPT_LANGUAGE": lang}}

    refused = path(client_for(actor.user), actor, other_player, helpers)

    assert refused.status_code == 409, refused.content
    answer = refused.json()
    assert answer["error"] == code
    for secret in secret_labels(event, other_player, state):
        assert not re.search(rf"\b{re.escape(secret)}\b", answer["detail"], re.IGNORECASE), \
            (secret, answer["detail"])


@pytest.mark.parametrize("lang, own", [("en", "In a coma"), ("fr", "Dans le coma"),
                                       ("es", "En coma")])
def test_the_actor_is_still_told_their_own_state(lang, own, clock, event, player, player_api,
                                                 other_player, narrator_api):
    act(narrator_api, player, "set_state", state="coma")
    refused = player_api.post(f"/api/characters/{player.pk}/duels/",
                              {"opponent_code": other_player.code}, format="json",
                              HTTP_ACCEPT_LANGUAGE=lang)
    assert (refused.status_code, refused.json()["error"]) == (409, "actor_cannot")
    assert own.lower() in refused.json()["detail"].lower()
