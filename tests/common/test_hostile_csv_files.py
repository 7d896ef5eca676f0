"""Every CSV import (the roster, the race's entries, the finger readout) reads a file one
way whatever its transport (text/csv, {"csv": text}, a multipart `file`, the management
commands): a hostile file is a 4xx naming its lines, never a 500, and changes nothing; the
files spreadsheets really save (Mac line endings, UTF-16, cp1252, `sep=;`) import."""
from __future__ import annotations

import codecs
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from fixtures import fingerprint
from players.models import Character
from players.services import event_create
from race.models import Entry, Punch
from race.services.courses import checkpoint_create, course_create
from race.services.entries_import import entries_import

ROSTER_HEADER = "name;team;combat"
ENTRIES_HEADER = "name;course;finger;phone"
READOUT_HEADER = "finger;checkpoint;time"


@pytest.fixture
def race(clock, narrator_user):
    race = event_create(name="Rugles by Night", ruleset="zombie_race", language="fr", options={},
                        by=narrator_user, start_clock=True)
    course = course_create(event=race, name="famille", by=narrator_user)
    checkpoint_create(course=course, code="31", name="Balise 31", by=narrator_user, lat=48.82, lon=0.70)
    entries_import(event=race, text=f"{ENTRIES_HEADER}\nLucie Morel;famille;101;06 12 34 56 78\n",
                   by=narrator_user)
    return race


def _routes(event, race):
    """(name, url, header, a good row, a good row whose `name`/`finger` cell is replaced)"""
    return {
        "roster": (f"/api/events/{event.pk}/roster/", ROSTER_HEADER, "Zoé Marchal;Bleus;2",
                   lambda cell: f"{cell};Bleus;2", lambda cell: f"Ana;Bleus;2"),
        "entries": (f"/api/race/events/{race.pk}/entries/import/", ENTRIES_HEADER,
                    "Paul Morel;famille;201;06 12 34 56 78",
                    lambda cell: f"{cell};famille;202;06 12 34 56 78",
                    lambda cell: f"Nina;famille;{cell};06 12 34 56 78"),
        "readout": (f"/api/race/events/{race.pk}/punches/import/", READOUT_HEADER,
                    "101;31;22:10:00", lambda cell: f"101;{cell};22:11:00",
                    lambda cell: f"{cell};31;22:12:00"),
    }


def _send(api, url, raw: bytes, transport: str, lang="en"):
    if transport == "text/csv":
        return api.post(url, raw, content_type="text/csv", HTTP_ACCEPT_LANGUAGE=lang)
    if transport == "json":
        return api.post(url, json.dumps({"csv": raw.decode("utf-8")}), content_type="application/json",
                        HTTP_ACCEPT_LANGUAGE=lang)
    return api.post(url, {"file": SimpleUploadedFile("file.csv", raw, "text/csv")}, format="multipart",
                    HTTP_ACCEPT_LANGUAGE=lang)


def _state():
    return fingerprint(), Entry.objects.count(), Punch.objects.count()


HUGE = "x" * 140_000
LONG_NUMBER = "9" * 5000


def _hostile_files(header, good, text_cell, number_cell):
    """{what: (file text, the bad line)}: each file's other lines are good."""
    return {
        "CR-only line endings, a bad line 3": (f"{header}\r{good}\r{number_cell('abc')}\r", 3),
        "a 140,000-character cell": (f"{header}\n{good}\n{text_cell(HUGE)}\n", 3),
        "a 5,000-digit number": (f"{header}\n{good}\n{number_cell(LONG_NUMBER)}\n", 3),
        "a stray quote": (f'{header}\n{good}\n{text_cell(chr(34) + "Ana" + chr(34) + "x" + chr(34))}', 3),
        "sep=; then a bad line 4": (f"sep=;\n{header}\n{good}\n{number_cell('abc')}\n", 4),
    }


