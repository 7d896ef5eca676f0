"""`manage.py rehearse`: the shipped examples pass, a wrong expectation fails with a
readable diff, a malformed file fails with its step number before anything is played,
and the database is left as it was."""
from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from combat.models import Acharnement, Duel, Union
from health.models import Treatment
from players.models import Character, Event, JournalEntry
from race.models import Checkpoint, Course, Entry, Infraction, LifeLoss, Punch

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "rehearsals").glob("*.yaml"))

HEADER = """\
event: {name: Test, ruleset: gn_fr}
characters:
  alice: {name: Alice, sheet: {combat_base: 2}}
  bruno: {name: Bruno, sheet: {combat_base: 2, skills: {first_aid: novice}}, kits: {kps: 1}}
steps:
"""


def rehearse(*paths) -> str:
    out = StringIO()
    call_command("rehearse", *map(str, paths), stdout=out)
    return out.getvalue()


def failing(*paths) -> tuple[str, str]:
    out = StringIO()
    with pytest.raises(CommandError) as error:
        call_command("rehearse", *map(str, paths), stdout=out)
    return out.getvalue(), str(error.value)


def write(tmp_path, steps: str, name="t.yaml") -> Path:
    path = tmp_path / name
    path.write_text(HEADER + steps, encoding="utf-8")
    return path


def test_the_examples_are_shipped():
    names = {p.name for p in EXAMPLES}
    assert {"gn_fr_wound_first_aid_coma.yaml", "gn_fr_surgery.yaml", "gn_fr_pause.yaml",
            "gn_fr_stun_and_recovery.yaml", "gn_fr_effects.yaml", "gn_fr_duels.yaml",
            "gn_fr_union.yaml", "gn_fr_acharnement.yaml",
            "gn_fr_search_and_out_of_game.yaml", "septenario_combat_and_armour.yaml",
            "septenario_agony_first_aid_coma.yaml", "septenario_wooden_and_knockouts.yaml",
            "septenario_days_coraje_healing.yaml", "race_famille_lives_and_overtime.yaml",
            "race_finger_readout.yaml", "race_dnf_disqualification_safety.yaml",
            "race_iof_round_trip.yaml"} <= names


@pytest.mark.django_db
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_passes(path):
    output = rehearse(path)
    assert "FAILED" not in output
    assert "passed" in output.splitlines()[-1]


@pytest.mark.django_db
def test_the_database_is_left_unchanged():
    models = [Event, Character, Treatment, JournalEntry, Duel, Union, Acharnement, Course,
              Checkpoint, Entry, Punch, LifeLoss, Infraction]
    counts = [model.objects.count() for model in models]
    rehearse(*EXAMPLES)
    assert [model.objects.count() for model in models] == counts


@pytest.mark.django_db
def test_a_wrong_expectation_names_the_field_and_both_values(tmp_path):
    source = (EXAMPLES[0].parent / "gn_fr_wound_first_aid_coma.yaml").read_text(encoding="utf-8")
    wrong = source.replace("next_in: \"15:00\"                 # COMA entry",
                           "next_in: \"14:00\"                 # COMA entry")
    assert wrong != source
    path = tmp_path / "wrong.yaml"
    path.write_text(wrong, encoding="utf-8")
    output, error = failing(path)
    assert "alice.next_in: expected 14:00, got 15:00" in output
    assert "alice.next_in: expected 14:00, got 15:00" in error
    assert "wrong.yaml: step 11 at 1:06:00" in error
    assert "1:20:59" not in output  # stopped at the first failed step


@pytest.mark.django_db
def test_every_differing_field_of_the_failed_step_is_shown(tmp_path):
    path = write(tmp_path, """\
  - {at: "0:00", by: alice, do: hit_wounding}
  - at: "2:00"
    expect: {alice: {state: coma, inert: true, timers: {deadline: "13:00"}}, bruno: {kits: {kps: 0}}}
""")
    output, _ = failing(path)
    assert "alice.state: expected coma, got wounded" in output
    assert "alice.inert: expected true, got false" in output
    assert "bruno.kits.kps: expected 0, got 1" in output
    assert "alice.timers.deadline" not in output  # 13:00 is right


@pytest.mark.django_db
def test_an_unexpected_refusal_fails_with_its_english_message(tmp_path):
    path = write(tmp_path, '  - {at: "0:00", by: bruno, treat: first_aid, on: alice}\n')
    output, error = failing(path)
    assert "refused (not_applicable): First aid applies to Wounded, In a coma; " \
           "it cannot be given to this character now." in output
    assert "step 1 at 0:00" in error


@pytest.mark.django_db
def test_an_expected_refusal_that_does_not_happen_fails(tmp_path):
    path = write(tmp_path, '  - {at: "0:00", by: alice, do: hit_wounding, expect_refused: game_paused}\n')
    output, _ = failing(path)
    assert "expected the refusal game_paused, but the step was accepted" in output


