"""Django's admin, opened to the organisers of an event for their events only
(players/admin_scope.py). Installed in place of `django.contrib.admin`."""
from django.contrib.admin.apps import AdminConfig


class OrganisersAdminConfig(AdminConfig):
    default_site = "players.admin_scope.OrganisersAdminSite"

    def ready(self):
        super().ready()
        from players.admin_names import admin_names_install
        admin_names_install()