@pytest.mark.django_db
@pytest.mark.parametrize("transport", ["text/csv", "json", "multipart"])
@pytest.mark.parametrize("route", ["roster", "entries", "readout"])
def test_a_hostile_file_is_a_4xx_naming_its_line_and_changes_nothing(event, race, narrator_api,
                                                                      route, transport):
    url, header, good, text_cell, number_cell = _routes(event, race)[route]
    if route == "roster":   # the roster has no number column a cell could overflow: a twin
        number_cell = lambda cell: "Zoe\u0301 Marchal;Bleus;2" if cell == LONG_NUMBER else f"Ana;Bleus;{cell}"
    for what, (text, line) in _hostile_files(header, good, text_cell, number_cell).items():
        before = _state()
        response = _send(narrator_api, url, text.encode("utf-8"), transport)
        assert response.status_code == 400, (what, response.content[:300])
        body = response.json()
        assert body["error"] == "csv_rejected", what
        assert [row["line"] for row in body["rows"]] == [line], (what, body["rows"])
        assert _state() == before, what


@pytest.mark.django_db
@pytest.mark.parametrize("transport", ["text/csv", "multipart"])
@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "cp1252", "mac"])
def test_the_files_spreadsheets_save_import_alike(event, narrator_api, transport, encoding):
    text = "nom;équipe;combat\nZoé Marchal;Bleus;2\nHélène Blanc;Rouges;1\n"
    if encoding == "mac":
        raw = text.replace("\n", "\r").encode("utf-8")
    else:
        raw = text.encode(encoding)
    if encoding == "utf-16":
        assert raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    response = _send(narrator_api, f"/api/events/{event.pk}/roster/", raw, transport)
    assert response.status_code == 201, response.content
    assert sorted(Character.objects.filter(event=event, name__in=["Zoé Marchal", "Hélène Blanc"])
                  .values_list("team__name", flat=True)) == ["Bleus", "Rouges"]


@pytest.mark.django_db
def test_excel_sep_line_names_the_separator(event, narrator_api):
    response = _send(narrator_api, f"/api/events/{event.pk}/roster/",
                     b"sep=,\nname,team\nAna;Bis,Bleus\n", "text/csv")
    assert response.status_code == 201, response.content
    assert Character.objects.filter(event=event, name="Ana;Bis").exists()


@pytest.mark.django_db
def test_every_problem_of_a_line_is_listed(event, narrator_api):
    response = _send(narrator_api, f"/api/events/{event.pk}/roster/",
                     f"name;team\n{'x' * 2000};Bleus;extra\n".encode(), "text/csv")
    assert response.status_code == 400
    assert response.json()["rows"] == [
        {"line": 2, "reason": "expected 2 values, found 3"},
        {"line": 2, "reason": "a cell is longer than 1000 characters"},

    ]


@pytest.mark.django_db
@pytest.mark.parametrize("transport", ["text/csv", "json", "multipart"])
def test_a_body_over_the_import_limit_is_413_whatever_its_type(event, narrator_api, settings, transport):
    settings.IMPORT_MAX_BODY = 200_000
    before = _state()
    raw = ("name;team\n" + "".join(f"Joueur {i};Bleus\n" for i in range(20_000))).encode()
    assert len(raw) > 200_000
    response = _send(narrator_api, f"/api/events/{event.pk}/roster/", raw, transport)
    assert response.status_code == 413, response.content[:300]
    assert response.json()["error"] == "body_too_large"
    assert _state() == before


@pytest.mark.django_db
def test_a_csv_body_elsewhere_is_held_to_64_kib(event, narrator_api):
    response = narrator_api.post(f"/api/events/{event.pk}/clock/", b"x" * (65 * 1024),
                                 content_type="text/csv")
    assert response.status_code == 413
    assert response.json()["error"] == "body_too_large"


@pytest.mark.django_db
@pytest.mark.parametrize("command", ["import_characters", "import_entries"])
def test_the_commands_read_hostile_files_the_same_way(event, race, tmp_path, capsys, command):
    url, header, good, text_cell, number_cell = _routes(event, race)[
        "roster" if command == "import_characters" else "entries"]
    target = event if command == "import_characters" else race
    files = {"cr": (f"{header}\r{good}\r{text_cell(HUGE)}\r", 3),
             "utf16": (f"{header}\n{good}\n{text_cell(HUGE)}\n", 3)}
    for what, (text, line) in files.items():
        path = tmp_path / f"{what}.csv"
        path.write_bytes(text.encode("utf-16" if what == "utf16" else "utf-8"))
        before = _state()
        with pytest.raises(CommandError):
            call_command(command, str(target.pk), str(path))
        assert f"{path}:{line}: " in capsys.readouterr().err, what
        assert _state() == before
