"""An IOF XML 3.0 EntryList, element by element (race/services/iof_import.py): what the
organiser reads for each entry imported (name, course, finger, phone, club, members) and,
for a bad element, its line and the reason in plain words; nothing is imported then."""
from __future__ import annotations

import pytest

from race.models import Course, Entry
from race.readout import FINGER_MAX
from race.services.courses import course_create

from test_race_iof_import import HEAD, NS, person, state, upload

pytestmark = pytest.mark.django_db


def entry_list(*elements: str) -> str:
    """An EntryList whose elements are each on their own line, from line 3."""
    return (HEAD + f'<EntryList {NS}><Event><Name>Rugles by Night</Name></Event>\n'
            + "".join(element + "\n" for element in elements) + '</EntryList>')


def imported(api, race, *elements: str) -> dict:
    response = upload(api, race, entry_list(*elements))
    assert response.status_code == 201, response.content
    return response.json()


def refused(api, race, *elements: str) -> list[tuple[int, str]]:
    """The (line, reason) of each bad element, as the organiser reads them (English)."""
    before = state()
    response = upload(api, race, entry_list(*elements))
    assert response.status_code == 400, response.content
    assert response.json()["error"] == "csv_rejected"
    assert state()[1:] == before[1:]                    # nothing imported
    return [(row["line"], row["reason"]) for row in response.json()["rows"]]


def named(given: str, family: str, contacts: str = "") -> str:
    return f"<Person><Name><Family>{family}</Family><Given>{given}</Given></Name>{contacts}</Person>"


def contact(kind: str, number: str) -> str:
    return f'<Contact type="{kind}">{number}</Contact>'


def leg(who: str | None, leg_no: int, card=None, order=None) -> str:
    return ("<TeamEntryPerson>" + (who or "") + f"<Leg>{leg_no}</Leg>"
            + (f"<LegOrder>{order}</LegOrder>" if order else "")
            + (f"<ControlCard>{card}</ControlCard>" if card else "") + "</TeamEntryPerson>")


def team(name: str, cls: str, *legs: str, clubs=()) -> str:
    orgs = "".join(f"<Organisation><Name>{c}</Name></Organisation>" for c in clubs)
    return f"<TeamEntry><Name>{name}</Name>{orgs}{''.join(legs)}<Class><Name>{cls}</Name></Class></TeamEntry>"


def entry(name: str) -> Entry:
    return Entry.objects.get(name=name)


# --- Cards -----------------------------------------------------------------------------------

def test_a_card_is_a_finger_from_1_to_the_largest_number_a_finger_holds(organiser_api, race, famille):
    answer = imported(organiser_api, race, person("Ana", "Roy", "1", "famille"),
                      person("Bea", "Roy", "0002", "famille"),
                      person("Carl", "Roy", str(FINGER_MAX), "famille"))
    assert answer["message"] == "EntryList" and answer["imported"] == 3
    assert [(e["name"], e["finger"], e["course"]) for e in answer["entries"]] == [
        ("Ana Roy", 1, "famille"), ("Bea Roy", 2, "famille"), ("Carl Roy", FINGER_MAX, "famille")]
    assert entry("Ana Roy").finger == 1


def test_a_card_that_is_no_finger_number_is_refused_quoting_it(organiser_api, race, famille):
    assert refused(organiser_api, race, person("Ana", "Roy", "0", "famille"),
                   person("Bea", "Roy", str(FINGER_MAX + 1), "famille"),
                   person("Carl", "Roy", "SI-8", "famille"),
                   person("Dan", "Roy", "9" * 50, "famille")) == [
        (3, "card number '0' is not a finger number"),
        (4, f"card number '{FINGER_MAX + 1}' is not a finger number"),
        (5, "card number 'SI-8' is not a finger number"),
        (6, f"card number '{'9' * 40}' is not a finger number")]


def test_runners_renting_a_card_are_all_registered_without_a_finger(organiser_api, race, famille):
    imported(organiser_api, race, person("Ana", "Roy", None, "famille"),
             person("Bea", "Roy", None, "famille"))
    assert [(e.name, e.finger) for e in Entry.objects.order_by("name")] == [("Ana Roy", None), ("Bea Roy", None)]


