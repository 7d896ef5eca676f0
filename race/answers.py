"""The wire format of the race's answers built in race/selectors/boards.py: an entry (as
its survivor and as organisers see it), the courses, the leaderboard and the safety board.
Output serializers that the OpenAPI document (/api/schema/) shows field by field and
against which the tests check every answer they read (tests/wire.py); the selectors still
build the dicts. The answers of single actions (imports, zombies' grabs...) are in
race/action_answers.py.

Labels ({fr, es, en} in the selectors) reach the phone as one text, in the caller's
language (common.http.answer)."""
from __future__ import annotations

from rest_framework import serializers

from players.answers import KeyLabel

ORGANISERS_ONLY = "Organisers only: absent from the survivor's own view."


class RaceStatusAnswer(serializers.Serializer):
    key = serializers.CharField(help_text="registered, racing, overtime (racing past the "
                                          "deadline), finished, dnf or disqualified")
    label = serializers.CharField()


class RaceWarningAnswer(serializers.Serializer):
    code = serializers.CharField(help_text="points_unconfirmed or no_checkpoints")
    text = serializers.CharField()


class RaceCourseAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    duration_s = serializers.IntegerField(help_text="The time allowed from the start")
    points_per_checkpoint = serializers.IntegerField()
    points_confirmed = serializers.BooleanField(
        help_text="false: an organiser has not confirmed the points a balise is worth yet")
    mass_started_at = serializers.DateTimeField(allow_null=True)


class RaceCheckpointAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField(help_text="The number on the box")
    name = serializers.CharField(allow_blank=True)
    lat = serializers.FloatField(allow_null=True)
    lon = serializers.FloatField(allow_null=True)
    qr = serializers.CharField(help_text="The QR's content")
    typed_code = serializers.CharField(
        help_text="Printed under the QR, typed when it will not scan")
    points = serializers.IntegerField(
        allow_null=True, help_text="This balise's own points; null: the course's")


class RaceCourseWithCheckpointsAnswer(RaceCourseAnswer):
    warnings = RaceWarningAnswer(many=True)
    checkpoints = RaceCheckpointAnswer(many=True)


class RaceCoursesAnswer(serializers.Serializer):
    event = serializers.IntegerField()
    start_mode = serializers.CharField(help_text="The event's start mode option")
    deposit_eur = serializers.FloatField()
    courses = RaceCourseWithCheckpointsAnswer(many=True)


class RaceCourseCreatedAnswer(serializers.Serializer):
    course = RaceCourseAnswer()
    warnings = RaceWarningAnswer(many=True)


class RaceCourseChangedAnswer(serializers.Serializer):
    course = RaceCourseAnswer()


class RaceCheckpointInCourseAnswer(RaceCheckpointAnswer):
    course = serializers.IntegerField()


class RaceCheckpointCreatedAnswer(serializers.Serializer):
    checkpoint = RaceCheckpointInCourseAnswer()


# -- an entry ---------------------------------------------------------------------------------

class RaceGearAnswer(serializers.Serializer):
    vest = serializers.BooleanField()
    light = serializers.BooleanField()
    phone = serializers.BooleanField()


class RaceEntryFactsAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.CharField(help_text="solo or team")
    members = serializers.ListField(child=serializers.CharField(), help_text="A team's members")
    carrier = serializers.CharField(allow_blank=True, help_text="Who carries a team's finger")
    finger = serializers.IntegerField(allow_null=True, help_text="The SI card's number")
    code = serializers.CharField(help_text="The bib's code (its QR)")
    phone = serializers.CharField(required=False, help_text=ORGANISERS_ONLY)
    character = serializers.IntegerField(required=False, help_text=ORGANISERS_ONLY)
    gear = RaceGearAnswer(required=False, help_text=ORGANISERS_ONLY)
    gear_checked_at = serializers.DateTimeField(allow_null=True, required=False)
    deposit_taken_at = serializers.DateTimeField(allow_null=True, required=False)
    deposit_returned_at = serializers.DateTimeField(allow_null=True, required=False)
    finger_returned_at = serializers.DateTimeField(allow_null=True, required=False)
    ended_at = serializers.DateTimeField(allow_null=True, required=False,
                                         help_text="DNF or disqualification")
    end_reason = serializers.CharField(allow_blank=True, required=False)
    alerted_at = serializers.DateTimeField(allow_null=True, required=False,
                                           help_text="When the overdue alert went out")


