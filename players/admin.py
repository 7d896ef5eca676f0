from django.contrib import admin

from .models import Character, Event, JournalEntry, Membership, Team


class CharacterInline(admin.TabularInline):
    model = Character
    fields = ["name", "team", "code", "sheet", "kits"]
    readonly_fields = ["code"]
    extra = 0


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "ruleset", "created_at", "retention_days", "personal_data_purged_at"]
    # Purged once, by the daily task (players/privacy_services.py), never by hand.
    readonly_fields = ["clock_elapsed_s", "clock_running_since", "personal_data_purged_at"]
    inlines = [CharacterInline]


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
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


admin.site.register(Team)
admin.site.register(Membership)


@admin.register(JournalEntry)
class JournalAdmin(admin.ModelAdmin):
    list_display = ["id", "event", "at", "game_s", "actor_label", "kind", "what", "character"]
    list_filter = ["event", "kind"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
