from django.contrib import admin

from players.admin_scope import OrganisedAdmin, RecordAdmin

from .models import Effect, Item, OrganiserRequest


@admin.register(Item)
class ItemAdmin(OrganisedAdmin):
    list_display = ["name", "kind", "code", "event", "single_use", "used_by", "holder", "closed"]
    list_filter = ["event", "kind"]
    search_fields = ["name", "code"]
    readonly_fields = ["code", "used_by", "used_game_s", "created_by", "created_at"]


@admin.register(OrganiserRequest)
class OrganiserRequestAdmin(OrganisedAdmin):
    """Answer from the narrators' screen or the API: that pushes the effect to the player;
    saving an answer here would not."""
    list_display = ["character", "text", "status", "created_at", "answered_by"]
    list_filter = ["event", "status"]
    search_fields = ["text", "character__name"]
    readonly_fields = ["event", "character", "text", "created_game_s", "created_at", "status",
                       "answer", "answered_by", "answered_game_s", "effect"]

    def has_add_permission(self, request) -> bool:
        return False  # players ask from their phones


@admin.register(Effect)
class EffectAdmin(RecordAdmin):
    """Pushed and removed from the narrators' screen, which tells the phones."""
    list_display = ["__str__", "event", "character"]
    list_filter = ["event"]
