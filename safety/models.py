"""Real-world safety: calls for help, each phone's last contact and battery, who left the
field, and the event's safety settings. It observes the game; the game never reads it."""
from django.conf import settings
from django.db import models

from players.models import Character, Event


class HelpCall(models.Model):
    """"I need help (real)": a person in the event calls the organisers. It pauses
    nothing. Open, then taken by one organiser ("I'm on it"), then closed with an outcome."""

    INJURED, LOST, UNWELL, OTHER = "injured", "lost", "unwell", "other"
    KINDS = (INJURED, LOST, UNWELL, OTHER)
    OPEN, TAKEN, CLOSED = "open", "taken", "closed"
    STATUSES = (OPEN, TAKEN, CLOSED)
    # How it ended: treated where they were, taken off the field (or to hospital), found
    # (a lost person), nothing was wrong.
    OUTCOMES = ("treated", "evacuated", "found", "false_alarm", "other")
    NOTE_MAX = 500

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="help_calls")
    # The caller's character in this event, if they play one (an organiser may call too).
    character = models.ForeignKey(Character, null=True, blank=True, on_delete=models.CASCADE,
                                  related_name="help_calls")
    caller = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                               on_delete=models.SET_NULL, related_name="+")
    caller_label = models.CharField(max_length=200)
    kind = models.CharField(max_length=20, choices=[(k, k) for k in KINDS])
    note = models.CharField(max_length=NOTE_MAX, blank=True, default="")
    # When the caller tapped (a call sent late from the outbox keeps it), and when it came.
    tapped_at = models.DateTimeField()
    received_at = models.DateTimeField()
    # Where, if the caller's phone gave it: degrees (WGS 84) and the radius in metres.
    latitude = models.FloatField(null=True, blank=True)
    longitude = models.FloatField(null=True, blank=True)
    accuracy_m = models.FloatField(null=True, blank=True)
    status = models.CharField(max_length=10, default=OPEN,
                              choices=[(s, s) for s in STATUSES])
    taken_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="+")
    taken_by_label = models.CharField(max_length=200, blank=True, default="")
    taken_at = models.DateTimeField(null=True, blank=True)
    closed_by_label = models.CharField(max_length=200, blank=True, default="")
    closed_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=20, blank=True, default="")
    outcome_note = models.CharField(max_length=NOTE_MAX, blank=True, default="")

    class Meta:
        indexes = [models.Index(fields=["event", "status"])]


class Contact(models.Model):
    """What the organisers know of a character's phone and person: its last contact (any
    request, the live socket's connect and heartbeat; written at most once a minute), its
    battery where the browser tells it, whether they left the field, and when an organiser
    last marked the row as seen."""

    character = models.OneToOneField(Character, primary_key=True, on_delete=models.CASCADE,
                                     related_name="safety_contact")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    last_seen_at = models.DateTimeField(null=True, blank=True)
    battery_level = models.PositiveSmallIntegerField(null=True, blank=True,
                                                     help_text="Percent, 0 to 100.")
    battery_charging = models.BooleanField(null=True, blank=True)
    battery_at = models.DateTimeField(null=True, blank=True)
    checked_out_at = models.DateTimeField(null=True, blank=True)
    checked_out_by_label = models.CharField(max_length=200, blank=True, default="")
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    acknowledged_by_label = models.CharField(max_length=200, blank=True, default="")
    # A runner's last position while the event tracks its race (SafetySettings.race_tracking):
    # only the latest fix, never a trail. `position_at` is the phone's fix time.
    latitude = models.FloatField(null=True, blank=True)
    longitude = models.FloatField(null=True, blank=True)
    accuracy_m = models.FloatField(null=True, blank=True)
    position_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["event", "last_seen_at"])]


class SafetySettings(models.Model):
    """The event's safety options, set by its organisers."""

    SILENT_AFTER_MIN_DEFAULT = 60
    BATTERY_LOW_DEFAULT = 15

    event = models.OneToOneField(Event, primary_key=True, on_delete=models.CASCADE,
                                 related_name="safety_settings")
    silent_after_min = models.PositiveIntegerField(
        default=SILENT_AFTER_MIN_DEFAULT,
        help_text="Minutes without a word from a phone before the board lists it.")
    battery_low_pct = models.PositiveSmallIntegerField(
        default=BATTERY_LOW_DEFAULT, help_text="At or under this battery level a phone is listed.")
    ends_at = models.DateTimeField(
        null=True, blank=True,
        help_text="The event's end on the field: from then on, who has not checked out is listed.")
    race_tracking = models.BooleanField(
        default=False,
        help_text="Runners' phones share their position with the responders while their race runs.")


class SitePlan(models.Model):
    """The event's site plan: an image of its ground (a map, a drawing, a photo of the
    paper plan) the organisers uploaded, placed by two or three reference points, each
    `{x, y, latitude, longitude}` (pixels from the top left; WGS 84 degrees). Kept in the
    database, so that a deployment needs no file storage, and shown only to organisers.
    Nothing personal: it goes with the event."""

    event = models.OneToOneField(Event, primary_key=True, on_delete=models.CASCADE,
                                 related_name="site_plan")
    image = models.BinaryField()
    content_type = models.CharField(max_length=20)
    digest = models.CharField(max_length=64, help_text="sha256 of the image: its URL's version")
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    points = models.JSONField(default=list, blank=True)
    uploaded_at = models.DateTimeField()
    placed_at = models.DateTimeField(null=True, blank=True)
