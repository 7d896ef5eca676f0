from django.apps import AppConfig


class HealthConfig(AppConfig):
    name = "health"

    def ready(self):
        from live import snapshot_answers, snapshots
        from players import observers as players

        from . import answers, scheduling, selectors, services, snapshot

        snapshots.snapshot_queryset(snapshot.health_queryset)
        snapshots.snapshot_section(snapshot.health_section)
        snapshots.snapshot_loader(snapshot.treatments_loader)
        snapshots.snapshot_section(snapshot.treatments_section)
        snapshots.snapshot_changes_at(snapshot.health_change_at)
        snapshots.snapshot_versions(selectors.snapshot_versions_of)
        snapshot_answers.snapshot_answer_part(answers.HealthSnapshotPart)
        snapshot_answers.snapshot_answer_part(answers.TreatmentsSnapshotPart)
        players.characters_created.register(services.health_initialise)
        players.characters_changed.register(services.snapshots_changed)
        players.clock_resumed.register(scheduling.event_deadlines_queue_on_commit)

        from players import privacy

        from .models import HealthState, Treatment
        privacy.texts_declare(HealthState, not_personal=("status", "timers", "values", "held_timers"),
                              scrubbed=("held_reason",), event="character__event_id")
        privacy.texts_declare(Treatment, not_personal=("action", "level", "params", "status", "result"))
