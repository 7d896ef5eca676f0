"""A race rehearsed from the orienteering tools' files (`iof:`) and its ResultList read
back (`result_list`): the shipped example passes (test_rehearse.py); here, what an
organiser gets when a file or an expectation is wrong. Nothing is played when a file is
bad."""
from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

EXAMPLE = Path(__file__).resolve().parents[2] / "rehearsals" / "race_iof_round_trip.yaml"
FILES = EXAMPLE.parent / "iof"
COURSES = (FILES / "rugles_CourseData.xml").read_text(encoding="utf-8")
ENTRIES = (FILES / "rugles_EntryList.xml").read_text(encoding="utf-8")


def header(courses: str = "courses.xml", entries: str = "entries.xml") -> str:
    return ('event: {name: T, ruleset: zombie_race}\n'
            f'iof: {{courses: {courses}, entries: {entries}}}\nsteps:\n')


def folder(tmp_path, *, courses: str = COURSES, entries: str = ENTRIES):
    (tmp_path / "courses.xml").write_text(courses, encoding="utf-8")
    (tmp_path / "entries.xml").write_text(entries, encoding="utf-8")
    return tmp_path


def failing(path) -> tuple[str, str]:
    out = StringIO()
    with pytest.raises(CommandError) as error:
        call_command("rehearse", str(path), stdout=out)
    return out.getvalue(), str(error.value)


def rehearsal(tmp_path, text: str) -> Path:
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.django_db
def test_a_result_list_expectation_that_the_file_does_not_meet_names_both_values(tmp_path):
    path = rehearsal(folder(tmp_path), header() + """\
  - {at: "0:00", race_start: famille}
  - {at: "10:00", by: 101, punch: 31}
  - {at: "20:00", finish: 101}
  - {at: "21:00", result_list: {101: {position: 1, status: Disqualified, score: 10}}}
""")
    output, error = failing(path)
    assert "101: the ResultList says status 'OK', expected 'Disqualified'" in output
    # 1 balise found, 3 not: 20 - 30.
    assert "101: the ResultList says score -10.0, expected 10" in output
    assert "position" not in output.split("FAILED")[1]          # 1 is right
    assert "step 4 at 21:00" in error


@pytest.mark.django_db
def test_a_step_may_name_an_entry_by_its_finger_quoted_or_not(tmp_path):
    path = rehearsal(folder(tmp_path), header() + """\
  - {at: "0:00", race_start: famille}
  - {at: "10:00", by: "101", punch: 31}
  - {at: "11:00", by: 101, punch: 32}
  - {at: "12:00", expect: {"101": {race: {found: 2}}, 104: {race: {found: 0}}}}
  - {at: "13:00", by: 999, punch: 31}
""")
    _, error = failing(path)
    assert "step 5: by: unknown key '999' (entries, zombies, marshals: 103, 101, 102, 104, 105, 106" in error


@pytest.mark.django_db
@pytest.mark.parametrize("change, problem", [
    (lambda c, e: (c, e.replace("<Name>Famille</Name>", "<Name>Sportif</Name>", 1)),
     "iof.entries: line 8: class 'Sportif' runs no course of the CourseData (famille)"),
    (lambda c, e: (c, e.replace('<ControlCard punchingSystem="SI">102</ControlCard>', "")),
     "iof.entries: line 31: a rehearsal names each entry by its finger, and this one has no ControlCard"),
    (lambda c, e: (c, e.replace(">104<", ">101<")),
     "iof.entries: '101' is already the key of someone else in the file"),
    (lambda c, e: (c.replace("<Control>34</Control>", "<Control>35</Control>"), e),
     "iof.courses: line 21: control 35 of course famille is not among the file's controls"),
    (lambda c, e: (e, e), "the file is a EntryList, not an IOF XML 3.0 CourseData"),
    (lambda c, e: (c, '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">'
                      '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n<EntryList>&b;</EntryList>'),
     "iof.entries: line 1:"),
])
def test_a_bad_file_is_refused_with_its_line_before_anything_is_played(tmp_path, change, problem):
    courses, entries = change(COURSES, ENTRIES)
    path = rehearsal(folder(tmp_path, courses=courses, entries=entries),
                     header() + '  - {at: "0:00", race_start: famille}\n')
    output, error = failing(path)
    assert problem in error
    assert "invalid rehearsal file" in error and output == ""


def test_the_header_takes_courses_and_entries_from_the_files_or_from_itself_not_both(tmp_path):
    path = rehearsal(folder(tmp_path), "entries: {lucie: {course: famille, finger: 9}}\n" + header()
                     + '  - {at: "0:00", race_start: famille}\n')
    _, error = failing(path)
    assert "iof: the courses and entries come from the orienteering files" in error
    path = rehearsal(tmp_path, header(entries="missing.xml") + '  - {at: "0:00", race_start: famille}\n')
    _, error = failing(path)
    assert "iof.entries: cannot read missing.xml: No such file or directory" in error
