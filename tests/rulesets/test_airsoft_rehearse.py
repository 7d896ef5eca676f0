"""The airsoft rehearsals (rehearsals/airsoft_*.yaml, played by tests/rehearsals/test_rehearse.py)
and the rehearsal steps of the heal interaction: `heal` (a heal or an extraction) and
`stop_heal` (hands_off, fired, hit), played through combat/services/heals.py."""
from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

REHEARSALS = Path(__file__).resolve().parents[2] / "rehearsals"

HEADER = """\
event: {name: Test, ruleset: airsoft_rats, options: {medic_mode: true}}
characters:
  karim: {name: Karim, team: Rouge}
  lea: {name: Léa, team: Rouge}
steps:
  - {at: "0:00", by: karim, do: respawn}
  - {at: "0:00", by: lea, do: respawn}
"""


def write(tmp_path, steps: str, header: str = HEADER) -> Path:
    path = tmp_path / "a.yaml"
    path.write_text(header + steps, encoding="utf-8")
    return path


def rehearse(path) -> str:
    out = StringIO()
    call_command("rehearse", str(path), stdout=out)
    return out.getvalue()


def failing(path) -> tuple[str, str]:
    out = StringIO()
    with pytest.raises(CommandError) as error:
        call_command("rehearse", str(path), stdout=out)
    return out.getvalue(), str(error.value)


def test_the_airsoft_rehearsals_are_shipped():
    names = {p.name for p in REHEARSALS.glob("airsoft_*.yaml")}
    assert {"airsoft_standard_mode.yaml", "airsoft_medic_mode.yaml",
            "airsoft_sanctions_and_game_stop.yaml", "airsoft_heal_and_extraction.yaml",
            "airsoft_waves_and_direct_return.yaml"} <= names


@pytest.mark.django_db
def test_heal_steps_play_through_the_heal_service(tmp_path):
    path = write(tmp_path, """\
  - {at: "1:00", by: karim, do: hit}
  - {at: "1:20", by: lea, heal: {patient: karim, kind: extraction}}
  - {at: "1:30", by: lea, heal: karim}
  - {at: "1:35", by: lea, stop_heal: fired}
  - {at: "1:35", expect: {karim: {state: down_awaiting}}}
  - {at: "2:00", by: lea, heal: karim}
  - {at: "2:10", expect: {karim: {state: healed_pending_call, values: {heals_received: 1}}}}
  - {at: "2:10", by: lea, stop_heal: hands_off, expect_refused: fight_closed}
""")
    output = rehearse(path)
    assert "1:20  lea        extraction karim  ok" in output
    assert "1:30  lea        heal karim  ok (ends at 1:40)" in output
    assert "1:35  lea        stop_heal (fired)  ok" in output
    assert "All 10 steps of 1 file(s) passed." in output


@pytest.mark.django_db
def test_a_heal_completing_at_the_step_instant_is_over_before_the_step(tmp_path):
    # At 1:30 the count of 11-20 ends (a completion, spec §0): stopping then is too late,
    # and the patient is already healed.
    path = write(tmp_path, """\
  - {at: "1:00", by: karim, do: hit}
  - {at: "1:20", by: lea, heal: karim}
  - {at: "1:30", by: lea, stop_heal: hands_off, expect_refused: fight_closed}
  - {at: "1:30", expect: {karim: {state: healed_pending_call}}}
""")
    assert "passed" in rehearse(path)


@pytest.mark.django_db
def test_stopping_a_heal_never_started_fails_the_step(tmp_path):
    output, error = failing(write(tmp_path, '  - {at: "1:00", by: lea, stop_heal: hands_off}\n'))
    assert "lea never started a heal or an extraction" in output
    assert "step 3 at 1:00" in error


@pytest.mark.django_db
@pytest.mark.parametrize("steps, message", [
    ('  - {at: "1:00", by: lea, heal: {patient: karim, kind: surgery}}\n',
     "step 3: heal.kind: one of heal, extraction, not 'surgery'"),
    ('  - {at: "1:00", by: lea, heal: zoe}\n', "step 3: heal.patient: unknown character 'zoe'"),
    ('  - {at: "1:00", by: lea, heal: {patient: karim, when: now}}\n', "step 3: heal: unknown key(s) when"),
    ('  - {at: "1:00", by: narrator, heal: karim}\n',
     "step 3: heal is played by a character: write 'by: <character key>'"),
    ('  - {at: "1:00", by: lea, heal: karim, on: karim}\n', "step 3: heal takes no 'on'"),
    ('  - {at: "1:00", by: lea, stop_heal: true}\n',
     "step 3: stop_heal: why the medic stops, one of hands_off, fired, hit"),
    ('  - {at: "1:00", expect: {lea: {fights: [{kind: heal, role: nurse}]}}}\n',
     "step 3: expect.lea.fights[1].role: one of"),
    ('  - {at: "1:00", expect: {lea: {fights: [{type: surgery}]}}}\n',
     "step 3: expect.lea.fights[1].type: one of heal, extraction"),
])
def test_a_malformed_heal_step_fails_before_playing(tmp_path, steps, message):
    output, error = failing(write(tmp_path, steps))
    assert message in error
    assert output == ""


@pytest.mark.django_db
def test_a_heal_step_needs_a_ruleset_with_heals(tmp_path):
    header = """\
event: {name: Test, ruleset: gn_fr}
characters:
  alice: {name: Alice, sheet: {combat_base: 2}}
  bruno: {name: Bruno, sheet: {combat_base: 2}}
steps:
"""
    _, error = failing(write(tmp_path, '  - {at: "0:00", by: alice, heal: bruno}\n', header))
    assert "step 1: heal: the ruleset gn_fr has no heal" in error
