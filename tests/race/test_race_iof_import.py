"""Entries and courses from the orienteering tools' own files (IOF XML 3.0): the
federation's example EntryList and CourseData import as an organiser would expect; a
hostile file is refused whole, with its reasons, and nothing is imported."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from fixtures import fingerprint
from race.models import Checkpoint, Course, Entry
from race.services.courses import course_create

EXAMPLES = Path(__file__).resolve().parent / "iof"
HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
NS = 'xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0"'


def upload(api, race, body: bytes | str, lang="en", **extra):
    raw = body.encode() if isinstance(body, str) else body
    return api.post(f"/api/race/events/{race.pk}/iof/import/" + (
        f"?duration_s={extra['duration_s']}" if extra else ""), raw,
        content_type="application/xml", HTTP_ACCEPT_LANGUAGE=lang)


def example(name: str) -> bytes:
    return (EXAMPLES / name).read_bytes()


def state():
    return (fingerprint(), Entry.objects.count(), Course.objects.count(), Checkpoint.objects.count())


@pytest.mark.django_db
def test_the_federations_course_data_gives_courses_balises_positions_and_classes(organiser_api, race):
    response = upload(organiser_api, race, example("CourseData_Individual_Step2.xml"), duration_s=5400)
    assert response.status_code == 201, response.content
    a, b = Course.objects.get(event=race, name="A"), Course.objects.get(event=race, name="B")
    # Start and finish are no balises; 31, visited three times, is one balise.
    assert sorted(a.checkpoints.values_list("code", flat=True)) == ["100", "31", "32", "33", "34", "35"]
    assert a.duration_s == b.duration_s == 5400
    c33 = Checkpoint.objects.get(course=a, code="33")
    assert (c33.lat, c33.lon) == (59.761009, 17.687941)
    # A class run on forked courses A and B is assigned to the first one given.
    assert a.classes == ["Men Open", "Women Open"] and b.classes == []


@pytest.mark.django_db
def test_the_federations_entry_list_registers_persons_with_card_club_and_course(organiser_api, race, narrator_user):
    elite = course_create(event=race, name="Men Elite", duration_s=3600, by=narrator_user)
    open_ = course_create(event=race, name="Open", duration_s=3600, by=narrator_user)
    response = upload(organiser_api, race, example("EntryList1.xml"))
    assert response.status_code == 201, response.content
    wood = Entry.objects.get(event=race, name="George Wood")
    assert (wood.finger, wood.club, wood.course, wood.kind) == (794021, "OC Back and Forth", elite, "solo")
    # Edgar Martin rents a card: registered without a finger, he punches by phone.
    assert Entry.objects.get(event=race, name="Edgar Martin").finger is None
    assert Entry.objects.get(event=race, name="Toni Lawson").course == open_
    assert Entry.objects.get(name="Toni Lawson").character.user is not None


@pytest.mark.django_db
def test_the_federations_relay_entries_are_teams_sharing_the_first_legs_card(organiser_api, race, narrator_user):
    course_create(event=race, name="Open", duration_s=3600, by=narrator_user)
    response = upload(organiser_api, race, example("EntryList2.xml"))
    assert response.status_code == 201, response.content
    team = Entry.objects.get(event=race, name="Forest Vagabonds 1")
    assert team.kind == "team" and team.finger == 54321 and team.carrier == "Samuel Reid"
    assert team.members == ["Samuel Reid", "Penny Fisher", "Anne Collins", "Brent Hall", "Allison Jenkins"]
    combo = Entry.objects.get(event=race, name="Super Fast Orienteers / Unintentional Navigators")
    assert combo.members[0] == "Nicole Simmons" and combo.finger == 19930
    assert combo.club == "Super Fast Orienteers / Unintentional Navigators"


@pytest.mark.django_db
def test_entries_follow_the_classes_the_course_data_assigned(organiser_api, race):
    assert upload(organiser_api, race, example("CourseData_Individual_Step2.xml"), duration_s=3600).status_code == 201
    entries = (HEAD + f'<EntryList {NS}><Event><Name>Rugles</Name></Event>'
               + person("Lucie", "Morel", 101, "Women Open", phone="06 12 34 56 78") + '</EntryList>')
    assert upload(organiser_api, race, entries).status_code == 201
    lucie = Entry.objects.get(event=race, name="Lucie Morel")
    assert lucie.course.name == "A" and lucie.phone == "06 12 34 56 78"
    again = upload(organiser_api, race, entries, lang="fr")
    assert again.status_code == 400 and "fichier refusé" in again.json()["detail"]
    assert Entry.objects.filter(event=race).count() == 1


@pytest.mark.django_db
def test_control_scores_are_the_balises_points(organiser_api, race):
    data = (HEAD + f'<CourseData {NS}><Event><Name>Rugles</Name></Event><RaceCourseData>'
            '<Control><Id>31</Id></Control><Control><Id>32</Id></Control>'
            '<Course><Name>famille</Name><CourseControl><Control>31</Control><Score>30</Score>'
            '</CourseControl><CourseControl><Control>32</Control></CourseControl></Course>'
            '</RaceCourseData></CourseData>')
    assert upload(organiser_api, race, data).status_code == 201
    famille = Course.objects.get(event=race, name="famille")
    assert famille.duration_s == 5400      # a standard course: its duration from the options
    assert dict(famille.checkpoints.values_list("code", "points")) == {"31": 30, "32": None}


def person(given, family, card, cls, phone=None) -> str:
    contact = f'<Contact type="MobilePhoneNumber">{phone}</Contact>' if phone else ""
    card = f"<ControlCard>{card}</ControlCard>" if card else ""
    return (f"<PersonEntry><Person><Name><Family>{family}</Family><Given>{given}</Given></Name>"
            f"{contact}</Person>{card}<Class><Name>{cls}</Name></Class></PersonEntry>")


BOMB = HEAD + ('<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;">'
               '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
               f'<EntryList {NS}><Event><Name>&lol3;</Name></Event></EntryList>')
EXTERNAL = HEAD + ('<!DOCTYPE e [<!ENTITY secret SYSTEM "file:///etc/passwd">]>'
                   f'<EntryList {NS}><Event><Name>&secret;</Name></Event>'
                   + person("Ana", "Roy", 201, "famille") + '</EntryList>')
HOSTILE = {
    "wrong root": (HEAD + f'<ResultList {NS} status="Complete"><Event><Name>x</Name></Event></ResultList>',
                   [(2, "is a ResultList, not an IOF XML 3.0 EntryList / CourseData")]),
    "control not in CourseData": (
        HEAD + f'<CourseData {NS}><Event><Name>x</Name></Event><RaceCourseData>'
        '<Control><Id>31</Id></Control>\n<Course><Name>famille</Name>\n'
        '<CourseControl><Control>31</Control></CourseControl>\n'
        '<CourseControl><Control>99</Control></CourseControl></Course></RaceCourseData></CourseData>',
        [(3, "course famille already has balises in this race"),
         (5, "control 99 of course famille is not among the file's controls")]),
    "card twice": (HEAD + f'<EntryList {NS}><Event><Name>x</Name></Event>\n'
                   + person("Ana", "Roy", 201, "famille") + "\n"
                   + person("Bea", "Roy", 201, "famille") + "\n"
                   + person("Carl", "Roy", 202, "nocturne") + '</EntryList>',
                   [(4, "201"), (5, "nocturne")]),
    "entity bomb": (BOMB, [(1, "DOCTYPE")]),
    "external entity": (EXTERNAL, [(1, "DOCTYPE")]),
    "not XML": ("name,course\nAna,famille\n", [(1, "not well-formed")]),
    "not the schema": (HEAD + f'<EntryList {NS}><PersonEntry><Nom>Ana</Nom></PersonEntry></EntryList>',
                       [(2, "not valid IOF XML 3.0")]),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", HOSTILE, ids=list(HOSTILE))
def test_a_hostile_file_is_refused_with_its_reasons_and_nothing_imported(organiser_api, race, famille, case):
    body, expected = HOSTILE[case]
    before = state()
    response = upload(organiser_api, race, body)
    assert response.status_code == 400, response.content
    assert response.json()["error"] == "csv_rejected"
    rows = response.json()["rows"]
    assert [(row["line"], part in row["reason"]) for row, (_, part) in zip(rows, expected)] == \
        [(line, True) for line, _ in expected]
    assert "root:" not in response.content.decode()        # /etc/passwd was never read
    assert state()[1:] == before[1:]


@pytest.mark.django_db
def test_reasons_are_in_the_organisers_language(organiser_api, race, famille):
    response = upload(organiser_api, race, HOSTILE["card twice"][0], lang="es")
    assert "archivo rechazado" in response.json()["detail"]
    assert "nocturne" in response.json()["rows"][1]["reason"] and "recorrido" in response.json()["rows"][1]["reason"]


@pytest.mark.django_db
def test_the_command_imports_a_file_and_lists_a_bad_ones_lines(race, tmp_path, capsys):
    good = tmp_path / "courses.xml"
    good.write_bytes(example("CourseData_Individual_Step2.xml"))
    call_command("import_iof", str(race.pk), str(good), "--duration-s", "3600")
    assert Course.objects.filter(event=race, name__in=["A", "B"]).count() == 2
    bad = tmp_path / "bomb.xml"
    bad.write_text(BOMB)
    with pytest.raises(CommandError, match="rien n.est importé"):
        call_command("import_iof", str(race.pk), str(bad))
    assert f"{bad}:1:" in capsys.readouterr().err


@pytest.mark.django_db
def test_the_organisers_form_sends_the_file_with_the_minutes_of_a_new_course(organiser_api, race):
    from django.core.files.uploadedfile import SimpleUploadedFile
    url = f"/api/race/events/{race.pk}/iof/import/"
    file = SimpleUploadedFile("courses.xml", example("CourseData_Individual_Step2.xml"), "application/xml")
    without = organiser_api.post(url, {"file": file, "duration_min": ""}, format="multipart",
                                 HTTP_ACCEPT_LANGUAGE="en")
    assert without.status_code == 400
    assert [r["reason"] for r in without.json()["rows"]][0].startswith("course A is not a standard one")
    file.seek(0)
    wrong = organiser_api.post(url, {"file": file, "duration_min": "an hour"}, format="multipart")
    assert wrong.status_code == 400 and "an hour" in wrong.json()["detail"]
    file.seek(0)
    response = organiser_api.post(url, {"file": file, "duration_min": "75"}, format="multipart")
    assert response.status_code == 201, response.content
    assert response.json()["message"] == "CourseData" and response.json()["imported"] == 2
    assert Course.objects.get(event=race, name="B").duration_s == 75 * 60
