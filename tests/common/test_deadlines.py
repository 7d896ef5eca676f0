"""The deadline scheduler (common/deadlines.py) as the games see it: a dead broker costs a
change nothing and the sweeper applies the deadline anyway."""
from __future__ import annotations

import logging

import pytest
from kombu.exceptions import OperationalError

from config.celery import app as celery_app
from health.models import HealthState
from health.services import character_act, characters_sweep


@pytest.fixture
def dead_broker(monkeypatch):
    def refuse(*args, **kwargs):
        raise OperationalError("Error 111 connecting to the broker. Connection refused.")
    monkeypatch.setattr(celery_app, "producer_or_acquire", refuse)


@pytest.mark.django_db(transaction=True)
def test_a_wound_with_the_broker_down_is_kept_and_its_deadline_swept(clock, event, player,
                                                                     dead_broker, caplog):
    with caplog.at_level(logging.ERROR, logger="common.deadlines"):
        character_act(character=player, action="hit_wounding", params={}, by=player.user,
                      as_narrator=False)
    assert HealthState.objects.get(pk=player.pk).status == "wounded"
    assert "could not queue" in caplog.text

    clock.advance(15 * 60)
    assert characters_sweep() == 1
    assert HealthState.objects.get(pk=player.pk).status == "coma"
