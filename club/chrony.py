"""The chrony station (airsoft): staff register each replica at check-in and measure it;
the verdict holds it to the club's limits (rulebook §4: 1.2 J, 6 mm only, no full-auto).
A replica that passed at check-in and fails a control during the games is proven
cheating: it goes on the sanctions register, where rule B13 escalates a repeat.
Reads first, then the writes (each one transaction, journalled with who checked)."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from rest_framework.exceptions import NotFound

from club.models import Member, Sanction
from club.services import local_text, sanction_record, staff_role
from common.i18n import message_labels, message_text
from players.models import Character, Event
from players.services import journal_write
from rulesets import RuleRefused, Rules, get_ruleset
from rulesets.messages import pick

from club.models import ChronyCheck, Replica

# A replica checked outside an event, or at an event whose ruleset has no chrony (a
# LARP), is held to the club's limits: the airsoft ruleset's defaults (Appendix A `safety`).
CLUB_RULESET = "airsoft_rats"


# --- reads -------------------------------------------------------------------------------

def chrony_limits(event: Event | None) -> dict:
    rules = event.rules() if event is not None else None
    if rules is None or not rules.has("chrony"):
        club = get_ruleset(CLUB_RULESET)
        rules = Rules(club, club.options)
    return {"max_power_joule": rules.option("max_power_joule"),
            "calibre_mm": rules.option("calibre_mm"), "full_auto": rules.option("full_auto")}


def energy_joules(*, bb_weight_g: float, speed_mps: float) -> float:
    """E = m v² / 2, with the BB's mass in kilograms."""
    return bb_weight_g / 1000 * speed_mps ** 2 / 2


def number_labels(value: float) -> dict:
    """1.21 as each language writes it: "1,21" in French and Spanish."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return {"en": text, "fr": text.replace(".", ","), "es": text.replace(".", ",")}


def _full_auto_allowed(value) -> bool:
    return value is True or str(value).lower() in ("allowed", "true", "yes")


def chrony_reasons(*, energy_j: float, calibre_mm: float, full_auto_used: bool,
                   limits: dict) -> list[dict]:
    """Why a replica fails, each reason in fr/es/en; empty when it passes. The energy is
    compared at the chrony's precision (a thousandth of a joule): 1.2004 J passes 1.2 J."""
    reasons = []
    energy, limit = round(energy_j, 3), float(limits["max_power_joule"])
    if energy > limit:
        reasons.append(message_labels("chrony_too_powerful", energy=number_labels(energy),
                                      max=number_labels(limit)))
    allowed = limits["calibre_mm"]
    allowed = [float(c) for c in (allowed if isinstance(allowed, list) else [allowed])]
    if not any(abs(calibre_mm - c) < 0.01 for c in allowed):
        reasons.append(message_labels("chrony_calibre", calibre=number_labels(calibre_mm),
                                      allowed=number_labels(allowed[0]) if len(allowed) == 1
                                      else ", ".join(str(c) for c in allowed)))
    if full_auto_used and not _full_auto_allowed(limits["full_auto"]):
        reasons.append(message_labels("chrony_full_auto"))
    return reasons


def replica_for_staff(user, replica_id: int) -> Replica:
    """The replica for the organisers and referees of its event; a 404 for anyone else."""
    replica = (Replica.objects.select_related("member", "event")
               .filter(pk=replica_id).first())
    if replica is None or replica.event is None or staff_role(user, replica.event) is None:
        raise NotFound()
    return replica


def replica_latest_check(replica: Replica) -> ChronyCheck | None:
    return replica.checks.order_by("-id").first()


def event_replicas(event: Event) -> list[tuple[Replica, ChronyCheck | None]]:
    """Every replica registered for the event with its latest check, in two queries (every
    check is read: a game day has a few per replica)."""
    replicas = list(Replica.objects.filter(event=event).select_related("member"))
    latest: dict[int, ChronyCheck] = {}
    for check in (ChronyCheck.objects.filter(replica__in=replicas).select_related("checked_by")
                  .order_by("-id")):
        latest.setdefault(check.replica_id, check)
    return [(replica, latest.get(replica.pk)) for replica in replicas]


