"""The push tests' own settings, push service and broker (tests/pushkit.py)."""
from __future__ import annotations

import pytest
import redis
from django.conf import settings as django_settings

from pushkit import PushService, push_settings


@pytest.fixture(autouse=True)
def push_config(settings, tmp_path, monkeypatch):
    push_settings(settings, tmp_path, monkeypatch)


@pytest.fixture
def service():
    service = PushService()
    yield service
    service.close()


@pytest.fixture
def broker():
    client = redis.Redis.from_url(django_settings.CELERY_BROKER_URL)
    client.delete("celery")
    return client
