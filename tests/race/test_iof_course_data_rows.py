"""An IOF XML 3.0 CourseData, element by element (race/services/iof_import.py): the
course setter's file gives courses, balises with their points, and classes; a bad element
is refused with its line and the reason in plain words, and nothing is imported. Classes
may go to a course the race already has; an organiser confirming that course's points at
the same instant keeps what they confirmed."""
from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from players.models import JournalEntry
from race.models import Checkpoint, Course
from race.services.courses import course_points_confirm

from test_race_iof_import import HEAD, NS, state, upload


def course_data(*courses: str, controls=("31", "32", "33"), assignments=()) -> str:
    """A CourseData: its controls on line 2, then each course and each assignment on its own line."""
    return (HEAD + f'<CourseData {NS}><Event><Name>Rugles by Night</Name></Event><RaceCourseData>'
            + "".join(f"<Control><Id>{c}</Id></Control>" for c in controls) + "\n"
            + "".join(course + "\n" for course in courses)
            + "".join(f"<ClassCourseAssignment><ClassName>{cls}</ClassName><CourseName>{name}</CourseName>"
                      "</ClassCourseAssignment>\n" for cls, name in assignments)
            + "</RaceCourseData></CourseData>")


def course(name: str, *legs: str) -> str:
    return f"<Course><Name>{name}</Name>{''.join(legs)}</Course>"


def control(code: str, score: str | None = None) -> str:
    return (f"<CourseControl><Control>{code}</Control>"
            + (f"<Score>{score}</Score>" if score is not None else "") + "</CourseControl>")


def refused(api, race, body: str) -> list[tuple[int, str]]:
    before = state()
    response = upload(api, race, body)
    assert response.status_code == 400, response.content
    assert state()[1:] == before[1:]                    # nothing imported
    return [(row["line"], row["reason"]) for row in response.json()["rows"]]


@pytest.mark.django_db
def test_a_course_name_empty_or_longer_than_60_characters_is_refused(organiser_api, race):
    long = "Parcours " + "x" * 52                                        # 61 characters
    assert refused(organiser_api, race, course_data(
        course(long, control("31"), control("32")),
        course(" ", control("31"), control("32")))) == [
        (3, "the name is empty or longer than 60 characters"),
        (4, "the name is empty or longer than 60 characters")]


@pytest.mark.django_db
def test_a_score_that_is_no_whole_number_of_points_is_refused_quoting_it(organiser_api, race):
    assert refused(organiser_api, race, course_data(
        course("famille", control("31", "12.5"), control("32", "20000"), control("33", "-5")))) == [
        (3, "score '12.5' of control 31 is not a whole number"),
        (3, "score '20000' of control 32 is not a whole number"),
        (3, "score '-5' of control 33 is not a whole number")]


@pytest.mark.django_db
def test_a_class_assigned_to_a_course_neither_the_file_nor_the_race_has_is_refused(organiser_api, race):
    assert refused(organiser_api, race, course_data(
        course("famille", control("31"), control("32")),
        assignments=[("H21", "famille"), ("D21", "Nocturne")])) == [
        (5, "class D21 is assigned to course Nocturne, which neither the file nor the race has")]


@pytest.mark.django_db
def test_a_class_may_go_to_a_course_the_race_already_has(organiser_api, race, famille):
    response = upload(organiser_api, race, course_data(
        course("enfant", control("31", "30.0"), control("32")),
        assignments=[("H21", "FAMILLE"), ("D10", "enfant")]))
    assert response.status_code == 201, response.content
    enfant = Course.objects.get(event=race, name="enfant")
    assert {k: v for k, v in response.json().items() if k != "server_time"} == {
        "message": "CourseData", "imported": 1,
        "courses": [{"id": enfant.pk, "name": "enfant", "balises": 2}],
        "classes": {"enfant": ["D10"], "famille": ["H21"]}}
    famille.refresh_from_db()
    assert famille.classes == ["H21"] and famille.points_confirmed
    assert dict(enfant.checkpoints.values_list("code", "points")) == {"31": 30, "32": None}


@pytest.mark.django_db
def test_the_balises_of_a_course_data_are_journalled_as_the_organisers(organiser_api, race, narrator_user):
    assert upload(organiser_api, race, course_data(
        course("famille", control("31"), control("32")))).status_code == 201
    lines = JournalEntry.objects.filter(event=race, what__in=["course:created", "checkpoint:created"])
    assert sorted((line.what, line.actor_id) for line in lines) == [
        ("checkpoint:created", narrator_user.pk), ("checkpoint:created", narrator_user.pk),
        ("course:created", narrator_user.pk)]
    assert Checkpoint.objects.filter(course__event=race).count() == 2


@pytest.mark.django_db(transaction=True)
def test_classes_given_while_an_organiser_confirms_the_courses_points_keep_the_confirmation(
        organiser_api, race, narrator_user):
    """The import writes only the classes of a course the race has: the points another
    organiser confirms at the same instant stay confirmed."""
    from racekit import make_course
    famille = make_course(race, narrator_user, confirm=False)
    held, failed = threading.Event(), []

    def other_organiser():
        try:
            with transaction.atomic():
                course_points_confirm(course=famille, points_per_checkpoint=20, by=narrator_user)
                held.set()
                # Committed only once the import waits for the course's row.
                deadline = time.monotonic() + 20
                while time.monotonic() < deadline:
                    with connection.cursor() as cursor:
                        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE "
                                       "datname = current_database() AND wait_event_type = 'Lock'")
                        if cursor.fetchone()[0]:
                            break
                    time.sleep(0.05)
                else:
                    failed.append("the import never waited for the course")
        finally:
            held.set()
            connection.close()

    worker = threading.Thread(target=other_organiser)
    worker.start()
    assert held.wait(20)
    try:
        response = upload(organiser_api, race, course_data(
            course("enfant", control("31"), control("32")), assignments=[("H21", "famille")]))
    finally:
        worker.join(30)
    assert response.status_code == 201, response.content
    assert not failed
    famille.refresh_from_db()
    assert (famille.classes, famille.points_confirmed, famille.points_per_checkpoint) == (["H21"], True, 20)
