"""The wire format of real-world safety's answers (safety/apis.py, safety/plan_apis.py),
built by safety/selectors.py: output serializers that /api/schema/ shows field by field and
that the tests check every answer against (tests/wire.py)."""
from __future__ import annotations

from rest_framework import serializers

from .models import HelpCall


class SafetyCharacter(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    team = serializers.CharField(allow_null=True)


class CallPosition(serializers.Serializer):
    latitude = serializers.FloatField()
    longitude = serializers.FloatField()
    accuracy_m = serializers.FloatField(allow_null=True)


class PlanPosition(serializers.Serializer):
    x = serializers.FloatField(help_text="Pixels from the left of the plan's image")
    y = serializers.FloatField(help_text="Pixels from the top of the plan's image")
    radius_px = serializers.FloatField(allow_null=True, help_text="The accuracy, in pixels")
    inside = serializers.BooleanField(help_text="Whether the point is on the image at all")


PLAN_POSITION = "Where it falls on the site plan; null until the plan is placed, or without a position"


class OwnHelpCallAnswer(serializers.Serializer):
    """A call as its caller's phone shows it: received, who is coming, how it ended."""
    id = serializers.IntegerField()
    event = serializers.IntegerField()
    kind = serializers.CharField(help_text=", ".join(HelpCall.KINDS))
    status = serializers.CharField(help_text="open, taken, closed")
    tapped_at = serializers.DateTimeField(help_text="When the caller tapped, by the phone's clock")
    received_at = serializers.DateTimeField()
    taken_by = serializers.CharField(allow_null=True)
    taken_at = serializers.DateTimeField(allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)
    outcome = serializers.CharField(allow_null=True, help_text=", ".join(HelpCall.OUTCOMES))


def _responder_only(required: bool, why: str = "") -> dict:
    """What the responders (narrators, safety team) see of a call beyond its caller."""
    def about(text: str) -> str:
        return f"{text}. {why}" if why else text
    return {
        "note": serializers.CharField(allow_blank=True, required=required, help_text=about("The caller's note")),
        "caller": serializers.CharField(required=required, help_text=about("Who called")),
        "character": SafetyCharacter(allow_null=True, required=required,
                                     help_text=about("The caller's character, if any")),
        "position": CallPosition(allow_null=True, required=required,
                                 help_text=about("Where the phone was, if it said")),
        "plan_position": PlanPosition(allow_null=True, required=required, help_text=about(PLAN_POSITION)),
        "closed_by": serializers.CharField(allow_null=True, required=required, help_text=about("Who closed it")),
        "outcome_note": serializers.CharField(allow_blank=True, required=required,
                                              help_text=about("The closer's note")),
    }


HelpCallAnswer = type("HelpCallAnswer", (OwnHelpCallAnswer,), {
    "__doc__": "A call as its responders (narrators, safety team) see it.",
    "__module__": __name__, **_responder_only(True)})

ListedHelpCall = type("ListedHelpCall", (OwnHelpCallAnswer,), {
    "__doc__": "A call as the reader may see it: a responder sees every field, a caller "
               "(organiser: false) only their own calls, without the responders' fields.",
    "__module__": __name__, **_responder_only(False, "Responders only (organiser: true)")})


class HelpCallsAnswer(serializers.Serializer):
    calls = ListedHelpCall(many=True, help_text="Responders: every call not closed, then the last "
                                                "closed ones. Anyone else: their own calls")
    organiser = serializers.BooleanField(help_text="Whether the reader answers the calls")


class SafetySettingsAnswer(serializers.Serializer):
    silent_after_min = serializers.IntegerField(help_text="Minutes without news before a phone is listed as silent")
    battery_low_pct = serializers.IntegerField()
    ends_at = serializers.DateTimeField(allow_null=True, help_text="When everyone should have checked out")
    race_tracking = serializers.BooleanField(help_text="Whether runners' phones share their position")


class PlanPoint(serializers.Serializer):
    x = serializers.FloatField()
    y = serializers.FloatField()
    latitude = serializers.FloatField()
    longitude = serializers.FloatField()


class SitePlanAnswer(serializers.Serializer):
    image_url = serializers.CharField(help_text="Changes with the image (its version)")
    width = serializers.IntegerField()
    height = serializers.IntegerField()
    points = PlanPoint(many=True, help_text="The reference points: pixels of the image and where they are")
    placed = serializers.BooleanField()
    uploaded_at = serializers.DateTimeField()
    placed_at = serializers.DateTimeField(allow_null=True)


class BoardBattery(serializers.Serializer):
    level = serializers.IntegerField(help_text="Percent")
    charging = serializers.BooleanField(allow_null=True)
    at = serializers.DateTimeField()


class OutForReal(serializers.Serializer):
    reason = serializers.CharField()


class BoardRow(serializers.Serializer):
    character = SafetyCharacter()
    reasons = serializers.ListField(child=serializers.CharField(), help_text=(
        "Why the row is listed: silent, battery_low, not_checked_out, out_for_real"))
    last_seen_at = serializers.DateTimeField(allow_null=True)
    battery = BoardBattery(allow_null=True)
    checked_out_at = serializers.DateTimeField(allow_null=True)
    acknowledged_at = serializers.DateTimeField(allow_null=True, help_text="When a responder marked it seen")
    acknowledged_by = serializers.CharField(allow_null=True)
    out_for_real = OutForReal(allow_null=True)


class TeamStillOut(serializers.Serializer):
    team = serializers.CharField(allow_null=True, help_text="null: those without a team")
    still_out = serializers.IntegerField()


class RunnerPosition(serializers.Serializer):
    character = SafetyCharacter()
    latitude = serializers.FloatField()
    longitude = serializers.FloatField()
    accuracy_m = serializers.FloatField(allow_null=True)
    at = serializers.DateTimeField(help_text="The phone's fix time")
    age_s = serializers.IntegerField(help_text="How old the fix is, in seconds")
    plan_position = PlanPosition(allow_null=True, help_text=PLAN_POSITION)


class SafetyBoardAnswer(serializers.Serializer):
    settings = SafetySettingsAnswer()
    ended = serializers.BooleanField(help_text="Whether the event's end (settings.ends_at) has passed")
    still_out = serializers.IntegerField(help_text="Phones heard from and not checked out")
    teams = TeamStillOut(many=True)
    rows = BoardRow(many=True)
    calls = HelpCallAnswer(many=True)
    plan = SitePlanAnswer(allow_null=True)
    positions = RunnerPosition(many=True, help_text="The runners' last positions, while the event tracks its races")
    narrator = serializers.BooleanField(help_text="Whether the reader may change the settings, the plan and out for real")


class ContactAnswer(serializers.Serializer):
    character = serializers.IntegerField()
    checked_out_at = serializers.DateTimeField(allow_null=True)
    battery_level = serializers.IntegerField(allow_null=True, help_text="Percent")


class TrackingAnswer(serializers.Serializer):
    tracking = serializers.BooleanField(help_text="Whether the phone should share its position now")
    why_not = serializers.CharField(allow_null=True, help_text="tracking_off, tracking_not_racing")


class PositionRecordedAnswer(serializers.Serializer):
    character = serializers.IntegerField()
    tracking = serializers.BooleanField()
    position_at = serializers.DateTimeField(help_text="The latest fix kept (an older one is ignored)")


class OutForRealSetAnswer(serializers.Serializer):
    character = serializers.IntegerField()
    out_for_real = serializers.BooleanField()
    reason = serializers.CharField(allow_null=True)
    timers = serializers.DictField(child=serializers.FloatField(), help_text=(
        "The game instant each timer falls due, by timer; empty while out for real"))
