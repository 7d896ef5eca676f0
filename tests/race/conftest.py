"""A night race for the race tests: "Rugles by Night" (zombie_race, French), a famille
course of 1 h 30 with four balises (31-34) worth 20 points each (confirmed), an enfant
course of 1 h with two; an organiser (the shared narrator) and a zombie. Helpers that go
through the API as the phones do are in racekit.py.

The shared clock starts at START (2026-06-06 20:00 UTC, 22:00 in Rugles)."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from fixtures import client_for
from players.models import Membership
from race.models import Course
from racekit import entry_of, gear, make_course, make_race, register


@pytest.fixture
def race(clock, narrator_user):
    return make_race(narrator_user)


@pytest.fixture
def famille(race, narrator_user) -> Course:
    return make_course(race, narrator_user)


@pytest.fixture
def enfant(race, narrator_user) -> Course:
    return make_course(race, narrator_user, name="enfant", codes=("11", "12"), points=10)


@pytest.fixture
def organiser_api(narrator_api):
    return narrator_api


@pytest.fixture
def enrol(organiser_api, race, famille):
    """enrol("Name", finger, course=famille, ready=True, **kw) -> Entry, registered
    through the API, gear checked unless ready=False."""
    def make(name, finger, course=None, ready=True, **kwargs):
        entry = entry_of(register(organiser_api, race, course or famille, name, finger, **kwargs))
        if ready:
            gear(organiser_api, entry, vest=True, light=True, phone=True)
        return entry
    return make


@pytest.fixture
def zombie_user(race):
    user = get_user_model().objects.create_user(username="zombie-igor")
    Membership.objects.create(event=race, user=user, role=Membership.ZOMBIE)
    return user


@pytest.fixture
def zombie_api(zombie_user):
    return client_for(zombie_user)
