"""The admin for an event's organisers: each sees and edits only the rows of the events
they organise (a narrator membership), superusers everything.

Every model admin of the project derives from `OrganisedAdmin` and says how a row reaches
its event (`event_path`, a lookup: `event`, `course__event`...). The list, the change
page, saving and deleting all go through the narrowed queryset, and the choices of a
foreign key list only the organiser's events' rows, so another event's row can neither
be read, nor changed, nor chosen.

`read_only` admins show the game's records (states, punches, sanctions...): those are
written by the services, which journal them and tell the phones; an edit here would do
neither, so nobody edits them here, superusers included.
"""
from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model

from .models import Membership


def organised_event_ids(request) -> frozenset | None:
    """The events the user organises (kept for the request); None for a superuser: all."""
    user = request.user
    if not user.is_active:
        return frozenset()
    if user.is_superuser:
        return None
    if not hasattr(request, "_organised_events"):
        request._organised_events = frozenset(Membership.objects.filter(
            user=user, role=Membership.NARRATOR).values_list("event_id", flat=True))
    return request._organised_events


def admin_site_allows(request) -> bool:
    """Who may open /admin/: staff, and anyone who organises an event (they log in by a
    one-time link, like everyone; the admin then shows them their events only)."""
    user = request.user
    return user.is_active and (user.is_staff or bool(organised_event_ids(request)))


class OrganisersAdminSite(admin.AdminSite):
    site_header = "Organisers"

    def has_permission(self, request):
        return admin_site_allows(request)


def event_path_of(model) -> str | None:
    """The lookup from `model`'s rows to their event, as its admin declares it."""
    found = admin.site._registry.get(model)
    return getattr(found, "event_path", None)


def _is_relation(model, path) -> bool:
    if not isinstance(path, str):
        return False
    for name in path.split("__"):
        field = model._meta.get_field(name)
        model = field.related_model
    return field.is_relation


class _Scoped:
    event_path = "event"
    read_only = False

    def _rows(self, request, queryset):
        ids = organised_event_ids(request)
        if ids is None:
            return queryset
        return queryset.filter(**{f"{self.event_path}__in": ids}).distinct()

    def _allowed(self, request, obj) -> bool:
        from .admin_rulesets import model_needed
        ids = organised_event_ids(request)
        if ids is None:
            return True
        if not ids or not model_needed(self.model, ids):
            return False
        return obj is None or self._rows(request, self.model._default_manager.filter(pk=obj.pk)).exists()

    def has_module_permission(self, request):
        """Shown in the admin's menu only to organisers whose events' rules use it."""
        from .admin_rulesets import model_needed
        ids = organised_event_ids(request)
        if ids is None and request.user.is_superuser:
            ids = frozenset(Membership.objects.filter(user=request.user, role=Membership.NARRATOR)
                            .values_list("event_id", flat=True)) or None
        return (ids is None or bool(ids)) and model_needed(self.model, ids)

    def has_view_permission(self, request, obj=None):
        return self._allowed(request, obj)

    def has_change_permission(self, request, obj=None):
        return not self.read_only and self._allowed(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not self.read_only and self._allowed(request, obj)

    def get_list_filter(self, request):
        """A filter by a related row offers only the rows the list holds: never the name
        of another organiser's event."""
        return [(name, admin.RelatedOnlyFieldListFilter) if _is_relation(self.model, name) else name
                for name in super().get_list_filter(request)]

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        ids = organised_event_ids(request)
        related = db_field.related_model
        if ids is not None:
            path = event_path_of(related)
            if path is not None:
                kwargs["queryset"] = related._default_manager.filter(**{f"{path}__in": ids}).distinct()
            elif related is get_user_model():  # the people of their events (and themselves)
                kwargs["queryset"] = related._default_manager.filter(
                    memberships__event__in=ids).distinct()
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class OrganisedAdmin(_Scoped, admin.ModelAdmin):
    def get_queryset(self, request):
        return self._rows(request, super().get_queryset(request))

    def has_add_permission(self, request):
        return not self.read_only and self._allowed(request, None)


class OrganisedInline(_Scoped):
    """An inline of an organised admin: the parent page already checked the event; its
    rows are the parent's, so the same permissions hold."""

    def get_queryset(self, request):
        return self._rows(request, super().get_queryset(request))

    def has_add_permission(self, request, obj=None):
        return not self.read_only and self._allowed(request, None)


class RecordAdmin(OrganisedAdmin):
    """A game record: listed and read, never edited here (see the module's docstring)."""
    read_only = True

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]
