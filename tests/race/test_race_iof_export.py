"""The race handed back to the orienteering tools: a StartList and a ResultList (IOF XML
3.0) that the federation's schema accepts, and that say what the race's own results say.
The round trip: entries and courses come in as IOF files, the night is played, the
ResultList goes out and reads back with the project's ranks, statuses and scores."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree
from rest_framework.test import APIClient

from racekit import at
from race.iof_xml import NS, schema
from race.models import Course, Entry
from race.selectors.boards import leaderboard
from race.selectors.iof_export import RACE_NS, result_list, start_list
from race.services import entries as entries_service, lives, punches, running
from race.services.iof_import import iof_import

pytestmark = pytest.mark.django_db
HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
OPEN = 'xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0"'
COURSES = (HEAD + f'<CourseData {OPEN}><Event><Name>Rugles by Night</Name></Event><RaceCourseData>'
           + "".join(f'<Control><Id>{code}</Id><Position lat="48.82{i}" lng="0.706"/></Control>'
                     for i, code in enumerate(("31", "32", "33", "34")))
           + '<Course><Name>famille</Name>'
           + "".join(f'<CourseControl><Control>{code}</Control><Score>20</Score></CourseControl>'
                     for code in ("31", "32", "33", "34"))
           + '</Course><ClassCourseAssignment><ClassName>Open</ClassName><CourseName>famille'
           '</CourseName></ClassCourseAssignment></RaceCourseData></CourseData>')


def person(given, family, card, club="") -> str:
    org = f"<Organisation><Name>{club}</Name></Organisation>" if club else ""
    return (f"<PersonEntry><Person><Name><Family>{family}</Family><Given>{given}</Given></Name>"
            f"</Person>{org}<ControlCard>{card}</ControlCard><Class><Name>Open</Name></Class></PersonEntry>")


ENTRIES = (HEAD + f'<EntryList {OPEN}><Event><Name>Rugles by Night</Name></Event>'
           + '<TeamEntry><Name>Les Rescapés</Name>'
           + "".join(f'<TeamEntryPerson><Person><Name><Family>{f}</Family><Given>{g}</Given></Name>'
                     f'</Person><Leg>1</Leg><ControlCard>{c}</ControlCard></TeamEntryPerson>'
                     for g, f, c in (("Marc", "Durand", 103), ("Julie", "Durand", 203)))
           + '<Class><Name>Open</Name></Class></TeamEntry>'
           + person("Lucie", "Morel", 101, "CO Rugles") + person("Paul", "Roux", 102)
           + person("Zoé", "Petit", 104) + person("Max", "Bernard", 105) + person("Nina", "Leroy", 106)
           + '</EntryList>')


def entry(name) -> Entry:
    return Entry.objects.get(name=name)


@pytest.fixture
def night(clock, race, narrator_user):
    """The worked example of docs/race.md, §6, from IOF files: Lucie 65, Paul 45, Les
    Rescapés 35, Zoé 20; Max abandons, Nina is disqualified."""
    by = narrator_user
    iof_import(event=race, raw=COURSES.encode(), by=by)
    iof_import(event=race, raw=ENTRIES.encode(), by=by)
    famille = Course.objects.get(event=race, name="famille")
    for e in Entry.objects.filter(event=race):
        entries_service.entry_gear_check(entry=e, gear={"vest": True, "light": True, "phone": True}, by=by)
    running.course_start(course=famille, by=by)
    clock.advance(100 * 60)
    found = {"Lucie Morel": ("31", "32", "33", "34"), "Paul Roux": ("31", "32", "33", "34"),
             "Les Rescapés": ("31", "32", "33"), "Zoé Petit": ("31", "32"), "Nina Leroy": ("31",)}
    for name, codes in found.items():
        for minute, code in enumerate(codes, start=10):
            punches.punch_record(entry=entry(name), checkpoint=code, by=by, source="organiser",
                                 at=at(minute * 2))
    lives.zone_loss_record(entry=entry("Lucie Morel"), cause="out_of_zone", by=by)
    for cause in ("out_of_zone", "forbidden_path"):
        lives.zone_loss_record(entry=entry("Paul Roux"), cause=cause, by=by)
    for name, finished in (("Lucie Morel", at(88)), ("Paul Roux", at(90, 1)),
                           ("Les Rescapés", at(92, 30)), ("Zoé Petit", at(60))):
        running.entry_finish(entry=entry(name), by=by, at=finished)
    running.entry_abandon(entry=entry("Max Bernard"), by=by, reason="cheville")
    running.entry_disqualify(entry=entry("Nina Leroy"), by=by, reason="coups")
    return race


def parsed(document: bytes):
    root = etree.fromstring(document)
    assert schema().validate(root), schema().error_log
    return root


def q(path: str) -> str:
    return "/".join(f"{{{NS}}}{part}" for part in path.split("/"))


def results_read(root) -> dict:
    """{name: (position, status, score)} as an orienteering tool reads the ResultList."""
    read = {}
    for result in root.iter(f"{{{NS}}}PersonResult"):
        name = " ".join(filter(None, (result.findtext(q("Person/Name/Given")),
                                      result.findtext(q("Person/Name/Family")))))
        position = result.findtext(q("Result/Position"))
        score = result.findtext(f"{q('Result/Extensions')}/{{{RACE_NS}}}Race/{{{RACE_NS}}}Score")
        read[name] = (int(position) if position else None, result.findtext(q("Result/Status")),
                      float(score) if score is not None else None)
    return read


def test_the_result_list_says_what_the_races_own_results_say(night, clock):
    root = parsed(result_list(night, clock.now, public=False))
    board, = leaderboard(night, clock.now)
    expected = {row["name"]: (row["rank"], row["score"]) for row in board["ranking"] + board["unranked"]}
    read = results_read(root)
    assert {name: (pos, score) for name, (pos, _, score) in read.items()} == expected
    assert {name: status for name, (_, status, _) in read.items()} == {
        "Lucie Morel": "OK", "Paul Roux": "OK", "Les Rescapés": "OK", "Zoé Petit": "OK",
        "Max Bernard": "DidNotFinish", "Nina Leroy": "Disqualified"}
    assert [read[n][2] for n in ("Lucie Morel", "Paul Roux", "Les Rescapés", "Zoé Petit")] == [65, 45, 35, 20]
    assert root.get("status") == "Complete"


def test_times_splits_lives_and_penalties_are_written(night, clock):
    root = parsed(result_list(night, clock.now, public=False))
    lucie = next(r for r in root.iter(f"{{{NS}}}PersonResult")
                 if r.findtext(q("Person/Name/Given")) == "Lucie")
    result = lucie.find(q("Result"))
    # 22:00 in Rugles in June is 20:00 UTC: the race's own offset, +02:00.
    assert result.findtext(q("StartTime")) == "2026-06-06T22:00:00+02:00"
    assert result.findtext(q("FinishTime")) == "2026-06-06T23:28:00+02:00"
    assert result.findtext(q("Time")) == str(88 * 60)
    splits = [(s.findtext(q("ControlCode")), s.findtext(q("Time"))) for s in result.findall(q("SplitTime"))]
    assert splits == [("31", "1200"), ("32", "1320"), ("33", "1440"), ("34", "1560")]
    assert result.findtext(q("ControlCard")) == "101"
    assert lucie.findtext(q("Organisation/Name")) == "CO Rugles"
    race = result.find(f"{q('Extensions')}/{{{RACE_NS}}}Race")
    assert race.find(f"{{{RACE_NS}}}Lives").attrib == {"initial": "2", "lost": "1", "remaining": "1"}
    assert race.find(f"{{{RACE_NS}}}Penalties").get("lives") == "15"
    zoe = next(r for r in root.iter(f"{{{NS}}}PersonResult") if r.findtext(q("Person/Name/Given")) == "Zoé")
    assert [s.get("status") for s in zoe.findall(q("Result/SplitTime"))] == [None, None, "Missing", "Missing"]


@pytest.mark.parametrize("url", ["/race/{id}/results.xml", "/race/{id}/startlist.xml"])
def test_the_public_files_validate_and_hold_no_finger_or_club(night, url):
    response = APIClient().get(url.format(id=night.pk))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/xml")
    parsed(response.content)
    body = response.content.decode()
    assert "Lucie" in body and "CO Rugles" not in body and "ControlCard" not in body


def test_the_results_page_links_to_its_files(night):
    html = APIClient().get(f"/race/{night.pk}/results/").content.decode()
    assert f'href="/race/{night.pk}/results.xml"' in html and "liste de départ (IOF XML 3.0)" in html


@pytest.mark.parametrize("message", ["results", "startlist"])
def test_the_organisers_files_validate_and_name_the_fingers(night, organiser_api, message):
    response = organiser_api.get(f"/race/{night.pk}/iof/{message}.xml")
    assert response.status_code == 200
    root = parsed(response.content)
    assert "<ControlCard>103</ControlCard>" in response.content.decode()
    assert APIClient().get(f"/race/{night.pk}/iof/{message}.xml").status_code == 302
    assert root.tag in (f"{{{NS}}}ResultList", f"{{{NS}}}StartList")


def test_every_file_validates_before_during_and_after_the_race(clock, race, famille, enrol, narrator_user):
    racing = enrol("Lucie Morel", 101)
    enrol("Paul Roux", 102, ready=False)
    enrol("Les Rescapés", 103, kind="team", members=["Marc", "Julie"])
    for public in (True, False):
        parsed(start_list(race, clock.now, public=public))
        parsed(result_list(race, clock.now, public=public))
    running.entry_start(entry=racing, by=narrator_user)
    clock.advance(30 * 60)
    root = parsed(result_list(race, clock.now, public=False))
    assert root.get("status") == "Snapshot"
    statuses = {r.findtext(q("Person/Name/Family")): r.findtext(q("Result/Status"))
                for r in root.iter(f"{{{NS}}}PersonResult")}
    assert statuses == {"Morel": "Active", "Roux": "Inactive", "Les Rescapés": "Inactive"}
    start = parsed(start_list(race, clock.now, public=False))
    assert start.findtext(f".//{q('PersonStart/Start/StartTime')}") == "2026-06-06T22:00:00+02:00"


def test_the_examples_in_the_race_documentation_are_valid_iof_files():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "race.md").read_text()
    blocks = re.findall(r"```xml\n(.*?)```", doc, re.S)
    assert [etree.QName(parsed(b.encode())).localname for b in blocks] == [
        "CourseData", "EntryList", "ResultList", "StartList"]
