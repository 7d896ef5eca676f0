"""Shared fixtures. Tests run against the real database and Redis named by DATABASE_URL
and REDIS_URL (the test command starts an embedded Redis when none is given); time is
controlled with time_machine, never waited for."""
from __future__ import annotations

import uuid

import pytest
import time_machine
from django.contrib.auth import get_user_model

from fixtures import MEDIC_SHEET, START, Clock, client_for
from players.services import character_create, event_create, team_get_or_create


def pytest_sessionstart(session):
    """The day runs on PostgreSQL (row locks, the batch write of a timer burst), so the
    tests do too: ./test starts an embedded one when DATABASE_URL is not set."""
    from django.conf import settings
    engine = settings.DATABASES["default"]["ENGINE"]
    if not engine.endswith("postgresql"):
        raise pytest.UsageError(f"the tests run on PostgreSQL, not {engine}: run ./test "
                                 "(it starts an embedded PostgreSQL) or set DATABASE_URL")


def pytest_collection_modifyitems(items):
    """Browser tests last: they hold a browser (and its event loop) until the session ends.

    A browser test that fails is not run again: a failure that comes one run in three is
    a defect to find (docs/performance.md, "Browser tests in a full run").
    The slowest takes about 30 s: one that takes 120 s is stuck (a page promise that
    never settles) and ends the run with every thread's stack (the thread method: Playwright's
    event loop swallows the alarm signal's exception)."""
    items.sort(key=lambda item: "/browser/" in str(item.path))
    for item in items:
        if "/browser/" in str(item.path):
            item.add_marker(pytest.mark.timeout(120, method="thread"))


@pytest.hookimpl(tryfirst=True)
def pytest_timeout_set_timer(item, settings):
    """pytest-timeout's thread method, naming the stuck test: its stack dump shows only
    threads, and a browser test runs in Playwright's greenlet."""
    if settings.method != "thread":
        return None
    import threading

    from pytest_timeout import timeout_timer

    def expire():
        item.config.get_terminal_writer().line(f"\n{item.nodeid}: stuck after {settings.timeout:.0f} s")
        timeout_timer(item, settings)
    timer = threading.Timer(settings.timeout, expire)
    timer.daemon = True
    item.cancel_timeout = timer.cancel
    timer.start()
    return True


@pytest.fixture(autouse=True, scope="session")
def live_messages_checked():
    """Every live message a test sends or publishes matches its kind's schema
    (tests/live_wire.py); on the field nothing is checked."""
    import live_wire
    live_wire.install()


@pytest.fixture(autouse=True)
def own_cache_keys(settings):
    """Every test counts login failures from zero: the frozen clock puts every test in the
    same rate-limit window of the shared Redis, so each gets its own key prefix (clearing
    the cache would flush the broker and channel layer that share the database)."""
    settings.CACHES = {"default": {**settings.CACHES["default"], "KEY_PREFIX": uuid.uuid4().hex}}


@pytest.fixture
def clock():
    with time_machine.travel(START, tick=False) as traveller:
        yield Clock(traveller)


@pytest.fixture
def narrator_user(db):
    return get_user_model().objects.create_user(username="narrator", is_staff=True)


@pytest.fixture
def event(clock, narrator_user):
    return event_create(name="Test GN", ruleset="gn_fr", by=narrator_user, start_clock=True)


@pytest.fixture
def player(event, narrator_user):
    team = team_get_or_create(event=event, name="Invités")
    return character_create(event=event, name="Alice", sheet={"combat_base": 2}, team=team,
                            by=narrator_user)


@pytest.fixture
def other_player(event, narrator_user):
    return character_create(event=event, name="Denis", sheet={"combat_base": 3}, by=narrator_user)


@pytest.fixture
def medic(event, narrator_user):
    return character_create(event=event, name="Bruno", sheet=MEDIC_SHEET,
                            kits={"kps": 2, "koc": 1}, by=narrator_user)


@pytest.fixture
def player_api(player):
    return client_for(player.user)


@pytest.fixture
def medic_api(medic):
    return client_for(medic.user)


@pytest.fixture
def narrator_api(narrator_user):
    return client_for(narrator_user)
