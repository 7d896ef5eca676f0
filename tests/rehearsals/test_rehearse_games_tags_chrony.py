"""Rehearsal steps for what the other steps could not play (docs/rehearse.md, "Game
stops, the games of a day, the chrony, tags and locks"): a player's game stop, the games
of an airsoft day and what every phone shows of them, the chrony, a fault's category,
GN tags, medicines and locks, a race's balise of another course and its warnings. Each
played through the services, each checked when the file is read."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.rehearsals.test_rehearse import EXAMPLES, failing, rehearse

AIRSOFT = """\
event: {name: Test, ruleset: airsoft_rats}
members:
  ben: {name: Ben, team: Rouges}
  lea: {name: Léa, team: Bleus}
replicas:
  m4: {member: ben, type: rifle}
steps:
"""
GN = """\
event: {name: Test, ruleset: gn_fr}
characters:
  alice: {name: Alice, sheet: {combat_base: 2}}
  bruno: {name: Bruno, sheet: {combat_base: 2}}
items:
  fiole: {name: Fiole, kind: medicine, effect: "Effet : tu dors", duration: "5:00"}
  cadenas: {name: Cadenas, kind: lock}
steps:
"""
RACE = """\
event: {name: Test, ruleset: zombie_race}
courses:
  famille: {points_per_checkpoint: 20, checkpoints: [31, 32]}
  sportif: {checkpoints: [41]}
entries:
  lucie: {name: Lucie, course: famille, finger: 101}
steps:
  - {at: "0:00", race_start: famille}
"""


def write(tmp_path, text: str) -> Path:
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_each_new_step_is_played_by_a_shipped_timeline():
    text = "\n".join(p.read_text(encoding="utf-8") for p in EXAMPLES)
    for word in ("stop_game:", "announce_game:", "start_game:", "end_game:", "chrony:",
                 "category:", "read_tag:", "ingest:", "lock:", "unlock:", "warnings:",
                 "reason: not_on_course", "next_game:", "replicas:", "repeats:", "hit_by:"):
        assert word in text, word


@pytest.mark.django_db
def test_a_players_game_stop_pauses_the_clock_for_everyone(tmp_path):
    output = rehearse(write(tmp_path, AIRSOFT + """\
  - {at: "0:00", check_in: ben}
  - {at: "0:00", check_in: lea}
  - {at: "1:00", by: lea, stop_game: "une cheville"}
  - {at: "1:00", expect: {clock: {running: false}}}
  - {at: "2:00", by: ben, do: respawn, expect_refused: game_paused}
  - {at: "2:00", by: ben, stop_game: true}
  - {at: "3:00", by: narrator, resume: true}
  - {at: "3:00", expect: {clock: {running: true, game_time: "1:00"}}}
"""))
    assert "stop_game: une cheville  ok (the game is stopped)" in output
    assert "ok (already stopped: journalled)" in output


@pytest.mark.django_db
def test_a_game_announced_shows_its_options_and_its_start_sends_players_to_spawn(tmp_path):
    output = rehearse(write(tmp_path, AIRSOFT + """\
  - {at: "0:00", check_in: ben}
  - {at: "0:00", by: ben, do: respawn}
  - {at: "1:00", announce_game: {scenario: Assaut, start_at: "5:00", options: {medic_mode: true}}}
  - {at: "1:00", expect: {clock: {game: null, next_game: {number: 1, status: announced, options: {medic_mode: true}}}}}
  - {at: "5:00", start_game: true}
  - {at: "5:00", start_game: true, expect_refused: game_already_started}
  - {at: "6:00", by: ben, do: hit}
  - {at: "6:00", expect: {ben: {state: hit_counting}, clock: {game: {scenario: Assaut, status: playing}}}}
  - {at: "9:00", end_game: true}
  - {at: "9:00", expect: {clock: {running: false, game: null, next_game: null}}}
