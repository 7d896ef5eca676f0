"""`manage.py rehearse`: the shipped examples pass, a wrong expectation fails with a
readable diff, a malformed file fails with its step number before anything is played,
and the database is left as it was."""
from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from health.models import Treatment
from players.models import Character, Event, JournalEntry

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "rehearsals").glob("*.yaml"))

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
            "gn_fr_stun_and_recovery.yaml", "gn_fr_effects.yaml"} <= names


@pytest.mark.django_db
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_passes(path):
    output = rehearse(path)
    assert "FAILED" not in output
    assert "passed" in output.splitlines()[-1]


@pytest.mark.django_db
def test_the_database_is_left_unchanged():
    counts = [Event.objects.count(), Character.objects.count(), Treatment.objects.count(),
              JournalEntry.objects.count()]
    rehearse(*EXAMPLES)
    assert [Event.objects.count(), Character.objects.count(), Treatment.objects.count(),
            JournalEntry.objects.count()] == counts


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
    assert "refused (not_in_state): First aid applies to Wounded, In a coma; " \
           "this character is Healthy." in output
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
    assert "refused (not_in_state)" in output and "(expected the refusal no_kit)" in output


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
    doc = (Path(__file__).resolve().parent.parent / "docs" / "rehearse.md").read_text(encoding="utf-8")
    example = doc.split("## A full example", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "doc.yaml"
    path.write_text(example, encoding="utf-8")
    assert "All 14 steps of 1 file(s) passed." in rehearse(path)
