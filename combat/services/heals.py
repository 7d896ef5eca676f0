"""Airsoft medic mode (C4, C5; P04-P11; B1, B2, B5-B8): a teammate heals a downed player
in place (both hands on them while they count 11 to 20), or shouts "extraction" and holds
them to drag them elsewhere first. The medic's phone starts it after scanning the
patient's code. A heal completes at its end instant (a task, and the sweeper); an
extraction has no end. Only the medic keeps it going: stopping, or the medic being taken
out, ends it with nothing gained, and the next heal counts from 11 again (P07-P10).

What happens to the patient is ruleset data (the `heal` interaction's `starts`, `stops`,
`completes`, `extraction_starts`, `extraction_stops`); this module decides who may, and
when it ends."""
# Rule codes: docs/rules/airsoft_rats-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q

from health.models import HealthState
from health.services import character_apply_rules, due_timers_publish, snapshots_changed
from players.models import Character, Event
from players.services import journal_write_many
from rulesets import ENDING, RuleRefused

from ..models import Heal
from ..selectors import heal_kind_label
from .common import (fighters_mark, interaction, interaction_label, locked, now_and_game,
                     running_event, someone, state_label)
from .schedule import fight_due_on_commit, timed_end

STOP_REASONS = ("hands_off", "fired", "hit")   # P07, P08 (B6), P09


@transaction.atomic
def heal_start(*, medic: Character, patient_code: str, kind: str, by) -> Heal:
    """The medic (this phone's character) starts healing or extracting the patient whose
    code they scanned. A heal on a patient the same medic is extracting ends the
    extraction where it is: the medic has stopped and puts both hands on (P06)."""
    event = running_event(medic)
    spec = interaction(event, "heal")
    if kind not in (Heal.HEAL, Heal.EXTRACTION):
        raise RuleRefused("bad_input", detail="kind must be one of heal, extraction")
    rules, what = event.rules(), heal_kind_label(event, kind)
    if not rules.option(spec["enabled_by"]):
        raise RuleRefused("interaction_off", what=interaction_label(event, "heal"),
                          option=spec["enabled_by"])
    patient = someone(event, patient_code, not_=medic, what=what)
    _require_teammate(event, spec, medic, patient, what)
    now, game_s = now_and_game(event)
    rows = locked(event, [medic, patient], now)
    _require_medic_able(event, spec, rows[medic.pk], now, what)
    extraction = _running_for(event, medic, patient, kind)
    # A start sees a count of 10 that ends at this very instant done, as the phone shows
    # it (rulesets/instants.py).
    health = rows[patient.pk]
    due_timers_publish(health, event, now)
    _require_patient(event, spec, kind, health, what)
    if extraction is not None:   # P06: no extraction_stops, the heal takes them from there
        _close(extraction, Heal.STOPPED, "to_heal", by, now, game_s, publish_medic=False)
    try:
        with transaction.atomic():   # a savepoint: a lost race reads as a refusal
            heal = Heal.objects.create(
                event=event, medic=medic, patient=patient, kind=kind, started_game_s=game_s,
                ends_game_s=game_s + float(spec["duration_s"]) if kind == Heal.HEAL else None,
                created_by=by)
    except IntegrityError:
        raise RuleRefused("patient_taken", name=patient.name, what=what) from None
    fighters_mark(character_ids=[medic.pk, patient.pk])
    before = health.status
    action = spec["starts"] if kind == Heal.HEAL else spec["extraction_starts"]
    try:
        character_apply_rules(health=health, event=event, action=action, by=by, now=now,
                              detail={"heal": heal.pk, "medic": medic.name})
    except RuleRefused as refused:
        # The rules hold back a start only for the scenario's limits (`not_now`: B7 no
        # call for a medic yet, B8 heals used up); any other refusal would name the
        # patient's state, which the medic is not told (see _require_patient).
        if refused.code == "not_now":
            raise _held_back(kind, what, patient) from None
        if refused.code == "not_in_state":
            raise _not_applicable(event, spec, kind, what) from None
        raise
    if health.status == before:   # the rules gave nothing: the same limits, said otherwise
        raise _held_back(kind, what, patient)
    heal.patient_status = health.status
    heal.save(update_fields=["patient_status"])
    _journal(heal, "started", by, now)
    snapshots_changed(character_ids=[medic.pk])   # the medic's phone shows what they do
    if heal.kind == Heal.HEAL:
        fight_due_on_commit("heal", heal.pk, event, heal.ends_game_s)
    return heal