def test_a_card_already_given_is_refused_naming_its_holder(organiser_api, race, famille, enrol):
    enrol("Lucie Petit", 101)
    assert refused(organiser_api, race, person("Ana", "Roy", "101", "famille")) == [
        (3, "Finger 101 is already given to Lucie Petit.")]


# --- Empty files and names -------------------------------------------------------------------

def test_a_list_without_any_entry_is_refused_as_empty(organiser_api, race, famille):
    assert refused(organiser_api, race) == [(2, "the file holds no entry")]


def test_a_name_of_100_characters_is_kept_whole_and_a_longer_one_refused(organiser_api, race, famille):
    given, family = "A" * 49, "B" * 50
    imported(organiser_api, race, person(given, family, "11", "famille"))
    assert entry(f"{given} {family}").course == famille
    # (An EntryList holds its teams before its persons.)
    assert refused(organiser_api, race,
                   team(" ", "famille", leg(named("Ana", "Roy"), 1), leg(named("Bea", "Roy"), 2)),
                   person(given, family + "C", "12", "famille"),
                   person(" ", " ", "13", "famille")) == [
        (3, "the name is empty or longer than 100 characters"),
        (4, "the name is empty or longer than 100 characters"),
        (5, "the name is empty or longer than 100 characters")]


def test_a_runner_already_registered_on_the_course_is_refused_by_name(organiser_api, race, famille,
                                                                      enfant, enrol):
    enrol("Ana Roy", 101)
    assert refused(organiser_api, race, person("Ana", "Roy", "301", "famille"),
                   person("Bea", "Roy", "302", "famille"),
                   person("Bea", "Roy", "303", "famille")) == [
        (3, "Ana Roy is already registered on course famille"),
        (5, "Bea Roy is already registered on course famille")]
    # The same name on another course is another runner.
    imported(organiser_api, race, person("Ana", "Roy", "304", "enfant"))
    assert sorted(Entry.objects.filter(name="Ana Roy").values_list("course__name", flat=True)) == [
        "enfant", "famille"]


# --- Classes and courses ---------------------------------------------------------------------

def test_a_class_without_a_course_is_refused_naming_the_races_courses(organiser_api, race, famille,
                                                                      enfant):
    famille.classes = ["H21", "D21"]
    famille.save(update_fields=["classes"])
    long_class = "Nocturne " + "x" * 70
    assert refused(organiser_api, race, person("Ana", "Roy", "301", "nocturne"),
                   person("Bea", "Roy", "302", long_class)) == [
        (3, "class 'nocturne' has no course in this race (courses: enfant, famille): import the "
            "CourseData first, or name a course after the class"),
        (4, f"class '{long_class[:60]}' has no course in this race (courses: enfant, famille): "
            "import the CourseData first, or name a course after the class")]


def test_a_race_without_courses_says_it_has_none(organiser_api, race):
    assert refused(organiser_api, race, person("Ana", "Roy", "301", "famille")) == [
        (3, "class 'famille' has no course in this race (courses: -): import the CourseData "
            "first, or name a course after the class")]


def test_a_class_named_by_its_short_name_only_finds_its_course(organiser_api, race, famille, enfant):
    shortname = ("<PersonEntry>" + named("Ana", "Roy") + "<ControlCard>301</ControlCard>"
                 "<Class><Name> </Name><ShortName>Enfant</ShortName></Class></PersonEntry>")
    imported(organiser_api, race, shortname)
    assert entry("Ana Roy").course == enfant


def test_a_class_the_course_data_assigned_finds_its_course_whatever_the_case(organiser_api, race,
                                                                              narrator_user):
    sportif = course_create(event=race, name="sportif", by=narrator_user)
    sportif.classes = ["H21 Elite"]
    sportif.save(update_fields=["classes"])
    imported(organiser_api, race, person("Ana", "Roy", "301", "h21 elite"),
             person("Bea", "Roy", "302", "SPORTIF"))
    assert [e.course for e in Entry.objects.order_by("name")] == [sportif, sportif]


# --- People: phone, club, team -----------------------------------------------------------------

