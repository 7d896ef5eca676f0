"""An organiser sets up the roster from a spreadsheet: on the screen (the API) and from a
terminal (`manage.py import_characters`). All or nothing, every bad line named."""
from __future__ import annotations

import time

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fixtures import client_for, fingerprint
from health.models import HealthState
from players.models import Character, Team
from players.services import event_create

ROSTER = """name;team;combat;first_aid;surgery;kits;humeur
Gaspard Noir;Les Invités;3;novice;;kps:2 koc:1;10
Hélène Blanc;Le Personnel;2;expert;novice;;
Ivan Gris;;1;;;;
"""


def post_roster(api, event, text, key=None, lang="en"):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/events/{event.pk}/roster/", text, content_type="text/csv",
                    HTTP_ACCEPT_LANGUAGE=lang, **headers)


@pytest.mark.django_db
def test_a_roster_file_makes_characters_that_can_play(clock, event, narrator_api):
    response = post_roster(narrator_api, event, ROSTER)
    assert response.status_code == 201, response.content
    assert response.json()["imported"] == 3
    assert sorted(response.json()["teams_created"]) == ["Le Personnel", "Les Invités"]
    gaspard = Character.objects.get(event=event, name="Gaspard Noir")
    assert gaspard.team.name == "Les Invités"
    assert gaspard.sheet == {"combat_base": 3, "skills": {"first_aid": "novice"}, "psych": {"humeur": 10}}
    assert gaspard.kits == {"kps": 2, "koc": 1}
    assert Character.objects.get(name="Ivan Gris").team is None
    assert HealthState.objects.get(pk=gaspard.pk).status == "healthy"
    sheets = narrator_api.get(f"/events/{event.pk}/sheets/").content.decode()
    assert "Gaspard Noir" in sheets and "Hélène Blanc" in sheets


@pytest.mark.django_db
def test_a_file_with_bad_lines_imports_nothing_and_names_each_line(clock, event, player, narrator_api):
    before = fingerprint()
    text = ("name,team,combat,first_aid\n"
            "Zoé,Bleus,2,novice\n"
            "Alice,Bleus,2,\n"            # already in the event (the `player` fixture)
            ",Bleus,2,\n"                 # no name
            "Yann,Bleus,9,\n"             # combat out of the ruleset's bounds
            "\n"                          # a blank line is skipped, its number kept
            "Xavier,Bleus,2,master\n"     # not a level of first aid
            "Zoé,Rouges,1,\n"             # twice in the file
            "Walter,Bleus\n")             # a cell missing
    response = post_roster(narrator_api, event, text)
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "csv_rejected"
    assert body["detail"] == "file refused, nothing imported: 6 bad line(s)"
    assert body["rows"] == [
        {"line": 3, "reason": "Alice is already a character of this event"},
        {"line": 4, "reason": "the name is empty"},
        {"line": 5, "reason": "combat must be a whole number from 0 to 5, not '9'."},
        {"line": 7, "reason": "first_aid must be one of novice, expert, not 'master'."},
        {"line": 8, "reason": "Zoé is also on line 2"},
        {"line": 9, "reason": "expected 4 values, found 2"},
    ]
    assert fingerprint() == before


@pytest.mark.django_db
def test_bad_lines_read_in_the_organisers_language(clock, event, narrator_api):
    response = post_roster(narrator_api, event, "nom;équipe;combat\nZoé;Bleus;trois\n", lang="fr")
    assert response.status_code == 400
    assert response.json()["detail"] == "fichier refusé, rien n'est importé : 1 ligne(s) invalide(s)"
    assert response.json()["rows"] == [{"line": 2, "reason": "combat doit être un nombre entier de 0 à 5, pas « trois »."}]
    response = post_roster(narrator_api, event, "nombre;equipo;fuerza\nZoé;Azul;1\n", lang="es")
    assert response.json()["rows"][0]["line"] == 1
    assert "fuerza" in response.json()["rows"][0]["reason"]
    assert "combat_base" in response.json()["rows"][0]["reason"]   # the columns it knows


