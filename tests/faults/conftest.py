"""Fixtures of the fault tests: a stack of real processes on the test database (its data
committed: transactional tests), a game to play on it, phones that are closed at the end."""
from __future__ import annotations

import pytest
from stack import Game, Stack


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


@pytest.fixture
def stack(transactional_db, tmp_path, request):
    """Started processes are killed (their whole process group) when the test ends,
    whatever happened, before pytest-django empties the database."""
    stack = Stack(tmp_path / "stack")
    yield stack
    stack.stop()
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        print(stack.logs())


@pytest.fixture
def game_factory(transactional_db):
    return Game


@pytest.fixture
def phones():
    """Phones opened by a test (any key), closed at its end."""
    opened: dict = {}
    yield opened
    for phone in opened.values():
        phone.close()
