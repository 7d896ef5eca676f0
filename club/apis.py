"""The airsoft club's register over HTTP: the event's club, members, check-in, the
sanctions register.
Views parse input, call one service (club/services/) and serialize the answer with the
reads (club/selectors.py)."""
# Rule codes: docs/rules/airsoft_rats-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.views import APIView

from club import selectors
from club.answers import (ClubCheckInAnswer, ClubMemberCreatedAnswer, ClubMembersAnswer,
                          ClubMemberSanctionsAnswer, ClubSanctionChangedAnswer,
                          ClubSanctionRecordedAnswer, ClubSanctionsAnswer, EventClubAnswer)
from club.services import clubs, register, sanctions
from common.http import MAX_ID, answer
from common.idempotency import idempotent
from club.models import Club, Member, Sanction
from players.selectors import event_for_narrator


@extend_schema_field({"oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "maxLength": 40}]})
class MemberReference(serializers.Field):
    """A member's id (a JSON number) or licence number (a string)."""

    default_error_messages = {
        "invalid": "give the member's id (a number) or licence number (a text of 1 to 40 characters)"}

    def to_internal_value(self, data):
        if isinstance(data, int) and not isinstance(data, bool) and 0 < data <= MAX_ID:
            return data
        if isinstance(data, str) and 0 < len(data.strip()) <= 40:
            return data
        self.fail("invalid")

    def to_representation(self, value):
        return value


def club_row(club: Club | None) -> dict | None:
    if club is None:
        return None
    return {"id": club.pk, "name": club.name,
            "events": [{"id": e.pk, "name": e.name} for e in selectors.club_events(club)]}


def member_row(member: Member) -> dict:
    return {"id": member.pk, "name": member.name, "nickname": member.nickname,
            "phone": member.phone, "email": member.email,
            "licence_number": member.licence_number, "created_at": member.created_at.isoformat()}


def sanction_row(sanction: Sanction, now) -> dict:
    def iso(at):
        return at.isoformat() if at else None
    return {"id": sanction.pk,
            "member": {"id": sanction.member_id, "name": sanction.member.name,
                       "licence_number": sanction.member.licence_number},
            "event": ({"id": sanction.event_id, "name": sanction.event.name}
                      if sanction.event_id else None),
            "character": sanction.character_id, "level": sanction.level, "kind": sanction.kind,
            "kind_label": selectors.KIND_LABELS[sanction.kind], "cheating": sanction.cheating,
            "reason": sanction.reason,
            "decided_by": sanction.decided_by.get_username() if sanction.decided_by else None,
            "decided_at": iso(sanction.decided_at), "ends_at": iso(sanction.ends_at),
            "revoked_at": iso(sanction.revoked_at),
            "revoked_by": sanction.revoked_by.get_username() if sanction.revoked_by else None,
            "revoked_reason": sanction.revoked_reason,
            "bars_check_in": selectors.sanction_bars(sanction, now),
            "escalation": selectors.escalation_of(sanction),
            "category": sanction.category or None, "repeat_of": _repeat_of(sanction)}


def _repeat_of(sanction: Sanction) -> dict | None:
    """The earlier sanction of the same category this one repeats (rulebook [L47])."""
    earlier = sanction.repeat_of
    if earlier is None:
        return None
    return {"id": earlier.pk, "kind": earlier.kind,
            "decided_at": earlier.decided_at.isoformat(), "event": earlier.event_id}


class EventMembersApi(APIView):
    class EventMembersInput(serializers.Serializer):
        name = serializers.CharField(max_length=200)
        nickname = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
        phone = serializers.CharField(max_length=40)
        email = serializers.EmailField(required=False, allow_blank=True, default="")
        licence_number = serializers.CharField(max_length=40)

    @extend_schema(responses=ClubMembersAnswer, parameters=[OpenApiParameter("q", str)],
                   summary="The members of the event's club (organisers of the event): search by name, nickname or licence, 50 at most")
    def get(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        club = selectors.event_club(event)
        found = selectors.members_search(club, request.query_params.get("q", "")[:100])
        return answer(request, {"club": {"id": club.pk, "name": club.name} if club else None,
                                "members": [member_row(m) for m in found]})

    @extend_schema(responses={201: ClubMemberCreatedAnswer}, request=EventMembersInput,
                   summary="Register a club member at this event's desk (organisers). Idempotency-Key header.")
    def post(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        data = self.EventMembersInput(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            member = register.member_create(event=event, by=request.user, **data.validated_data)
            return answer(request, {"member": member_row(member)}, status=201)
        return idempotent(request, run)


class CheckInApi(APIView):
    class CheckInInput(serializers.Serializer):
        member = MemberReference()
        team = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")

    @extend_schema(responses={200: ClubCheckInAnswer, 201: ClubCheckInAnswer},
                   request=CheckInInput,
                   summary="Check a club member in to this game (organisers): creates their character, or answers the existing one (200). 409 member_excluded / member_banned. Idempotency-Key header.")
    def post(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        data = self.CheckInInput(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            member = selectors.member_by_reference(event, data.validated_data["member"])
            character, created = register.member_check_in(
                event=event, member=member, by=request.user, team_name=data.validated_data["team"])
            return answer(request, {
                "character": {"id": character.pk, "name": character.name, "code": character.code,
                              "team": character.team.name if character.team_id else None},
                "member": member_row(member), "created": created},
                status=201 if created else 200)
        return idempotent(request, run)


class EventSanctionsApi(APIView):
    class EventSanctionsInput(serializers.Serializer):
        member = MemberReference(required=False)
        character = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)
        character_code = serializers.CharField(max_length=12, required=False)  # read off a QR
        kind = serializers.ChoiceField(choices=[k for k, _ in Sanction.KINDS])
        reason = serializers.CharField(max_length=2000)
        cheating = serializers.BooleanField(default=False)
        ends_at = serializers.DateTimeField(required=False)
        category = serializers.ChoiceField(choices=[c for c, _ in Sanction.CATEGORIES],
                                           required=False)

        def validate(self, attrs):
            if sum(key in attrs for key in ("member", "character", "character_code")) != 1:
                raise serializers.ValidationError(
                    "give one of member, character or character_code")
            return attrs

    @extend_schema(responses=ClubSanctionsAnswer,
                   summary="The sanctions recorded during this event (organisers and referees), newest first")
    def get(self, request, event_id):
        event = selectors.event_for_staff(request.user, event_id)
        now = timezone.now()
        return answer(request, {"sanctions": [sanction_row(s, now)
                                              for s in selectors.event_sanctions(event)]})

    @extend_schema(responses={201: ClubSanctionRecordedAnswer}, request=EventSanctionsInput,
                   summary="Record a sanction: referees light ones (warning, sanction_out), organisers any. Repeated cheating escalates to grave (B13). Idempotency-Key header.")
    def post(self, request, event_id):
        event = selectors.event_for_staff(request.user, event_id)
        data = self.EventSanctionsInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)

        def run():
            member, character = selectors.sanction_target(
                event, member=values.pop("member", None),
                character_id=values.pop("character", None),
                character_code=values.pop("character_code", None))
            sanction = sanctions.sanction_record(event=event, member=member, character=character,
                                            by=request.user, **values)
            row = sanction_row(sanction, timezone.now())
            return answer(request, {"sanction": row, "escalated": row["escalation"] is not None},
                          status=201)
        return idempotent(request, run)


class MemberSanctionsApi(APIView):
    @extend_schema(responses=ClubMemberSanctionsAnswer,
                   summary="A member's whole sanctions history across events (club staff; a player for their own member)")
    def get(self, request, member_id):
        member = selectors.member_for_reader(request.user, member_id)
        now = timezone.now()
        barring = selectors.member_barring_sanction(member, now)
        return answer(request, {
            "member": {"id": member.pk, "name": member.name, "nickname": member.nickname,
                       "licence_number": member.licence_number},
            "barred_until": (None if barring is None or barring.kind == Sanction.BANNED
                             else barring.ends_at.isoformat()),
            "banned": barring is not None and barring.kind == Sanction.BANNED,
            "sanctions": [sanction_row(s, now) for s in selectors.member_sanctions(member)]})


class SanctionRevokeApi(APIView):
    class SanctionRevokeInput(serializers.Serializer):
        reason = serializers.CharField(max_length=2000)

    @extend_schema(responses=ClubSanctionChangedAnswer, request=SanctionRevokeInput,
                   summary="Revoke a sanction (organisers of its event): it stays on the register, marked revoked. Idempotency-Key header.")
    def post(self, request, sanction_id):
        sanction = selectors.sanction_for_staff(request.user, sanction_id)
        data = self.SanctionRevokeInput(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            revoked = sanctions.sanction_revoke(sanction=sanction, by=request.user,
                                           reason=data.validated_data["reason"])
            return answer(request, {"sanction": sanction_row(revoked, timezone.now())})
        return idempotent(request, run)


class EventClubApi(APIView):
    class EventClubInput(serializers.Serializer):
        club = serializers.IntegerField(min_value=1, max_value=MAX_ID)

    @extend_schema(responses=EventClubAnswer,
                   summary="The club whose register this event uses (organisers and referees): null before its first member")
    def get(self, request, event_id):
        event = selectors.event_for_staff(request.user, event_id)
        return answer(request, {"club": club_row(selectors.event_club(event))})

    @extend_schema(responses=EventClubAnswer, request=EventClubInput,
                   summary="Attach this event to a club (organisers of the event and of one of the club's events): its desk uses the club's register. 409 event_in_club. Idempotency-Key header.")
    def post(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        data = self.EventClubInput(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            club = selectors.club_for_organiser(request.user, data.validated_data["club"])
            clubs.club_event_attach(club=club, event=event, by=request.user)
            return answer(request, {"club": club_row(club)})
        return idempotent(request, run)
