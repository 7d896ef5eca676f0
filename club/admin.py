from django.contrib import admin

from .models import Club, ClubEvent


class ClubEventInline(admin.TabularInline):
    """Shown, not edited: an event joins a club through club_event_attach, which checks
    that whoever attaches it organises both."""

    model = ClubEvent
    fields = ["event", "attached_by", "attached_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """To rename a club (a new event's own club is named after the event). Clubs are made
    by their first member's desk."""

    list_display = ["name", "created_at"]
    fields = ["name"]
    inlines = [ClubEventInline]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