@transaction.atomic
def heal_stop(*, heal: Heal, medic: Character, reason: str, by) -> Heal:
    """The medic lifts their hands (to play again, or because they fired: B6) or releases
    the extracted player: the patient waits again, and a new heal counts from 11 (P07,
    P08, P10). At or after the end, the count was done: stopping is completing."""
    heal = (Heal.objects.select_for_update(of=("self",))
            .select_related("event", "medic", "patient").get(pk=heal.pk))
    event = heal.event
    what = heal_kind_label(event, heal.kind)
    if medic.pk != heal.medic_id:
        raise RuleRefused("not_your_turn", name=heal.medic.name)
    if reason not in STOP_REASONS:
        raise RuleRefused("bad_input", detail=f"reason must be one of {', '.join(STOP_REASONS)}")
    if heal.status != Heal.RUNNING:
        raise RuleRefused("fight_closed", what=what, status=heal.status)
    running_event(heal.medic)
    now, game_s = now_and_game(event)
    if heal.kind == Heal.HEAL and game_s >= heal.ends_game_s:
        _complete(heal, now)
    else:
        _interrupt(heal, Heal.STOPPED, reason, by, now, game_s)
    return heal


@transaction.atomic
def heal_complete(*, heal_id: int) -> bool:
    """At the end of the count (task or sweeper); idempotent."""
    heal = (Heal.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("event", "medic", "patient")
            .filter(pk=heal_id, status=Heal.RUNNING, kind=Heal.HEAL).first())
    if heal is None:
        return False
    now, game_s = now_and_game(heal.event)
    if game_s < heal.ends_game_s:   # a task queued before a pause: the resume queued another
        return False
    _complete(heal, now)
    return True


def heals_interrupted(*, changes, event: Event, now, by) -> None:
    """Every change of a character's state passes here (health's `states_recorded`). A
    medic who leaves the states a medic acts from (hit: P09/B5, sanction-out: P15,
    removed: P22...) ends what they were doing, and their patient waits again, progress
    lost; a patient moved out of the heal some other way (a referee, a sanction) ends it.
    The heal's own actions are this module's business and pass through. One query finds
    the running heals of the whole batch."""
    spec = event.rules().ruleset.interactions.get("heal")
    if not spec:
        return
    own = _own_actions(spec)
    moved = {c.health.pk: c.health for c in changes
             if c.health.status != c.before["status"] and c.action not in own}
    if not moved:
        return
    running = list(Heal.objects.select_for_update(of=("self",))
                   .select_related("medic", "patient").filter(event=event, status=Heal.RUNNING)
                   .filter(Q(medic_id__in=list(moved)) | Q(patient_id__in=list(moved)))
                   .order_by("pk"))
    game_s = event.game_time(now)
    for pk, health in moved.items():
        for heal in running:
            if heal.status != Heal.RUNNING:   # closed for another character of the batch
                continue
            heal.event = event
            if heal.medic_id == pk and health.status not in spec["medic_in"]:
                # The medic's own row is being written by the caller, which publishes it.
                if heal.kind == Heal.HEAL and game_s >= heal.ends_game_s:
                    _complete(heal, now, publish_medic=False)   # the count was already done
                else:
                    _interrupt(heal, Heal.ABORTED, "medic_out", by, now, game_s,
                               publish_medic=False)
            elif heal.patient_id == pk and health.status != heal.patient_status:
                _close(heal, Heal.ABORTED, "patient_out", by, now, game_s)


def _own_actions(spec: dict) -> set:
    return {spec[key] for key in ("starts", "stops", "completes", "extraction_starts",
                                  "extraction_stops")}


def _require_teammate(event: Event, spec: dict, medic: Character, patient: Character,
                      what: dict) -> None:
    """A teammate (B1); when the scenario keeps a roster of medics (`medics: roster`),
    one with the roster's skill on their sheet."""
    if medic.team_id is None or medic.team_id != patient.team_id:
        raise RuleRefused("not_teammate", what=what, name=patient.name)
    rules = event.rules()
    skill = spec.get("roster_skill")
    roster = rules.option("medics") == "roster"
    if skill and roster and not _has_skill(rules, medic.sheet, skill):
        raise RuleRefused("missing_skill", action=what, skill=rules.ruleset.skill_label(skill))


def _has_skill(rules, sheet: dict, skill: str) -> bool:
    level = (sheet.get("skills") or {}).get(skill)
    if level not in (None, False, "", "none"):
        return True
    return any(rules.ruleset.abilities.get(a, {}).get("skill") == skill
               for a in sheet.get("abilities") or [])


def _require_medic_able(event: Event, spec: dict, health: HealthState, now, what: dict) -> None:
    """The medic's own state, which they may be told (in play: not hit, not out)."""
    inert = event.rules().is_inert(health.as_core(), event.game_time(now))
    if health.status not in spec["medic_in"] or inert:
        raise RuleRefused("actor_cannot", action=what, state=state_label(event, health, now))


