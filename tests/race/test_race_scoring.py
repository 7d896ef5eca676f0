"""§7, the score: points for balises found − 10 per balise not found − 5 per late minute
− 15 per life lost, every number an option; ranking per course with the tie-breaks
(elapsed time, then lives lost). Each expected score is worked out by hand below, as an
organiser would check the results sheet."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from race.options import race_options
from race.scoring import EntryFacts, PunchFact, entry_score, late_minutes
from racekit import (at, board, entry_of, entry_url, finish, gear, grab, make_course, make_race,
                     post, punch, register, start)

pytestmark = pytest.mark.django_db


def play(api, entry, codes, finish_at=None):
    for minute, code in enumerate(codes, start=1):
        assert punch(api, entry, code, at=at(10 * minute)).status_code == 201
    if finish_at is not None:
        assert finish(api, entry, at=finish_at).status_code == 200


def test_a_sample_of_entries_scored_by_hand_matches_the_leaderboard(clock, race, famille, enrol,
                                                                  organiser_api, zombie_api):
    # famille: N = 4 balises (31-34) at P = 20 points, D = 90 min; mass start at 22:00.
    lucie, team, paul, zoe = (enrol("Lucie", 1), enrol("Les Rescapés", 2, kind="team",
                                                        members=["Marc", "Julie"]),
                              enrol("Paul", 3), enrol("Zoé", 4))
    hugo, ines, marc = enrol("Hugo", 5), enrol("Inès", 6), enrol("Marc", 7)
    assert post(organiser_api, f"/api/race/courses/{famille.pk}/start/").status_code == 200
    clock.advance(20 * 60)
    grab(zombie_api, race, lucie)                           # Lucie: one life
    grab(zombie_api, race, paul), grab(zombie_api, race, paul)   # Paul: both lives
    void_me = grab(zombie_api, race, zoe).json()["grab"]["id"]
    post(organiser_api, f"/api/race/life-losses/{void_me}/void/", reason="contact")
    post(organiser_api, entry_url(marc, "abandon"), reason="malaise")
    post(organiser_api, entry_url(hugo, "disqualify"), reason="coups")
    clock.advance(80 * 60)                                  # 23:40, everyone's times are in

    play(organiser_api, lucie, ["31", "32", "33", "34"], at(88))
    play(organiser_api, team, ["31", "32", "33"], at(92, 30))
    play(organiser_api, paul, ["31", "32", "33", "34"], at(90, 1))
    play(organiser_api, zoe, ["31", "34"], at(60))
    play(organiser_api, ines, ["31"])                       # still out

    # Lucie:       4 × 20 − 10 × 0 − 5 × 0 − 15 × 1 = 80 − 15            = 65
    # Paul:        4 × 20 − 10 × 0 − 5 × 1 − 15 × 2 = 80 − 5 − 30        = 45
    #              (1 s late is a started minute: M = 1)
    # Rescapés:    3 × 20 − 10 × 1 − 5 × 3 − 15 × 0 = 60 − 10 − 15       = 35
    #              (2 min 30 s late: M = 3)
    # Zoé:         2 × 20 − 10 × 2 − 5 × 0 − 15 × 0 = 40 − 20            = 20
    #              (her grab was voided: L = 0)
    # Inès (racing at 100 min): 1 × 20 − 10 × 3 − 5 × 10 = 20 − 30 − 50 = −60, an estimate
    # Marc (DNF at 20 min): 0 × 20 − 10 × 4 = −40, not ranked; Hugo (disqualified): no score
    scored = board(organiser_api, race, famille)
    assert [(r["rank"], r["name"], r["score"]) for r in scored["ranking"]] == [
        (1, "Lucie", 65), (2, "Paul", 45), (3, "Les Rescapés", 35), (4, "Zoé", 20)]
    rescapes = scored["ranking"][2]
    assert (rescapes["found"], rescapes["checkpoints"], rescapes["late_minutes"],
            rescapes["lives_lost"], rescapes["elapsed_s"]) == (3, 4, 3, 0, 92 * 60 + 30)
    assert rescapes["breakdown"] == {"points": 60, "unfound": -10, "late": -15, "lives": 0,
                                     "exits_without_life": 0, "infractions": 0}
    unranked = {r["name"]: (r["status"]["key"], r["score"]) for r in scored["unranked"]}
    assert unranked == {"Inès": ("overtime", -60), "Marc": ("dnf", -40),
                        "Hugo": ("disqualified", None)}
    assert scored["warnings"] == []


def test_tie_breaks_elapsed_then_lives_lost_then_a_shared_rank(clock, race, famille, enrol,
                                                              organiser_api, zombie_api):
    x, y, z, w = enrol("Xavier", 1), enrol("Yasmine", 2), enrol("Zacharie", 3), enrol("Wanda", 4)
    post(organiser_api, f"/api/race/courses/{famille.pk}/start/")
    clock.advance(5 * 60)
    grab(zombie_api, race, y), grab(zombie_api, race, y)
    clock.advance(85 * 60)
    # Each one scores 20:
    # Xavier, Wanda: 2 × 20 − 10 × 2 = 20, 0 lives, 80 min
    # Yasmine:      3 × 20 − 10 × 1 − 15 × 2 = 20, 2 lives, 80 min
    # Zacharie:     2 × 20 − 10 × 2 = 20, 0 lives, 70 min (fastest)
    play(organiser_api, x, ["31", "32"], at(80))
    play(organiser_api, w, ["33", "34"], at(80))
    play(organiser_api, y, ["31", "32", "33"], at(80))
    play(organiser_api, z, ["31", "34"], at(70))
    ranking = board(organiser_api, race, famille)["ranking"]
    assert [(r["rank"], r["name"], r["score"]) for r in ranking] == [
        (1, "Zacharie", 20), (2, "Wanda", 20), (2, "Xavier", 20), (4, "Yasmine", 20)]


def test_the_tie_break_order_is_an_option(clock, narrator_user, organiser_api, zombie_user):
    from players.models import Membership
    race = make_race(narrator_user, {"tie_break": ["lives_lost_asc", "elapsed_asc"]})
    Membership.objects.create(event=race, user=zombie_user, role=Membership.ZOMBIE)
    course = make_course(race, narrator_user)
    fast, careful = (entry_of(register(organiser_api, race, course, name, n))
                     for n, name in ((1, "Rapide"), (2, "Prudent")))
    for entry in (fast, careful):
        gear(organiser_api, entry, vest=True, light=True, phone=True)
        start(organiser_api, entry)
    from fixtures import client_for
    grab(client_for(zombie_user), race, fast), grab(client_for(zombie_user), race, fast)
    clock.advance(90 * 60)
    # Rapide: 3 × 20 − 10 − 30 = 20 in 60 min; Prudent: 2 × 20 − 20 = 20 in 80 min.
    play(organiser_api, fast, ["31", "32", "33"], at(60))
    play(organiser_api, careful, ["31", "32"], at(80))
    ranking = board(organiser_api, race, course)["ranking"]
    assert [r["name"] for r in ranking] == ["Prudent", "Rapide"]   # fewer lives lost first


def test_every_number_of_the_formula_is_an_option(clock, narrator_user, organiser_api):
    race = make_race(narrator_user, {"unfound_checkpoint_penalty": 4, "late_minute_penalty": 2,
                                     "late_minute_rounding": "floor", "score_floor": 0})
    course = make_course(race, narrator_user, points=7)
    paul = entry_of(register(organiser_api, race, course, "Paul", 7))
    gear(organiser_api, paul, vest=True, light=True, phone=True)
    start(organiser_api, paul)
    clock.advance(100 * 60)
    play(organiser_api, paul, ["31", "32", "33"], at(92, 59))
    # 3 × 7 − 4 × 1 − 2 × 2 (2 min 59 s late, whole minutes) = 21 − 4 − 4 = 13
    assert board(organiser_api, race, course)["ranking"][0]["score"] == 13
    other = make_race(narrator_user, {"score_floor": 0}, name="Plancher")
    course = make_course(other, narrator_user)
    lost = entry_of(register(organiser_api, other, course, "Perdu", 8))
    gear(organiser_api, lost, vest=True, light=True, phone=True)
    start(organiser_api, lost)
    finish(organiser_api, lost)
    # 0 found: −10 × 4 = −40, floored at 0 (Z13).
    assert board(organiser_api, other, course)["ranking"][0]["score"] == 0


def test_a_balise_may_be_worth_its_own_points(clock, race, famille, enrol, organiser_api):
    post(organiser_api, f"/api/race/courses/{famille.pk}/checkpoints/", code="40", points=50)
    lucie = enrol("Lucie", 1)
    start(organiser_api, lucie)
    clock.advance(60 * 60)
    play(organiser_api, lucie, ["31", "40"], at(50))
    # 20 + 50 − 10 × 3 (32, 33, 34 not found; N = 5) = 40
    assert board(organiser_api, race, famille)["ranking"][0]["score"] == 40


def test_z8_finishers_later_than_the_maximum_are_not_ranked(clock, narrator_user, organiser_api):
    race = make_race(narrator_user, {"max_late_minutes": 10})
    course = make_course(race, narrator_user)
    late = entry_of(register(organiser_api, race, course, "Tardif", 1))
    gear(organiser_api, late, vest=True, light=True, phone=True)
    start(organiser_api, late)
    clock.advance(120 * 60)
    finish(organiser_api, late, at=at(100, 1))              # 10 min 1 s late: M = 11
    scored = board(organiser_api, race, course)
    assert scored["ranking"] == []
    assert scored["unranked"][0]["unclassified"]["key"] == "over_max_late"


def test_the_core_formula_without_the_database():
    """The score function alone: late minutes by each rounding, the window, a DQ."""
    assert [late_minutes(s, 5400, "ceil") for s in (5400, 5401, 5460, 5461)] == [0, 1, 1, 2]
    assert [late_minutes(s, 5400, "floor") for s in (5401, 5459, 5460)] == [0, 0, 1]

    class Event:               # the options of a race with the defaults
        ruleset, options = "zombie_race", {}

        def rules(self):
            from rulesets import Rules, get_ruleset
            rs = get_ruleset("zombie_race")
            return Rules(rs, rs.merged_options({}))
    options = race_options(Event())
    t0 = datetime(2026, 6, 6, 20, tzinfo=timezone.utc)
    facts = EntryFacts(status="finished", started_at=t0, deadline_at=t0 + timedelta(hours=1),
                       finished_at=t0 + timedelta(minutes=61), lives_lost=1,
                       punches=[PunchFact(1, 11, t0 - timedelta(minutes=1)),   # before start
                                PunchFact(2, 11, t0 + timedelta(minutes=5)),
                                PunchFact(3, 11, t0 + timedelta(minutes=6)),   # duplicate
                                PunchFact(4, 12, t0 + timedelta(minutes=62))])  # after finish
    score = entry_score(facts, duration_s=3600, checkpoint_points={11: 20, 12: 20}, options=options,
                        now=t0 + timedelta(hours=2))
    # 1 × 20 − 10 × 1 − 5 × 1 − 15 × 1 = −10
    assert (score.score, score.late_minutes, score.classified) == (-10, 1, True)
    assert score.ignored == {1: "before_start", 3: "duplicate", 4: "after_finish"}
    facts.status = "disqualified"
    assert entry_score(facts, duration_s=3600, checkpoint_points={11: 20}, options=options,
                       now=t0).score is None


def test_z7_a_punch_exactly_at_the_time_limit_counts_and_one_a_second_later_does_not(
        clock, narrator_user, organiser_api):
    race = make_race(narrator_user, {"count_punches_after_limit": False})
    course = make_course(race, narrator_user)
    paul = entry_of(register(organiser_api, race, course, "Paul", 7))
    gear(organiser_api, paul, vest=True, light=True, phone=True)
    start(organiser_api, paul, at=clock.now)
    clock.advance(100 * 60)
    assert punch(organiser_api, paul, "31", at=at(90)).status_code == 201      # the limit: 1 h 30
    assert punch(organiser_api, paul, "32", at=at(90, 1)).status_code == 201
    shown = {p["checkpoint"]["code"]: p["counted"] for p in organiser_api.get(
        entry_url(paul)).json()["punches"]}
    assert shown == {"31": True, "32": False}


def test_z8_a_finisher_exactly_the_maximum_late_is_still_ranked(clock, narrator_user,
                                                                  organiser_api):
    race = make_race(narrator_user, {"max_late_minutes": 10})
    course = make_course(race, narrator_user)
    late = entry_of(register(organiser_api, race, course, "Juste", 1))
    gear(organiser_api, late, vest=True, light=True, phone=True)
    start(organiser_api, late, at=clock.now)
    clock.advance(120 * 60)
    finish(organiser_api, late, at=at(100))                 # 10 min 0 s late: M = 10
    ranked, = board(organiser_api, race, course)["ranking"]
    assert (ranked["name"], ranked["late_minutes"], ranked["rank"]) == ("Juste", 10, 1)
