"""The airsoft club's register for the tests of sanctions and the chrony: a game day (the
airsoft ruleset is not written yet, so the game runs gn_fr), a referee, members."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from helpers import client_for
from club.services.register import member_create
from players.models import Membership
from players.services import event_create


@pytest.fixture
def game(clock, narrator_user):
    return event_create(name="Partie du samedi", ruleset="airsoft_rats", language="fr",
                        by=narrator_user, start_clock=True)


@pytest.fixture
def referee_user(game):
    user = get_user_model().objects.create_user(username="arbitre")
    Membership.objects.create(event=game, user=user, role=Membership.REFEREE)
    return user


@pytest.fixture
def referee_api(referee_user):
    return client_for(referee_user)


def new_member(game, by, name="Karim Benali", licence="rat-0042", nickname="Kaïman"):
    return member_create(event=game, by=by, name=name, nickname=nickname,
                         phone="+33 6 12 34 56 78", licence_number=licence)


@pytest.fixture
def member(game, narrator_user):
    return new_member(game, narrator_user)


def check_in(api, game, member_ref, team=None, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    body = {"member": member_ref, **({"team": team} if team else {})}
    return api.post(f"/api/events/{game.pk}/check-in/", body, format="json", **headers)


def sanction(api, game, member_ref=None, key=None, **body):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    if member_ref is not None:
        body["member"] = member_ref
    body.setdefault("reason", "n'a pas annoncé sa touche")
    return api.post(f"/api/events/{game.pk}/sanctions/", body, format="json", **headers)


def register_world(event, by, character) -> dict:
    """For the route × role matrix (test_permissions): a member who checked in as
    `character`, a warning on the register, and a replica that passed the chrony."""
    from club.services.chrony import chrony_check_record, replica_register
    from club.services.sanctions import sanction_record
    from club.models import CheckIn

    rat = new_member(event, by, name="Alice Martin", licence="RAT-0001", nickname="")
    CheckIn.objects.create(member=rat, character=character, event=event)
    warning = sanction_record(event=event, member=rat, kind="warning", reason="pas crié out",
                              by=by)
    replica = replica_register(event=event, member=rat, label="M4", type="rifle", calibre_mm=6,
                               by=by)
    chrony_check_record(replica=replica, kind="check_in", bb_weight_g=0.2, speed_mps=100, by=by)
    return {"member": rat.pk, "sanction": warning.pk, "replica": replica.pk}
