from django.contrib import admin

from players.admin_scope import RecordAdmin

from .models import Acharnement, Duel, Heal, Union, UnionMember

for model in (Duel, Union, Acharnement, Heal):
    admin.site.register(model, type(f"{model.__name__}Admin", (RecordAdmin,), {
        "list_display": ["__str__", "event"], "list_filter": ["event"]}))


@admin.register(UnionMember)
class UnionMemberAdmin(RecordAdmin):
    event_path = "union__event"
    list_display = ["__str__", "union"]
