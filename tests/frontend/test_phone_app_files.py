"""The phone app's files: installable (manifest, icons, service worker at the root) and
every phone text translated in French and Spanish."""
from __future__ import annotations

import gettext
import hashlib
import json
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


VENDOR = FRONTEND / "static" / "frontend" / "vendor"
ZXING = VENDOR / "zxing-library-0.23.0"


def test_every_screen_scans_through_the_one_scanner_module():
    """BarcodeDetector is missing on iPhones: only js/scanner.js may touch it (and the
    camera), falling back on the ZXing shipped in the app."""
    direct = sorted(path.name for path in JS.glob("*.js")
                    if path.name not in ("scanner.js", "scan_worker.js")
                    and re.search(r"BarcodeDetector|getUserMedia", path.read_text()))
    assert direct == []
    worker = (JS / "scan_worker.js").read_text()
    assert 'importScripts("../vendor/zxing-library-0.23.0/index.min.js")' in worker


def test_the_vendored_decoder_says_what_it_is_and_its_licence():
    readme = (ZXING / "README.md").read_text()
    assert "@zxing/library" in readme and "0.23.0" in readme
    digest = hashlib.sha256((ZXING / "index.min.js").read_bytes()).hexdigest()
    assert digest in readme, "index.min.js is not the file the README names"
    assert "Apache License" in (ZXING / "LICENSE").read_text()


@pytest.mark.django_db
def test_the_decoder_opens_offline_and_the_policy_lets_its_worker_run(client):
    body = client.get("/sw.js").content.decode()
    # The list is written with escapejs ("-" as \u002D): read it as the browser does.
    shell = json.loads(re.search(r"^const SHELL = (\[.*\]);$", body, re.M).group(1))
    assert "/static/frontend/vendor/zxing-library-0.23.0/index.min.js" in shell
    assert "/static/frontend/js/scan_worker.js" in shell
    policy = client.get("/")["Content-Security-Policy"]
    # A worker from the app's own origin: default-src / script-src 'self' cover it.
    assert "worker-src" not in policy and "script-src 'self'" in policy
    assert client.get("/static/frontend/vendor/zxing-library-0.23.0/index.min.js").status_code == 200


LEAFLET = VENDOR / "leaflet-1.9.4"


@pytest.mark.django_db
def test_the_site_plans_map_library_is_shipped_with_its_licence_and_opens_offline(client):
    """The safety board's plan needs no internet: Leaflet is a file of the app, the one
    named in its README, and in the service worker's cache."""
    readme = (LEAFLET / "README.md").read_text()
    for name in ("leaflet.js", "leaflet.css"):
        assert hashlib.sha256((LEAFLET / name).read_bytes()).hexdigest() in readme, name
    assert "BSD 2-Clause" in (LEAFLET / "LICENSE").read_text()
    assert 'new URL("../vendor/leaflet-1.9.4/", import.meta.url)' in (JS / "safety_plan.js").read_text()
    body = client.get("/sw.js").content.decode()
    shell = json.loads(re.search(r"^const SHELL = (\[.*\]);$", body, re.M).group(1))
    assert {"/static/frontend/vendor/leaflet-1.9.4/leaflet.js",
            "/static/frontend/vendor/leaflet-1.9.4/leaflet.css"} <= set(shell)
