from django.apps import AppConfig


class ClubConfig(AppConfig):
    name = "club"

    def ready(self):
        from players import privacy

        from club.privacy_selectors import club_export_section, club_personal_strings
        from club.services.privacy import club_event_purge, club_person_erase

        privacy.export_sections.register(club_export_section)
        privacy.personal_strings.register(club_personal_strings)
        privacy.person_erasers.register(club_person_erase)
        privacy.event_purgers.register(club_event_purge)
