from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import get_language

from common.i18n import refusal_text
from rulesets import RuleRefused
from rulesets.sheet import sheet_check

from . import access_services
from .admin_scope import OrganisedAdmin, OrganisedInline, RecordAdmin
from .models import Character, Event, JournalEntry, LoginToken, Membership, Team


class CharacterInline(OrganisedInline, admin.TabularInline):
    model = Character
    fields = ["name", "team", "code", "sheet", "kits"]
    readonly_fields = ["code"]
    extra = 0

    def has_add_permission(self, request, obj=None):
        return False  # a new character needs its account and state: the Character page, an import


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


class CharacterForm(forms.ModelForm):
    """The sheet is checked as every writer of characters checks it (rulesets/sheet.py)."""

    def clean(self):
        data = super().clean()
        event = data.get("event") or getattr(self.instance, "event", None)
        if event is not None and isinstance(data.get("sheet"), dict) and isinstance(data.get("kits"), dict):
            try:
                sheet_check(event.rules(), data["sheet"], data["kits"])
            except RuleRefused as refused:
                raise forms.ValidationError(refusal_text(refused, get_language() or "en")) from None
        return data


@admin.register(Character)
class CharacterAdmin(OrganisedAdmin):
    form = CharacterForm
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
    """A role given or taken away here goes through the services: journalled, and the
    person's open sockets check their access again (a removed narrator's close)."""
    list_display = ["user", "event", "role"]
    list_filter = ["event", "role"]

    def save_model(self, request, obj, form, change):
        access_services.membership_store(membership=obj, by=request.user)

    def delete_model(self, request, obj):
        access_services.membership_remove(membership=obj, by=request.user)

    def delete_queryset(self, request, queryset):
        for membership in queryset.select_related("event", "user"):
            access_services.membership_remove(membership=membership, by=request.user)


@admin.register(LoginToken)
class LoginTokenAdmin(RecordAdmin):
    """Only hashes: a lost link is reissued from the narrators' screen."""
    list_display = ["user", "event", "created_at", "expires_at", "used_at"]
    list_filter = ["event"]


@admin.register(JournalEntry)
class JournalAdmin(RecordAdmin):
    list_display = ["id", "event", "at", "game_s", "actor_label", "kind", "what", "character"]
    list_filter = ["event", "kind"]


# The server administrators' page of an account: an account deactivated (or its rights
# taken away) there also closes its open sockets (players/access_services.py).
User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class AccountAdmin(UserAdmin):
    def save_model(self, request, obj, form, change):
        if not change:
            super().save_model(request, obj, form, change)
            return
        access_services.account_store(user=obj, by=request.user)