def test_a_solo_runners_mobile_is_the_phone_the_organisers_call(organiser_api, race, famille):
    both = ("<PersonEntry>" + named("Ana", "Roy", contact("PhoneNumber", "02 32 00 00 00")
                                    + contact("MobilePhoneNumber", " ") + contact("EmailAddress", "ana@example.org")
                                    + contact("MobilePhoneNumber", "06 12 34 56 78"))
            + "<ControlCard>301</ControlCard><Class><Name>famille</Name></Class></PersonEntry>")
    landline = ("<PersonEntry>" + named("Bea", "Roy", contact("PhoneNumber", "02 32 11 11 11"))
                + "<ControlCard>302</ControlCard><Class><Name>famille</Name></Class></PersonEntry>")
    imported(organiser_api, race, both, landline, person("Carl", "Roy", "303", "famille"))
    assert [(e.name, e.phone, e.kind, e.members, e.carrier, e.deposit_taken_at)
            for e in Entry.objects.order_by("name")] == [
        ("Ana Roy", "06 12 34 56 78", "solo", [], "", None),
        ("Bea Roy", "02 32 11 11 11", "solo", [], "", None),
        ("Carl Roy", "", "solo", [], "", None)]


def test_a_phone_number_that_is_none_is_refused_quoting_it(organiser_api, race, famille):
    bad = ("<PersonEntry>" + named("Ana", "Roy", contact("MobilePhoneNumber", "appeler Ana"))
           + "<ControlCard>301</ControlCard><Class><Name>famille</Name></Class></PersonEntry>")
    assert refused(organiser_api, race, bad) == [(3, "invalid phone number 'appeler Ana'")]


def test_a_teams_phone_is_its_first_member_with_one_and_a_vacant_leg_is_no_member(
        organiser_api, race, famille):
    roys = team("Les Roy", "famille",
                leg(named("Bea", "Roy", contact("MobilePhoneNumber", "06 22 22 22 22")), 3, card=303),
                leg(None, 2),
                leg(named("Ana", "Roy"), 1),
                leg(named("Carl", "Roy", contact("MobilePhoneNumber", "06 33 33 33 33")), 4),
                clubs=["CO Rugles", "AS Évreux"])
    imported(organiser_api, race, roys)
    roy = entry("Les Roy")
    assert (roy.kind, roy.members, roy.carrier, roy.phone, roy.finger, roy.club) == (
        "team", ["Ana Roy", "Bea Roy", "Carl Roy"], "Ana Roy", "06 22 22 22 22", 303,
        "CO Rugles / AS Évreux")


def test_a_teams_members_follow_their_legs_then_their_order_in_the_leg(organiser_api, race, famille):
    pair = team("Duo", "famille", leg(named("Bea", "Roy"), 1, card=402, order=2),
                leg(named("Ana", "Roy"), 1, card=401, order=1))
    imported(organiser_api, race, pair)
    duo = entry("Duo")
    assert (duo.members, duo.carrier, duo.finger) == (["Ana Roy", "Bea Roy"], "Ana Roy", 401)


def test_a_team_needs_two_members(organiser_api, race, famille):
    assert refused(organiser_api, race, team("Seule", "famille", leg(named("Ana", "Roy"), 1, card=401),
                                             leg(None, 2))) == [(3, "a team has at least two members")]


def test_a_club_name_is_cut_to_what_the_entry_holds(organiser_api, race, famille):
    long = "Club d'orientation " + "x" * 120
    solo = ("<PersonEntry>" + named("Ana", "Roy") + f"<Organisation><Name>{long}</Name></Organisation>"
            "<ControlCard>301</ControlCard><Class><Name>famille</Name></Class></PersonEntry>")
    imported(organiser_api, race, solo)
    assert entry("Ana Roy").club == long[:100]


def test_reasons_of_a_bad_file_are_in_the_organisers_language(organiser_api, race, famille):
    response = upload(organiser_api, race, entry_list(person("Ana", "Roy", "x1", "famille")), lang="fr")
    assert response.status_code == 400
    reason, = [row["reason"] for row in response.json()["rows"]]
    assert "x1" in reason and "card number" not in reason
    assert Course.objects.filter(event=race).count() == 1
