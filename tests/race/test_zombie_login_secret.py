"""A zombie's login link, answered once, never rests in the idempotency table: a replay of
the creation answers a fresh link for the same zombie and creates no second one."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from common.models import IdempotencyRecord
from players.models import Membership

pytestmark = pytest.mark.django_db


def test_a_replayed_zombie_creation_answers_a_fresh_link_and_stores_none(race, organiser_api):
    url = f"/api/race/events/{race.pk}/zombies/"
    first = organiser_api.post(url, {"name": "Igor"}, format="json", HTTP_IDEMPOTENCY_KEY="z1")
    assert first.status_code == 201
    token = first.json()["url"].rsplit("/", 1)[1]

    replay = organiser_api.post(url, {"name": "Igor"}, format="json", HTTP_IDEMPOTENCY_KEY="z1")

    assert replay.status_code == 201
    assert replay.json()["zombie"] == first.json()["zombie"]
    fresh = replay.json()["url"].rsplit("/", 1)[1]
    assert fresh != token
    assert Membership.objects.filter(event=race, role=Membership.ZOMBIE).count() == 1
    for record in IdempotencyRecord.objects.all():
        assert token not in str(record.body) and fresh not in str(record.body)
    login = lambda raw: APIClient().post("/api/login/", {"token": raw}, format="json")  # noqa: E731
    assert login(token).status_code == 400
    assert login(fresh).status_code == 200
