"""The chrony station over HTTP (club/services/chrony.py), and the printable pass label. Views
parse input, call one service and serialize the answer."""
from __future__ import annotations

import qrcode
import qrcode.image.svg
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.views import APIView

from club import selectors
from club.answers import ClubCheckRecordedAnswer, ClubReplicaRegisteredAnswer, ClubReplicasAnswer
from club.apis import MemberReference, sanction_row
from club.models import ChronyCheck, Replica
from club.selectors import event_for_staff, local_text, member_by_reference
from club.services import chrony
from common.errors import refusal_status
from common.http import answer
from common.i18n import Labels, refusal_text
from common.idempotency import idempotent
from rulesets import RuleRefused
from rulesets.messages import pick


def check_row(check: ChronyCheck | None) -> dict | None:
    if check is None:
        return None
    return {"id": check.pk, "kind": check.kind, "checked_at": check.checked_at.isoformat(),
            "checked_by": check.checked_by.get_username() if check.checked_by else None,
            "bb_weight_g": check.bb_weight_g, "speed_mps": check.speed_mps,
            "energy_j": check.energy_j, "calibre_mm": check.calibre_mm,
            "full_auto_used": check.full_auto_used, "passed": check.passed,
            "reasons": check.reasons, "limits": check.limits}


def replica_row(replica: Replica, latest: ChronyCheck | None) -> dict:
    return {"id": replica.pk, "code": replica.code, "label": replica.label, "type": replica.type,
            "calibre_mm": replica.calibre_mm, "full_auto_capable": replica.full_auto_capable,
            "member": {"id": replica.member_id, "name": replica.member.name,
                       "nickname": replica.member.nickname},
            "latest_check": check_row(latest),
            "passed": latest.passed if latest is not None else None,
            "label_url": f"/replicas/{replica.pk}/label/"}


class EventReplicasApi(APIView):
    class EventReplicasInput(serializers.Serializer):
        member = MemberReference()
        label = serializers.CharField(max_length=100)
        type = serializers.ChoiceField(choices=[t for t, _ in Replica.TYPES])
        calibre_mm = serializers.FloatField(min_value=1, max_value=50)
        full_auto_capable = serializers.BooleanField(default=False)

    @extend_schema(responses=ClubReplicasAnswer,
                   summary="The event's replicas with their latest chrony check (organisers and referees)")
    def get(self, request, event_id):
        event = event_for_staff(request.user, event_id)
        return answer(request, {"replicas": [replica_row(r, c)
                                             for r, c in selectors.event_replicas(event)]})

    @extend_schema(responses={201: ClubReplicaRegisteredAnswer}, request=EventReplicasInput,
                   summary="Register a member's replica at the chrony (organisers and referees). Idempotency-Key header.")
    def post(self, request, event_id):
        event = event_for_staff(request.user, event_id)
        data = self.EventReplicasInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)

        def run():
            member = member_by_reference(event, values.pop("member"))
            replica = chrony.replica_register(event=event, member=member, by=request.user,
                                              **values)
            return answer(request, {"replica": replica_row(replica, None)}, status=201)
        return idempotent(request, run)


class ReplicaChecksApi(APIView):
    class ReplicaChecksInput(serializers.Serializer):
        kind = serializers.ChoiceField(choices=[k for k, _ in ChronyCheck.KINDS])
        bb_weight_g = serializers.FloatField(min_value=0.05, max_value=2)
        speed_mps = serializers.FloatField(min_value=1, max_value=400, required=False)
        energy_j = serializers.FloatField(min_value=0, max_value=100, required=False)
        calibre_mm = serializers.FloatField(min_value=1, max_value=50, required=False)
        full_auto_used = serializers.BooleanField(default=False)

    @extend_schema(responses={201: ClubCheckRecordedAnswer}, request=ReplicaChecksInput,
                   summary="Record a chrony measure (speed_mps or energy_j) and its verdict; a failed recheck of a replica that passed its check-in records a cheating sanction. Idempotency-Key header.")
    def post(self, request, replica_id):
        replica = selectors.replica_for_staff(request.user, replica_id)
        data = self.ReplicaChecksInput(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            check, sanction = chrony.chrony_check_record(replica=replica, by=request.user,
                                                         **data.validated_data)
            row = sanction_row(sanction, timezone.now()) if sanction else None
            return answer(request, {"check": check_row(check), "passed": check.passed,
                                    "sanction": row,
                                    "escalated": bool(row and row["escalation"])}, status=201)
        return idempotent(request, run)


LABEL_WORDS = Labels({
    "pass": gettext_noop("CHRONY PASSED"),
    "owner": gettext_noop("Owner:"),
    "checked": gettext_noop("Checked on"),
    "limit": gettext_noop("limit"),
})
TYPE_LABELS = Labels({
    "rifle": gettext_noop("rifle"),
    "pistol": gettext_noop("pistol"),
    "sniper": gettext_noop("sniper"),
    "shotgun": gettext_noop("shotgun"),
    "gl": gettext_noop("grenade launcher"),
    "other": gettext_noop("other"),
})


@require_GET
def replica_label(request, replica_id):
    """The pass label to print and tie to a replica: owner, replica, energy measured, date,
    PASS, its code and a QR of the code (scanned at a control during the games). A
    replica whose latest check failed, or that has none, gets the refusal instead (409)."""
    if not request.user.is_authenticated:
        return redirect(f"/admin/login/?next={request.path}")
    try:
        replica = selectors.replica_for_staff(request.user, replica_id)
    except NotFound:
        raise Http404 from None
    lang = replica.event.language
    words = {key: pick(label, lang) for key, label in LABEL_WORDS.items()}
    try:
        check = selectors.replica_pass(replica)
    except RuleRefused as refused:
        return render(request, "combat/replica_label.html",
                      {"replica": replica, "words": words, "lang": lang,
                       "refusal": refusal_text(refused, lang)}, status=refusal_status(refused))
    qr = qrcode.make(replica.code, image_factory=qrcode.image.svg.SvgPathImage)
    # The label's numbers (calibre, BB weight) are written as its words: in the event's language.
    with translation.override(lang):
        return render(request, "combat/replica_label.html", {
            "replica": replica, "check": check, "words": words, "lang": lang,
            "type": pick(TYPE_LABELS[replica.type], lang),
            "qr": qr.to_string(encoding="unicode"), "checked_at": local_text(check.checked_at),
            "energy": pick(selectors.number_labels(check.energy_j), lang),
            "limit": pick(selectors.number_labels(float(check.limits["max_power_joule"])), lang)})
