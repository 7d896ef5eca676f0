"""The table of observers in docs/architecture.md ("Changes are observed, not called") says
what the registry holds: every observer declared in an app's `observers.py`, under its
own name, and in "who reacts" exactly the apps that registered a reaction to it."""
from __future__ import annotations

import importlib
import re
from pathlib import Path

from django.apps import apps

from common.observers import Observers

ROOT = Path(__file__).resolve().parent.parent
ROW = re.compile(r"^\| `(?P<module>\w+)/observers\.py` \| `(?P<name>\w+)`[^|]* \| (?P<who>[^|]+) \|$")


def project_apps() -> set[str]:
    return {config.name for config in apps.get_app_configs() if (ROOT / config.name).is_dir()}


def documented() -> dict[tuple[str, str], set[str]]:
    """(app, observer) -> the apps the table says react."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text.split("### Changes are observed, not called", 1)[1].split("\n\n", 3)[2]
    known = project_apps()
    rows = {}
    for line in table.splitlines():
        match = ROW.match(line)
        if match:
            words = set(re.findall(r"\b[a-z]+\b", match["who"]))
            rows[(match["module"], match["name"])] = words & known
    return rows


def registered() -> dict[tuple[str, str], set[str]]:
    """(app, observer) -> the apps whose reactions are registered, from every observers.py."""
    found = {}
    for app in sorted(project_apps()):
        if not (ROOT / app / "observers.py").exists():
            continue
        module = importlib.import_module(f"{app}.observers")
        for value in vars(module).values():
            if isinstance(value, Observers):
                found[(app, value.name)] = {r.__module__.split(".")[0] for r in value.reactions}
    return found


def test_the_observer_table_matches_the_registry():
    table, registry = documented(), registered()
    assert registry, "no observer found: the registry moved"
    assert set(table) == set(registry), "the table and the observers.py files differ"
    for key, apps_reacting in registry.items():
        assert table[key] == apps_reacting, (key, "documented", table[key], "registered",
                                             apps_reacting)
