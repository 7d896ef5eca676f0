"""The login limit holds under a burst (every attempt counted before it runs) and covers
the admin's password login too, with the same count per address."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db(transaction=True)


def _bad_login(_):
    try:
        return APIClient().post("/api/login/", {"token": "a-guess"}, format="json").status_code
    finally:
        connections.close_all()


def test_a_burst_of_bad_logins_gets_no_more_tries_than_the_limit(clock):
    with ThreadPoolExecutor(max_workers=25) as pool:
        codes = list(pool.map(_bad_login, range(100)))
    assert codes.count(400) == settings.LOGIN_FAILURES_MAX, codes
    assert codes.count(429) == 100 - settings.LOGIN_FAILURES_MAX


def _admin_login(password):
    return Client().post("/admin/login/", {"username": "organiser", "password": password,
                                           "next": "/admin/"}, HTTP_ACCEPT_LANGUAGE="en")


def test_the_admins_password_login_is_limited_like_the_links(clock):
    get_user_model().objects.create_user(username="organiser", password="correct horse battery",
                                         is_staff=True, is_superuser=True)
    assert _admin_login("correct horse battery").status_code == 302     # it works, and is not a failure
    for _ in range(settings.LOGIN_FAILURES_MAX - 1):
        assert _admin_login("guess").status_code == 200                  # the form again
    assert APIClient().post("/api/login/", {"token": "a-guess"}, format="json").status_code == 400

    refused = _admin_login("correct horse battery")     # the 21st try, with the right password
    assert refused.status_code == 200
    assert "Too many failed login attempts from this network" in refused.content.decode()
    assert "_auth_user_id" not in refused.wsgi_request.session
