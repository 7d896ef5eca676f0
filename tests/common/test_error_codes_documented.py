"""docs/api.md's "Error codes" section lists every code a client can receive, with its HTTP
status, and nothing else. The codes are read from the server itself: the refusal texts
(common/messages.py), every literal code given to RuleRefused or put in an error body in
the apps' source, the refusals the rulesets name in their data, the framework's own
exceptions the apps raise, what the framework answers by itself, and the websocket's close
codes. A new code without its row, or a row whose code is gone, fails here."""
from __future__ import annotations

import ast
import gettext
import importlib
import re
from pathlib import Path

import pytest
import yaml
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework.exceptions import APIException
from rest_framework.test import APIClient

from common.errors import exception_handler, refusal_status
from common.messages import MESSAGES
from fixtures import client_for
from players.services import event_create
from rulesets import RuleRefused

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "api.md"
# Every app a client talks to. rehearsals/ is left out: `manage.py rehearse` reads the
# services' own refusals on the organiser's terminal, no phone receives its wrappers.
APPS = ["rulesets", "common", "players", "live", "health", "effects", "combat", "push", "safety",
        "club", "schedule", "race", "frontend", "config"]
# What a browser reports when the server refuses the websocket at the handshake (a foreign
# Origin, live/origins.py): the server sends no close code of its own then.
BROWSER_CLOSE_CODES = {1006}


# --- the table -------------------------------------------------------------------------------

ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|\s*([^|]*?)\s*\|")


def documented() -> dict[str, str]:
    """code -> its status cell, from every table row of the "Error codes" section."""
    text = DOC.read_text()
    start = text.find("\n## Error codes\n")
    assert start >= 0, "docs/api.md has no '## Error codes' section"
    section = text[start + 1:]
    end = section.find("\n## ")
    section = section if end < 0 else section[:end]
    rows = {}
    for line in section.splitlines():
        match = ROW.match(line)
        if match and not set(match.group(1)) <= {"-", " "}:
            code, status = match.groups()
            assert code not in rows, f"{code} has two rows"
            rows[code] = status
    return rows


def documented_status(cell: str) -> int | None:
    match = re.match(r"(\d{3,4})\b", cell)
    return int(match.group(1)) if match else None


# --- the codes, from the source --------------------------------------------------------------

def _modules():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path, ast.parse(path.read_text(), str(path))


