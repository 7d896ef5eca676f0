from django.apps import AppConfig


class PushConfig(AppConfig):
    name = "push"
    verbose_name = "Web Push notifications"

    def ready(self):
        from health import observers as health
        from players import observers as players

        from . import hooks

        health.state_recorded.register(hooks.health_recorded)       # queued on commit
        players.clock_resumed.register(hooks.deadline_warnings_resumed)
