"""Timelines of a race night, minute by minute, through the HTTP API.

The organisers' own timelines are rehearsal files (rehearsals/race_*.yaml, played by
`manage.py rehearse` against the race services; docs/rehearse.md, "The zombie race").
These pytest scenarios cover what a rehearsal does not see: the API's answers and
status codes, the phones' views in French, a team's carrier change, the journal. Each
step moves the shared clock to its minute of the night (22:00 in Rugles is 0:00) and
does what the phones or the organisers do then, with what an organiser would check at
that moment."""
from __future__ import annotations

from datetime import timedelta

import pytest

from fixtures import START, client_for
from players.models import JournalEntry
from race.tasks import sweep_overdue_alerts
from racekit import (balise, board, entry_url, finish, grab, post, punch, start, survivor_api,
                     view)

pytestmark = pytest.mark.django_db


class Night:
    """The race clock: `night.at("1:33:30")` moves time there (never backwards)."""

    def __init__(self, clock):
        self.clock = clock

    def at(self, hms: str) -> None:
        parts = [int(p) for p in hms.split(":")]
        h, m, s = (parts + [0])[:3] if len(parts) == 3 else (parts[0], parts[1], 0)
        target = START + timedelta(hours=h, minutes=m, seconds=s)
        step = (target - self.clock.now).total_seconds()
        assert step >= 0, f"the timeline goes back to {hms}"
        self.clock.advance(step)


def test_a_famille_night_from_the_mass_start_to_the_results(clock, race, famille, enrol,
                                                            organiser_api, zombie_api):
    night = Night(clock)
    lucie = enrol("Lucie", 101, phone="06 11 22 33 44")
    team = enrol("Les Rescapés", 102, kind="team", members=["Marc", "Julie"])
    paul = enrol("Paul", 103, ready=False)
    post(organiser_api, entry_url(paul, "gear"), vest=True, light=True)

    night.at("0:00")                       # the mass start: Paul has no charged phone
    started = post(organiser_api, f"/api/race/courses/{famille.pk}/start/").json()
    assert [s["name"] for s in started["started"]] == ["Lucie", "Les Rescapés"]
    assert [n["name"] for n in started["not_started"]] == ["Paul"]

    night.at("0:04")                       # Paul comes back with his phone charged
    post(organiser_api, entry_url(paul, "gear"), phone=True)
    assert start(organiser_api, paul).status_code == 200

    night.at("0:12")                       # Lucie scans balise 31
    assert punch(survivor_api(lucie), lucie, balise(famille, "31")).json()["found"] == 1

    night.at("0:18")                       # Igor pulls one of Lucie's flags
    assert grab(zombie_api, race, lucie).json()["lives"] == 1

    night.at("0:25")                       # Marc hands finger and belt to Julie
    assert post(survivor_api(team), entry_url(team, "carrier"),
                carrier="Julie").json()["entry"]["carrier"] == "Julie"

    night.at("0:31")
    punch(survivor_api(lucie), lucie, balise(famille, "32"))

    night.at("0:40")                       # a marshal sees Paul leave the zone, fleeing
    assert post(organiser_api, entry_url(paul, "zone-losses"),
                cause="out_of_zone").json()["lives"]["remaining"] == 1

    night.at("0:47")                       # a grab on the team, right by balise 33
    grabbed = grab(zombie_api, race, team, lat=48.8247, lon=0.7064).json()
    assert grabbed["grab"]["review"]["checkpoint"] == "33"

    night.at("0:50")                       # the organiser voids it: the flag comes back
    post(organiser_api, f"/api/race/life-losses/{grabbed['grab']['id']}/void/",
         reason="à moins de 5 m de la balise 33")
    assert view(organiser_api, team)["lives"]["remaining"] == 2

    night.at("0:55")                       # Lucie punches 33, then again by mistake
    punch(survivor_api(lucie), lucie, balise(famille, "33"))
    night.at("0:56")
    assert punch(survivor_api(lucie), lucie, balise(famille, "33")).json()["found"] == 3

    night.at("1:28")                       # Lucie is back, on time
    assert finish(organiser_api, lucie, flags_on_belt=1).status_code == 200
    assert post(organiser_api, entry_url(lucie, "finger-return")).status_code == 200

    night.at("1:30")                       # the team's time is up: overtime
    assert view(survivor_api(team), team)["status"]["key"] == "overtime"

    night.at("1:33:30")                    # the team arrives 3 min 30 s late
    finish(organiser_api, team)

    night.at("1:48:59")                    # Paul is 14 min 59 s over: no alert yet
    assert sweep_overdue_alerts() == 0
    night.at("1:49")                       # 15 min over his deadline (1:34): the alert
    assert sweep_overdue_alerts() == 1
    safety = organiser_api.get(f"/api/race/events/{race.pk}/safety/").json()
    assert [(e["entry"]["name"], e["overdue_s"], e["alert"])
            for c in safety["courses"] for e in c["entries"]] == [("Paul", 900, True)]

    night.at("1:52")                       # Paul is back
    finish(organiser_api, paul)

    night.at("1:55")                       # the fingers are read: the team's punches
    readout = "doigt;balise;heure\n102;31;22:20:00\n102;34;23:05:10\n103;34;23:10:00\n"
    imported = organiser_api.post(f"/api/race/events/{race.pk}/punches/import/",
                                  data=readout.encode(), content_type="text/csv")
    assert imported.json()["imported"] == 3

    # Lucie:    3 × 20 − 10 × 1 − 5 × 0 − 15 × 1 = 60 − 10 − 15      = 35
    # Rescapés: 2 × 20 − 10 × 2 − 5 × 4 − 15 × 0 = 40 − 20 − 20      = 0
    #           (3 min 30 s late: four started minutes; the grab was voided)
    # Paul:     1 × 20 − 10 × 3 − 5 × 18 − 15 × 1 = 20 − 30 − 90 − 15 = −115
    #           (started 0:04, finished 1:52: 108 min, 18 over his 90)
    ranking = board(organiser_api, race, famille)["ranking"]
    assert [(r["rank"], r["name"], r["score"]) for r in ranking] == [
        (1, "Lucie", 35), (2, "Les Rescapés", 0), (3, "Paul", -115)]
    assert JournalEntry.objects.filter(event=race, what="entry:overdue_alert").count() == 1


