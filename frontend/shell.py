"""The phone app's shell: which files make it, and a version that changes with them, so
a phone's service worker replaces its cache exactly when the app changed."""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from django.conf import settings

from common.i18n import text
from common.messages import APP_WORDS

STATIC = Path(__file__).parent / "static"
LANGS = ("fr", "es", "en")


def _static_files() -> list[Path]:
    return sorted(p for p in (STATIC / "frontend").rglob("*") if p.is_file())


@lru_cache(maxsize=1)
def version() -> str:
    digest = hashlib.sha256()
    for path in _static_files():
        digest.update(str(path.relative_to(STATIC)).encode())
        digest.update(path.read_bytes())
    for po in sorted((Path(__file__).parent / "locale").rglob("*.mo")):
        digest.update(po.read_bytes())
    return digest.hexdigest()[:12]


def shell_urls() -> list[str]:
    files = [f"{settings.STATIC_URL}{p.relative_to(STATIC)}" for p in _static_files()]
    return ["/", "/manifest.webmanifest", *[manifest_url(lang) for lang in LANGS],
            *[f"/jsi18n/{lang}/" for lang in LANGS], *files]


def words(lang: str) -> dict:
    """The app's name and description in `lang` (the manifest, the shell's title)."""
    return {key: text(msgid, lang) for key, msgid in APP_WORDS.items()}


def manifest_url(lang: str) -> str:
    return f"/manifest.webmanifest?lang={lang}"


def manifest(lang: str) -> dict:
    """One manifest per language, the same app (its `id`): the shell links the one of the
    language it speaks, and js/i18n.js swaps the link when the phone changes language."""
    icons = settings.STATIC_URL + "frontend/icons/"
    said = words(lang)
    return {
        "id": "/",
        "lang": lang,
        "dir": "ltr",
        "name": said["name"],
        "short_name": said["short_name"],
        "description": said["description"],
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": "#0b0d10",
        "theme_color": "#0b0d10",
        "icons": [
            {"src": icons + "icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": icons + "icon-512.png", "sizes": "512x512", "type": "image/png"},
            {"src": icons + "icon-maskable-512.png", "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
    }
