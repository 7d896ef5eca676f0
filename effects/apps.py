from django.apps import AppConfig


class EffectsConfig(AppConfig):
    name = "effects"

    def ready(self):
        from health import observers
        from live import snapshots

        from . import snapshot
        from .services.conflicts import effects_follow_conflict

        observers.state_recorded.register(effects_follow_conflict)
        snapshots.snapshot_queryset(snapshot.effects_queryset)
        snapshots.snapshot_loader(snapshot.effects_loader)
        snapshots.snapshot_section(snapshot.effects_section)
