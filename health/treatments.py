"""A medic's treatment of a patient: started (the medic's kit and skill checked, the
patient's phone told who treats them), then completed once its whole duration was played
(the rules applied to the patient's state at that instant) or aborted (nothing applied)."""
# Rule codes: docs/rules/gn_fr-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from common.i18n import Labels
from players.models import Character, Event
from players.services import character_kit_spend, journal_write
from rulesets import DECLARED, ENDING, RuleRefused

from .checks import (outcome_known, require_actor_able, require_in_game, require_kit,
                     state_kept_private)
from .declared_at import declared_instant
from .models import Treatment
# The public helpers every write to health uses (services.py): lock, apply what is due,
# record, publish.
from .services import (character_lock, due_timers_publish, due_timers_record, game_running_require,
                       late_state, snapshots_changed, state_publish_on_commit, state_record)


@transaction.atomic
def treatment_start(*, medic: Character, patient: Character, action: str, params: dict | None,
                    by) -> Treatment:
    event = Event.objects.get(pk=patient.event_id)
    game_running_require(event, as_narrator=False)
    rules = event.rules()
    if not {"medic", "other"} & set(rules.action_spec(action)["declared_by"]):
        raise RuleRefused("not_declarable", action=rules.action_spec(action)["labels"])
    now = timezone.now()
    game_s = event.game_time(now)
    require_actor_able(rules, action, medic, game_s)
    health = character_lock(patient.pk)
    if health.held_since_s is not None:     # out for real (health/holds.py)
        raise RuleRefused("out_for_real", name=patient.name, reason=health.held_reason)
    # A start is a declaration: it sees the timers due at this instant expired.
    due_timers_publish(health, event, now)
    for side in (medic.health, health):        # hors-jeu, either one (gn_fr L58)
        require_in_game(rules, side)
    with state_kept_private(rules, action):
        level = rules.check(health.as_core(), action, sheet=patient.sheet,
                            actor_sheet=medic.sheet, params=params)
    require_kit(rules, action, medic)
    treatment = Treatment.objects.create(
        event=event, medic=medic, patient=patient, action=action, level=level,
        params=params or {}, started_game_s=game_s,
        duration_s=rules.duration(action, level=level, params=params))
    journal_write(event=event, kind="treatment", what=f"{action}:started", at=now, by=by,
                  character=patient, detail={"treatment": treatment.pk, "medic": medic.name,
                                             "level": level, "params": params or {}})
    snapshots_changed(character_ids=[patient.pk])   # "being treated by …" on their phone
    return treatment


# A treatment's status inside a refusal (treatment_closed).
STATUS_WORDS = Labels({"completed": gettext_noop("completed"), "aborted": gettext_noop("aborted"),
                       "patient_died": gettext_noop("closed: the patient died")})


def _open_treatment(treatment: Treatment) -> Treatment:
    treatment = Treatment.objects.select_for_update().select_related("event").get(pk=treatment.pk)
    if treatment.status != Treatment.RUNNING:
        raise RuleRefused("treatment_closed", status=STATUS_WORDS[treatment.status])
    return treatment


@transaction.atomic
def treatment_complete(*, treatment: Treatment, by, tapped_at=None,
                       phone: str | None = None) -> Treatment:
    """The medic confirms the full duration was played. The rules are checked against the
    patient's state at completion (a Wounded patient who fell into a coma meanwhile is
    still treated; a dead one is not). A confirmation tapped in a dead zone (`tapped_at`,
    health/declared_at.py) is judged at its tap, on the patient's state then, with the
    same bounds as a late declaration: a first aid confirmed before the coma began beats
    it, however late it reaches the server.

    Fans out through state_record: the reactions registered to
    health.observers.states_recorded (combat, effects, push; the table in
    docs/architecture.md) run in this transaction."""
    treatment = _open_treatment(treatment)
    event = treatment.event
    rules = event.rules()
    now = timezone.now()
    declared = declared_instant(event=event, tapped_at=tapped_at, now=now, as_narrator=False)
    if not declared.late:
        game_running_require(event, as_narrator=False)
    game_s = declared.game_s
    if game_s < treatment.ready_game_s:
        raise RuleRefused("not_ready", action=rules.ruleset.actions[treatment.action]["labels"],
                          remaining=str(int(treatment.ready_game_s - game_s + 0.999)))
    medic = Character.objects.select_for_update().get(pk=treatment.medic_id)
    kit = require_kit(rules, treatment.action, medic)
    health = character_lock(treatment.patient_id)
    # Running before the instant and ending at it: in time for a deadline due now (A8).
    # A late one: the patient's state as it stands now, then as it was at the tap.
    due_timers_record(health, event, now, seen_by=DECLARED if declared.late else ENDING)
    judged, recounted = late_state(declared, health=health, event=event, phone=phone,
                                   seen_by=ENDING)
    with state_kept_private(rules, treatment.action):
        outcome = rules.apply(judged, health.character.sheet, treatment.action,
                              game_s, params=treatment.params, actor_sheet=medic.sheet,
                              seen_by=ENDING)
    if kit:
        character_kit_spend(character=medic, kit=kit)
    revealed = {}
    for e in outcome.events:
        revealed.update(e.get("revealed", {}))
    treatment.status = Treatment.COMPLETED
    treatment.result = {"revealed": revealed} if revealed else {}
    known = outcome_known(rules, treatment.action)
    if known and outcome.state.status == known[0]:
        # What the medic announces (treatment_view words it): the state and its timers.
        treatment.result["state"] = known[0]
        treatment.result["timers"] = {k: outcome.state.timers[k] for k in known[1]
                                      if k in outcome.state.timers}
    treatment.save(update_fields=["status", "result"])
    state_record(health=health, event=event, outcome=outcome, kind="treatment",
                 what=f"{treatment.action}:completed", by=by, now=now,
                 detail={"treatment": treatment.pk, "medic": medic.name, "level": treatment.level,
                         "kit_used": kit, **declared.journal(), **recounted}, game_s=game_s)
    if declared.late:
        # Counted from the tap, a deadline may be past already: it applies now.
        due_timers_record(health, event, now)
    state_publish_on_commit(health, event)
    if kit and medic.pk != health.pk:
        snapshots_changed(character_ids=[medic.pk])  # the medic's sheet shows one kit less
    return treatment


@transaction.atomic
def treatment_abort(*, treatment: Treatment, by) -> Treatment:
    """Interrupted: nothing applies and no kit is used; a new attempt starts from zero."""
    treatment = _open_treatment(treatment)
    treatment.status = Treatment.ABORTED
    treatment.save(update_fields=["status"])
    journal_write(event=treatment.event, kind="treatment", what=f"{treatment.action}:aborted",
                  at=timezone.now(), by=by, character=treatment.patient,
                  detail={"treatment": treatment.pk})
    snapshots_changed(character_ids=[treatment.patient_id])   # no longer being treated
    return treatment