def test_an_enfant_night_with_a_disqualification_and_an_abandon_by_phone(clock, race, enfant,
                                                                        enrol, narrator_user,
                                                                        zombie_api):
    night = Night(clock)
    api = client_for(narrator_user, "fr")
    zoe, hugo, ines = (enrol(n, f, course=enfant) for n, f in (("Zoé", 1), ("Hugo", 2), ("Inès", 3)))

    night.at("0:00")
    post(api, f"/api/race/courses/{enfant.pk}/start/")

    night.at("0:07")                       # Hugo insults a zombie: disqualified
    post(api, entry_url(hugo, "disqualify"), reason="insultes à un zombie")

    night.at("0:09")                       # his phone still scans: refused
    refused = punch(survivor_api(hugo), hugo, balise(enfant, "11"))
    assert refused.status_code == 409

    night.at("0:20")                       # Inès is scared and abandons from her phone
    post(survivor_api(ines), entry_url(ines, "abandon"), reason="trop peur")
    assert api.get(f"/api/race/events/{race.pk}/safety/").json()["still_out"] == 2

    night.at("0:26")                       # two flags for Zoé: none left, she goes on
    grab(zombie_api, race, zoe), grab(zombie_api, race, zoe)
    assert grab(zombie_api, race, zoe).status_code == 409
    punch(survivor_api(zoe), zoe, balise(enfant, "12"))

    night.at("0:35")                       # Inès walks in with her finger
    post(api, entry_url(ines, "finger-return"))

    night.at("0:58")
    finish(api, zoe)
    assert api.get(f"/api/race/events/{race.pk}/safety/").json()["still_out"] == 0

    # Zoé: 1 × 10 − 10 × 1 − 5 × 0 − 15 × 2 = 10 − 10 − 30 = −30 (enfant: 10 pts a balise)
    scored = board(api, race, enfant)
    assert [(r["rank"], r["name"], r["score"]) for r in scored["ranking"]] == [(1, "Zoé", -30)]
    assert {r["name"]: r["unclassified"]["label"] for r in scored["unranked"]} == {
        "Hugo": "Disqualifié", "Inès": "Abandon"}
    assert JournalEntry.objects.filter(event=race, what="entry:overdue_alert").count() == 0
