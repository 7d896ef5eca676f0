from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import get_language, gettext_noop

from common.i18n import refusal_text, text
from rulesets import RuleRefused, available_rulesets
from rulesets.sheet import sheet_check

from . import access_services
from .admin_scope import OrganisedAdmin, OrganisedInline, RecordAdmin
from .services import membership_grant
from .setup_services import event_settings_check
from .models import (Character, Event, Invitation, JournalEntry, LoginToken, Membership, PhoneReadiness,
                     SetupToken, Team)


class CharacterInline(OrganisedInline, admin.TabularInline):
    model = Character
    fields = ["name", "team", "code", "sheet", "kits"]
    readonly_fields = ["code"]
    extra = 0

    def has_add_permission(self, request, obj=None):
        return False  # a new character needs its account and state: the Character page, an import


class EventForm(forms.ModelForm):
    """The ruleset is one of those installed, the options are the ruleset's own with values
    it allows, as the event form and the API check them (players/setup_services.py)."""

    ruleset = forms.ChoiceField(choices=lambda: [(k, k) for k in sorted(available_rulesets())])
    language = forms.ChoiceField(choices=[("fr", "Français"), ("es", "Español"), ("en", "English")])

    class Meta:
        model = Event
        fields = "__all__"

    def clean(self):
        data = super().clean()
        options = data.get("options")
        if not isinstance(options, dict):
            return data
        try:
            event_settings_check(ruleset=data.get("ruleset") or "", options=options,
                                 language=data.get("language") or "",
                                 time_zone=data.get("time_zone") or "",
                                 display=data.get("display") or "")
        except RuleRefused as refused:
            raise forms.ValidationError(refusal_text(refused, get_language() or "en")) from None
        return data


@admin.register(Event)
class EventAdmin(OrganisedAdmin):
    form = EventForm
    event_path = "pk"
    list_display = ["name", "ruleset", "created_at", "retention_days", "personal_data_purged_at"]
    # Purged once, by the daily task (players/privacy_services.py), never by hand.
    readonly_fields = ["clock_elapsed_s", "clock_running_since", "personal_data_purged_at"]
    inlines = [CharacterInline]

    # An organiser (a staff account) adds events here too; the event is theirs (a
    # membership, as the event form and the API give). Deleting one is for the server's
    # administrators.
    def has_add_permission(self, request):
        return request.user.is_staff

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if not change:
            membership_grant(event=obj, user=request.user, role=Membership.NARRATOR)

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser


# A character's health state, timers (swept on its event's clock), fights, effects, items,
# journal, race entry and login all belong to its event: moving only the character row
# would split it. Nothing moves a character; it is created again in the other event.
MOVE_REFUSED = gettext_noop(
    "A character cannot move to another event: its health, timers, fights, effects, journal and "
    "login belong to {event}. Create it in the other event instead.")
TEAM_MOVE_REFUSED = gettext_noop(
    "A team with characters cannot move to another event: its characters belong to {event}.")


def _moved(form, data) -> bool:
    return (form.instance.pk is not None and data.get("event") is not None
            and data["event"].pk != form.instance.event_id)


class TeamForm(forms.ModelForm):
    def clean(self):
        data = super().clean()
        if _moved(self, data) and self.instance.characters.exists():
            raise forms.ValidationError(text(TEAM_MOVE_REFUSED, (get_language() or "en")[:2],
                                             event=self.instance.event.name))
        return data


class CharacterForm(forms.ModelForm):
    """The sheet is checked as every writer of characters checks it (rulesets/sheet.py); a
    character stays in its event (MOVE_REFUSED)."""

    def clean(self):
        data = super().clean()
        if _moved(self, data):
            raise forms.ValidationError(text(MOVE_REFUSED, (get_language() or "en")[:2],
                                             event=self.instance.event.name))
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
    form = TeamForm
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


@admin.register(PhoneReadiness)
class PhoneReadinessAdmin(RecordAdmin):
    """Written by the phones' self-check only (js/phone_check.js)."""
    event_path = "character__event"
    list_display = ["character", "checked_at", "failing", "battery_level", "clock_offset_ms"]
    list_filter = ["character__event"]


@admin.register(Invitation)
class InvitationAdmin(RecordAdmin):
    """Invitations are made and cancelled on the event's set-up page (/events/<id>/setup/)."""
    list_display = ["event", "role", "created_at", "expires_at", "used_at"]
    list_filter = ["event", "role"]


@admin.register(SetupToken)
class SetupTokenAdmin(RecordAdmin):
    """First-run links (`./run`, `manage.py setup_link`): for the server's administrators."""
    event_path = None
    list_display = ["created_at", "expires_at", "used_at"]

    def get_queryset(self, request):
        queryset = super(OrganisedAdmin, self).get_queryset(request)
        return queryset if request.user.is_superuser else queryset.none()

    def _allowed(self, request, obj) -> bool:
        return request.user.is_superuser

    def has_module_permission(self, request):
        return request.user.is_superuser


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
