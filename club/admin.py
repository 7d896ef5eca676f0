from django.contrib import admin

from players.admin_scope import OrganisedAdmin, OrganisedInline, RecordAdmin

from .models import CheckIn, ChronyCheck, Club, ClubEvent, Member, Replica, Sanction


class ClubEventInline(OrganisedInline, admin.TabularInline):
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
class ClubAdmin(OrganisedAdmin):
    """To rename a club (a new event's own club is named after the event). Clubs are made
    by their first member's desk."""

    event_path = "event_links__event"   # the clubs of an organiser's events
    list_display = ["name", "created_at"]
    fields = ["name"]
    inlines = [ClubEventInline]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ClubEvent)
class ClubEventAdmin(RecordAdmin):
    list_display = ["club", "event", "attached_at"]


@admin.register(Member)
class MemberAdmin(RecordAdmin):
    """The club's register: a member is registered, checked in and sanctioned at the desk
    (club/services/), which journals it."""
    event_path = "club__event_links__event"
    list_display = ["name", "club", "licence_number"]
    search_fields = ["name", "licence_number"]


for model in (CheckIn, Replica):
    admin.site.register(model, type(f"{model.__name__}Admin", (RecordAdmin,), {
        "list_display": ["__str__", "event"], "list_filter": ["event"]}))


@admin.register(Sanction)
class SanctionAdmin(RecordAdmin):
    """The register's lines, by kind and by category: a repeat names the earlier one."""
    list_display = ["__str__", "event", "kind", "category", "repeat_of"]
    list_filter = ["event", "kind", "category"]


@admin.register(ChronyCheck)
class ChronyCheckAdmin(RecordAdmin):
    event_path = "replica__event"
    list_display = ["__str__", "replica"]
