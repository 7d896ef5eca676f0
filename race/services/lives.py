"""Lives (spec R03-R06, R10) and infractions (R13, Z-A9).

Lives come from the recorded losses (Z16): the initial count minus the losses that took
a flag and were not voided. So they never go below 0 (a grab needs a life; an exit with
none left takes nothing) and never go up except by an organiser voiding a loss.
"""
# Rule codes: docs/rules/zombie_race-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

import math

from django.db import transaction
from django.utils import timezone

from rulesets import RuleRefused

from ..labels import say
from ..models import Entry, Infraction, LifeLoss
from ..options import RaceOptions, race_options
from ..publish import race_changed_on_commit
from ..selectors.entries import lives_remaining
from .common import entry_lock, race_journal


def grab_confirmations(options: RaceOptions) -> list[dict]:
    """What the zombie confirms before a grab counts (rulebook, rules for zombies); an
    option that allows a thing drops its confirmation."""
    wanted = [("not_fast_running", not options.fast_running_allowed),
              ("not_near_checkpoint", True), ("no_contact", not options.contact_allowed),
              ("not_on_open_road", not options.open_roads_allowed), ("target_not_panicking", True)]
    return [{"key": key, "label": say(key, metres=_metres(options.exclusion_m))}
            for key, needed in wanted if needed]


def _metres(value: float) -> str:
    return f"{value:g}"


def _racing(entry: Entry) -> None:
    if entry.status != Entry.RACING:
        raise RuleRefused("race_not_racing", name=entry.name, status=say(entry.status))


def _near_checkpoint(entry: Entry, lat, lon, exclusion_m: float) -> dict | None:
    """Where the grab was said to be, if closer to a balise than zombies may come: the
    organisers see it as a grab to look at (phones' positions are a few metres off, so
    this is a hint, not a refusal)."""
    if lat is None or lon is None:
        return None
    nearest = None
    for cp in entry.course.checkpoints.exclude(lat=None).exclude(lon=None):
        d = _distance_m(lat, lon, cp.lat, cp.lon)
        if nearest is None or d < nearest[0]:
            nearest = (d, cp)
    if nearest is None or nearest[0] >= exclusion_m:
        return None
    distance, cp = nearest
    return {"checkpoint": cp.code, "distance_m": round(distance, 1),
            "text": say("near_checkpoint", distance=f"{distance:.0f}", code=cp.code,
                        metres=_metres(exclusion_m))}


def _distance_m(lat1, lon1, lat2, lon2) -> float:
    # Equirectangular: exact enough over the few hundred metres of a town.
    x = math.radians(lon2 - lon1) * math.cos(math.radians((lat1 + lat2) / 2))
    y = math.radians(lat2 - lat1)
    return 6_371_000 * math.hypot(x, y)


@transaction.atomic
def grab_record(*, entry: Entry, by, confirmations: list[str], lat: float | None = None,
                lon: float | None = None) -> LifeLoss:
    """R03: a zombie pulled a flag. Refused without every confirmation, outside the race,
    and when no flag is left."""
    options = race_options(entry.event)
    missing = [c["label"] for c in grab_confirmations(options) if c["key"] not in set(confirmations)]
    if missing:
        raise RuleRefused("bad_input", detail=say("confirm_missing", missing=missing))
    entry = entry_lock(entry)
    _racing(entry)
    if lives_remaining(entry, options.lives_initial) == 0:
        raise RuleRefused("race_no_life_left", name=entry.name)
    loss = LifeLoss.objects.create(
        entry=entry, cause=LifeLoss.ZOMBIE_GRAB, at=timezone.now(), recorded_by=by,
        took_life=True, confirmations=sorted(set(confirmations)), lat=lat, lon=lon,
        review=_near_checkpoint(entry, lat, lon, options.exclusion_m))
    _journal(entry, loss, by)
    return loss


