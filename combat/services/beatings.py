"""Acharnement (GA6, GA7, G10, G13; A14): five minutes of blows on a victim who cannot
defend. The attacker starts and stops it; it completes only after the full duration
(then the victim worsens), and the victim's recovery waits for it to end."""
# Rule codes: docs/rules/gn_fr-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.db import transaction

from health.checks import require_in_game
from health.services import character_apply_rules, state_kept_private
from players.models import Character
from players.services import journal_write_many
from rulesets import ENDING, RuleRefused

from ..models import Acharnement
from .common import (fighters_mark, interaction, interaction_label, locked, now_and_game,
                     require_fighter, running_event, someone)
from .schedule import fight_due_on_commit, timed_end


@transaction.atomic
def acharnement_start(*, attacker: Character, victim_code: str, kind: str, by) -> Acharnement:
    event = running_event(attacker)
    spec, what = interaction(event, "acharnement"), interaction_label(event, "acharnement")
    if kind not in spec["kinds"]:
        raise RuleRefused("bad_input", detail=f"kind must be one of {', '.join(spec['kinds'])}")
    victim = someone(event, victim_code, not_=attacker, what=what)
    now, game_s = now_and_game(event)
    rows = locked(event, [attacker, victim], now)
    require_fighter(event, rows[attacker.pk], now, what, actor=attacker)
    require_in_game(event.rules(), rows[victim.pk])
    wanted = spec["kinds"][kind]
    if rows[victim.pk].status not in wanted["victim_in"]:
        states = event.rules().ruleset.states
        # What the beating needs, never what the victim is (their health is secret).
        raise RuleRefused("not_applicable", action=wanted["labels"],
                          allowed=[states[s]["labels"] for s in wanted["victim_in"]])
    if Acharnement.objects.filter(victim=victim, status=Acharnement.RUNNING).exists():
        raise RuleRefused("already_fighting", name=victim.name, what=what)
    beating = Acharnement.objects.create(event=event, attacker=attacker, victim=victim, kind=kind,
                                         started_game_s=game_s,
                                         ends_game_s=game_s + float(spec["duration_s"]),
                                         created_by=by)
    with state_kept_private(event.rules(), spec["victim_starts"]):
        character_apply_rules(health=rows[victim.pk], event=event, action=spec["victim_starts"],
                              by=by, now=now, detail={"acharnement": beating.pk})
    character_apply_rules(health=rows[attacker.pk], event=event, action=spec["attacker"],
                          by=by, now=now, detail={"acharnement": beating.pk})
    _journal(beating, "started", by, now)
    fighters_mark(character_ids=[attacker.pk, victim.pk])
    fight_due_on_commit("acharnement", beating.pk, event, beating.ends_game_s)
    return beating


@transaction.atomic
def acharnement_stop(*, acharnement: Acharnement, attacker: Character, by) -> Acharnement:
    """Stopped before the end, it does nothing more (A14: a new one starts from zero); at
    or after the end, stopping is completing."""
    beating = Acharnement.objects.select_for_update().select_related("event", "attacker").get(pk=acharnement.pk)
    event = beating.event
    what = interaction_label(event, "acharnement")
    if attacker.pk != beating.attacker_id:
        raise RuleRefused("not_your_turn", name=beating.attacker.name)
    if beating.status != Acharnement.RUNNING:
        raise RuleRefused("fight_closed", what=what, status=beating.status)
    now, game_s = now_and_game(event)
    if game_s >= beating.ends_game_s:
        _complete(beating, now, game_s)
        return beating
    spec = interaction(event, "acharnement")
    rows = locked(event, [beating.victim], now)
    character_apply_rules(health=rows[beating.victim_id], event=event, action=spec["victim_stops"],
                          by=by, now=now, detail={"acharnement": beating.pk})
    beating.status, beating.closed_game_s = Acharnement.STOPPED, game_s
    beating.save()
    _journal(beating, "stopped", by, now)
    return beating


@transaction.atomic
def acharnement_complete(*, acharnement_id: int) -> bool:
    """At the end of the five minutes (task or sweeper); idempotent."""
    beating = (Acharnement.objects.select_for_update(skip_locked=True).select_related("event")
               .filter(pk=acharnement_id, status=Acharnement.RUNNING).first())
    if beating is None:
        return False
    now, game_s = now_and_game(beating.event)
    if game_s < beating.ends_game_s:
        return False
    _complete(beating, now, game_s)
    return True


def _complete(beating: Acharnement, now, game_s: float) -> None:
    event = beating.event
    spec = interaction(event, "acharnement")
    # The five minutes ran before this instant: their end comes before a timer due now.
    rows = locked(event, [beating.victim], now, seen_by=ENDING)
    character_apply_rules(health=rows[beating.victim_id], event=event, by=None, now=now,
                          action=spec["kinds"][beating.kind]["completes"],
                          detail={"acharnement": beating.pk}, seen_by=ENDING)
    beating.status, beating.closed_game_s = Acharnement.COMPLETED, game_s
    beating.save()
    _journal(beating, "completed", None, now)


def _journal(beating: Acharnement, what: str, by, now) -> None:
    journal_write_many(event=beating.event, kind="acharnement", what=what, at=now, by=by,
                       characters=[beating.attacker, beating.victim],
                       detail={"acharnement": beating.pk, "kind": beating.kind,
                               "attacker": beating.attacker.name, "victim": beating.victim.name})


# The beating completes when its duration has run (a task at the instant + the sweeper).
timed_end("acharnement", due_field="ends_game_s",
          end=lambda pk: acharnement_complete(acharnement_id=pk),
          pending=lambda event: Acharnement.objects.filter(event=event,
                                                           status=Acharnement.RUNNING))
