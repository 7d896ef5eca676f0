from django.contrib import admin

from .admin_scope import OrganisedAdmin, OrganisedInline, RecordAdmin
from .models import Character, Event, JournalEntry, LoginToken, Membership, Team


class CharacterInline(OrganisedInline, admin.TabularInline):
    model = Character
    fields = ["name", "team", "code", "sheet", "kits"]
    readonly_fields = ["code"]
    extra = 0


@admin.register(Event)
class EventAdmin(OrganisedAdmin):
    event_path = "pk"
    list_display = ["name", "ruleset", "created_at", "retention_days", "personal_data_purged_at"]
    # Purged once, by the daily task (players/privacy_services.py), never by hand.
    readonly_fields = ["clock_elapsed_s", "clock_running_since", "personal_data_purged_at"]
    inlines = [CharacterInline]

    # An organiser's events are made with their membership (the API, event_create): one made
    # here would belong to nobody; and deleting an event is for the server's administrators.
    def has_add_permission(self, request):
        return request.user.is_superuser

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser


@admin.register(Character)
class CharacterAdmin(OrganisedAdmin):
    list_display = ["name", "event", "team", "code"]
    list_filter = ["event", "team"]
    search_fields = ["name", "code"]
    readonly_fields = ["code", "user"]

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            return
        # A new character also needs its player account and initial health: the service does it.
        from .services import character_create
        created = character_create(event=obj.event, name=obj.name, sheet=obj.sheet, kits=obj.kits,
                                   team=obj.team, by=request.user)
        obj.pk, obj.code, obj.user = created.pk, created.code, created.user


@admin.register(Team)
class TeamAdmin(OrganisedAdmin):
    list_display = ["name", "event"]
    list_filter = ["event"]


@admin.register(Membership)
class MembershipAdmin(OrganisedAdmin):
    list_display = ["user", "event", "role"]
    list_filter = ["event", "role"]


@admin.register(LoginToken)
class LoginTokenAdmin(RecordAdmin):
    """Only hashes: a lost link is reissued from the narrators' screen."""
    list_display = ["user", "event", "created_at", "expires_at", "used_at"]
    list_filter = ["event"]


@admin.register(JournalEntry)
class JournalAdmin(RecordAdmin):
    list_display = ["id", "event", "at", "game_s", "actor_label", "kind", "what", "character"]
    list_filter = ["event", "kind"]
