from django.apps import AppConfig


class RaceConfig(AppConfig):
    name = "race"
    verbose_name = "Zombie orienteering race"

    def ready(self):
        from players import privacy

        from .selectors.privacy import race_export_section, race_personal_strings
        from .services.privacy import race_event_purge, race_person_erase

        privacy.export_sections.register(race_export_section)
        privacy.personal_strings.register(race_personal_strings)
        privacy.person_erasers.register(race_person_erase)
        privacy.event_purgers.register(race_event_purge)
