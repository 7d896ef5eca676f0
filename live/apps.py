from django.apps import AppConfig


class LiveConfig(AppConfig):
    verbose_name = "Live updates to phones"
    name = "live"

    def ready(self):
        from players import observers as players

        from . import publish

        players.phone_readiness_reported.register(publish.phone_readiness_publish_on_commit)
        # Access taken away (a lost phone, a role, an erasure): open sockets check again.
        players.access_revoked.register(publish.access_check_on_commit)
