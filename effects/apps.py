from django.apps import AppConfig


class EffectsConfig(AppConfig):
    name = "effects"

    def ready(self):
        from health import capabilities, observers
        from live import snapshot_answers, snapshots
        from players import privacy

        from . import answers, snapshot
        from .selectors.load import load_level
        from .selectors.privacy import effects_export_section
        from .services.conflicts import effects_follow_conflict
        from .services.privacy import effects_person_erase

        observers.states_recorded.register(effects_follow_conflict)
        capabilities.load_levels.register(load_level)
        privacy.export_sections.register(effects_export_section)
        privacy.person_erasers.register(effects_person_erase)
        snapshots.snapshot_loader(snapshot.effects_loader)
        snapshots.snapshot_section(snapshot.effects_section)
        snapshots.snapshot_changes_at(snapshot.effects_change_at)
        snapshot_answers.snapshot_answer_part(answers.EffectsSnapshotPart)

        from .models import Effect, Item, OrganiserRequest
        privacy.texts_declare(Effect, scrubbed=("text",), not_personal=("set_state", "catalogue_key"))
        privacy.texts_declare(Item, scrubbed=("name", "tag_text", "secret_text", "effect_text"),
                              not_personal=("code", "kind", "effect_set_state"))
        privacy.texts_declare(OrganiserRequest, scrubbed=("text", "answer"), not_personal=("status",))