def _imports(tree) -> dict[str, str]:
    """local name -> dotted name of what it was imported as."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.split(".")[0]] = alias.name
    return names


def _dotted(func, imports) -> str | None:
    if isinstance(func, ast.Name):
        return imports.get(func.id, func.id)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{imports.get(func.value.id, func.value.id)}.{func.attr}"
    return None


def _resolve(dotted: str):
    module, _, name = dotted.rpartition(".")
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError, ValueError):
        return None


def _literal(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _refusal_classes(tree) -> set[str]:
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
            and any(getattr(base, "id", getattr(base, "attr", None)) == "RuleRefused"
                    for base in node.bases)}


def refused_in_source() -> dict[str, list[str]]:
    """Literal codes given to RuleRefused (or to a subclass's __init__) -> where."""
    found: dict[str, list[str]] = {}
    for path, tree in _modules():
        refusals = {"RuleRefused", *_refusal_classes(tree)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = getattr(func, "id", getattr(func, "attr", None))
            is_super_init = (name == "__init__" and isinstance(func.value, ast.Call)
                             and getattr(func.value.func, "id", None) == "super")
            code = _literal(node.args[0])
            if code and (name in refusals or is_super_init):
                found.setdefault(code, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def error_bodies_in_source() -> dict[str, int | None]:
    """Codes written straight into an answer, `{"error": "code", ...}` -> its status."""
    found = {}
    for _, tree in _modules():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            status = next((kw.value.value for kw in node.keywords if kw.arg == "status"
                           and isinstance(kw.value, ast.Constant)), None)
            for arg in node.args:
                if isinstance(arg, ast.Dict):
                    for key, value in zip(arg.keys, arg.values):
                        if key is not None and _literal(key) == "error" and _literal(value):
                            found[_literal(value)] = status
    return found


def _framework_exception(obj):
    """An instance of what the apps raise from Django or DRF, as the handler receives it."""
    if obj is Http404 or getattr(obj, "__name__", "") == "get_object_or_404":
        return Http404()
    if obj is DjangoPermissionDenied:
        return DjangoPermissionDenied()
    if isinstance(obj, type) and issubclass(obj, APIException):
        return obj({"field": ["a problem"]}) if obj.__name__ == "ValidationError" else obj()
    return None


def framework_errors_in_source() -> dict[str, int]:
    """The Django and DRF exceptions the apps raise (NotFound, get_object_or_404...) -> the
    code and status common.errors.exception_handler answers for them."""
    found = {}
    for _, tree in _modules():
        imports = _imports(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                dotted = _dotted(node.func, imports)
            elif isinstance(node, ast.Raise) and node.exc is not None:
                dotted = _dotted(node.exc, imports)   # `raise Http404`, no call
            else:
                continue
            if not dotted or not dotted.startswith(("rest_framework.", "django.")):
                continue
            exc = _framework_exception(_resolve(dotted))
            if exc is not None:
                response = exception_handler(exc, {"request": None})
                found[response.data["error"]] = response.status_code
    return found


def refused_in_rulesets() -> set[str]:
    """The refusals a ruleset names in its data (an action's `requires: [{refusal: ...}]`)."""
    found = set()

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "refusal" and isinstance(value, str):
                    found.add(value)
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in sorted((ROOT / "rulesets" / "data").glob("*.yaml")):
        walk(yaml.safe_load(path.read_text()))
    return found


def close_codes_in_source() -> set[int]:
    """Websocket close codes the consumers send (`self.close(code=4403)`), and those sent
    as plain ASGI messages (`{"type": "websocket.close", "code": 4013}`: live/admission.py)."""
    found = set()
    for _, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "close":
                found |= {kw.value.value for kw in node.keywords if kw.arg == "code"
                          and isinstance(kw.value, ast.Constant)}
            if isinstance(node, ast.Dict):
                found |= _asgi_close_code(node)
    return found


def _asgi_close_code(node: ast.Dict) -> set[int]:
    entries = {key.value: value for key, value in zip(node.keys, node.values)
               if isinstance(key, ast.Constant)}
    kind, code = entries.get("type"), entries.get("code")
    if (isinstance(kind, ast.Constant) and kind.value == "websocket.close"
            and isinstance(code, ast.Constant)):
        return {code.value}
    return set()


def static_codes() -> set[str]:
    return (set(MESSAGES) | set(refused_in_source()) | set(error_bodies_in_source())
            | set(framework_errors_in_source()) | refused_in_rulesets()
            | {str(code) for code in close_codes_in_source() | BROWSER_CLOSE_CODES})


# --- the framework's own answers -------------------------------------------------------------

@pytest.fixture
def framework_answers(clock, player, narrator_user) -> dict[str, int]:
    """What Django REST framework answers by itself before any view of ours runs: code ->
    status, read from the answers."""
    anonymous = APIClient()
    no_csrf = APIClient(enforce_csrf_checks=True)
    no_csrf.force_login(player.user)
    own = client_for(player.user)
    race = event_create(name="Rugles by Night", ruleset="zombie_race", by=narrator_user,
                        start_clock=True)
    answers = [
        anonymous.get("/api/me/"),                                    # no session
        no_csrf.post(f"/api/characters/{player.pk}/actions/",         # no X-CSRFToken
                     {"action": "hit_stunning"}, format="json"),
        own.delete("/api/me/"),                                       # a method the route lacks
        own.post(f"/api/characters/{player.pk}/actions/", "action=hit_stunning",
                 content_type="application/x-www-form-urlencoded"),   # not JSON
        own.get("/api/me/", HTTP_ACCEPT="text/csv"),                  # an answer it cannot give
        client_for(narrator_user).post(                               # multipart, no boundary
            f"/api/race/events/{race.pk}/punches/import/", b"--edge\r\nbroken",
            content_type="multipart/form-data"),
    ]
    codes = {}
    for response in answers:
        assert 400 <= response.status_code < 500, response.content
        codes[response.json()["error"]] = response.status_code
    return codes


# --- the checks ------------------------------------------------------------------------------

def test_every_code_in_the_source_has_a_row():
    missing = sorted(static_codes() - set(documented()))
    assert not missing, f"docs/api.md, Error codes: no row for {missing}"


@pytest.mark.django_db
def test_every_code_the_framework_answers_has_a_row_with_its_status(framework_answers):
    rows = documented()
    missing = sorted(set(framework_answers) - set(rows))
    assert not missing, f"docs/api.md, Error codes: no row for {missing}"
    wrong = {code: (rows[code], status) for code, status in framework_answers.items()
             if documented_status(rows[code]) != status}
    assert not wrong, f"documented status != answered status: {wrong}"


@pytest.mark.django_db
def test_no_row_names_a_code_that_no_longer_exists(framework_answers):
    stale = sorted(set(documented()) - static_codes() - set(framework_answers))
    assert not stale, f"docs/api.md, Error codes: no such code any more: {stale}"


def test_each_refusal_is_documented_with_the_status_it_answers():
    rows = documented()
    refused = set(refused_in_source()) | refused_in_rulesets()
    expected = {code: refusal_status(RuleRefused(code)) for code in refused}
    expected |= {code: status for code, status in error_bodies_in_source().items() if status}
    expected |= framework_errors_in_source()
    wrong = {code: (rows.get(code), status) for code, status in expected.items()
             if code in rows and documented_status(rows[code]) != status}
    assert not wrong, f"documented status != the status the server answers: {wrong}"


def test_the_websocket_close_codes_have_rows():
    rows = documented()
    for code in close_codes_in_source() | BROWSER_CLOSE_CODES:
        assert str(code) in rows, f"no row for the websocket close code {code}"


def _catalogue(lang: str) -> dict:
    with open(ROOT / "locale" / lang / "LC_MESSAGES" / "django.mo", "rb") as mo:
        return gettext.GNUTranslations(mo)._catalog


def test_every_refusal_raised_reads_in_every_language():
    """A code raised without a text would answer a 500 (or a bare code) to the user."""
    raised = set(refused_in_source()) | refused_in_rulesets()
    own_wording = raised & set(error_bodies_in_source())
    without_text = sorted(raised - set(MESSAGES) - own_wording)
    assert not without_text, f"raised with no text in common/messages.py: {without_text}"
    for lang in ("fr", "es"):
        catalogue = _catalogue(lang)
        untranslated = sorted(code for code in raised & set(MESSAGES)
                              if not catalogue.get(MESSAGES[code]))
        assert not untranslated, f"{lang}: no translation for {untranslated}"
