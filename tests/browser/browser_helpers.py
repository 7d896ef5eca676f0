"""Helpers for the browser tests."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def screenshots_dir() -> Path:
    """Where the pictures of the screens go: a scratch directory, so that a test run leaves
    the checkout as it was; `SCREENSHOTS=docs/screenshots ./test tests/browser` refreshes
    the pictures of the docs (docs/phone-app.md)."""
    chosen = os.environ.get("SCREENSHOTS")
    if not chosen:
        return Path(tempfile.gettempdir()) / "companion-screenshots"
    path = Path(chosen)
    return path if path.is_absolute() else ROOT / path


def screenshot(page, name: str) -> None:
    """Keep a current picture of a screen (phone size)."""
    folder = screenshots_dir()
    folder.mkdir(parents=True, exist_ok=True)
    # The sticky top bar would be painted mid-page in a full-page picture.
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True,
                    style="#topbar { position: static !important; }")
