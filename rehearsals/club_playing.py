"""Playing the club register's steps of a rehearsal (docs/rehearse.md, "The airsoft
register") through the desk's services: the members on the register, a check-in
(refused while a sanction keeps the member off the field), a sanction with its
escalation and its side in the game, a revocation. Also what the `members` of an
`expect:` are compared with.
"""
from __future__ import annotations

import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from club.models import ChronyCheck, Member, Replica, Sanction
from club.selectors import member_barring_sanction, member_character
from club.services.chrony import chrony_check_record, replica_register
from club.services.register import member_check_in, member_create
from club.services.sanctions import sanction_record, sanction_revoke
from common.i18n import refusal_text
from players.models import Membership
from players.services import membership_grant
from rulesets import RuleRefused

from rehearsals.script import Step, StepFailed, format_time


class ClubSteps:
    """The register's steps of runner._Player. `self.members`: member key -> pk."""

    def club_setup(self) -> None:
        self.members: dict[str, int] = {}
        self.referees: dict[str, object] = {}
        event = self.event()
        for key, spec in self.script.members.items():
            try:
                # The rehearsal's event keeps a register of its own: its licences
                # meet no real member's.
                self.members[key] = member_create(
                    event=event, name=spec["name"], phone="06 00 00 00 00",
                    licence_number=spec["licence"], by=self.narrator).pk
            except RuleRefused as exc:
                raise StepFailed([f"members.{key}: {refusal_text(exc, 'en')}"]) from None
        for key, spec in self.script.referees.items():
            user = get_user_model().objects.create_user(
                username=f"rehearsal-r{event.pk}-{secrets.token_hex(4)}",
                first_name=spec["name"][:150])
            membership_grant(event=event, user=user, role=Membership.REFEREE)
            self.referees[key] = user
        self.replicas: dict[str, int] = {}
        for key, spec in self.script.replicas.items():
            try:
                self.replicas[key] = replica_register(
                    event=event, member=self.member(spec["member"]), label=spec["name"],
                    type=spec["type"], calibre_mm=spec["calibre"],
                    full_auto_capable=spec["full_auto_capable"], by=self.narrator).pk
            except RuleRefused as exc:
                raise StepFailed([f"replicas.{key}: {refusal_text(exc, 'en')}"]) from None

    def member(self, key: str) -> Member:
        return Member.objects.get(pk=self.members[key])

    def club_user(self, key: str):
        return self.narrator if key not in self.referees else self.referees[key]

    def _check_in(self, step: Step) -> str:
        key = step.item["member"]
        character, created = member_check_in(event=self.event(), member=self.member(key),
                                             team_name=self.script.members[key]["team"] or "",
                                             by=self.club_user(step.by))
        self.ids[key] = character.pk
        return "checked in" if created else "already checked in"

    def _sanction(self, step: Step) -> str | None:
        spec = step.item
        ends = spec["ends_after_s"]
        sanction = sanction_record(
            event=self.event(), member=self.member(spec["member"]), kind=spec["kind"],
            reason=spec["reason"], cheating=spec["cheating"], by=self.club_user(step.by),
            ends_at=timezone.now() + timedelta(seconds=ends) if ends else None,
            category=spec["category"])
        notes = [f"recorded as {sanction.kind} (a repeated cheat)"] if sanction.escalated_from else []
        if sanction.repeat_of_id:
            earlier = sanction.repeat_of
            notes.append(f"a repeat of the {earlier.kind} of "
                         f"{format_time((earlier.decided_at - self.start).total_seconds())} "
                         f"({sanction.category})")
        return "; ".join(notes) or None

    def _revoke(self, step: Step) -> None:
        spec = step.item
        sanction = (Sanction.objects.filter(member_id=self.members[spec["member"]],
                                            revoked_at__isnull=True).order_by("-decided_at", "-pk")
                    .first())
        if sanction is None:
            raise StepFailed([f"{spec['member']} has no sanction to revoke"])
        sanction_revoke(sanction=sanction, reason=spec["reason"], by=self.club_user(step.by))

    def _chrony(self, step: Step) -> str:
        """A measure at the chrony: `ok (passed)`, or why it failed and the sanction a
        failed control during the games records (proven cheating)."""
        spec = step.item
        check, sanction = chrony_check_record(
            replica=Replica.objects.get(pk=self.replicas[spec["replica"]]), kind=spec["kind"],
            bb_weight_g=spec["bb_weight_g"], speed_mps=spec["speed_mps"],
            energy_j=spec["energy_j"], calibre_mm=spec["calibre_mm"],
            full_auto_used=spec["full_auto_used"], by=self.club_user(step.by))
        if check.passed:
            return f"passed, {check.energy_j:g} J"
        why = "; ".join(r.get("en", "") for r in check.reasons)
        return f"failed: {why}" + (f"; {sanction.kind} recorded (cheating)" if sanction else "")

    def replicas_diff(self, checks: dict, compare) -> list[str]:
        lines = []
        for key, want in checks.items():
            done = ChronyCheck.objects.filter(replica_id=self.replicas[key]).order_by("-id")
            latest = done.first()
            seen = {"passed": latest.passed if latest else None, "checks": done.count()}
            for field, value in want.items():
                lines += compare(f"replicas.{key}.{field}", value, seen[field])
        return lines

    def members_diff(self, checks: dict, compare) -> list[str]:
        lines, event, now = [], self.event(), timezone.now()
        for key, want in checks.items():
            member = self.member(key)
            seen = {"sanctions": list(member.sanctions.filter(revoked_at__isnull=True)
                                      .order_by("decided_at", "pk").values_list("kind", flat=True)),
                    "checked_in": member_character(event, member) is not None,
                    "barred": member_barring_sanction(member, now) is not None,
                    "repeats": member.sanctions.filter(revoked_at__isnull=True,
                                                       repeat_of__isnull=False).count()}
            for field, value in want.items():
                lines += compare(f"members.{key}.{field}", value, seen[field])
        return lines