@pytest.mark.django_db
def test_a_refusal_with_another_code_fails(tmp_path):
    path = write(tmp_path, '  - {at: "0:00", by: bruno, treat: first_aid, on: alice, '
                           'expect_refused: no_kit}\n')
    output, _ = failing(path)
    assert "refused (not_applicable)" in output and "(expected the refusal no_kit)" in output


@pytest.mark.django_db
def test_unquoted_times_and_the_on_key_are_read_as_written(tmp_path):
    # YAML 1.1 would read 5:00 as 300 and the key `on` as true.
    path = write(tmp_path, """\
  - {at: 0:00, by: alice, do: hit_wounding}
  - {at: 5:00, by: bruno, treat: first_aid, on: alice}
  - {at: 6:00, by: bruno, complete: first_aid, on: alice}
  - {at: 6:00, expect: {alice: {next_in: 1:00:00}, bruno: {kits: {kps: 0}}}}
""")
    assert "All 4 steps of 1 file(s) passed." in rehearse(path)


@pytest.mark.django_db
@pytest.mark.parametrize("steps, message", [
    ('  - {at: "0:00", by: alice, do: hit_wounding}\n'
     '  - {at: "1:00", by: alice, do: hit_wounding, when: later}\n',
     "t.yaml: step 2: a step: unknown key(s) when"),
    ('  - {at: "0:00", by: alice, do: hit_wounding}\n'
     '  - {at: "0:00", by: alice, do: hit_stunning}\n'
     '  - {at: "5 min", by: alice, do: hit_wounding}\n',
     "t.yaml: step 3: at '5 min' is not a time"),
    ('  - {at: "1:75", by: alice, do: hit_wounding}\n', "t.yaml: step 1: at '1:75'"),
    ('  - {at: 300, by: alice, do: hit_wounding}\n', "t.yaml: step 1: at 300 is not a time"),
    ('  - {at: "5:00", by: alice, do: hit_wounding}\n'
     '  - {at: "4:00", by: alice, do: hit_wounding}\n',
     "t.yaml: step 2: at 4:00 comes before the previous step (5:00)"),
    ('  - {at: "0:00", by: carol, do: hit_wounding}\n', "t.yaml: step 1: by: unknown character 'carol'"),
    ('  - {at: "0:00", expect: {carol: {state: healthy}}}\n', "step 1: expect: unknown character 'carol'"),
    ('  - {at: "0:00", by: alice, do: hit_with_a_spoon}\n', "step 1: do: unknown action 'hit_with_a_spoon'"),
    ('  - {at: "0:00", expect: {alice: {mood: happy}}}\n', "step 1: expect.alice: unknown key(s) mood"),
    ('  - {at: "0:00", expect: {alice: {next_in: "soon"}}}\n', "step 1: expect.alice.next_in 'soon'"),
    ('  - {at: "0:00", by: alice, do: hit_wounding, on: bruno}\n',
     "step 1: a player declares actions on their own character only"),
    ('  - {at: "0:00", by: alice, do: hit_wounding, expect_refused: nope}\n',
     "step 1: expect_refused: unknown refusal code 'nope'"),
    ('  - {at: "0:00", by: narrator, effect: {text: "Effet : froid", team: Nobody}}\n',
     "step 1: effect.team: no character in team 'Nobody'"),
])
def test_a_malformed_file_fails_with_the_step_number_before_playing(tmp_path, steps, message):
    output, error = failing(write(tmp_path, steps))
    assert message in error
    assert output == ""  # nothing was played


@pytest.mark.django_db
def test_every_file_is_checked_before_any_is_played(tmp_path):
    broken = write(tmp_path, '  - {at: "0:00", by: alice, dance: true}\n', name="broken.yaml")
    output, error = failing(EXAMPLES[0], broken)
    assert "broken.yaml: step 1: a step: unknown key(s) dance" in error
    assert output == ""


@pytest.mark.django_db
def test_an_unknown_option_fails_before_playing(tmp_path):
    path = tmp_path / "opt.yaml"
    path.write_text(HEADER.replace("ruleset: gn_fr}", "ruleset: gn_fr, options: {coma_s: 1}}")
                    + '  - {at: "0:00", by: alice, do: hit_wounding}\n', encoding="utf-8")
    _, error = failing(path)
    assert "opt.yaml: event: unknown option 'coma_s'" in error


@pytest.mark.django_db
def test_options_change_the_rules(tmp_path):
    path = tmp_path / "opt.yaml"
    path.write_text(HEADER.replace("ruleset: gn_fr}", "ruleset: gn_fr, options: {wounded_deadline_s: 600}}")
                    + '  - {at: "0:00", by: alice, do: hit_wounding}\n'
                    + '  - {at: "0:00", expect: {alice: {next_in: "10:00"}}}\n', encoding="utf-8")
    assert "passed" in rehearse(path)


