"""The wire format of health's answers: its part of a character's snapshot (snapshot.py),
a treatment as its medic sees it, a patient identified by a medic, a character's history
and the outcome table a phone keeps offline (outcomes.py). Labels are texts in the
caller's language (`common.i18n.localize` picks it from the {fr, es, en} the selectors
build). The selectors still build the dicts; these serializers are the contract."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from live.snapshot_answers import CharacterSnapshotAnswer
from players.answers import IdNameAnswer, KeyLabel

# The rules core's own values (a ruleset declares its keys: wounds, limbs, armour...).
OPEN_MAP = {"type": "object", "additionalProperties": True}


@extend_schema_field(OPEN_MAP)
class OpenMapField(serializers.JSONField):
    pass


class AnyValueField(serializers.JSONField):
    """A value whose type the ruleset or the sheet decides (a number, a word, true)."""


class LeadsToAnswer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    countdown_label = serializers.CharField(help_text="The state's name in a countdown "
                                            "(\"Coma\" in \"Coma in 14:59\")")


class TimerAnswer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    game_s = serializers.FloatField(help_text="The game second it expires at")
    remaining_s = serializers.FloatField()
    at = serializers.DateTimeField(allow_null=True, help_text="The wall-clock instant it "
                                   "expires at; null while the clock is paused")
    leads_to = LeadsToAnswer(allow_null=True, help_text="The state it leads to, if any")


class StateAnswer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    inert = serializers.BooleanField()
    hint = serializers.CharField(allow_null=True)
    severity = serializers.IntegerField()
    can = KeyLabel(many=True)
    cannot = KeyLabel(many=True)


class PointAnswer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    base = serializers.IntegerField(allow_null=True, help_text="From the sheet; null without one")
    max = serializers.IntegerField(allow_null=True)
    value = serializers.IntegerField(allow_null=True, help_text="As it stands now")
    recovers = TimerAnswer(allow_null=True, help_text="When a temporary loss comes back")


class ActionParamAnswer(serializers.Serializer):
    key = serializers.CharField()
    type = serializers.CharField(help_text="choice, bool, int, str...")
    label = serializers.CharField()
    default = AnyValueField(allow_null=True)
    choices = KeyLabel(many=True)


class DeclarableActionAnswer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    params = ActionParamAnswer(many=True, help_text="What the form asks before declaring it")
    costs = serializers.DictField(child=serializers.IntegerField(),
                                  help_text="Points it spends, by point key")


class BodyLocationAnswer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    status = serializers.CharField(help_text="ok, wounded, stunned, or the limb's state")
    points = serializers.IntegerField(help_text="Damage points on it")
    until_game_s = serializers.FloatField(allow_null=True, help_text="A stunned limb's end")
    remaining_s = serializers.FloatField(allow_null=True)
    at = serializers.DateTimeField(allow_null=True)


class ArmourAnswer(serializers.Serializer):
    kind = serializers.CharField()
    base = serializers.IntegerField()
    next_conflict = serializers.IntegerField()
    left_now = serializers.IntegerField()


class ConflictAnswer(serializers.Serializer):
    until_game_s = serializers.FloatField()
    remaining_s = serializers.FloatField()
    at = serializers.DateTimeField(allow_null=True)


class BodyAnswer(serializers.Serializer):
    locations = BodyLocationAnswer(many=True)
    damage_points = serializers.IntegerField()
    armour = ArmourAnswer(allow_null=True, help_text="null: no armour on the sheet")
    conflict = ConflictAnswer(allow_null=True, help_text="The current Conflict, if any")


class SkillAnswer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    level = AnyValueField(help_text="As the sheet says it (a level's name, or true)")


class TraitAnswer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    value = AnyValueField(allow_null=True)


class KitAnswer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    count = serializers.IntegerField()


class AbilityAnswer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    explains = serializers.CharField(allow_null=True)


class SheetAnswer(serializers.Serializer):
    skills = SkillAnswer(many=True)
    psych = OpenMapField(help_text="The sheet's psychological values, by trait key")
    traits = TraitAnswer(many=True)
    kits = KitAnswer(many=True)
    abilities = AbilityAnswer(many=True)


class OutForRealAnswer(serializers.Serializer):
    reason = serializers.CharField()
    since_game_s = serializers.FloatField()


class HealthSnapshotPart(serializers.Serializer):
    """health_section's keys (health/snapshot.py)."""
    version = serializers.IntegerField(help_text="Moves with every change the snapshot shows")
    state = StateAnswer()
    next = TimerAnswer(allow_null=True, help_text="The first timer that leads to a state")
    timers = TimerAnswer(many=True)
    values = OpenMapField(help_text="The rules core's values (the ruleset names them)")
    flags = KeyLabel(many=True)
    points = PointAnswer(many=True)
    actions = DeclarableActionAnswer(many=True, help_text="What the player may declare now")
    body = BodyAnswer(allow_null=True, help_text="null: the ruleset has no body map")
    sheet = SheetAnswer()
    out_for_real = OutForRealAnswer(allow_null=True, help_text="Out of the game for real: "
                                    "no timer runs")


class RunningTreatmentAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    action = KeyLabel()
    care = serializers.BooleanField(help_text="A medic's care (false: someone's timed act "
                                    "on the character, a killing blow)")
    by = serializers.CharField(help_text="The acting character's name")
    game_s = serializers.FloatField()
    remaining_s = serializers.FloatField()
    at = serializers.DateTimeField(allow_null=True)


class TreatmentsSnapshotPart(serializers.Serializer):
    """treatments_section's key (health/snapshot.py)."""
    treatments = RunningTreatmentAnswer(many=True, help_text="Running on the character")


class RuleEventAnswer(serializers.Serializer):
    """One step of what a declaration did, as the rules core logs it; `kind` says which
    other fields there are."""
    kind = serializers.CharField(help_text="action, transition, timer_set, timer_cleared, "
                                 "timer_expired, value_set, reveal, reminder, hit_result, "
                                 "declared_at, out_for_real, back_in_game")
    at = serializers.FloatField(required=False, help_text="The game second")
    action = serializers.CharField(required=False)
    params = OpenMapField(required=False)
    cause = serializers.CharField(required=False, allow_null=True)
    to = serializers.CharField(required=False)
    timer = serializers.CharField(required=False)
    due = serializers.FloatField(required=False)
    key = serializers.CharField(required=False)
    value = AnyValueField(required=False, allow_null=True)
    revealed = OpenMapField(required=False)
    text = serializers.CharField(required=False, allow_null=True)
    result = serializers.CharField(required=False)
    location = serializers.CharField(required=False, allow_null=True)
    weapon = serializers.CharField(required=False, allow_null=True)
    tapped_at = serializers.DateTimeField(required=False)
    applied_at = serializers.DateTimeField(required=False)
    received_at = serializers.DateTimeField(required=False)
    game_s = serializers.FloatField(required=False)
    clamped = serializers.BooleanField(required=False)
    reason = serializers.CharField(required=False)
    timers = OpenMapField(required=False)
    held_s = serializers.FloatField(required=False)

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = serializers.CharField(required=False)   # a Python keyword
        return fields


class ActionAnswer(serializers.Serializer):
    events = RuleEventAnswer(many=True)
    snapshot = CharacterSnapshotAnswer()


class UndoAnswer(serializers.Serializer):
    correction = serializers.IntegerField(help_text="The journal line that restores the state")
    undoes = serializers.IntegerField(help_text="The journal line undone")
    snapshot = CharacterSnapshotAnswer()


class HistoryRowAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    at = serializers.DateTimeField(help_text="When it reached the server")
    game_s = serializers.FloatField()
    tapped_at = serializers.DateTimeField(allow_null=True, help_text="A declaration sent "
                                          "late: when it was tapped")
    who = serializers.CharField()
    kind = serializers.CharField(help_text="action, treatment, timer or effect")
    what = serializers.CharField(allow_blank=True, help_text="The action, the timers that "
                                 "expired, or the effect's text")
    state_before = serializers.CharField(allow_null=True)
    state_after = serializers.CharField(allow_null=True)


class HistoryAnswer(serializers.Serializer):
    history = HistoryRowAnswer(many=True, help_text="Newest first")


class OutcomeTimerAnswer(serializers.Serializer):
    key = serializers.CharField()
    kept = serializers.BooleanField(help_text="The declaration leaves it as the phone shows it")
    after_s = serializers.FloatField(allow_null=True, help_text="Its deadline counted from "
                                     "the tap; null when kept")
    leads_to = serializers.CharField(allow_null=True, help_text="A state key")


class OutcomeAnswer(serializers.Serializer):
    params = OpenMapField(help_text="The choices this outcome is for")
    state = serializers.CharField(help_text="A state key (see `states`)")
    inert = serializers.BooleanField()
    can = serializers.ListField(child=serializers.CharField(), help_text="Capability keys")
    cannot = serializers.ListField(child=serializers.CharField(), help_text="Capability keys")
    timers = OutcomeTimerAnswer(many=True)


class OutcomeStateAnswer(serializers.Serializer):
    label = serializers.CharField()
    severity = serializers.IntegerField()
    hint = serializers.CharField(allow_null=True)
    countdown_label = serializers.CharField()


class OutcomeTableAnswer(serializers.Serializer):
    state = serializers.CharField(help_text="The state key as it stands now")
    game_s = serializers.FloatField()
    outcomes = serializers.DictField(child=OutcomeAnswer(many=True), help_text="By action "
                                     "key: one outcome per combination of its choices (none "
                                     "where the rules refuse it)")
    states = serializers.DictField(child=OutcomeStateAnswer(), help_text="The states the "
                                   "outcomes name, by key")
    timers = serializers.DictField(child=serializers.CharField(), help_text="Labels by timer key")
    capabilities = serializers.DictField(child=serializers.CharField(),
                                         help_text="Labels by capability key")


class PatientCharacterAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField()


class MedicOptionAnswer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    level = serializers.CharField(allow_null=True, help_text="The medic's skill level; null "
                                  "for what anyone may do")
    kit = serializers.CharField(allow_null=True)
    kits_left = serializers.IntegerField(allow_null=True)
    params = ActionParamAnswer(many=True)
    duration_s = serializers.FloatField(help_text="With the declared defaults")


class PatientAnswer(serializers.Serializer):
    patient = PatientCharacterAnswer(help_text="Never the patient's health")
    treatments = MedicOptionAnswer(many=True, help_text="What the medic's sheet allows")


class RevealedAnswer(serializers.Serializer):
    state = KeyLabel(required=False)


class TreatmentResultAnswer(serializers.Serializer):
    """Empty while running, or when the result depends on the patient's state."""
    revealed = RevealedAnswer(required=False, help_text="What an analysis lets the medic learn")
    state = KeyLabel(required=False, help_text="The state the rules leave the patient in, "
                     "whatever it was (a surgery)")
    timers = TimerAnswer(many=True, required=False, help_text="With `state`: its timers, "
                         "counted from now")


class TreatmentAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    action = serializers.CharField()
    label = serializers.CharField()
    patient = IdNameAnswer()
    level = serializers.CharField(allow_null=True)
    params = OpenMapField()
    status = serializers.CharField(help_text="running, completed or aborted")
    started_game_s = serializers.FloatField()
    duration_s = serializers.FloatField()
    ready_game_s = serializers.FloatField()
    remaining_s = serializers.FloatField()
    ready_at = serializers.DateTimeField(allow_null=True)
    result = TreatmentResultAnswer()
