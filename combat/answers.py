"""The wire format of combat's answers: its part of a character's snapshot (the fights it
is in, selectors.py) and what each fight answers beside the caller's fresh snapshot
(apis.py). The selectors and services still build the dicts; these serializers are the
contract."""
from __future__ import annotations

from rest_framework import serializers

from live.snapshot_answers import CharacterSnapshotAnswer
from players.answers import KeyLabel


class CountdownAnswer(serializers.Serializer):
    game_s = serializers.FloatField()
    remaining_s = serializers.FloatField()
    at = serializers.DateTimeField(allow_null=True, help_text="null while the clock is paused")


class CountAnswer(serializers.Serializer):
    """The count the patient says aloud, to the heal's end."""
    to = serializers.IntegerField()

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = serializers.IntegerField()   # a Python keyword
        return fields


class TypeAnswer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField(allow_null=True)


class FightAnswer(serializers.Serializer):
    """One fight as one side sees it (never a score); `kind` says which fields it has."""
    kind = serializers.ChoiceField(choices=["duel", "union", "acharnement", "heal"])
    id = serializers.IntegerField()
    role = serializers.CharField(help_text="This side: challenger or defender (duel), "
                                 "attackers or defenders (union), attacker or victim "
                                 "(acharnement), medic or patient (heal)")
    status = serializers.CharField()
    ends = CountdownAnswer(allow_null=True, help_text="While it runs")
    other = serializers.CharField(required=False, help_text="The other side's name (not "
                                  "for a union)")
    result = serializers.CharField(required=False, allow_null=True,
                                   help_text="Duel: this side's result")
    reason = serializers.CharField(required=False, allow_null=True,
                                   help_text="Why it ended early (not for an acharnement)")
    can_answer = serializers.BooleanField(required=False, help_text="Duel: the defender may "
                                          "accept or decline")
    attackers = serializers.IntegerField(required=False, help_text="Union")
    defenders = serializers.IntegerField(required=False, help_text="Union")
    type = TypeAnswer(required=False, help_text="Acharnement or heal: which kind")
    count = CountAnswer(required=False, help_text="A running heal")
    can_shoot = serializers.BooleanField(required=False, help_text="A running heal, the medic")
    cannot = KeyLabel(many=True, required=False, help_text="A running heal, the medic")
    can_stop = serializers.BooleanField(required=False, help_text="A running heal, the medic")


class FightsSnapshotPart(serializers.Serializer):
    """fights_section's key (combat/snapshot.py)."""
    fights = FightAnswer(many=True, help_text="Running, or ended a few minutes ago")


class WithSnapshot(serializers.Serializer):
    snapshot = CharacterSnapshotAnswer(help_text="The caller's character, fresh")


class DuelStepAnswer(WithSnapshot):
    duel = serializers.IntegerField()


class UnionClaimedAnswer(WithSnapshot):
    union = serializers.IntegerField()


class UnionJoinedAnswer(UnionClaimedAnswer):
    status_of_union = serializers.CharField()


class AcharnementStartedAnswer(WithSnapshot):
    acharnement = serializers.IntegerField()


class AcharnementStoppedAnswer(AcharnementStartedAnswer):
    status_of_acharnement = serializers.CharField()


class SearchedAnswer(WithSnapshot):
    searched = serializers.CharField(help_text="The name of the character searched")


class FirearmAnswer(WithSnapshot):
    """take and load: `firearm` and `loaded`; shoot: `hit`, `victim`, `loaded`, `detail`."""
    loaded = serializers.BooleanField()
    firearm = serializers.CharField(required=False, help_text="take, load: its code")
    hit = serializers.BooleanField(required=False, help_text="shoot")
    victim = serializers.CharField(required=False, help_text="shoot: the victim's name")
    detail = serializers.CharField(required=False, allow_null=True,
                                   help_text="shoot: why it did nothing; null on a hit")


class ShotAnswer(WithSnapshot):
    hit = serializers.BooleanField(help_text="The hit was applied")
    void = serializers.BooleanField(help_text="The shooter was not in play")
    shooter = serializers.CharField(help_text="The shooter's name")
    recorded = serializers.BooleanField(help_text="A void shot counted on the shooter")


class HealStartedAnswer(WithSnapshot):
    heal = serializers.IntegerField()


class HealStoppedAnswer(HealStartedAnswer):
    status_of_heal = serializers.CharField()