@pytest.mark.django_db
def test_an_aborted_treatment_uses_no_kit_and_cannot_be_completed(tmp_path):
    path = write(tmp_path, """\
  - {at: "0:00", by: alice, do: hit_wounding}
  - {at: "1:00", by: bruno, treat: first_aid, on: alice}
  - {at: "1:30", by: bruno, abort: first_aid, on: alice}
  - {at: "2:00", by: bruno, complete: first_aid, on: alice, expect_refused: treatment_closed}
  - {at: "2:00", expect: {alice: {next_in: "13:00"}, bruno: {kits: {kps: 1}}}}
""")
    output = rehearse(path)
    assert "1:30  bruno      abort first_aid on alice  ok" in output


@pytest.mark.django_db
def test_the_documented_example_passes(tmp_path):
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rehearse.md").read_text(encoding="utf-8")
    example = doc.split("## A full example", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "doc.yaml"
    path.write_text(example, encoding="utf-8")
    assert "All 14 steps of 1 file(s) passed." in rehearse(path)


# -- fights between characters -------------------------------------------------------
FIGHTERS = """\
event: {name: Test, ruleset: gn_fr}
characters:
  alice: {name: Alice, sheet: {combat_base: 3}}
  bruno: {name: Bruno, sheet: {combat_base: 2}}
  carol: {name: Carol, sheet: {combat_base: 2}}
  denis: {name: Denis, sheet: {combat_base: 2}}
  emile: {name: Emile, sheet: {combat_base: 2}}
steps:
"""


def fight(tmp_path, steps: str, name="f.yaml") -> Path:
    path = tmp_path / name
    path.write_text(FIGHTERS + steps, encoding="utf-8")
    return path


@pytest.mark.django_db
def test_fight_steps_play_through_the_combat_services(tmp_path):
    path = fight(tmp_path, """\
  - {at: "0:00", by: alice, duel: {opponent: bruno}}
  - at: "0:00"
    expect:
      alice: {points: {combat_score: 2}, fights: [{kind: duel, role: challenger, other: bruno, result: won}]}
      bruno: {state: tired, fights: [{kind: duel, role: defender, status: resolved, result: lost}]}
  - {at: "1:00", by: carol, duel: {opponent: denis, answer: pending}}
  - {at: "1:20", by: denis, answer_duel: decline}
  - {at: "1:20", expect: {carol: {state: healthy, fights: [{kind: duel, status: declined, result: null}]}}}
  - {at: "2:00", by: carol, union: {attackers: [denis, emile, alice], defenders: [bruno]}}
  # nothing until 10:02: the union still ended at 2:03, and Bruno's ten minutes from there
  - {at: "12:02", expect: {bruno: {state: tired, next_in: "0:01"}}}
  - {at: "12:03", expect: {bruno: {state: healthy}, carol: {fights: []}}}
  - {at: "13:00", by: alice, do: hit_stunning}
  - {at: "13:00", by: alice, do: hit_stunning}
  - {at: "13:00", by: alice, do: hit_stunning}     # 3 - 3 = 0: Tired and inert
  - {at: "13:00", by: bruno, search: {target: alice, location: boots, strip: true}}
  - {at: "13:00", by: bruno, acharnement: {victim: alice, kind: bare_hands}}
  - {at: "14:00", by: bruno, stop_acharnement: true}
  - at: "14:00"
    expect:
      alice: {state: tired, next_in: "9:00", values: {naked: true},
              fights: [{kind: acharnement, role: victim, other: bruno, type: bare_hands, status: stopped}]}
""")
    output = rehearse(path)
    assert "All 15 steps of 1 file(s) passed." in output
    assert "    0:00  alice      duel bruno: bruno accepts  ok (alice won, bruno lost)" in output
    assert "1:20  denis      answer_duel decline  ok (declined)" in output
    assert "2:00  carol      union with denis, emile, alice against bruno  " \
           "ok (4 against 1, resolves at 2:03)" in output
    assert "13:00  bruno      acharnement bare_hands on alice  ok (ends at 18:00)" in output
    assert "13:00  bruno      search alice (boots), strip  ok" in output


@pytest.mark.django_db
def test_an_acharnement_ends_at_its_own_instant(tmp_path):
    # Alice's recovery (10:00) waits for the beating (5:00 to 10:00): at 10:00 the beating
    # completes first, so she is Wounded, and her coma is due 15 minutes after 10:00.
    path = fight(tmp_path, """\
  - {at: "0:00", by: alice, do: hit_stunning}
  - {at: "0:00", by: alice, do: hit_stunning}
  - {at: "0:00", by: alice, do: hit_stunning}
  - {at: "5:00", by: bruno, acharnement: {victim: alice, kind: bare_hands}}
  - {at: "20:00", expect: {alice: {state: wounded, next: coma, next_in: "5:00"}}}
""")
    assert "passed" in rehearse(path)


@pytest.mark.django_db
def test_a_wrong_fights_expectation_names_the_entry_and_the_field(tmp_path):
    path = fight(tmp_path, """\
  - {at: "0:00", by: alice, duel: bruno}
  - {at: "0:00", expect: {bruno: {fights: [{kind: duel, other: alice, result: won}]}}}
""")
    output, error = failing(path)
    assert "bruno.fights[1].result: expected won, got lost" in output
    assert "bruno.fights[1].other" not in output        # Alice is right
    assert "f.yaml: step 2 at 0:00 failed: bruno.fights[1].result: expected won, got lost" in error


@pytest.mark.django_db
def test_a_wrong_number_of_fights_lists_what_the_character_sees(tmp_path):
    path = fight(tmp_path, """\
  - {at: "0:00", by: alice, duel: bruno}
  - {at: "5:00", expect: {alice: {fights: []}}}
""")
    output, _ = failing(path)
    assert "alice.fights: expected 0 fight(s), got 1: duel challenger resolved won with Bruno" in output


@pytest.mark.django_db
def test_a_duel_refused_by_a_weapon_in_hand_is_a_refusal(tmp_path):
    accepted = fight(tmp_path, '  - {at: "0:00", by: alice, duel: {opponent: bruno, '
                               'weapon_in_hand: stunning}}\n')
    output, error = failing(accepted)
    assert "refused (duel_armed_defender): The duel did not happen: the defender holds a weapon." \
           in output
    assert "step 1 at 0:00" in error
    expected = fight(tmp_path, """\
  - {at: "0:00", by: alice, duel: {opponent: bruno, weapon_in_hand: stunning}, expect_refused: duel_armed_defender}
  - {at: "0:00", expect: {alice: {state: healthy, fights: [{status: refused, reason: duel_armed_defender}]}}}
""", name="g.yaml")
    assert "refused as expected (duel_armed_defender)" in rehearse(expected)


@pytest.mark.django_db
@pytest.mark.parametrize("steps, message", [
    ('  - {at: "0:00", by: bruno, answer_duel: accept}\n', "nobody challenged bruno to a duel"),
    ('  - {at: "0:00", by: alice, stop_acharnement: true}\n', "alice never started an acharnement"),
    ('  - {at: "0:00", by: alice, union: {attackers: [carol, denis], defenders: [bruno]}}\n',
     "refused (union_outnumbered): Strength in numbers needs strictly more than 3 attackers "
     "per defender: 3 against 1."),
])
def test_a_fight_step_that_cannot_be_played_fails(tmp_path, steps, message):
    output, _ = failing(fight(tmp_path, steps))
    assert message in output


@pytest.mark.django_db
@pytest.mark.parametrize("steps, message", [
    ('  - {at: "0:00", by: alice, duel: {opponent: carol}}\n',
     "t.yaml: step 1: duel.opponent: unknown character 'carol'"),
    ('  - {at: "0:00", by: narrator, duel: bruno}\n',
     "step 1: duel is played by a character: write 'by: <character key>'"),
    ('  - {at: "0:00", by: alice, duel: bruno, on: bruno}\n', "step 1: duel takes no 'on'"),
    ('  - {at: "0:00", by: alice, duel: {opponent: bruno, answer: maybe}}\n',
     "step 1: duel.answer: accept, decline or pending, not 'maybe'"),
    ('  - {at: "0:00", by: alice, duel: {opponent: bruno, weapon: stunning}}\n',
     "step 1: duel: unknown key(s) weapon"),
    ('  - {at: "0:00", by: alice, duel: {opponent: bruno, weapon_in_hand: spoon}}\n',
     "step 1: duel.weapon_in_hand: one of none, stunning, wounding, firearm, not 'spoon'"),
    ('  - {at: "0:00", by: alice, duel: {opponent: bruno, answer: pending, weapon_in_hand: stunning}}\n',
     "step 1: duel.weapon_in_hand goes with an accepted duel"),
    ('  - {at: "0:00", by: bruno, answer_duel: yes}\n', "step 1: answer_duel: accept or decline, not 'yes'"),
    ('  - {at: "0:00", by: alice, do: hit_stunning, weapon_in_hand: stunning}\n',
     "step 1: 'weapon_in_hand' goes with answer_duel"),
    ('  - {at: "0:00", by: alice, union: {attackers: [bruno]}}\n',
     "step 1: union.defenders: a list of character keys"),
    ('  - {at: "0:00", by: alice, union: {defenders: [bruno], weapon_drawn: "no"}}\n',
     "step 1: union.weapon_drawn: true or false"),
    ('  - {at: "0:00", by: alice, join_union: [bruno]}\n',
     "step 1: join_union (the key of a defender): a character key"),
    ('  - {at: "0:00", by: alice, acharnement: {victim: bruno, kind: spoon}}\n',
     "step 1: acharnement.kind: one of bare_hands, wounding_weapon"),
    ('  - {at: "0:00", by: alice, stop_acharnement: bruno}\n', "step 1: write 'stop_acharnement: true'"),
    ('  - {at: "0:00", by: alice, search: {target: bruno}}\n', "step 1: search.location: where the searcher looks"),
    ('  - {at: "0:00", by: alice, search: {target: bruno, location: boots, strip: everything}}\n',
     "step 1: search.strip: true or false"),
    ('  - {at: "0:00", expect: {alice: {fights: {kind: duel}}}}\n', "step 1: expect.alice.fights: a list of fights"),
    ('  - {at: "0:00", expect: {alice: {fights: [{kind: brawl}]}}}\n',
     "step 1: expect.alice.fights[1].kind: one of duel, union, acharnement"),
    ('  - {at: "0:00", expect: {alice: {fights: [{kind: duel}, {winner: alice}]}}}\n',
     "step 1: expect.alice.fights[2]: unknown key(s) winner"),
    ('  - {at: "0:00", expect: {alice: {fights: [{other: zoe}]}}}\n',
     "step 1: expect.alice.fights[1].other: unknown character 'zoe'"),
    ('  - {at: "0:00", expect: {alice: {fights: [{ends_in: 3}]}}}\n',
     "step 1: expect.alice.fights[1].ends_in 3 is not a time"),
    ('  - {at: "0:00", expect: {alice: {fights: [{type: kicks}]}}}\n',
     "step 1: expect.alice.fights[1].type: one of bare_hands, wounding_weapon"),
])
def test_a_malformed_fight_step_fails_with_the_step_number_before_playing(tmp_path, steps, message):
    output, error = failing(write(tmp_path, steps))
    assert message in error
    assert output == ""


# -- days (dawn, day end) --------------------------------------------------------------
SEPTENARIO = """\
event: {name: Test, ruleset: septenario_es}
characters:
  lucia: {name: Lucía, sheet: {trauma: 3, coraje: 1}}
steps:
"""


@pytest.mark.django_db
def test_a_day_step_runs_the_dawn_through_the_days_service(tmp_path):
    path = tmp_path / "d.yaml"
    path.write_text(SEPTENARIO + """\
  - {at: "0:00", by: lucia, do: rested}
  - {at: "1:00", by: narrator, day: dawn}
  - {at: "1:00", expect: {lucia: {points: {coraje: 2}, values: {rested: false}}}}
""", encoding="utf-8")
    output = rehearse(path)
    assert "1:00  narrator   day dawn  ok (1 changed)" in output
    assert "All 3 steps of 1 file(s) passed." in output


@pytest.mark.django_db
@pytest.mark.parametrize("header, step, message", [
    (SEPTENARIO, '  - {at: "0:00", by: narrator, day: noon}\n',
     "step 1: day: 'noon' is not a day of septenario_es (days: dawn, day_end)"),
    (SEPTENARIO, '  - {at: "0:00", by: lucia, day: dawn}\n',
     "step 1: day is done 'by: narrator' and takes no 'on'"),
    (HEADER, '  - {at: "0:00", by: narrator, day: dawn}\n',
     "step 1: day: 'dawn' is not a day of gn_fr (days: none)"),
])
def test_a_malformed_day_step_fails_before_playing(tmp_path, header, step, message):
    path = tmp_path / "d.yaml"
    path.write_text(header + step, encoding="utf-8")
    output, error = failing(path)
    assert message in error
    assert output == ""


# -- the zombie race -------------------------------------------------------------------
RACE = """\
event: {name: Test, ruleset: zombie_race}
courses:
  famille: {points_per_checkpoint: 20, checkpoints: [31, 32, 33, 34]}
entries:
  lucie: {name: Lucie, course: famille, finger: 101}
  rescapes: {name: Les Rescapés, course: famille, finger: 102, members: [Marc, Julie]}
zombies:
  igor: {name: Igor}
marshals:
  sam: {name: Sam}
steps:
  - {at: "0:00", race_start: famille}
"""


def race(tmp_path, steps: str, header: str = RACE, name="r.yaml") -> Path:
    path = tmp_path / name
    path.write_text(header + steps, encoding="utf-8")
    return path


@pytest.mark.django_db
def test_race_steps_play_through_the_race_services(tmp_path):
    path = race(tmp_path, """\
  - {at: "10:00", by: lucie, punch: 31}
  - {at: "11:00", punch: {entry: lucie, checkpoint: 31}}
  - {at: "12:00", by: igor, grab: lucie}
  - {at: "13:00", by: sam, forbidden_path: {entry: lucie, note: clôture}}
  - {at: "13:00", by: igor, grab: {entry: rescapes, confirmations: [no_contact]}, expect_refused: bad_input}
  - {at: "14:00", void: lucie}
  - {at: "15:00", by: rescapes, dnf: {reason: blessure}}
  - at: "15:00"
    expect:
      lucie: {race: {lives: 1, punches: [31, {code: 31, reason: duplicate}], found: 1}}
      rescapes: {race: {status: dnf, elapsed: "15:00"}}
      safety: {still_out: [lucie, rescapes], overdue: 0}
  - {at: "20:00", finger_return: rescapes}
  - {at: "1:31:00", finish: lucie}
  # 20 - 30 - 5 x 1 (one minute late) - 15 (the grab; the forbidden path was voided)
  - {at: "1:31:00", expect: {lucie: {race: {status: finished, late_minutes: 1, score: -30, rank: 1}}}}
""")
    output = rehearse(path)
    assert "All 12 steps of 1 file(s) passed." in output
    assert "    0:00  narrator   race_start famille (mass start)  " \
           "ok (lucie, rescapes started, deadline 1:30:00)" in output
    assert "10:00  lucie      punch 31  ok (counts)" in output
    assert "11:00  narrator   punch 31 for lucie  ok (does not count: duplicate)" in output
    assert "12:00  igor       grab lucie  ok (1 life left)" in output
    assert "13:00  sam        forbidden_path lucie  ok (a life taken, 0 lives left)" in output
    assert "13:00  igor       grab rescapes, not confirmed: not_fast_running, " \
           "not_near_checkpoint, not_on_open_road, target_not_panicking  " \
           "refused as expected (bad_input)" in output
    assert "14:00  narrator   void the latest life loss of lucie  " \
           "ok (forbidden_path of 13:00 voided, 1 life left)" in output
    assert "15:00  rescapes   dnf rescapes, finger not back  " \
           "ok (still out until the finger is back)" in output
    assert "20:00  narrator   finger_return rescapes  ok (deposit returned)" in output
    assert "1:31:00  narrator   finish lucie  ok (time 1:31:00, 1 late minute(s))" in output


@pytest.mark.django_db
def test_the_documented_race_example_passes(tmp_path):
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rehearse.md").read_text(encoding="utf-8")
    section = doc.split("### The zombie race", 1)[1]
    example = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "doc.yaml"
    path.write_text(example, encoding="utf-8")
    assert "All 5 steps of 1 file(s) passed." in rehearse(path)


@pytest.mark.django_db
def test_a_wrong_race_expectation_names_the_entry_and_the_field(tmp_path):
    path = race(tmp_path, """\
  - {at: "10:00", by: lucie, punch: 31}
  - {at: "10:30", by: lucie, punch: 31}
  - at: "11:00"
    expect:
      lucie: {race: {lives: 2, score: 0, rank: 1, time_left: "1:19:00"}}
      safety: {still_out: 1}
""")
    output, error = failing(path)
    assert "lucie.race.score: expected 0, got -10" in output          # 20 - 10 x 3
    assert "lucie.race.rank: expected 1, got none" in output          # not finished
    assert "safety.still_out: expected 1, got 2: lucie, rescapes" in output
    assert "lucie.race.lives" not in output and "time_left" not in output
    assert "r.yaml: step 4 at 11:00 failed: lucie.race.score: expected 0, got -10" in error
    path = race(tmp_path, '  - {at: "11:00", by: lucie, punch: 32}\n'
                          '  - {at: "11:00", expect: {lucie: {race: {punches: [31]}}}}\n',
                name="s.yaml")
    output, _ = failing(path)
    assert "lucie.race.punches[1].code: expected 31, got 32" in output
    path = race(tmp_path, '  - {at: "11:00", by: lucie, punch: 32}\n'
                          '  - {at: "12:00", by: lucie, punch: 32}\n'
                          '  - {at: "12:00", expect: {lucie: {race: {punches: 1}}}}\n',
                name="u.yaml")
    output, _ = failing(path)
    assert "lucie.race.punches: expected 1 punch(es), got 2: 32; 32 (duplicate)" in output


@pytest.mark.django_db
def test_the_very_same_punch_twice_is_one(tmp_path):
    # A phone scan and the finger's beep at the same second, as the readout shows it.
    path = race(tmp_path, """\
  - {at: "11:00", by: lucie, punch: 32}
  - {at: "11:00", punch: {entry: lucie, checkpoint: 32}}
  - at: "20:00"
    import: |
      finger,checkpoint,time
      101,32,22:11:00
  - {at: "20:00", expect: {lucie: {race: {punches: 1, found: [32]}}}}
""")
    output = rehearse(path)
    assert "11:00  narrator   punch 32 for lucie  ok (already recorded)" in output
    assert "20:00  narrator   import 1 row(s)  ok (1 row(s): 0 new, 1 already there)" in output


@pytest.mark.django_db
@pytest.mark.parametrize("steps, message", [
    # a readout with bad rows imports nothing, and every bad row is named
    ('  - at: "1:00"\n    import: |\n      doigt;balise;heure\n      101;31;22:00:30\n'
     '      999;31;22:00:40\n      102;35;22:00:50\n',
     "refused (csv_rejected): file refused, nothing imported: 2 bad row(s): "
     "line 3: no entry has finger 999; line 4: balise '35' is not on course famille of finger 102"),
    ('  - {at: "1:00", void: lucie}\n', "lucie has lost no life: nothing to void"),
    ('  - {at: "1:00", by: igor, grab: lucie}\n  - {at: "1:00", by: igor, grab: lucie}\n'
     '  - {at: "1:00", by: igor, grab: lucie}\n',
     "refused (race_no_life_left): Lucie has no life left: no flag can be pulled."),
    ('  - {at: "1:00", finish: lucie}\n  - {at: "2:00", finish: lucie}\n',
     "refused (race_not_racing): Lucie is not racing (Finished)."),
])
def test_a_race_step_that_cannot_be_played_fails(tmp_path, steps, message):
    output, _ = failing(race(tmp_path, steps))
    assert message in output


@pytest.mark.django_db
def test_a_readout_is_read_on_the_race_night_and_the_options_count(tmp_path):
    # 0:00 is 22:00:00 in the race's time zone (here UTC); punches after the finish count
    # with this option.
    header = RACE.replace("ruleset: zombie_race}", "ruleset: zombie_race, options: "
                          "{time_zone: UTC, count_punches_after_finish: true}}")
    path = race(tmp_path, """\
  - {at: "30:00", finish: lucie}
  - at: "40:00"
    import: |
      finger,checkpoint,time
      101,31,21:59:59
      101,32,22:05:00
      101,33,22:39:00
  - at: "40:00"
    expect:
      lucie: {race: {punches: [{code: 31, reason: before_start}, {code: 32, counted: true}, {code: 33, counted: true}], found: [32, 33]}}
""", header)
    assert "All 4 steps of 1 file(s) passed." in rehearse(path)


@pytest.mark.django_db
def test_an_overdue_alert_rings_at_its_own_instant(tmp_path, monkeypatch):
    import rehearsals.race_playing as rehearsal_race
    from django.utils import timezone
    rung = []

    def ring(*, entry_id):
        rung.append(timezone.now())
        return real(entry_id=entry_id)
    real = rehearsal_race.entry_alert
    monkeypatch.setattr(rehearsal_race, "entry_alert", ring)
    # Lucie's deadline is 1:30:00, her alert 15 min later; Les Rescapés finish at 1:45:00,
    # the very instant of theirs: the finish comes first, no alert.
    path = race(tmp_path, """\
  - {at: "1:00:00", finish: lucie}
  - {at: "1:00:00", race_start: lucie, expect_refused: race_already_started}
  - {at: "1:45:00", finish: rescapes}
  - {at: "2:00:00", expect: {safety: {still_out: 0, alerted: []}}}
""")
    assert "passed" in rehearse(path)
    assert rung == []
    path = race(tmp_path, """\
  - {at: "1:00:00", finish: lucie}
  - {at: "2:00:00", expect: {safety: {still_out: [rescapes], overdue: [rescapes], alerted: [rescapes]}}}
""", name="s.yaml")
    assert "passed" in rehearse(path)
    # at 1:45:00, not at the next step: 21:00 UTC (22:00 in Rugles) + 1:45:00
    assert [at.strftime("%H:%M:%S %Z") for at in rung] == ["22:45:00 UTC"]


@pytest.mark.django_db
@pytest.mark.parametrize("steps, message", [
    ('  - {at: "1:00", by: lucie, grab: rescapes}\n',
     "r.yaml: step 2: grab is done by an organiser (by: narrator) or a zombie "
     "(by: <zombie key>), not by 'lucie' (an entry)"),
    ('  - {at: "1:00", by: sam, finish: lucie}\n',
     "step 2: finish is done by an organiser (by: narrator), not by 'sam' (a marshal)"),
    ('  - {at: "1:00", by: bob, finish: lucie}\n',
     "step 2: by: unknown key 'bob' (entries, zombies, marshals: lucie, rescapes, igor, sam; "
     "or 'narrator')"),
    ('  - {at: "1:00", by: lucie, punch: 35}\n',
     "step 2: punch.checkpoint: balise 35 is not on course famille of lucie "
     "(balises: 31, 32, 33, 34)"),
    ('  - {at: "1:00", by: lucie, punch: {entry: rescapes, checkpoint: 31}}\n',
     "step 2: punch: a survivor's phone acts for its own entry only; write 'by: rescapes' "
     "or 'by: narrator'"),
    ('  - {at: "1:00", punch: 31}\n', "step 2: punch: which entry?"),
    ('  - {at: "1:00", by: igor, grab: zoe}\n',
     "step 2: grab: unknown entry 'zoe' (entries: lucie, rescapes)"),
    ('  - {at: "1:00", by: igor, grab: {entry: lucie, confirmations: [no_running]}}\n',
     "step 2: grab.confirmations: what the zombie ticked, among not_fast_running,"),
    ('  - {at: "1:00", out_of_zone: lucie, on: lucie}\n', "step 2: out_of_zone takes no 'on'"),
    ('  - {at: "1:00", race_start: nocturne}\n',
     "step 2: race_start: 'nocturne' is neither a course (famille) nor an entry "
     "(lucie, rescapes)"),
    ('  - {at: "1:00", by: lucie, dnf: {finger_back: true}}\n',
     "step 2: dnf.finger_back: a survivor abandoning from the phone still has the finger"),
    ('  - {at: "1:00", import: ""}\n', "step 2: import: the readout's CSV text"),
    ('  - {at: "1:00", infraction: {entry: lucie, kind: cheating}}\n',
     "step 2: infraction.kind: one of lives_hidden, checkpoint_moved, transport"),
    ('  - {at: "1:00", finish: {entry: lucie, flags: 2}}\n',
     "step 2: finish: unknown key(s) flags (allowed: entry, flags_on_belt)"),
    ('  - {at: "1:00", expect: {lucie: {lives: 1}}}\n',
     "step 2: expect.lucie: unknown key(s) lives (allowed: race)"),
    ('  - {at: "1:00", expect: {lucie: {race: {score: high}}}}\n',
     "step 2: expect.lucie.race.score: a number, or null"),
    ('  - {at: "1:00", expect: {lucie: {race: {status: late}}}}\n',
     "step 2: expect.lucie.race.status: one of registered, racing, overtime, finished, dnf, "
     "disqualified"),
    ('  - {at: "1:00", expect: {lucie: {race: {punches: [31, 35]}}}}\n',
     "step 2: expect.lucie.race.punches[2]: balise 35 is not on the entry's course"),
    ('  - {at: "1:00", expect: {lucie: {race: {punches: [{code: 31, reason: late}]}}}}\n',
     "step 2: expect.lucie.race.punches[1].reason: one of before_start, after_limit, "
     "after_finish, duplicate, after_disqualification, after_abandon, not_on_course, "
     "out_of_sequence, null"),
    ('  - {at: "1:00", expect: {lucie: {race: {elapsed: 60}}}}\n',
     "step 2: expect.lucie.race.elapsed 60 is not a time"),
    ('  - {at: "1:00", expect: {safety: {overdue: [zoe]}}}\n',
     "step 2: expect.safety.overdue: unknown entry 'zoe'"),
    ('  - {at: "1:00", expect: {safety: {late: 1}}}\n',
     "step 2: expect.safety: unknown key(s) late (allowed: alerted, overdue, still_out)"),
    ('  - {at: "1:00", expect: {zoe: {race: {lives: 1}}}}\n',
     "step 2: expect: unknown character 'zoe' (characters: none; entries: lucie, rescapes)"),
])
def test_a_malformed_race_step_fails_with_the_step_number_before_playing(tmp_path, steps, message):
    output, error = failing(race(tmp_path, steps))
    assert message in error
    assert output == ""


@pytest.mark.django_db
@pytest.mark.parametrize("old, new, message", [
    ("course: famille, finger: 101}", "course: sportive, finger: 101}",
     "r.yaml: entries.lucie.course: unknown course 'sportive' (courses: famille)"),
    ("finger: 102,", "finger: 101,", "entries.rescapes.finger: 101 is already the finger of lucie"),
    ("members: [Marc, Julie]", "members: [Marc]",
     "entries.rescapes.members: a team has at least two members"),
    ("members: [Marc, Julie]}", "members: [Marc, Julie], carrier: Zoé}",
     "entries.rescapes.carrier: one of the members (Marc, Julie)"),
    ("finger: 101}", "finger: 101, gear: {helmet: true}}", "entries.lucie.gear: unknown key(s) helmet"),
    ("finger: 101}", "finger: 101, phone: 33612345678}",
     "entries.lucie.phone: write the number in quotes"),
    ("  famille: {", "  nocturne: {", "courses.nocturne.duration is required: only enfant, "
     "famille, sportif take theirs from the options"),
    ("[31, 32, 33, 34]", "[31, balise 32]",
     "courses.famille.checkpoints: 'balise 32' is not a balise number"),
    ("[31, 32, 33, 34]", "[31, 32, 31]", "courses.famille.checkpoints: balise 31 is there twice"),
    ("  igor: {name: Igor}", "  lucie: {name: Igor}",
     "entries: 'lucie' is already the key of someone else in the file"),
    ("  sam: {name: Sam}", "  safety: {name: Sam}", "marshals: 'safety' cannot be a key"),
    ("ruleset: zombie_race}", "ruleset: gn_fr}",
     "courses: only a race (ruleset zombie_race) declares courses, entries, iof, zombies, marshals"),
])
def test_a_malformed_race_header_fails_before_playing(tmp_path, old, new, message):
    assert old in RACE
    output, error = failing(race(tmp_path, "", RACE.replace(old, new, 1)))
    assert message in error
    assert output == ""


@pytest.mark.django_db
def test_race_steps_need_a_race(tmp_path):
    output, error = failing(write(tmp_path, '  - {at: "0:00", by: alice, punch: 31}\n'))
    assert "t.yaml: step 1: punch: a race step, for a race (ruleset zombie_race) only" in error
