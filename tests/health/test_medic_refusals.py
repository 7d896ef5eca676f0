"""A treatment refused before it starts, as the medic's phone says it: no kit of the kind
it uses left (whether the sheet never had one or the last was used), and a medic whose
own state forbids it, named as the medic's phone names it."""
from __future__ import annotations

import pytest

from fixtures import MEDIC_SHEET, act, client_for, start_treatment
from health.models import Treatment
from players.services import character_create

pytestmark = pytest.mark.django_db

NO_KPS = "You have no KPS (white band) left; ask the organisers for one."


@pytest.mark.parametrize("kits", [{"koc": 1}, {"kps": 0, "koc": 1}])
def test_a_medic_without_the_kit_a_first_aid_uses_is_refused(
        clock, event, player, player_api, narrator_user, kits):
    claire = character_create(event=event, name="Claire", sheet=MEDIC_SHEET, kits=kits,
                              by=narrator_user)
    act(player_api, player, "hit_wounding")
    refused = start_treatment(client_for(claire.user), claire, player, "first_aid")
    assert (refused.status_code, refused.json()) == (409, {"error": "no_kit", "detail": NO_KPS})
    assert not Treatment.objects.exists()
    # A surgery uses a KOC, which she has.
    assert start_treatment(client_for(claire.user), claire, player, "surgery",
                           calm_place=True).status_code == 201


def test_a_medic_in_a_coma_is_told_so_not_that_they_lie_inert(
        clock, event, player, player_api, medic, medic_api, narrator_api):
    act(player_api, player, "hit_wounding")
    act(narrator_api, medic, "set_state", state="coma")
    refused = start_treatment(medic_api, medic, player, "first_aid")
    assert (refused.status_code, refused.json()) == (409, {
        "error": "actor_cannot", "detail": "First aid: you cannot do that while In a coma."})
    assert not Treatment.objects.exists()
