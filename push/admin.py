from django.contrib import admin

from players.admin_scope import RecordAdmin

from .models import PushSubscription, SentWarning


@admin.register(PushSubscription)
class PushSubscriptionAdmin(RecordAdmin):
    """A phone's push address belongs to a person, not to an event: superusers only."""
    event_path = "user__memberships__event"
    list_display = ["user", "created_at"]

    def has_module_permission(self, request):
        return request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_superuser


@admin.register(SentWarning)
class SentWarningAdmin(RecordAdmin):
    event_path = "character__event"
    list_display = ["__str__", "character"]
