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

        from .models import Checkpoint, Course, Entry, Infraction, LifeLoss, Punch
        privacy.texts_declare(Course, not_personal=("name", "classes"))   # matched to the race's durations
        privacy.texts_declare(Checkpoint, scrubbed=("name",), event="course__event_id",
                              not_personal=("code", "qr"))
        # An entry's own people: race_person_erase replaces them.
        privacy.texts_declare(Entry, scrubbed=("end_reason",), handled=("name", "members", "carrier", "phone", "club"),
                              not_personal=("kind", "gear", "status"))
        privacy.texts_declare(Punch, not_personal=("source", "not_counted"))
        privacy.texts_declare(LifeLoss, scrubbed=("note", "void_reason", "confirmations", "review"),
                              event="entry__event_id", not_personal=("cause",))
        privacy.texts_declare(Infraction, scrubbed=("note",), event="entry__event_id", not_personal=("kind",))
