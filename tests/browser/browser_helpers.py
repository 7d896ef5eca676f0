"""Helpers for the browser tests."""
from __future__ import annotations

from pathlib import Path

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def screenshot(page, name: str) -> None:
    """Keep a current picture of a screen in the docs (phone size)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # The sticky top bar would be painted mid-page in a full-page picture.
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True,
                    style="#topbar { position: static !important; }")
