"""The race in the admin: to read. Courses, balises, entries and what happened on the
night are written by the organisers' screen and the phones (race/services/), which
journal them and keep the leaderboard live; entries come in bulk from a CSV file."""
from django.contrib import admin

from players.admin_scope import RecordAdmin

from .models import Checkpoint, Course, Entry, Infraction, LifeLoss, Punch


@admin.register(Course)
class CourseAdmin(RecordAdmin):
    list_display = ["name", "event"]
    list_filter = ["event"]


@admin.register(Checkpoint)
class CheckpointAdmin(RecordAdmin):
    event_path = "course__event"
    list_display = ["code", "course"]
    list_filter = ["course__event"]


@admin.register(Entry)
class EntryAdmin(RecordAdmin):
    list_display = ["name", "event", "course", "finger", "status"]
    list_filter = ["event", "course", "status"]
    search_fields = ["name"]


for model in (Punch, LifeLoss, Infraction):
    admin.site.register(model, type(f"{model.__name__}Admin", (RecordAdmin,), {
        "event_path": "entry__event", "list_display": ["__str__", "entry"],
        "list_filter": ["entry__event"]}))
