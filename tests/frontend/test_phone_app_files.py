"""The phone app's files: installable (manifest, icons, service worker at the root) and
every phone text translated in French and Spanish."""
from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest

FRONTEND = Path(__file__).resolve().parents[2] / "frontend"
JS = FRONTEND / "static" / "frontend" / "js"


def phone_texts() -> set[str]:
    texts = set()
    for path in JS.glob("*.js"):
        texts |= set(re.findall(r'\bt\("((?:[^"\\]|\\.)*)"', path.read_text()))
    return texts


def po_entries(lang: str) -> dict[str, str]:
    text = (FRONTEND / "locale" / lang / "LC_MESSAGES" / "djangojs.po").read_text()
    return dict(re.findall(r'msgid "((?:[^"\\]|\\.)*)"\nmsgstr "((?:[^"\\]|\\.)*)"', text))


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_every_phone_text_is_translated_and_compiled(lang):
    entries = po_entries(lang)
    missing = sorted(t for t in phone_texts() if not entries.get(t))
    assert missing == [], f"untranslated in {lang}: {missing}"
    compiled = gettext.GNUTranslations(
        (FRONTEND / "locale" / lang / "LC_MESSAGES" / "djangojs.mo").open("rb"))
    stale = sorted(k for k, v in entries.items() if k and compiled.gettext(k) != v)
    assert stale == [], f"djangojs.mo is older than djangojs.po ({lang}): run msgfmt"


@pytest.mark.django_db
def test_the_app_is_installable(client):
    manifest = client.get("/manifest.webmanifest").json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200

    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert worker["Content-Type"].startswith("text/javascript")
    assert worker["Service-Worker-Allowed"] == "/"
    body = worker.content.decode()
    assert '"/"' in body and "/jsi18n/fr/" in body and "addEventListener(\"fetch\"" in body

    shell = client.get("/", HTTP_ACCEPT_LANGUAGE="es")
    assert shell.status_code == 200
    html = shell.content.decode()
    assert 'lang="es"' in html and 'rel="manifest"' in html
    assert "csrftoken" in shell.cookies


@pytest.mark.django_db
def test_every_module_of_the_app_opens_offline(client):
    """The service worker caches every module (a panel's too) and each module it imports."""
    body = client.get("/sw.js").content.decode()
    for path in JS.glob("*.js"):
        assert f'"/static/frontend/js/{path.name}"' in body, f"{path.name} is not precached"
        for imported in re.findall(r'^import\b[^;]*?"\./([\w.]+\.js)"', path.read_text(), re.M | re.S):
            assert (JS / imported).exists(), f"{path.name} imports a missing {imported}"


@pytest.mark.django_db
def test_the_phone_catalogue_follows_the_language(client):
    assert "Hors ligne" in client.get("/jsi18n/fr/").content.decode()
    assert "Sin conexi" in client.get("/jsi18n/es/").content.decode()
    assert client.get("/jsi18n/de/").status_code == 404