def _running_for(event: Event, medic: Character, patient: Character, kind: str) -> Heal | None:
    """Refuses a medic already busy and a patient already in someone's hands; returns the
    medic's own extraction of this patient when a heal follows it (P06)."""
    running = (Heal.objects.select_for_update(of=("self",))
               .select_related("medic", "patient").filter(event=event, status=Heal.RUNNING)
               .filter(Q(medic_id=medic.pk) | Q(patient_id=patient.pk)))
    follows = None
    for heal in running:
        heal.event = event
        if (heal.medic_id, heal.patient_id, heal.kind, kind) == \
                (medic.pk, patient.pk, Heal.EXTRACTION, Heal.HEAL):
            follows = heal
        elif heal.medic_id == medic.pk:
            raise RuleRefused("medic_busy", name=heal.patient.name,
                              what=heal_kind_label(event, heal.kind))
        else:
            raise RuleRefused("patient_taken", name=patient.name,
                              what=heal_kind_label(event, heal.kind))
    return follows


def _require_patient(event: Event, spec: dict, kind: str, health: HealthState,
                     what: dict) -> None:
    """Down and done counting to 10 (a heal also on someone being extracted). The refusal
    names the states it applies to, never the patient's: what someone else's health is,
    only the rules reveal (a hit player may still be counting, or already walking out)."""
    if health.status not in spec["patient_in" if kind == Heal.HEAL else "extraction_in"]:
        raise _not_applicable(event, spec, kind, what)


def _held_back(kind: str, what: dict, patient: Character) -> RuleRefused:
    if kind == Heal.EXTRACTION:
        return RuleRefused("extraction_needs_request", what=what, name=patient.name)
    return RuleRefused("heal_not_taken", what=what, name=patient.name)


def _not_applicable(event: Event, spec: dict, kind: str, what: dict) -> RuleRefused:
    states = event.rules().ruleset.states
    allowed = spec["patient_in" if kind == Heal.HEAL else "extraction_in"]
    return RuleRefused("not_applicable", action=what,
                       allowed=[states[s]["labels"] for s in allowed])


def _interrupt(heal: Heal, status: str, reason: str, by, now, game_s: float, *,
               publish_medic: bool = True) -> None:
    """Ended before its end: the patient waits again (the ruleset's `stops`)."""
    event = heal.event
    spec = interaction(event, "heal")
    health = locked(event, [heal.patient], now)[heal.patient_id]
    _close(heal, status, reason, by, now, game_s, publish_medic=publish_medic)
    if health.status == heal.patient_status:
        action = spec["stops"] if heal.kind == Heal.HEAL else spec["extraction_stops"]
        character_apply_rules(health=health, event=event, action=action, by=by, now=now,
                              detail={"heal": heal.pk, "reason": reason})


def _complete(heal: Heal, now, *, publish_medic: bool = True) -> None:
    """The count reached 20: the patient is healed (the ruleset's `completes`), then
    shouts "retour en jeu" before anything counts (P11, P12)."""
    event = heal.event
    spec = interaction(event, "heal")
    # The count ran before this instant: it ends before a timer due now.
    health = locked(event, [heal.patient], now, seen_by=ENDING)[heal.patient_id]
    if health.status != heal.patient_status:   # left meanwhile; the hook normally closed it
        _close(heal, Heal.ABORTED, "patient_out", None, now, event.game_time(now),
               publish_medic=publish_medic)
        return
    # Closed at the count's end, however late a sweep finds it.
    _close(heal, Heal.COMPLETED, "", None, now, heal.ends_game_s, publish_medic=publish_medic)
    character_apply_rules(health=health, event=event, by=None, now=now, action=spec["completes"],
                          detail={"heal": heal.pk, "medic": heal.medic.name}, seen_by=ENDING)


def _close(heal: Heal, status: str, reason: str, by, now, game_s: float, *,
           publish_medic: bool = True) -> None:
    """Closed before the patient's state changes, so that the change does not come back
    here through heals_interrupted."""
    heal.status, heal.reason, heal.closed_game_s = status, reason, game_s
    heal.save(update_fields=["status", "reason", "closed_game_s"])
    _journal(heal, status, by, now)
    if publish_medic:
        snapshots_changed(character_ids=[heal.medic_id])


def _journal(heal: Heal, what: str, by, now) -> None:
    journal_write_many(event=heal.event, kind="heal", what=what, at=now, by=by,
                       characters=[heal.medic, heal.patient],
                       detail={"heal": heal.pk, "kind": heal.kind, "medic": heal.medic.name,
                               "patient": heal.patient.name, "reason": heal.reason,
                               "started_game_s": heal.started_game_s,
                               "ends_game_s": heal.ends_game_s})


# A heal completes when the patient's count ends; an extraction has no end of its own.
timed_end("heal", due_field="ends_game_s", end=lambda pk: heal_complete(heal_id=pk),
          pending=lambda event: Heal.objects.filter(event=event, status=Heal.RUNNING,
                                                    kind=Heal.HEAL))
