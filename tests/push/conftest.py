"""The push tests' own settings, push service and broker (tests/push/pushkit.py)."""
from __future__ import annotations

import pytest
import redis
from django.conf import settings as django_settings

from pushkit import PushService


@pytest.fixture(autouse=True)
def push_config(settings, tmp_path, monkeypatch):
    settings.VAR_DIR = tmp_path              # a generated key of the test's own
    settings.PUSH_ALLOW_HTTP_ENDPOINTS = True  # the local push service speaks plain http
    for name in ("VAPID_PRIVATE_KEY", "VAPID_PUBLIC_KEY", "VAPID_SUBJECT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")


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