@transaction.atomic
def zone_loss_record(*, entry: Entry, cause: str, by, note: str = "") -> LifeLoss:
    """R04-R06: a marshal saw the survivor leave the race zone (even fleeing) or take a
    forbidden path or fence. The life is taken if the options say so and one is left.
    One that takes no life (none left, R05; or the option says it costs none) is still an
    infraction ("strictement interdits", L30): on the entry's desk, marked for the
    organisers' review (Z4: they decide; points per `out_of_zone_penalty_without_life`)."""
    options = race_options(entry.event)
    entry = entry_lock(entry)
    _racing(entry)
    costs = (options.out_of_zone_costs_life if cause == LifeLoss.OUT_OF_ZONE
             else options.forbidden_path_costs_life)
    has_life = lives_remaining(entry, options.lives_initial) > 0
    took = costs and has_life
    now = timezone.now()
    loss = LifeLoss.objects.create(entry=entry, cause=cause, at=now, recorded_by=by,
                                   took_life=took, no_life_left=costs and not has_life,
                                   note=note, review=None if took else _no_life_review(costs))
    if not took:
        infraction = Infraction.objects.create(entry=entry, kind=cause, at=now, recorded_by=by,
                                               note=note)
        race_journal(entry=entry, what=f"infraction:{cause}", by=by, at=now,
                     detail={"infraction": infraction.pk, "loss": loss.pk, "note": note,
                             "penalty_points": 0})
    _journal(entry, loss, by)
    return loss


def _no_life_review(costs: bool) -> dict:
    """Why the organisers should look at a zone call that took no life."""
    key = "review_no_life_left" if costs else "review_costs_no_life"
    return {"reason": key, "text": say(key)}


def _journal(entry: Entry, loss: LifeLoss, by) -> None:
    race_journal(entry=entry, what=f"life:{loss.cause}", by=by, at=loss.at, detail={
        "loss": loss.pk, "took_life": loss.took_life, "no_life_left": loss.no_life_left,
        "lives": lives_remaining(entry, race_options(entry.event).lives_initial),
        "review": loss.review})
    race_changed_on_commit(event_id=entry.event_id, entry_ids=[entry.pk])


@transaction.atomic
def life_loss_void(*, loss: LifeLoss, reason: str, by) -> LifeLoss:
    """R10: an invalid grab (within 5 m of a balise, contact, open road, fast running) or
    a wrong call: the life comes back and leaves the score."""
    entry = entry_lock(loss.entry)
    loss = LifeLoss.objects.select_for_update().get(pk=loss.pk)
    if loss.voided_at is not None:
        raise RuleRefused("race_loss_already_voided", reason=loss.void_reason)
    loss.voided_at, loss.voided_by, loss.void_reason = timezone.now(), by, reason
    loss.save(update_fields=["voided_at", "voided_by", "void_reason"])
    race_journal(entry=entry, what="life:voided", by=by, at=loss.voided_at, detail={
        "loss": loss.pk, "cause": loss.cause, "reason": reason,
        "lives": lives_remaining(entry, race_options(entry.event).lives_initial)})
    race_changed_on_commit(event_id=entry.event_id, entry_ids=[entry.pk])
    return loss


@transaction.atomic
def infraction_record(*, entry: Entry, kind: str, by, as_organiser: bool, note: str = "",
                      penalty_points: int = 0) -> Infraction:
    """Z-A9: a rule broken that costs no life. Only organisers give points (Z12), and
    only while the option allows manual penalties."""
    if penalty_points and not as_organiser:
        raise RuleRefused("bad_input", detail=say("points_by_organisers"))
    if penalty_points and race_options(entry.event).infraction_penalty == "none":
        raise RuleRefused("bad_input", detail=say("points_off"))
    entry = entry_lock(entry)
    infraction = Infraction.objects.create(entry=entry, kind=kind, at=timezone.now(),
                                           recorded_by=by, note=note, penalty_points=penalty_points)
    race_journal(entry=entry, what=f"infraction:{kind}", by=by, at=infraction.at,
                 detail={"infraction": infraction.pk, "note": note, "penalty_points": penalty_points})
    race_changed_on_commit(event_id=entry.event_id, entry_ids=[entry.pk])
    return infraction
