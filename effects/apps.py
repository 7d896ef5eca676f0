from django.apps import AppConfig


class EffectsConfig(AppConfig):
    name = "effects"
