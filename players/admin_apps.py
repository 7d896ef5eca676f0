"""Django's admin, opened to the organisers of an event for their events only
(players/admin_scope.py). Installed in place of `django.contrib.admin`."""
from django.contrib.admin.apps import AdminConfig


class OrganisersAdminConfig(AdminConfig):
    default_site = "players.admin_scope.OrganisersAdminSite"
