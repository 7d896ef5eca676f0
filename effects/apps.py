from django.apps import AppConfig


class EffectsConfig(AppConfig):
    name = "effects"

    def ready(self):
        from live import snapshots

        from . import snapshot

        snapshots.snapshot_queryset(snapshot.effects_queryset)
        snapshots.snapshot_loader(snapshot.effects_loader)
        snapshots.snapshot_section(snapshot.effects_section)
