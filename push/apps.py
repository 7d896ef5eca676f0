from django.apps import AppConfig


class PushConfig(AppConfig):
    name = "push"
    verbose_name = "Web Push notifications"

    def ready(self):
        from health import observers as health
        from players import observers as players
        from players import privacy

        from . import hooks, selectors, services

        health.states_recorded.register(hooks.health_recorded)       # queued on commit
        players.clock_resumed.register(hooks.deadline_warnings_resumed)
        privacy.export_sections.register(selectors.push_export_section)
        privacy.person_erasers.register(services.push_person_erase)

        from .models import PushSubscription, SentWarning
        # The person's own subscriptions: push_person_erase deletes them.
        privacy.texts_declare(PushSubscription, handled=("endpoint", "p256dh", "auth"),
                              not_personal=("last_error",))
        privacy.texts_declare(SentWarning, not_personal=("timer",))