"""))
    assert 'announce_game "Assaut" at 5:00  ok (game 1)' in output
    assert "start_game  ok (game 1, 1 player(s) to their spawn)" in output


@pytest.mark.django_db
def test_a_shot_before_retour_en_jeu_is_void_and_said_so(tmp_path):
    output = rehearse(write(tmp_path, AIRSOFT.replace("ruleset: airsoft_rats", "ruleset: airsoft_rats, "
                                                      "options: {medic_mode: true}") + """\
  - {at: "0:00", check_in: ben}
  - {at: "0:00", check_in: lea}
  - {at: "0:00", by: ben, do: respawn}
  - {at: "0:00", by: lea, do: respawn}
  - {at: "1:00", by: narrator, do: set_state, on: ben, params: {state: healed_pending_call}}
  - {at: "1:05", by: lea, hit_by: ben}
  - {at: "1:05", expect: {lea: {state: in_play}, ben: {values: {invalid_actions: 1}}}}
  - {at: "1:10", by: ben, do: retour_en_jeu}
  - {at: "1:15", by: lea, hit_by: ben}
  - {at: "1:15", expect: {lea: {state: hit_counting}}}
"""))
    assert "lea        hit by ben  ok (void: ben may not shoot now; recorded on ben)" in output
    assert "hit by ben  ok (hit)" in output


@pytest.mark.django_db
def test_a_wrong_game_expectation_names_the_option_and_both_values(tmp_path):
    _, error = failing(write(tmp_path, AIRSOFT + """\
  - {at: "1:00", announce_game: {scenario: Assaut, start_at: "5:00"}}
  - {at: "1:00", expect: {clock: {next_game: {options: {medic_mode: true}}}}}
"""))
    assert "clock.next_game.options.medic_mode: expected true, got false" in error


@pytest.mark.django_db
def test_the_chrony_passes_1_2_J_fails_1_21_J_and_a_failed_recheck_is_cheating(tmp_path):
    output = rehearse(write(tmp_path, AIRSOFT + """\
  - {at: "0:00", chrony: {replica: m4, energy: 1.21}}
  - {at: "0:00", expect: {replicas: {m4: {passed: false, checks: 1}}, members: {ben: {sanctions: []}}}}
  - {at: "1:00", chrony: {replica: m4, energy: 1.2}}
  - {at: "1:00", check_in: ben}
  - {at: "9:00", chrony: {replica: m4, kind: recheck, energy: 1.21}}
  - {at: "9:00", expect: {replicas: {m4: {passed: false, checks: 3}}, members: {ben: {sanctions: [sanction_out]}}}}
"""))
    assert "chrony m4 (check_in): 1.2 J  ok (passed, 1.2 J)" in output
    assert "ok (failed: 1.21 J > 1.2 J)" in output
    assert "; sanction_out recorded (cheating))" in output


@pytest.mark.django_db
def test_a_repeat_of_the_same_category_is_named(tmp_path):
    output = rehearse(write(tmp_path, AIRSOFT + """\
  - {at: "0:00", sanction: {member: ben, kind: warning, category: bbs_left}}
  - {at: "1:00", sanction: {member: ben, kind: warning, category: no_out_call}}
  - {at: "2:00", sanction: {member: ben, kind: sanction_out, category: bbs_left}}
  - {at: "2:00", expect: {members: {ben: {repeats: 1}}}}
"""))
    assert "ok (a repeat of the warning of 0:00 (bbs_left))" in output


@pytest.mark.django_db
def test_a_medicine_reaches_who_swallows_it_and_a_lock_moves(tmp_path):
    output = rehearse(write(tmp_path, GN + """\
  - {at: "0:00", by: bruno, ingest: {item: fiole, target: alice}}
  - {at: "0:00", expect: {alice: {effects: ["Effet : tu dors"]}, bruno: {effects: []}, items: {fiole: {used: true}}}}
  - {at: "0:30", by: alice, ingest: fiole, expect_refused: item_used}
  - {at: "1:00", by: alice, unlock: cadenas}
  - {at: "1:00", by: bruno, unlock: cadenas, expect_refused: lock_already}
  - {at: "1:00", by: bruno, lock: cadenas}
  - {at: "5:00", expect: {alice: {effects: []}, items: {cadenas: {closed: true, used_by: bruno}}}}
