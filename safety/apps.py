from django.apps import AppConfig


class SafetyConfig(AppConfig):
    name = "safety"
    verbose_name = "Real-world safety"

    def ready(self):
        from live import observers as live
        from players import privacy

        from . import contact, privacy as own

        live.phone_seen.register(contact.phone_seen)
        privacy.export_sections.register(own.safety_export_section)
        privacy.person_erasers.register(own.safety_person_erase)
        privacy.event_purgers.register(own.safety_event_purge)