def replica_pass(replica: Replica) -> ChronyCheck:
    """The passing check a pass label shows: refused when the latest check failed (the
    replica may not play), or when there is none yet."""
    check = replica_latest_check(replica)
    if check is None:
        raise RuleRefused("replica_not_checked", replica=replica.label, code=replica.code)
    if not check.passed:
        raise RuleRefused("replica_failed", replica=replica.label, code=replica.code,
                          reasons=check.reasons)
    return check


# --- writes ------------------------------------------------------------------------------

@transaction.atomic
def replica_register(*, event: Event, member: Member, label: str, type: str,
                     calibre_mm: float, full_auto_capable: bool = False, by) -> Replica:
    replica = Replica.objects.create(member=member, event=event, label=label, type=type,
                                     calibre_mm=calibre_mm, full_auto_capable=full_auto_capable,
                                     registered_by=by)
    journal_write(event=event, kind="chrony", what="replica_registered", at=timezone.now(),
                  by=by, character=_character_of(replica),
                  detail={"replica": replica.pk, "code": replica.code, "member": member.pk,
                          "label": label, "type": type, "calibre_mm": calibre_mm,
                          "full_auto_capable": full_auto_capable})
    return replica


def _character_of(replica: Replica) -> Character | None:
    return Character.objects.filter(event=replica.event, check_in__member=replica.member).first()


@transaction.atomic
def chrony_check_record(*, replica: Replica, kind: str, bb_weight_g: float, by,
                        speed_mps: float | None = None, energy_j: float | None = None,
                        calibre_mm: float | None = None,
                        full_auto_used: bool = False) -> tuple[ChronyCheck, Sanction | None]:
    """One measure at the chrony, and its verdict. A failed control during the games
    (`recheck`) of a replica that passed a check-in check is proven cheating: a light
    "cheating" sanction-out is recorded for its owner (B13 escalates a repeat). Returns
    the check and that sanction, if any."""
    if (speed_mps is None) == (energy_j is None):
        raise RuleRefused("chrony_speed_or_energy")
    # Locked: two controls of one replica at once must not both find it "passed before".
    # of=("self",): PostgreSQL locks no row on the nullable side of the join to the event.
    replica = (Replica.objects.select_for_update(of=("self",)).select_related("event", "member")
               .get(pk=replica.pk))
    event = replica.event
    if energy_j is None:
        energy_j = energy_joules(bb_weight_g=bb_weight_g, speed_mps=speed_mps)
    calibre = replica.calibre_mm if calibre_mm is None else calibre_mm
    limits = chrony_limits(event)
    reasons = chrony_reasons(energy_j=energy_j, calibre_mm=calibre, full_auto_used=full_auto_used,
                             limits=limits)
    passed_before = (replica.checks.filter(kind=ChronyCheck.CHECK_IN, passed=True)
                     .order_by("-id").first())
    now = timezone.now()
    check = ChronyCheck.objects.create(
        replica=replica, kind=kind, checked_at=now, checked_by=by, bb_weight_g=bb_weight_g,
        speed_mps=speed_mps, energy_j=round(energy_j, 3), calibre_mm=calibre,
        full_auto_used=full_auto_used, passed=not reasons, reasons=reasons, limits=limits)
    character = _character_of(replica)
    journal_write(event=event, kind="chrony", what="passed" if check.passed else "failed",
                  at=now, by=by, character=character,
                  detail={"replica": replica.pk, "code": replica.code, "check": check.pk,
                          "kind": kind, "bb_weight_g": bb_weight_g, "speed_mps": speed_mps,
                          "energy_j": check.energy_j, "calibre_mm": calibre,
                          "full_auto_used": full_auto_used, "limits": limits,
                          "reasons": [pick(r, "en") for r in reasons]})
    sanction = None
    if kind == ChronyCheck.RECHECK and reasons and passed_before is not None:
        lang = event.language
        reason = message_text("chrony_cheat", {"replica": replica.label, "code": replica.code,
                                               "passed_at": local_text(passed_before.checked_at),
                                               "reasons": reasons}, lang)
        journal_write(event=event, kind="chrony", what="proven_cheat", at=now, by=by,
                      character=character,
                      detail={"replica": replica.pk, "check": check.pk,
                              "passed_check": passed_before.pk, "reason": reason})
        sanction = sanction_record(event=event, member=replica.member, character=character,
                                   kind=Sanction.SANCTION_OUT, cheating=True, reason=reason, by=by)
    return check, sanction