@pytest.mark.django_db
def test_the_same_file_twice_makes_no_twins_and_a_retry_is_applied_once(clock, event, narrator_api):
    first = post_roster(narrator_api, event, ROSTER, key="roster-1")
    again = post_roster(narrator_api, event, ROSTER, key="roster-1")   # the answer was lost
    assert first.status_code == again.status_code == 201
    assert again.json()["characters"] == first.json()["characters"]
    assert Character.objects.filter(event=event).count() == 3
    second = post_roster(narrator_api, event, ROSTER, key="roster-2")  # sent again on purpose
    assert second.status_code == 400
    assert [row["line"] for row in second.json()["rows"]] == [2, 3, 4]
    assert Character.objects.filter(event=event).count() == 3


@pytest.mark.django_db
def test_only_the_events_narrators_import(clock, event, player, player_api, narrator_user):
    assert post_roster(player_api, event, ROSTER).status_code == 404
    other = event_create(name="Other", ruleset="gn_fr", by=None)
    assert post_roster(client_for(narrator_user), other, ROSTER).status_code == 404
    assert not Character.objects.filter(name="Gaspard Noir").exists()


@pytest.mark.django_db
def test_the_columns_follow_the_ruleset(clock, narrator_user, narrator_api):
    septenario = event_create(name="Fortaleza", ruleset="septenario_es", by=narrator_user)
    columns = narrator_api.get(f"/api/events/{septenario.pk}/roster/").json()["columns"]
    assert {"name", "team", "coraje", "trauma", "armour", "abilities", "first_aid"} <= set(columns)
    text = "name,team,coraje,trauma,armour,abilities\nLucía,La Compañía,2,3,light,evasion fuerza\n"
    assert post_roster(narrator_api, septenario, text).status_code == 201
    lucia = Character.objects.get(event=septenario)
    assert lucia.sheet == {"coraje": 2, "trauma": 3, "armour": "light", "abilities": ["evasion", "fuerza"]}
    refused = post_roster(narrator_api, septenario, "name,coraje\nMateo,6\n")
    assert refused.json()["rows"] == [{"line": 2, "reason": "coraje must be a whole number from 0 to 5, not '6'."}]


@pytest.mark.django_db
def test_a_multipart_upload_from_the_screen(clock, event, narrator_api):
    from django.core.files.uploadedfile import SimpleUploadedFile
    upload = SimpleUploadedFile("roster.csv", ROSTER.encode("cp1252", errors="replace"), "text/csv")
    response = narrator_api.post(f"/api/events/{event.pk}/roster/", {"file": upload}, format="multipart")
    assert response.status_code == 201, response.content
    assert Character.objects.filter(event=event, team__name="Le Personnel").count() == 1


def crowd_file(n: int) -> str:
    lines = ["name,team,combat,first_aid,kits"]
    lines += [f"Personnage {i:03d},Équipe {i % 12},{i % 6},{'novice' if i % 10 == 0 else ''},"
              f"{'kps:2' if i % 10 == 0 else ''}" for i in range(n)]
    return "\n".join(lines) + "\n"


@pytest.mark.django_db
def test_three_hundred_rows_import_in_well_under_a_few_seconds(clock, event, narrator_api, capsys):
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        response = post_roster(narrator_api, event, crowd_file(300))
        took = time.perf_counter() - started
    assert response.status_code == 201, response.content
    assert Character.objects.filter(event=event).count() == 300
    assert Team.objects.filter(event=event).count() == 12
    with capsys.disabled():
        print(f"\n300-row roster import: {took:.2f} s, {len(queries)} queries")
    assert took < 3


@pytest.mark.django_db
def test_the_command_imports_or_lists_every_bad_line(clock, event, tmp_path, capsys):
    good = tmp_path / "roster.csv"
    good.write_text(ROSTER, encoding="utf-8")
    call_command("import_characters", str(event.pk), str(good))
    assert "3 characters imported" in capsys.readouterr().out
    bad = tmp_path / "bad.csv"
    bad.write_text("name,combat\nNouveau,2\nGaspard Noir,1\nAutre,x\n", encoding="utf-8")
    with pytest.raises(CommandError, match="rien n'est importé : 2 ligne"):
        call_command("import_characters", str(event.pk), str(bad))
    err = capsys.readouterr().err
    assert f"{bad}:3: Gaspard Noir est déjà un personnage de cet événement" in err
    assert f"{bad}:4: combat doit être un nombre entier de 0 à 5, pas « x »." in err
    assert not Character.objects.filter(name="Nouveau").exists()