"""))
    assert 'ingest fiole: makes alice swallow it  ok ("Effet : tu dors" on alice)' in output


@pytest.mark.django_db
def test_a_wrong_lock_expectation_names_the_field(tmp_path):
    _, error = failing(write(tmp_path, GN + """\
  - {at: "1:00", by: alice, unlock: cadenas}
  - {at: "1:00", expect: {items: {cadenas: {closed: true}}}}
"""))
    assert "items.cadenas.closed: expected true, got false" in error


@pytest.mark.django_db
def test_another_courses_balise_is_expected_not_counted_and_warnings_are_compared(tmp_path):
    rehearse(write(tmp_path, RACE + """\
  - {at: "5:00", by: lucie, punch: 41}
  - {at: "5:00", expect: {lucie: {race: {punches: [{code: 41, counted: false, reason: not_on_course}], found: 0, warnings: []}}}}
"""))
    _, error = failing(write(tmp_path, RACE + """\
  - {at: "5:00", expect: {lucie: {race: {warnings: [points_unconfirmed]}}}}
"""))
    assert 'lucie.race.warnings: expected ["points_unconfirmed"], got []' in error


@pytest.mark.django_db
@pytest.mark.parametrize("header, step, message", [
    (AIRSOFT, '  - {at: "0:00", stop_game: true}\n', "step 1: stop_game is a player's game stop"),
    (AIRSOFT, '  - {at: "0:00", check_in: ben}\n  - {at: "0:00", by: ben, hit_by: ben}\n',
     "step 2: hit_by: the shooter is another character"),
    (AIRSOFT, '  - {at: "0:00", by: ben, hit_by: zoe}\n', "step 1: hit_by (the shooter's key): unknown character 'zoe'"),
    (GN, '  - {at: "0:00", by: alice, hit_by: bruno}\n', "step 1: hit_by: the ruleset gn_fr has no shot"),
    (AIRSOFT, '  - {at: "0:00", by: lea, stop_game: 3}\n', "step 1: stop_game: true, or why"),
    (AIRSOFT, '  - {at: "0:00", announce_game: {scenario: A, start_at: "5:00", when: soon}}\n',
     "step 1: announce_game: unknown key(s) when"),
    (AIRSOFT, '  - {at: "0:00", announce_game: {scenario: A, start_at: "5:00", options: {grenades: true}}}\n',
     "step 1: announce_game.options: "),
    (AIRSOFT, '  - {at: "0:00", announce_game: {scenario: A, start_at: "5:00", options: {medic_mode: 3}}}\n',
     "step 1: announce_game.options: "),
    (AIRSOFT, '  - {at: "0:00", announce_game: {scenario: A}}\n', "step 1: announce_game.start_at"),
    (AIRSOFT, '  - {at: "0:00", by: ben, start_game: true}\n', "step 1: start_game is done by the organisers"),
    (AIRSOFT, '  - {at: "0:00", end_game: yes}\n', "step 1: write 'end_game: true'"),
    (AIRSOFT, '  - {at: "0:00", expect: {clock: {game: {mood: good}}}}\n',
     "step 1: expect.clock.game: unknown key(s) mood"),
    (AIRSOFT, '  - {at: "0:00", expect: {clock: {game: {options: {grenades: true}}}}}\n',
     "step 1: expect.clock.game.options: unknown key(s) grenades"),
    (AIRSOFT, '  - {at: "0:00", chrony: {replica: m4, energy: 1.2, speed: 100}}\n',
     "step 1: chrony: give the energy (joules) or the speed (m/s), not both"),
    (AIRSOFT, '  - {at: "0:00", chrony: {replica: ak, energy: 1.2}}\n',
     "step 1: chrony.replica: unknown replica 'ak' (replicas: m4)"),
    (AIRSOFT, '  - {at: "0:00", chrony: {replica: m4, kind: spot, energy: 1.2}}\n',
     "step 1: chrony.kind: one of check_in, recheck"),
    (AIRSOFT, '  - {at: "0:00", chrony: {replica: m4, energy: -1}}\n', "step 1: chrony.energy: a number above 0"),
    (AIRSOFT, '  - {at: "0:00", expect: {replicas: {m4: {power: 1}}}}\n',
     "step 1: expect.replicas.m4: unknown key(s) power"),
    (AIRSOFT, '  - {at: "0:00", sanction: {member: ben, kind: warning, category: humeur}}\n',
     "step 1: sanction.category: one of alcohol_drugs"),
    (AIRSOFT, '  - {at: "0:00", expect: {members: {ben: {repeats: yes}}}}\n',
     "step 1: expect.members.ben.repeats: a count"),
    (GN, '  - {at: "0:00", stop_game: true, by: alice}\n  - {at: "0:00", start_game: true}\n',
     "step 2: start_game: the ruleset gn_fr has no games of a day"),
    (GN, '  - {at: "0:00", by: alice, ingest: {item: fiole, target: zoe}}\n', "step 1: ingest.target"),
    (GN, '  - {at: "0:00", by: alice, unlock: coffre}\n', "step 1: unlock: unknown object 'coffre'"),
    (GN, '  - {at: "0:00", expect: {items: {cadenas: {closed: open}}}}\n',
     "step 1: expect.items.cadenas.closed: true or false"),
    (GN, '  - {at: "0:00", expect: {items: {fiole: {used_by: zoe}}}}\n', "step 1: expect.items.fiole.used_by"),
    (RACE, '  - {at: "5:00", expect: {lucie: {race: {punches: [99]}}}}\n',
     "step 2: expect.lucie.race.punches[1]: balise 99 is not on the entry's course"),
    (RACE, '  - {at: "5:00", expect: {lucie: {race: {found: [41]}}}}\n',
     "step 2: expect.lucie.race.found: balise 41 is not on the entry's course"),
    (RACE, '  - {at: "5:00", expect: {lucie: {race: {warnings: [late]}}}}\n',
     "step 2: expect.lucie.race.warnings: a list among points_unconfirmed, no_checkpoints"),
])
def test_a_malformed_new_step_fails_with_file_and_path_before_playing(tmp_path, header, step,
                                                                       message):
    output, error = failing(write(tmp_path, header + step))
    assert f"t.yaml: {message}" in error
    assert output == ""


@pytest.mark.django_db
@pytest.mark.parametrize("header, message", [
    (GN.replace("items:", "replicas: {m4: {member: ben}}\nitems:"),
     "t.yaml: replicas: the ruleset gn_fr has no chrony station"),
    (AIRSOFT.replace("member: ben, type: rifle", "member: zoe"), "t.yaml: replicas.m4.member"),
    (AIRSOFT.replace("type: rifle", "type: bazooka"), "t.yaml: replicas.m4.type: one of rifle"),
    (GN.replace("kind: lock}", "kind: lock, closed: maybe}"), "t.yaml: items.cadenas.closed"),
    (GN.replace("kind: medicine,", "kind: medicine, set_state: asleep,"),
     "t.yaml: items.fiole.set_state: unknown state 'asleep'"),
    (GN.replace('duration: "5:00"', "duration: 5"), "t.yaml: items.fiole.duration 5 is not a time"),
])
def test_a_malformed_header_fails_naming_file_and_path(tmp_path, header, message):
    _, error = failing(write(tmp_path, header + '  - {at: "0:00", expect: {clock: {running: true}}}\n'))
    assert message in error
