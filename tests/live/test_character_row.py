"""The character's row that every connect and snapshot reads is compiled once per process
(common/prepared.py): what it returns must be the queryset's own result."""
from __future__ import annotations

import pytest
from fixtures import act, start_treatment

from live.snapshots import _rows, character_row
from players.models import Character
from players.services import character_create

pytestmark = pytest.mark.django_db


def as_queryset_reads_it(pk: int):
    return _rows(pk=pk).select_related("event", "user").first()


def columns(row) -> dict:
    values = {field.attname: getattr(row, field.attname) for field in row._meta.concrete_fields}
    joined = {name: None if related is None else
              {f.attname: getattr(related, f.attname) for f in related._meta.concrete_fields}
              for name, related in row._state.fields_cache.items()}
    annotations = {name: getattr(row, name) for name in row.__dict__
                   if name not in values and not name.startswith("_")}
    return {"row": values, "joined": joined, "annotations": annotations}


def test_each_character_reads_as_the_queryset_reads_it(event, player, medic, player_api,
                                                       medic_api, narrator_user):
    """A player in a team, wounded and being treated; a medic with no team; a character
    with no player account: every column, every joined row and the annotations agree."""
    assert act(player_api, player, "hit_wounding").status_code == 200
    assert start_treatment(medic_api, medic, player, "first_aid").status_code == 201
    unplayed = character_create(event=event, name="Nobody yet", sheet={"combat_base": 1},
                                by=narrator_user)
    Character.objects.filter(pk=unplayed.pk).update(user=None)
    for character in (player, medic, unplayed):
        read = character_row(character.pk)
        assert columns(read) == columns(as_queryset_reads_it(character.pk))
    assert character_row(player.pk).being_treated is True
    assert character_row(medic.pk).being_treated is False
    assert character_row(unplayed.pk).user is None
    assert character_row(medic.pk).team is None
    assert character_row(player.pk).team.name == "Invités"


def test_an_unknown_id_reads_as_none(player):
    assert character_row(player.pk + 10_000) is None
