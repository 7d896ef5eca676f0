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

        from club.models import ChronyCheck, Club, Member, Replica, Sanction
        privacy.texts_declare(Club, not_personal=("name",))
        # A member's own identity: club_person_erase replaces it.
        privacy.texts_declare(Member, handled=("name", "nickname", "phone", "email", "licence_number"))
        privacy.texts_declare(Sanction, scrubbed=("reason", "revoked_reason"), event=None,
                              not_personal=("level", "kind", "escalated_from", "category"))
        privacy.texts_declare(Replica, scrubbed=("label",), event=None, not_personal=("type", "code"))
        privacy.texts_declare(ChronyCheck, not_personal=("kind", "reasons", "limits"))
