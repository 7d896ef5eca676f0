"""The wire format of the club's answers (club/apis.py, club/chrony_apis.py): output
serializers that the OpenAPI document (/api/schema/) shows field by field and against
which the tests check every answer they read (tests/wire.py); the views' row functions
(club_row, member_row, sanction_row, replica_row, check_row) still build the dicts.

Labels ({fr, es, en} when built) reach the phone as one text, in the caller's language.
Rule codes (B13) are those of docs/rules/airsoft_rats-coverage.md."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from players.answers import IdNameAnswer


class ClubAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    events = IdNameAnswer(many=True, help_text="The events using the club's register")


class EventClubAnswer(serializers.Serializer):
    club = ClubAnswer(allow_null=True, help_text="null before the event's first member")


class ClubMemberAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    nickname = serializers.CharField(allow_blank=True)
    phone = serializers.CharField()
    email = serializers.CharField(allow_blank=True)
    licence_number = serializers.CharField(help_text="Licence or club member number")
    created_at = serializers.DateTimeField()


class ClubMembersAnswer(serializers.Serializer):
    club = IdNameAnswer(allow_null=True, help_text="null before the event's first member")
    members = ClubMemberAnswer(many=True, help_text="50 at most")


class ClubMemberCreatedAnswer(serializers.Serializer):
    member = ClubMemberAnswer()


class ClubCheckedInCharacterAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField()
    team = serializers.CharField(allow_null=True, help_text="The team's name")


class ClubCheckInAnswer(serializers.Serializer):
    character = ClubCheckedInCharacterAnswer()
    member = ClubMemberAnswer()
    created = serializers.BooleanField(help_text="false: the member was already checked in (200)")


# -- sanctions --------------------------------------------------------------------------------

class ClubSanctionedMemberAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    licence_number = serializers.CharField()


class ClubEscalationAnswer(serializers.Serializer):
    """Rule B13 made this sanction grave (repeated cheating)."""
    from_ = serializers.CharField(help_text="The kind asked for")
    to = serializers.CharField(help_text="The kind recorded")
    because_of = serializers.IntegerField(allow_null=True,
                                          help_text="The earlier sanction that made it grave")
    why = serializers.CharField()

    def get_fields(self):
        """`from` is a Python keyword: the field is declared as `from_` and named here."""
        return {("from" if name == "from_" else name): field
                for name, field in super().get_fields().items()}


class ClubRepeatOfAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    decided_at = serializers.DateTimeField()
    event = serializers.IntegerField(allow_null=True)


class ClubSanctionAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    member = ClubSanctionedMemberAnswer()
    event = IdNameAnswer(allow_null=True, help_text="null: recorded outside an event")
    character = serializers.IntegerField(allow_null=True)
    level = serializers.CharField(help_text="light or grave")
    kind = serializers.CharField()
    kind_label = serializers.CharField()
    cheating = serializers.BooleanField(help_text="Proven cheating (rule B13)")
    reason = serializers.CharField()
    decided_by = serializers.CharField(allow_null=True, help_text="A user name")
    decided_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(allow_null=True)
    revoked_at = serializers.DateTimeField(allow_null=True)
    revoked_by = serializers.CharField(allow_null=True, help_text="A user name")
    revoked_reason = serializers.CharField(allow_blank=True)
    bars_check_in = serializers.BooleanField(help_text="Whether it bars a check-in now")
    escalation = ClubEscalationAnswer(allow_null=True)
    category = serializers.CharField(allow_null=True)
    repeat_of = ClubRepeatOfAnswer(allow_null=True, help_text=(
        "The earlier sanction of the same category this one repeats"))


class ClubSanctionsAnswer(serializers.Serializer):
    sanctions = ClubSanctionAnswer(many=True, help_text="Newest first")


class ClubSanctionRecordedAnswer(serializers.Serializer):
    sanction = ClubSanctionAnswer()
    escalated = serializers.BooleanField()


class ClubSanctionChangedAnswer(serializers.Serializer):
    sanction = ClubSanctionAnswer()


class ClubMemberNamesAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    nickname = serializers.CharField(allow_blank=True)
    licence_number = serializers.CharField()


class ClubMemberSanctionsAnswer(serializers.Serializer):
    member = ClubMemberNamesAnswer()
    barred_until = serializers.DateTimeField(allow_null=True,
                                             help_text="The end of an exclusion in force")
    banned = serializers.BooleanField()
    sanctions = ClubSanctionAnswer(many=True)


# -- chrony -----------------------------------------------------------------------------------

# The limits a check was held to: the options of the event's ruleset (or the club's), kept
# as the check recorded them.
CHRONY_LIMITS = {
    "type": "object", "additionalProperties": True,
    "properties": {
        "max_power_joule": {"type": "number"},
        "calibre_mm": {"description": "The calibre allowed, or a list of them"},
        "full_auto": {"description": "Whether full-auto is allowed, as the ruleset words it"},
    },
}


@extend_schema_field(CHRONY_LIMITS)
class ChronyLimitsField(serializers.JSONField):
    pass


class ClubCheckAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    checked_at = serializers.DateTimeField()
    checked_by = serializers.CharField(allow_null=True, help_text="A user name")
    bb_weight_g = serializers.FloatField()
    speed_mps = serializers.FloatField(allow_null=True, help_text="null: energy_j was measured")
    energy_j = serializers.FloatField()
    calibre_mm = serializers.FloatField()
    full_auto_used = serializers.BooleanField()
    passed = serializers.BooleanField()
    reasons = serializers.ListField(child=serializers.CharField(), help_text="Why it failed")
    limits = ChronyLimitsField()


class ClubReplicaOwnerAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    nickname = serializers.CharField(allow_blank=True)


class ClubReplicaAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField(help_text="Printed on its pass label")
    label = serializers.CharField()
    type = serializers.CharField()
    calibre_mm = serializers.FloatField()
    full_auto_capable = serializers.BooleanField()
    member = ClubReplicaOwnerAnswer()
    latest_check = ClubCheckAnswer(allow_null=True)
    passed = serializers.BooleanField(allow_null=True, help_text="null: never checked")
    label_url = serializers.CharField(help_text="The printable pass label")


class ClubReplicasAnswer(serializers.Serializer):
    replicas = ClubReplicaAnswer(many=True)


class ClubReplicaRegisteredAnswer(serializers.Serializer):
    replica = ClubReplicaAnswer()


class ClubCheckRecordedAnswer(serializers.Serializer):
    check = ClubCheckAnswer()
    passed = serializers.BooleanField()
    sanction = ClubSanctionAnswer(allow_null=True, help_text=(
        "The cheating sanction a failed recheck of a replica that had passed records"))
    escalated = serializers.BooleanField()
