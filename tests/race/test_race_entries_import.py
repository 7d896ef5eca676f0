"""The entries taken before the night, imported from a spreadsheet: on the race
organisers' screen and with `manage.py import_entries`. All or nothing, every bad line
named, the same file twice registers no one twice."""
from __future__ import annotations

import time

import pytest
from django.core.management import CommandError, call_command

from fixtures import fingerprint
from race.models import Entry

ENTRIES = """nom;parcours;doigt;téléphone;membres;caution
Lucie Morel;famille;101;06 12 34 56 78;;oui
Les Rescapés;famille;102;06 98 76 54 32;Paul|Jeanne|Max;non
Nina;enfant;103;+33 6 11 22 33 44;;
"""


def upload(api, race, text, key=None, lang="en"):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/race/events/{race.pk}/entries/import/", text, content_type="text/csv",
                    HTTP_ACCEPT_LANGUAGE=lang, **headers)


@pytest.mark.django_db
def test_entries_from_a_file_can_log_in_and_race(organiser_api, race, famille, enfant):
    response = upload(organiser_api, race, ENTRIES)
    assert response.status_code == 201, response.content
    assert response.json()["imported"] == 3
    team = Entry.objects.get(event=race, finger=102)
    assert (team.kind, team.members, team.carrier, team.course) == ("team", ["Paul", "Jeanne", "Max"], "Paul", famille)
    assert Entry.objects.get(finger=101).deposit_taken_at is not None
    assert Entry.objects.get(finger=103).course == enfant and Entry.objects.get(finger=103).character.user


@pytest.mark.django_db
def test_bad_lines_are_all_named_and_nothing_is_registered(organiser_api, race, famille, enrol):
    enrol("Déjà là", 200)
    before = fingerprint(), Entry.objects.count()
    text = ("name,course,finger,phone,kind\n"
            "Ana,famille,201,0612345678,solo\n"
            "Bea,nocturne,202,0612345678,solo\n"    # no such course
            "Carl,famille,200,0612345678,solo\n"    # finger already given
            "Dan,famille,201,0612345678,solo\n"     # finger higher in the file
            "Eve,famille,205,call me,solo\n"        # not a phone number
            "Fab,famille,206,0612345678,duo\n")     # not a kind
    response = upload(organiser_api, race, text)
    assert response.status_code == 400
    rows = response.json()["rows"]
    assert [row["line"] for row in rows] == [3, 4, 5, 6, 7]
    assert "nocturne" in rows[0]["reason"] and "famille" in rows[0]["reason"]
    assert "Déjà là" in rows[1]["reason"] and "Ana" in rows[2]["reason"]
    assert "call me" in rows[3]["reason"] and "duo" in rows[4]["reason"]
    assert response.json()["detail"] == "file refused, nothing imported: 5 bad line(s)"
    assert (fingerprint(), Entry.objects.count()) == before


@pytest.mark.django_db
def test_the_same_file_twice_registers_no_one_twice(organiser_api, race, famille, enfant):
    first = upload(organiser_api, race, ENTRIES, key="entries-1")
    retry = upload(organiser_api, race, ENTRIES, key="entries-1")
    assert first.status_code == retry.status_code == 201
    again = upload(organiser_api, race, ENTRIES, key="entries-2", lang="fr")
    assert again.status_code == 400
    assert [row["line"] for row in again.json()["rows"]] == [2, 3, 4]
    assert "fichier refusé" in again.json()["detail"]
    assert Entry.objects.filter(event=race).count() == 3


@pytest.mark.django_db
def test_three_hundred_entries_import_quickly(organiser_api, race, famille, capsys):
    text = "name,course,finger,phone\n" + "".join(
        f"Coureur {i:03d},famille,{1000 + i},06 00 00 {i // 100:02d} {i % 100:02d}\n" for i in range(300))
    started = time.perf_counter()
    response = upload(organiser_api, race, text)
    took = time.perf_counter() - started
    assert response.status_code == 201, response.content
    with capsys.disabled():
        print(f"\n300-row entries import: {took:.2f} s")
    assert Entry.objects.filter(event=race).count() == 300 and took < 3


@pytest.mark.django_db
def test_the_command_registers_or_lists_the_bad_lines(race, famille, enfant, tmp_path, capsys):
    good = tmp_path / "entries.csv"
    good.write_text(ENTRIES, encoding="utf-8")
    call_command("import_entries", str(race.pk), str(good))
    assert "3 entries registered" in capsys.readouterr().out
    with pytest.raises(CommandError, match="rien n'est importé : 3 ligne"):
        call_command("import_entries", str(race.pk), str(good))
    assert f"{good}:2: " in capsys.readouterr().err