class RaceLivesAnswer(serializers.Serializer):
    remaining = serializers.IntegerField()
    initial = serializers.IntegerField()


class RaceBaliseAnswer(serializers.Serializer):
    code = serializers.CharField()
    name = serializers.CharField(allow_blank=True)


class RacePunchAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    checkpoint = RaceBaliseAnswer(help_text="One of the course's balises, or another "
                                            "course's (not counted)")
    at = serializers.DateTimeField()
    source = serializers.CharField(help_text="Who recorded it: the phone, the finger's "
                                             "readout, an organiser")
    counted = serializers.BooleanField()
    reason = serializers.CharField(allow_null=True, help_text="Why it does not count")


class RaceBreakdownAnswer(serializers.Serializer):
    """The score's terms: points found, then each penalty (zero or below)."""
    points = serializers.FloatField()
    unfound = serializers.FloatField()
    late = serializers.FloatField()
    lives = serializers.FloatField()
    exits_without_life = serializers.FloatField()
    infractions = serializers.FloatField()


class RaceReviewAnswer(serializers.Serializer):
    """Why an organiser may want to void a life loss: a grab near a balise (checkpoint,
    distance_m) or a zone call that took no life (reason)."""
    text = serializers.CharField()
    reason = serializers.CharField(required=False)
    checkpoint = serializers.CharField(required=False, help_text="The balise's code")
    distance_m = serializers.FloatField(required=False)


class RaceLifeLossAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    cause = KeyLabel()
    at = serializers.DateTimeField()
    took_life = serializers.BooleanField()
    voided = serializers.BooleanField()
    void_reason = serializers.CharField(allow_blank=True)
    review = RaceReviewAnswer(allow_null=True, required=False, help_text=ORGANISERS_ONLY)
    confirmations = serializers.ListField(
        child=serializers.CharField(), required=False,
        help_text="The rules the zombie confirmed (organisers only)")
    no_life_left = serializers.BooleanField(required=False, help_text=ORGANISERS_ONLY)
    note = serializers.CharField(allow_blank=True, required=False, help_text=ORGANISERS_ONLY)


class RaceInfractionAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    at = serializers.DateTimeField()
    note = serializers.CharField(allow_blank=True)
    penalty_points = serializers.IntegerField()


class RaceEntryAnswer(serializers.Serializer):
    """An entry as its survivor's phone shows it, or as organisers see it (the fields
    marked organisers only): one shape read by both."""
    entry = RaceEntryFactsAnswer()
    course = RaceCourseAnswer()
    status = RaceStatusAnswer()
    lives = RaceLivesAnswer()
    started_at = serializers.DateTimeField(allow_null=True)
    deadline_at = serializers.DateTimeField(allow_null=True,
                                            help_text="The phone counts down from it")
    finished_at = serializers.DateTimeField(allow_null=True)
    time_left_s = serializers.FloatField(allow_null=True, help_text="While racing; 0 once late")
    punches = RacePunchAnswer(many=True)
    found = serializers.IntegerField(help_text="Balises found that count")
    checkpoints = serializers.IntegerField(help_text="Balises on the course")
    late_minutes = serializers.IntegerField()
    score = serializers.FloatField(
        allow_null=True, help_text="An estimate while racing; null when disqualified")
    breakdown = RaceBreakdownAnswer()
    life_losses = RaceLifeLossAnswer(many=True)
    warnings = RaceWarningAnswer(many=True, required=False, help_text=ORGANISERS_ONLY)
    infractions = RaceInfractionAnswer(many=True, required=False, help_text=ORGANISERS_ONLY)


