from django.contrib import admin

from .models import Item


@admin.register(Item)
class ItemAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "code", "event", "single_use", "used_by", "holder"]
    list_filter = ["event", "kind"]
    search_fields = ["name", "code"]
    readonly_fields = ["code", "used_by", "used_game_s", "created_by", "created_at"]
