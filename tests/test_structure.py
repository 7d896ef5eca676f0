"""The house's shape, checked: each app imports only the apps below it (so no circle),
the rules core imports no Django, and no module outside the tests is too long to read in
one sitting."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Lowest first: an app may import the apps before it in this list, never one after it.
LAYERS = ["rulesets", "common", "players", "live", "health", "effects", "combat", "push",
          "club", "schedule", "race", "safety", "rehearsals", "frontend", "config"]
MAX_LINES = 400


def _modules():
    for app in LAYERS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                yield app, path


def _imported_apps(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found |= {name.split(".")[0] for name in names}
    return found


def test_every_app_imports_only_the_apps_below_it():
    upward = [f"{path.relative_to(ROOT)} imports {other}"
              for app, path in _modules()
              for other in _imported_apps(path) & set(LAYERS)
              if LAYERS.index(other) > LAYERS.index(app)]
    assert upward == []


# Real-world safety observes the game; no app of the game names it.
GAME_APPS = ["rulesets", "common", "players", "live", "health", "effects", "combat", "push",
             "club", "schedule", "race"]


@pytest.mark.parametrize("app, forbidden", [("health", {"combat", "push", "effects"}),
                                            ("rulesets", {"django", "rest_framework", "channels"}),
                                            *((app, {"safety"}) for app in GAME_APPS)])
def test_an_app_does_not_name_those_that_observe_it(app, forbidden):
    named = [f"{path.relative_to(ROOT)} imports {other}"
             for owner, path in _modules() if owner == app
             for other in _imported_apps(path) & forbidden]
    assert named == []


def test_no_module_is_too_long_to_read_in_one_sitting():
    long = [f"{path.relative_to(ROOT)}: {lines} lines" for _, path in _modules()
            if (lines := len(path.read_text().splitlines())) > MAX_LINES]
    assert long == []
