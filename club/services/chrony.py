"""The chrony station (airsoft): staff register each replica at check-in and measure it;
the verdict holds it to the club's limits (rulebook §4: 1.2 J, 6 mm only, no full-auto).
A replica that passed at check-in and fails a control during the games is proven
cheating: it goes on the sanctions register, where rule B13 escalates a repeat. Each
write is one transaction, journalled with who checked; the verdict's computation and the
reads are in club/selectors.py."""
# Rule codes: docs/rules/airsoft_rats-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from club.models import ChronyCheck, Member, Replica, Sanction
from club.selectors import (chrony_limits, chrony_reasons, energy_joules, local_text,
                            member_of_event_club)
from club.services.sanctions import sanction_record
from common.i18n import message_text
from players.models import Character, Event
from players.services import journal_write
from rulesets import RuleRefused
from rulesets.messages import pick


@transaction.atomic
def replica_register(*, event: Event, member: Member, label: str, type: str,
                     calibre_mm: float, full_auto_capable: bool = False, by) -> Replica:
    """A replica of a member of the event's club (another club's member is unknown here)."""
    member_of_event_club(event, member)
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
                                   kind=Sanction.SANCTION_OUT, cheating=True, reason=reason, by=by,
                                   category="cheating")
    return check, sanction
