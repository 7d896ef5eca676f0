"""The entries spreadsheet, line by line (race/services/entries_import.py): each bad line
is named with its number (the header is line 1) and the reason the organiser reads, in
plain words; nothing is imported then. A line refused keeps its finger: a later line with
the same finger is refused too, naming the first."""
from __future__ import annotations

import pytest

from fixtures import fingerprint
from race.models import Entry

from test_race_entries_import import upload

pytestmark = pytest.mark.django_db

HEADER = "name,course,finger,phone,kind,members,carrier,deposit\n"


def refused(api, race, text: str) -> list[tuple[int, str]]:
    before = fingerprint(), Entry.objects.count()
    response = upload(api, race, text)
    assert response.status_code == 400, response.content
    assert (fingerprint(), Entry.objects.count()) == before            # nothing imported
    return [(row["line"], row["reason"]) for row in response.json()["rows"]]


def test_a_header_without_the_columns_needed_is_refused_naming_what_it_found(organiser_api, race, famille):
    assert refused(organiser_api, race, "nom,parcours,couleur\nLucie,famille,rouge\n") == [
        (1, "the first line names the columns name, course, finger, phone, and may add kind, "
            "members, carrier, deposit; found: nom, parcours, couleur")]


def test_a_file_with_only_its_header_holds_no_entry(organiser_api, race, famille):
    assert refused(organiser_api, race, HEADER) == [(1, "the file holds no entry")]


def test_a_name_of_100_characters_is_kept_and_a_longer_or_empty_one_refused(organiser_api, race, famille):
    name = "L" * 100
    response = upload(organiser_api, race, HEADER + f"{name},famille,101,0612345678,solo,,,non\n")
    assert response.status_code == 201, response.content
    assert Entry.objects.get(finger=101).name == name
    assert refused(organiser_api, race, HEADER + f"{name}M,famille,102,0612345678,solo,,,non\n"
                   ",famille,103,0612345678,solo,,,non\n") == [
        (2, "the name is empty or longer than 100 characters"),
        (3, "the name is empty or longer than 100 characters")]


@pytest.mark.parametrize("lines, reasons", [
    ("Lucie,famille,12a,0612345678,solo,,,non\nPaul,famille,0,0612345678,solo,,,non\n",
     [(2, "finger '12a' is not a number"), (3, "finger '0' is not a number")]),
    ("Lucie,famille,101,0612345678,solo,,,peut-être\n", [(2, "deposit 'peut-être' is neither yes nor no")]),
    ("Eve,famille,205,call me,solo,,,non\nFab,famille,205,0612345678,solo,,,non\n",
     [(2, "invalid phone number 'call me'"), (3, "Finger 205 is already given to Eve.")]),
    ("Les Rescapés,famille,101,0612345678,team,Paul|Jeanne,Zoé,non\n",
     [(2, "Zoé is not a member of Les Rescapés (Paul, Jeanne)")]),
], ids=["finger_no_number_quoted", "deposit_neither_yes_nor_no_quoted",
        "refused_lines_finger_not_given_to_a_later_line", "carrier_not_a_member_names_the_members"])
def test_a_bad_line_is_refused_quoting_what_is_wrong(organiser_api, race, famille, lines, reasons):
    assert refused(organiser_api, race, HEADER + lines) == reasons