class RaceEntriesAnswer(serializers.Serializer):
    event = serializers.IntegerField()
    entries = RaceEntryAnswer(many=True, help_text="Each as organisers see it")


# -- leaderboard ------------------------------------------------------------------------------

class RaceRowEntryAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.CharField()
    members = serializers.ListField(child=serializers.CharField())
    finger = serializers.IntegerField(allow_null=True)


class RaceUnclassifiedAnswer(serializers.Serializer):
    key = serializers.CharField(help_text="The entry's status, or over_max_late")
    label = serializers.CharField()
    reason = serializers.CharField(allow_blank=True, required=False,
                                   help_text="The organiser's reason (DNF, disqualified only)")
    at = serializers.DateTimeField(allow_null=True, required=False,
                                   help_text="From when no punch counts (DNF, disqualified only)")


class RaceRowAnswer(serializers.Serializer):
    entry = RaceRowEntryAnswer()
    name = serializers.CharField()
    status = RaceStatusAnswer()
    found = serializers.IntegerField()
    checkpoints = serializers.IntegerField()
    late_minutes = serializers.IntegerField()
    lives_lost = serializers.IntegerField()
    elapsed_s = serializers.FloatField(allow_null=True)
    score = serializers.FloatField(allow_null=True)
    breakdown = RaceBreakdownAnswer()
    classified = serializers.BooleanField()
    not_counted = serializers.DictField(child=serializers.IntegerField(), help_text=(
        "{reason: punches}: what the finger recorded that does not count, duplicates aside"))
    unclassified = RaceUnclassifiedAnswer(allow_null=True, help_text="Why it is not ranked")
    rank = serializers.IntegerField(allow_null=True, help_text="Equal rows share a rank")


class RaceBoardAnswer(serializers.Serializer):
    course = RaceCourseAnswer()
    warnings = RaceWarningAnswer(many=True)
    ranking = RaceRowAnswer(many=True, help_text="Finished entries, ranked")
    unranked = RaceRowAnswer(many=True, help_text="The others: racing (with their estimate), "
                                                  "not started, DNF, disqualified")


class RaceLeaderboardAnswer(serializers.Serializer):
    event = serializers.IntegerField()
    courses = RaceBoardAnswer(many=True)


# -- safety -----------------------------------------------------------------------------------

class RaceOutEntryAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.CharField()
    carrier = serializers.CharField(allow_blank=True)
    members = serializers.ListField(child=serializers.CharField())
    finger = serializers.IntegerField(allow_null=True)


class RaceOutAnswer(serializers.Serializer):
    entry = RaceOutEntryAnswer()
    phone = serializers.CharField(help_text="Given at registration")
    status = RaceStatusAnswer()
    started_at = serializers.DateTimeField(allow_null=True)
    deadline_at = serializers.DateTimeField(allow_null=True)
    overdue_s = serializers.FloatField(help_text="0 until the deadline")
    alert = serializers.BooleanField(help_text="Overdue past the alert option")
    alerted_at = serializers.DateTimeField(allow_null=True)
    lives = serializers.IntegerField(help_text="Lives left")


class RaceSafetyCourseAnswer(serializers.Serializer):
    course = RaceCourseAnswer()
    still_out = serializers.IntegerField()
    overdue = serializers.IntegerField()
    entries = RaceOutAnswer(many=True, help_text="The most overdue first")


class RaceSafetyAnswer(serializers.Serializer):
    event = serializers.IntegerField()
    alert_after_s = serializers.FloatField()
    still_out = serializers.IntegerField(help_text="Racing, or abandoned by phone with the "
                                                   "finger not back yet")
    courses = RaceSafetyCourseAnswer(many=True)
