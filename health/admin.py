from django.contrib import admin

from players.admin_scope import RecordAdmin

from .models import HealthState, Treatment


@admin.register(HealthState)
class HealthStateAdmin(RecordAdmin):
    """Corrected from the narrators' screen, which journals the correction."""
    list_display = ["character", "event", "status", "version"]
    list_filter = ["event", "status"]
    search_fields = ["character__name"]


@admin.register(Treatment)
class TreatmentAdmin(RecordAdmin):
    list_display = ["__str__", "event", "status"]
    list_filter = ["event", "status"]
