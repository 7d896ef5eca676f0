"""Production is safe by default: `check --deploy` finds nothing to say, the public default
key is refused once others can reach the server, and every page carries a CSP."""
from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from devtools.run import local_secret_key

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {"PUBLIC_URL": "https://game.example.org", "ALLOWED_HOSTS": "game.example.org",
              "CSRF_TRUSTED_ORIGINS": "https://game.example.org"}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "PUBLIC_URL",
                          "CSRF_TRUSTED_ORIGINS", "DJANGO_SETTINGS_MODULE")}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=120)


def test_check_deploy_reports_nothing_in_production():
    done = manage("check", "--deploy", "--fail-level", "WARNING",
                  SECRET_KEY=secrets.token_urlsafe(50), **PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNINGS" not in done.stdout + done.stderr
    assert "identified no issues" in done.stdout


def test_the_default_key_is_refused_on_a_server_others_reach():
    done = manage("check", **PRODUCTION)
    assert done.returncode != 0
    assert "Set SECRET_KEY" in done.stderr


@pytest.mark.parametrize("env", [{}, {"DEBUG": "1", **PRODUCTION}])
def test_the_default_key_is_kept_for_this_machine_alone_or_debug(env):
    done = manage("check", **env)
    assert done.returncode == 0, done.stderr


def test_run_keeps_a_key_of_its_own(tmp_path):
    path = tmp_path / "var" / "secret_key"
    key = local_secret_key(path)
    assert len(key) >= 50 and local_secret_key(path) == key  # the same across restarts
    assert path.stat().st_mode & 0o077 == 0


def test_an_https_public_url_makes_cookies_secure_and_turns_on_hsts():
    done = manage("shell", "-c", "from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE,"
                  " s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS,"
                  " s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_PROXY_SSL_HEADER)",
                  SECRET_KEY=secrets.token_urlsafe(50), **PRODUCTION)
    assert done.stdout.strip().split("\n")[-1] == \
        "True True True 31536000 False ('HTTP_X_FORWARDED_PROTO', 'https')", done.stderr


def policy(response) -> dict[str, str]:
    header = response.headers["Content-Security-Policy"]
    return dict(part.strip().split(" ", 1) for part in header.split(";"))


@pytest.mark.django_db
def test_every_page_allows_the_apps_own_scripts_only(client, narrator_api, event):
    home = client.get("/")
    assert policy(home)["script-src"] == "'self'"
    assert "<script>" not in home.content.decode()  # no inline script to need an exception
    sheets = narrator_api.get(f"/events/{event.pk}/sheets/")
    rules = policy(sheets)
    nonce = re.search(r"'nonce-([^']+)'", rules["style-src"]).group(1)
    assert f'<style nonce="{nonce}">' in sheets.content.decode()  # the print styles still apply
    assert rules["object-src"] == "'none'"


@pytest.mark.django_db
def test_the_api_docs_load_nothing_but_the_apps_own_files(client, narrator_api):
    docs = narrator_api.get("/api/docs/")
    assert docs.status_code == 200
    rules = policy(docs)
    assert rules["script-src"] == "'self'"           # no CDN: the docs work offline
    assert "cdn" not in docs.headers["Content-Security-Policy"]
    page = docs.content.decode()
    assert "<script>" not in page                    # its start-up script is a file
    files = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert len(files) >= 4 and all(url.startswith("/") for url in files), files
    for url in files:                                # served by the app (whitenoise), as under ./run
        assert client.get(url).status_code == 200, url
