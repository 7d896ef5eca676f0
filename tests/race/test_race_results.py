"""Results and privacy: the public results page (no login, printable) and its CSV show
names and scores, never a phone number; a survivor reads and acts on their own entry
only; zombies and other races' organisers read no entry."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from fixtures import client_for
from players.models import JournalEntry
from race.models import Entry, Punch
from racekit import (at, balise, entry_url, finish, make_course, make_race, post, punch, start,
                     survivor_api, view)

pytestmark = pytest.mark.django_db

LUCIE_PHONE, PAUL_PHONE = "06 11 22 33 44", "07 99 88 77 66"
LUCIE_CARD, PAUL_CARD = 8_471_101, 8_472_202


@pytest.fixture
def raced(clock, race, famille, enrol, organiser_api):
    # Card numbers no id, time or score of the page can hold (the page must not show them).
    lucie = enrol("Lucie Martin", LUCIE_CARD, phone=LUCIE_PHONE)
    paul = enrol("Paul Roux", PAUL_CARD, phone=PAUL_PHONE)
    team = enrol("Les Rescapés", 303, kind="team", members=["Marc", "Julie"], phone="0655443322")
    post(organiser_api, f"/api/race/courses/{famille.pk}/start/")
    clock.advance(95 * 60)
    for code in ("31", "32", "33"):
        punch(organiser_api, lucie, code, at=at(20))
    punch(organiser_api, paul, "31", at=at(30))
    finish(organiser_api, lucie, at=at(85))        # 3 × 20 − 10 = 50
    finish(organiser_api, paul, at=at(91))         # 20 − 30 − 5 = −15
    return lucie, paul, team


def test_the_public_results_page_needs_no_login_and_shows_no_phone(raced, race):
    lucie, paul, team = raced
    response = APIClient().get(f"/race/{race.pk}/results/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Résultats" in html and "Lucie Martin" in html and "Paul Roux" in html
    assert html.index("Lucie Martin") < html.index("Paul Roux")
    assert ">50<" in html and ">-15<" in html
    assert "Non classés" in html and "Les Rescapés" in html and "En retard" in html
    for secret in (LUCIE_PHONE, PAUL_PHONE, "0655443322", lucie.character.code,
                   str(LUCIE_CARD), str(PAUL_CARD)):
        assert secret not in html
    english = APIClient().get(f"/race/{race.pk}/results/?lang=en").content.decode()
    assert "Results" in english and "Not ranked" in english


def test_the_points_warning_is_for_the_organisers_only(clock, narrator_user, organiser_api):
    race = make_race(narrator_user, name="Rugles 2027")
    make_course(race, narrator_user, confirm=False)
    html = APIClient().get(f"/race/{race.pk}/results/").content.decode()
    assert "Points par balise non confirmés" not in html          # the public page
    board = organiser_api.get(f"/api/race/events/{race.pk}/leaderboard/").json()
    assert [w["code"] for w in board["courses"][0]["warnings"]] == ["points_unconfirmed"]


def test_the_results_csv_has_the_ranking_and_no_phone(raced, race):
    response = APIClient().get(f"/race/{race.pk}/results.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    lines = response.content.decode().splitlines()
    assert lines[0] == ("course,rank,name,kind,members,status,found,checkpoints,late_minutes,"
                        "lives_lost,elapsed,score")
    assert lines[1] == "famille,1,Lucie Martin,solo,,Arrivé,3,4,0,0,1:25:00,50"
    assert lines[2] == "famille,2,Paul Roux,solo,,Arrivé,1,4,1,0,1:31:00,-15"
    assert lines[3].startswith("famille,,Les Rescapés,team,Marc / Julie,En retard,0,4,5,0,1:35:00")
    text = response.content.decode()
    assert LUCIE_PHONE not in text and PAUL_PHONE not in text and "0655443322" not in text


def test_a_survivor_reads_only_their_own_entry(raced):
    lucie, paul, _ = raced
    mine = view(survivor_api(lucie), lucie)
    assert mine["entry"]["name"] == "Lucie Martin" and "phone" not in mine["entry"]
    assert LUCIE_PHONE not in str(mine)
    response = survivor_api(lucie).get(entry_url(paul))
    assert response.status_code == 404
    assert "Paul" not in response.content.decode() and PAUL_PHONE not in response.content.decode()
    assert survivor_api(lucie).get("/api/race/entries/999999/").status_code == 404


@pytest.mark.parametrize("action,body", [
    ("punches", {"checkpoint": "31"}), ("carrier", {"carrier": "Marc"}), ("abandon", {}),
    ("finish", {}), ("gear", {"vest": False}), ("disqualify", {"reason": "x"}),
    ("finger-return", {}), ("start", {}), ("deposit", {}),
])
def test_a_survivor_cannot_act_on_another_entry(action, body, raced, famille):
    lucie, paul, team = raced
    journal, punches = JournalEntry.objects.count(), Punch.objects.count()
    before = Entry.objects.filter(pk=team.pk).values().get()
    if action == "punches":
        body = {"checkpoint": balise(famille, "34").qr}
    response = post(survivor_api(lucie), entry_url(team, action), **body)
    assert response.status_code == 404, response.content
    assert "Rescapés" not in response.content.decode()
    assert Entry.objects.filter(pk=team.pk).values().get() == before
    assert (JournalEntry.objects.count(), Punch.objects.count()) == (journal, punches)


@pytest.mark.parametrize("url", ["/api/race/events/{race}/entries/",
                                 "/api/race/events/{race}/leaderboard/",
                                 "/api/race/events/{race}/safety/",
                                 "/api/race/events/{race}/courses/",
                                 "/api/race/entries/{entry}/"])
def test_zombies_survivors_and_other_organisers_read_no_organiser_board(url, raced, race,
                                                                        zombie_api, clock):
    lucie, paul, _ = raced
    stranger = get_user_model().objects.create_user(username="autre-orga", is_staff=True)
    make_race(stranger, name="Autre course")
    target = url.format(race=race.pk, entry=paul.pk)
    for api in (zombie_api, client_for(stranger), survivor_api(lucie), APIClient()):
        response = api.get(target)
        assert response.status_code in (403, 404), (target, response.status_code)
        assert PAUL_PHONE not in response.content.decode()


def test_the_organisers_entries_list_has_the_phone_numbers(raced, race, organiser_api):
    listed = organiser_api.get(f"/api/race/events/{race.pk}/entries/").json()["entries"]
    assert {e["entry"]["name"]: e["entry"]["phone"] for e in listed} == {
        "Lucie Martin": LUCIE_PHONE, "Paul Roux": PAUL_PHONE, "Les Rescapés": "0655443322"}


def test_the_survivor_snapshot_gives_lives_deadline_punches_and_estimate(clock, race, famille,
                                                                        enrol, organiser_api):
    inès = enrol("Inès", 7)
    start(organiser_api, inès)
    clock.advance(40 * 60)
    phone = survivor_api(inès)
    punch(phone, inès, balise(famille, "33"))
    mine = view(phone, inès)
    assert mine["status"] == {"key": "racing", "label": "Racing"}
    assert mine["deadline_at"] == at(90).isoformat() and mine["time_left_s"] == 50 * 60
    assert mine["lives"] == {"remaining": 2, "initial": 2}
    assert [p["checkpoint"]["code"] for p in mine["punches"]] == ["33"]
    assert (mine["found"], mine["checkpoints"]) == (1, 4)
    assert mine["score"] == 20 - 10 * 3                        # an estimate while racing
    assert mine["course"]["name"] == "famille" and "warnings" not in mine   # the organisers' only


def test_the_boards_cost_the_same_queries_for_three_entries_or_six(raced, race, enrol,
                                                                   organiser_api):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone
    from race.selectors import boards

    def queries() -> list[int]:
        counts = []
        for read in (boards.leaderboard, boards.safety_board, boards.entries_view,
                     boards.public_results):
            with CaptureQueriesContext(connection) as captured:
                read(race, timezone.now())
            counts.append(len(captured))
        return counts

    before = queries()
    for i in range(3):
        extra = enrol(f"Extra {i}", 400 + i)
        start(organiser_api, extra)
        punch(organiser_api, extra, "31")
        post(organiser_api, entry_url(extra, "zone-losses"), cause="out_of_zone")
    assert queries() == before
