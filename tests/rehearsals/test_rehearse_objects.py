"""Rehearsals of firearms, Carga, the club register, what the phone shows (can/cannot,
reminders, a medic's findings), a race's desk, and timelines before 0:00 at any wall
time (docs/rehearse.md, "Objects, the register, what the phone shows")."""
from __future__ import annotations

from pathlib import Path

import pytest

from club.models import Member, Sanction
from effects.models import Item
from tests.rehearsals.test_rehearse import EXAMPLES, failing, rehearse

GN = """\
event: {name: Test, ruleset: gn_fr}
characters:
  alice: {name: Alice, sheet: {combat_base: 2, skills: {load_firearm: true}}}
  bruno: {name: Bruno, sheet: {combat_base: 2}}
items:
  pistol: {name: Pistolet, kind: firearm}
steps:
"""


def write(tmp_path, text: str) -> Path:
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_timeline_per_ruleset_plays_the_new_steps():
    names = {p.name for p in EXAMPLES}
    assert {"gn_fr_firearms_analysis_reminders.yaml", "septenario_carga_and_pistol.yaml",
            "airsoft_register_and_faults.yaml", "race_night_carrier_and_desk.yaml"} <= names


@pytest.mark.django_db
def test_a_hit_shows_on_the_victim_and_empties_the_weapon(tmp_path):
    output = rehearse(write(tmp_path, GN + """\
  - {at: "0:00", by: alice, take_firearm: pistol}
  - {at: "0:10", by: alice, load_firearm: pistol}
  - {at: "0:20", by: alice, fire: {weapon: pistol, target: bruno, distance: 2}}
  - {at: "0:20", expect: {bruno: {state: wounded, cannot: [fight]}, items: {pistol: {loaded: false, bullets: 0, holder: alice}}}}
"""))
    assert "ok (hit bruno)" in output


@pytest.mark.django_db
def test_a_wrong_weapon_expectation_names_the_field(tmp_path):
    _, error = failing(write(tmp_path, GN + """\
  - {at: "0:00", by: alice, take_firearm: pistol}
  - {at: "0:00", expect: {items: {pistol: {loaded: true}}}}
"""))
    assert "items.pistol.loaded: expected true, got false" in error


@pytest.mark.django_db
def test_before_zero_the_clock_is_stopped_and_players_are_refused(tmp_path):
    output = rehearse(write(tmp_path, GN + """\
  - {at: "-5:00", by: alice, take_firearm: pistol, expect_refused: game_paused}
  - {at: "-5:00", expect: {clock: {running: false, game_time: "0:00"}}}
  - {at: "1:00", expect: {clock: {running: true, game_time: "1:00"}}}
"""))
    assert "  -5:00" in output and "passed" in output


def test_an_unknown_object_fails_before_playing(tmp_path):
    _, error = failing(write(tmp_path, GN + """\
  - {at: "0:00", by: alice, take_firearm: rifle}
"""))
    assert "step 1: take_firearm: unknown object 'rifle'" in error


@pytest.mark.django_db
def test_a_missing_reminder_and_an_analysis_are_reported(tmp_path):
    _, error = failing(write(tmp_path, GN.replace("bruno: {name: Bruno, sheet: {combat_base: 2}}",
                                                  "bruno: {name: Bruno, sheet: {combat_base: 2, skills: {metabolic_analysis: true}}}") + """\
  - {at: "0:00", by: bruno, treat: metabolic_analysis, on: alice}
  - {at: "0:10", by: bruno, complete: metabolic_analysis, on: alice}
  - {at: "0:10", expect: {bruno: {revealed: {state: tired}, reminders: ["Remove the KOC"]}}}
"""))
    assert "bruno.reminders: expected" in error
    assert "bruno.revealed: expected" in error


@pytest.mark.django_db
def test_the_register_is_left_unchanged_and_a_check_in_refused(tmp_path):
    members, sanctions, items = Member.objects.count(), Sanction.objects.count(), Item.objects.count()
    rehearse(write(tmp_path, """\
event: {ruleset: airsoft_rats}
members: {ben: {name: Ben}}
steps:
  - {at: "0:00", sanction: {member: ben, kind: permanent_ban, reason: x}}
  - {at: "0:00", check_in: ben, expect_refused: member_banned}
  - {at: "0:00", expect: {members: {ben: {barred: true, checked_in: false, sanctions: [permanent_ban]}}}}
"""))
    assert (Member.objects.count(), Sanction.objects.count(), Item.objects.count()) == \
        (members, sanctions, items)


@pytest.mark.django_db
def test_a_phone_punch_on_another_course_is_recorded_not_counted(tmp_path):
    """The step goes through the punch service: the balise of another course is recorded
    and does not count, and the runner's score ignores it."""
    path = write(tmp_path, """\
event: {ruleset: zombie_race, starts_at: "21:00"}
courses:
  famille: {checkpoints: [31]}
  sportif: {checkpoints: [51]}
entries:
  lucie: {course: famille, finger: 101}
steps:
  - {at: "0:00", race_start: famille}
  - {at: "5:00", by: lucie, punch: 51}
  - {at: "5:00", expect: {lucie: {race: {found: []}}}}
""")
    out = rehearse(path)
    line = next(l for l in out.splitlines() if "punch 51" in l)
    assert "ok (does not count: not_on_course)" in line
