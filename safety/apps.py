from django.apps import AppConfig


class SafetyConfig(AppConfig):
    name = "safety"
    verbose_name = "Real-world safety"

    def ready(self):
        from live import observers as live
        from players import privacy

        from . import contact, privacy as own
        from .models import Contact, HelpCall, SitePlan

        live.phones_seen.register(contact.phones_seen)
        privacy.export_sections.register(own.safety_export_section)
        privacy.person_erasers.register(own.safety_person_erase)
        privacy.event_purgers.register(own.safety_event_purge)
        # Every text column, for erasures (players/privacy.py): a caller's own calls go with
        # them (safety_person_erase); what names someone else is scrubbed like other free text.
        privacy.texts_declare(HelpCall, handled=("caller_label",),
                              scrubbed=("note", "outcome_note", "taken_by_label", "closed_by_label"),
                              not_personal=("kind", "status", "outcome"))
        privacy.texts_declare(Contact, scrubbed=("checked_out_by_label", "acknowledged_by_label"))
        # The site plan is the event's ground, nobody's data; it goes with the event.
        privacy.texts_declare(SitePlan, not_personal=("content_type", "digest", "points"))
