from django.contrib import admin

from players.admin_scope import RecordAdmin

from .models import Game, GameDay


@admin.register(Game)
class GameAdmin(RecordAdmin):
    """Announced, started and ended from the organisers' screen (schedule/services/games.py)."""
    list_display = ["number", "scenario", "event"]
    list_filter = ["event"]


@admin.register(GameDay)
class GameDayAdmin(RecordAdmin):
    list_display = ["__str__", "event"]
    list_filter = ["event"]
