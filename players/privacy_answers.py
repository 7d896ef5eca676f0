"""The wire format of personal data's answers (players/privacy_apis.py): a person's export
and erasure, and the event's retention; see players/answers.py."""
from __future__ import annotations

from rest_framework import serializers

from .answers import IdNameAnswer, OpenAnswer, RosterCharacter


class EventPersonalDataAnswer(serializers.Serializer):
    event = serializers.IntegerField()
    retention_days = serializers.IntegerField()
    ended_at = serializers.DateTimeField(help_text="When the event ended (its last activity)")
    purge_due_at = serializers.DateTimeField()
    purged_at = serializers.DateTimeField(allow_null=True, help_text="null: not purged yet")


class PersonErasedAnswer(serializers.Serializer):
    character = serializers.IntegerField()
    event = serializers.IntegerField()
    pseudonym = serializers.CharField(help_text="What now stands for the person's names")
    account = serializers.ChoiceField(choices=["erased", "kept"], help_text=(
        "kept: another game not yet purged holds the account, or it is a staff account"))
    erased_at = serializers.DateTimeField()


class ExportedAccount(serializers.Serializer):
    username = serializers.CharField()
    first_name = serializers.CharField(allow_blank=True)
    last_name = serializers.CharField(allow_blank=True)
    email = serializers.CharField(allow_blank=True)
    active = serializers.BooleanField()
    joined_at = serializers.DateTimeField()
    last_login = serializers.DateTimeField(allow_null=True)


class ExportedCharacter(RosterCharacter):
    sheet = serializers.DictField()
    kits = serializers.DictField(help_text='Kits held, e.g. {"kps": 3}')


class ExportedMembership(serializers.Serializer):
    event = serializers.IntegerField()
    role = serializers.CharField()


class ExportedLoginToken(serializers.Serializer):
    event = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(allow_null=True, help_text="null: until replaced")
    used_at = serializers.DateTimeField(allow_null=True)


ANOTHER = "Absent from a line of theirs about another character: that one's state is not theirs"


class ExportedJournalLine(serializers.Serializer):
    id = serializers.IntegerField()
    at = serializers.DateTimeField()
    game_s = serializers.FloatField()
    who = serializers.CharField()
    kind = serializers.CharField()
    what = serializers.CharField()
    about_another_character = serializers.BooleanField(
        required=False, help_text="Only on a line of theirs about another character (true)")
    character_id = serializers.IntegerField(allow_null=True, required=False, help_text=ANOTHER)
    character = serializers.CharField(allow_null=True, required=False, help_text=ANOTHER)
    before = serializers.JSONField(allow_null=True, required=False, help_text=ANOTHER)
    after = serializers.JSONField(allow_null=True, required=False, help_text=ANOTHER)
    detail = serializers.JSONField(required=False, help_text=ANOTHER)


class PersonExportAnswer(OpenAnswer):
    """Players' part of the document; every other app adds the section it registered."""
    exported_at = serializers.DateTimeField()
    event = IdNameAnswer()
    account = ExportedAccount(allow_null=True, help_text="null: a character without an account")
    characters = ExportedCharacter(many=True)
    memberships = ExportedMembership(many=True)
    login_tokens = ExportedLoginToken(many=True, help_text="Without their secret")
    journal = ExportedJournalLine(many=True)
