"""An erasure is whole: every mention of the person in any free text, whoever the row is
about (an effect pushed to another character, another character's notes, another's
request, a sanction's reason), becomes the pseudonym; every text column of every model is
declared, so a new one cannot be forgotten; only JSON `true` confirms."""
from __future__ import annotations

import pytest
from django.apps import apps
from django.db import models

from club.models import Sanction
from club.services.sanctions import sanction_record
from effects.models import Effect, OrganiserRequest
from effects.services.effects import effect_push
from effects.services.requests import request_ask
from fixtures import database_text, game, new_member, check_in  # noqa: F401
from players import privacy
from players.models import Character

pytestmark = pytest.mark.django_db
NAME = "Zéphyrin Quaresma"


@pytest.fixture
def two(game, narrator_user, narrator_api):
    """Zéphyrin and Denis checked in to the airsoft game; everything about Denis mentions Zéphyrin."""
    found = {}
    for who, licence in ((NAME, "RAT-0101"), ("Denis Morel", "RAT-0102")):
        member = new_member(game, narrator_user, name=who, licence=licence, nickname="")
        checked = check_in(narrator_api, game, licence, team="Rouges")
        assert checked.status_code == 201, checked.content
        found[who] = (member, Character.objects.get(pk=checked.json()["character"]["id"]))
    member, denis = found["Denis Morel"]
    Character.objects.filter(pk=denis.pk).update(
        sheet={"notes": f"se méfie de {NAME} depuis la partie de mars", "skills": {}})
    effect_push(event=game, characters=[denis], text=f"{NAME} t'a volé ta carte d'accès",
                duration_s=None, set_state=None, by=narrator_user)
    request_ask(character=denis, text=f"{NAME} m'a menacé au bunker", by=denis.user)
    sanction_record(event=game, member=member, kind="warning",
                    reason=f"a tiré sur {NAME} à bout portant", by=narrator_user)
    return {"zephyrin": found[NAME][1], "denis": denis}


def test_every_mention_in_another_persons_free_text_is_erased(two, narrator_api):
    assert database_text().count(NAME) >= 5

    response = narrator_api.post(f"/api/characters/{two['zephyrin'].pk}/erase/", {"confirm": True},
                                 format="json")

    assert response.status_code == 200, response.content
    pseudonym = response.json()["pseudonym"]
    text = database_text()
    for word in (NAME, "Zéphyrin", "Quaresma"):
        assert word not in text, word
    denis = Character.objects.get(pk=two["denis"].pk)
    assert denis.name == "Denis Morel"
    assert denis.sheet["notes"] == f"se méfie de {pseudonym} depuis la partie de mars"
    assert Effect.objects.get(character=denis).text == f"{pseudonym} t'a volé ta carte d'accès"
    assert OrganiserRequest.objects.get(character=denis).text == f"{pseudonym} m'a menacé au bunker"
    assert Sanction.objects.get(member__name="Denis Morel").reason == f"a tiré sur {pseudonym} à bout portant"


@pytest.mark.parametrize("confirm", [1, "true", "True", "yes", "1", [True], {"value": True}, None])
def test_only_json_true_confirms_an_erasure(confirm, two, narrator_api):
    before = database_text()
    response = narrator_api.post(f"/api/characters/{two['zephyrin'].pk}/erase/", {"confirm": confirm},
                                 format="json")
    assert response.status_code == 400, confirm
    assert response.json()["error"] == "erase_not_confirmed"
    assert database_text() == before


def _text_columns():
    for model in apps.get_models():
        if model._meta.app_label in {"admin", "auth", "contenttypes", "sessions", "messages"}:
            continue
        for field in model._meta.concrete_fields:
            if isinstance(field, (models.CharField, models.TextField, models.JSONField)):
                yield model._meta.label, field.name


def test_every_text_column_of_every_model_is_declared_for_erasure():
    """A model with free text must say how an erasure reaches it (players/privacy.py)."""
    missing = [column for column in _text_columns() if column not in privacy.declared_texts]
    assert missing == []
    assert set(privacy.declared_texts) <= set(_text_columns())     # no stale declaration
    scrubbed = {(t.model._meta.label, f) for t in privacy.scrubbed_texts for f in t.fields}
    assert {("effects.Effect", "text"), ("players.Character", "sheet"), ("effects.OrganiserRequest", "text"),
            ("club.Sanction", "reason")} <= scrubbed
